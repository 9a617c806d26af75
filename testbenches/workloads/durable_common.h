/* What the durable workloads (pm_*.c) share: their options (persist, broken,
 * tx_per_cta), the launch that may end in an injected power failure, the
 * recovery (runtime/durable_recovery.h) and the crash checker's verdict. A
 * CTA runs tx_per_cta transactions in turn, transaction r on its unit of
 * outputs CTA * tx_per_cta + r (kernels/durable_args.h):
 * - all-or-nothing: after recovery every unit's outputs in the durable
 *   image all hold their values from before its transaction or all from
 *   after it;
 * - nothing lost: a CTA's committed transactions are a prefix (no unit with
 *   new outputs after one without), and a CTA whose state the failure left
 *   COMPLETE has committed its first transaction (with one transaction per
 *   CTA: all its outputs new).
 * Without a failure the durable image must have every CTA COMPLETE with all
 * its outputs new (every persist reached the persistent domain). */
#ifndef SIMTX_DURABLE_COMMON_H
#define SIMTX_DURABLE_COMMON_H

#include "durable_recovery.h"
#include "host_common.h"
#include "kernels/durable_args.h"

typedef struct durable_run {
    const char *name;      /* the workload's */
    uint32_t path;         /* GPU_PERSIST_* from option persist (none, nt, clwb; default nt) */
    const char *path_name;
    const char *broken;    /* option broken: none, no_sfence, data_before_log or reused_log (a deliberately broken runtime) */
    char kernel[1024];     /* the ELF: <base>_<opt>.elf, or <base>_<broken>_O2.elf */
    gpu_durable_region region;
    uint32_t ctas;
    uint32_t tx_per_cta;   /* option tx_per_cta (default 1): transactions per CTA, one unit of outputs each */
    bool crashed;          /* a power failure stopped the launch */
} durable_run;

/* Outputs of one unit (a CTA's transaction) as the recovered durable image holds them. */
typedef struct durable_tally {
    uint32_t outputs;    /* words the transaction writes */
    uint32_t new_values; /* of them, holding their value after the transaction */
    uint32_t old_values; /* holding their value before it (a word whose value does not change counts in both) */
} durable_tally;

/* Reads the options; 1 (bad input reported) on a bad value. */
int durable_options(workload_context *context, const char *name, durable_run *run);
/* The log and state words for ctas CTAs of threads threads, entries each (nothing with persist=none). */
bool durable_prepare(gpu_device *device, durable_run *run, uint32_t ctas, uint32_t threads, uint32_t entries);
/* Runs the launch: true when it finished or a power failure stopped it (run->crashed). */
bool durable_synchronize(gpu_device *device, durable_run *run);
/* After a failure, the recovery; states receives each CTA's state as the failure left it. */
int durable_recover(gpu_device *device, workload_context *context, durable_run *run, uint8_t *states, gpu_durable_recovery *report);
/* The verdict over every unit's tally (ctas * tx_per_cta of them; returns 0 or the failure); prints one summary line. */
int durable_verdict(workload_context *context, const durable_run *run, const uint8_t *states, const durable_tally *tally,
                    const gpu_durable_recovery *report);
/* Tallies count output words: durable[i] against before[i] and after[i], written by unit owner[i]. */
void durable_tally_words(durable_tally *tally, const uint32_t *durable, const uint32_t *before, const uint32_t *after,
                         const uint32_t *owner, size_t count);
/* The whole check for outputs that are count words at address: recovery,
 * tallies, verdict (nothing on a platform without a durable image). */
int durable_check_words(gpu_device *device, workload_context *context, durable_run *run, uint32_t address, const uint32_t *before,
                        const uint32_t *after, const uint32_t *owner, size_t count);

/* Outputs that several transactions of a unit's in turn update (a row walked
 * in chunks, each chunk a transaction logging the word again): word i holds
 * values[k * count + i] after the k-th of its steps transactions (k = 0:
 * before the first); the k-th is unit owner[i] * steps + k, so run->tx_per_cta
 * counts units of one step each. A word holding the value of step m is new
 * for the units before m and old for the others (a value several steps share
 * counts where either would). */
void durable_tally_steps(durable_tally *tally, const uint32_t *durable, const uint32_t *values, uint32_t steps, const uint32_t *owner,
                         size_t count);
/* durable_check_words for such outputs. */
int durable_check_steps(gpu_device *device, workload_context *context, durable_run *run, uint32_t address, const uint32_t *values,
                        uint32_t steps, const uint32_t *owner, size_t count);

/* One launch of a durable workload that runs several (ATAX's two kernels, a
 * BFS level, a Pathfinder row), on a log region of its own, its outputs
 * count words at output (what the launch may write), named what in messages. */
typedef struct durable_launch {
    const char *kernel;   /* its name in the module */
    gpu_dim3 grid, block; /* the region's CTAs and threads follow from them */
    void *args;           /* its argument block, which starts with a durable_args_head (filled here) */
    size_t args_size;
    uint32_t shared_bytes;
    uint32_t entries;     /* log entries per thread */
    const char *what;
    uint32_t output;
    const uint32_t *before, *after, *owner; /* each word before and after the launch, the unit (CTA) writing it */
    size_t count;
    bool last;            /* the workload's last launch: prints the durable image's line (the others print only on a failure) */
    uint32_t steps;       /* 0 or 1: one transaction per unit; more: each unit's words updated by steps transactions in turn,
                           * before the values after each (durable_tally_steps), after = before + steps * count */
} durable_launch;

/* Runs the launch: the outputs in device memory against after (on a
 * crash-free run) and the durable image (durable_check_words) checked.
 * Returns 0 or the failure; *crashed when a power failure stopped it (the
 * workload then stops: no later launch). */
int durable_launch_run(gpu_device *device, workload_context *context, const durable_run *run, gpu_module *module,
                       durable_launch *launch, bool *crashed);

#endif
