/* agpm_selector: the AGPM paper's per-SM path selector (Figure 6), between
 * a core's ldst_unit (after coalescing) and its L1. It chooses the path of
 * every log update (a mem.h WRITE flagged SIMTX_FLAG_PM_LOG) by its policy
 * slot, rewrites the access sequence accordingly and passes everything
 * else on unchanged:
 *   non-temporal: the write goes on flagged NON_TEMPORAL (the caches drop
 *     their copies and pass it to the NVM controller's WPQ); answered when
 *     acknowledged (durable);
 *   temporal: the write goes on without NON_TEMPORAL (L1 write-evict, L2
 *     write-back), then, once acknowledged, a CLEAN_LINE of its line (the
 *     "clwb-like operation" NT->T adds); answered when the clean is; one
 *     clean per line: a write acknowledged while a later write of its warp
 *     to the line is not yet acknowledged, or an entry's first word
 *     (PM_LOG_NAMES, entry_window cycles), waits for that line's next clean;
 * and a write the policy sends non-temporal although the kernel follows it
 * with a clwb (pmem_spec's data) has that clwb dropped: answered at once
 * (T->NT drops the clwb). Each log update's wait (arrival to durable
 * acknowledgement) goes to the tracker for CWPPR (models/protocols/agpm.h). */
#ifndef SIMTX_AGPM_SELECTOR_H
#define SIMTX_AGPM_SELECTOR_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct agpm_selector_params {
    char *policy;             /* nt | clwb | agpm | themis | pmem_spec | bucl */
    char *initial_path;       /* nt | temporal: before the first decision */
    int64_t core;             /* the SM it serves (in its reports) */
    int64_t in_flight;        /* log updates waiting for their acknowledgement */
    int64_t queue_depth;      /* messages waiting in each direction */
    int64_t bucl_degree;      /* bucl: non-temporal above this many requests per access */
    int64_t persistent_base;  /* the persistent window (pmem_spec's data writes) */
    int64_t persistent_size;
    int64_t entry_window;     /* cycles an entry's first word waits for more of its line */
    int64_t line_size;        /* the L1 line a CLEAN_LINE names */
} agpm_selector_params;

extern const simtx_block_info agpm_selector_block_info;

#ifdef __cplusplus
}
#endif
#endif
