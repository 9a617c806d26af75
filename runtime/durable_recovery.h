/* Host side of CTA-level durable transactions (runtime/kernel/gpu_durable.h;
 * installed as <simtx/durable_recovery.h> for host plugins, docs/sdk.md):
 * the persistent log and state words of a launch, and the recovery after a
 * power failure, which works on the durable image alone
 * (gpu_copy_from_durable / gpu_copy_to_durable). */
#ifndef SIMTX_DURABLE_RECOVERY_H
#define SIMTX_DURABLE_RECOVERY_H

#include <stdbool.h>
#include <stdint.h>

#include "host_api.h"
#include "gpu_durable_layout.h" /* runtime/kernel/ in the tree; beside this header when installed */

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates the log (entries per thread, threads per CTA, ctas) and the
 * state words in the persistent window and zeroes both (every CTA IDLE, no
 * entry used). False with gpu_last_error on failure. */
bool gpu_durable_region_create(gpu_device *device, uint32_t ctas, uint32_t threads, uint32_t entries, gpu_durable_region *region);

typedef struct gpu_durable_recovery {
    uint32_t idle;          /* CTAs whose transaction never began (or its log never became durable) */
    uint32_t rolled_back;   /* CTAs found IN_TX: their logged words restored, their state IDLE */
    uint32_t complete;      /* CTAs found COMPLETE */
    uint32_t entries_undone; /* log entries written back */
    uint32_t bad_entries;   /* entries of an IN_TX CTA naming an address outside the persistent window (skipped) */
    uint32_t bad_states;    /* CTAs whose state word holds no valid state (left as they are) */
} gpu_durable_recovery;

/* The recovery after a power failure: rolls back every CTA whose state in
 * the durable image is IN_TX (each thread's log entries up to the first with
 * address 0 written back, newest first, so a word logged twice gets its
 * oldest value), then sets its state IDLE.
 * states (ctas entries, may be NULL) receives each CTA's state as the
 * failure left it. False with gpu_last_error when the image cannot be read
 * or written. */
bool gpu_durable_recover(gpu_device *device, const gpu_durable_region *region, uint32_t ctas, uint8_t *states,
                         gpu_durable_recovery *report);

#ifdef __cplusplus
}
#endif
#endif
