/* sitm_cc: SI-TM's concurrency control as a block (ISCA'17 §4-5): the
 * Writer Table, the Scalable Reader List and the logical timestamp table in
 * one place, serving protocols/sitm.h, in line in partition 0's before_l2
 * chain (everything else passes through). */
#ifndef SIMTX_SITM_CC_H
#define SIMTX_SITM_CC_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sitm_cc_params {
    int64_t wt_entries, wt_ways;   /* Writer Table (Table 1: 3000 entries, 15 KB) */
    int64_t srl_bytes, srl_ways;   /* Scalable Reader List (Table 1: 740 KB of 69-bit entries) */
    int64_t ids;                   /* transaction IDs (1024) */
    int64_t timestamp_bits, delta; /* the timestamp table (24 bits, delta 10) */
    int64_t latency;               /* cycles from service to response */
    int64_t entries_per_cycle;     /* table accesses per cycle */
    int64_t edges_per_cycle;       /* post-datings per cycle */
    int64_t queue_depth;
    char *loops;                   /* loop detection: postdate (SITM_TS) or exact (SITM_Oracle) */
} sitm_cc_params;

extern const simtx_block_info sitm_cc_block_info;

#ifdef __cplusplus
}
#endif
#endif
