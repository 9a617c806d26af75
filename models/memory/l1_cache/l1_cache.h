/* l1_cache: a core's L1 data cache. Write-through, no write-allocate,
 * evict-on-write-hit (GPGPU-Sim's policy for global data), allocate-on-read-
 * miss, LRU, sectored, with MSHRs; global reads can bypass it (the TM
 * configurations). Built on the shared cache_engine. */
#ifndef SIMTX_L1_CACHE_H
#define SIMTX_L1_CACHE_H

#include "simtx_block.h"

typedef struct l1_cache_params {
    int64_t size, line_size, associativity, sectors;
    int64_t mshr_entries, mshr_max_merge, hit_latency, access_latency;
    int64_t input_queue_depth, miss_queue_depth, miss_latency, response_queue_depth, pending_entries;
    bool cache_global;   /* false: reads of the global window go to L2 uncached */
    int64_t global_base; /* the global window */
    int64_t global_size; /* 0: the whole address space */
} l1_cache_params;

extern const simtx_block_info l1_cache_block_info;

#endif
