/* GPU-LocalTM end to end (platforms/si_localtm.lua), two small kernels.
 *
 * localtm_table1: the paper's Table 1 (Figure 2's if/else inside a
 * transaction) on wavefronts of 4 work-items (--define lanes=4, a CTA of 8):
 * WI0 and WI1 take the "if" leg and write words 0 and 1; WI2 and WI3 take
 * the "else" leg and update words 2 and 3, which WI4 (the next wavefront)
 * read in a transaction it keeps open until the "else" leg's fifth attempt
 * of a lane, i.e. until the wavefront serialised (global flags order the
 * two; global accesses inside a LocalTM transaction are plain). Expected:
 * attempts 1 and 2 abort WI2 and WI3, attempt 3 runs WI2 alone (wavefront
 * serialisation), attempt 4 runs WI3.
 *
 * localtm_counter: every thread adds 1 to word 0 in a transaction and keeps
 * the value it read: all conflict, so wavefronts and the work-group
 * serialise; the values read must be a permutation of 0..n-1.
 *
 * localtm_outside: a transactional store to a backup word (beyond the
 * region's data words): the run must fail naming lane and pc. */
#include "gpu.h"
#include "gpu_localtm.h"
#include "localtm_basic_args.h"

GPU_LOCALTM_REGION(localtm_words, LOCALTM_BASIC_WORDS);

GPU_KERNEL void localtm_table1(const struct localtm_basic_args *args)
{
    volatile uint32_t *flags = (volatile uint32_t *)args->flags;
    uint32_t *out = (uint32_t *)args->out;
    volatile uint32_t *words = localtm_words;
    uint32_t t = gpu_thread_x();
    if (t == 4) {
        gpu_tx_begin();
        uint32_t seen = words[2] + words[3];
        flags[0] = 1;
        while (flags[1] < 5) {
        }
        gpu_tx_commit();
        flags[2] = 1;
        out[4] = seen;
    } else if (t < 4) {
        while (!flags[0]) {
        }
        uint32_t v1 = t, v2 = 2;
        gpu_tx_begin();
        if (v1 < v2) {
            words[t] = 10 + t;
        } else {
            uint32_t attempt = gpu_atomic_add((volatile uint32_t *)&flags[1], 1);
            if (attempt >= 4)
                while (!flags[2]) {
                }
            words[t] = words[t] + 10 + t;
        }
        gpu_tx_commit();
        out[t] = words[t];
    }
}

GPU_KERNEL void localtm_outside(const struct localtm_basic_args *args)
{
    (void)args;
    volatile uint32_t *words = localtm_words;
    gpu_tx_begin();
    words[LOCALTM_BASIC_WORDS + gpu_thread_x()] = 1;
    gpu_tx_commit();
}

GPU_KERNEL void localtm_counter(const struct localtm_basic_args *args)
{
    uint32_t t = gpu_thread_x();
    volatile uint32_t *words = localtm_words;
    uint32_t seen;
    gpu_tx_begin();
    seen = words[0];
    words[0] = seen + 1;
    gpu_tx_commit();
    ((uint32_t *)args->out)[t] = seen;
    gpu_sync_threads();
    if (t == 0) ((uint32_t *)args->out)[args->n] = words[0];
}
