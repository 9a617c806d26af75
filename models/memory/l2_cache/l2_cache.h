/* l2_cache: one L2 slice of a memory partition, in front of its DRAM
 * controller. Write-back, write-allocate, LRU, sectored, with MSHRs; executes
 * global atomics on its lines (Fermi's ROP units) unless told to forward
 * them. Built on the shared cache_engine. */
#ifndef SIMTX_L2_CACHE_H
#define SIMTX_L2_CACHE_H

#include "simtx_block.h"

typedef struct l2_cache_params {
    int64_t size, line_size, associativity, sectors;
    int64_t mshr_entries, mshr_max_merge, hit_latency, access_latency;
    int64_t input_queue_depth, miss_queue_depth, miss_latency, response_queue_depth, pending_entries;
    char *atomics;                /* execute | forward */
    int64_t atomic_latency;
    int64_t partition_count;      /* partitions the addresses are interleaved over */
    int64_t partition_interleave; /* bytes per partition chunk */
    int64_t row_copy_column_bits; /* partition-local bits varying within a DRAM row (ROW_COPY acts on the whole row) */
} l2_cache_params;

extern const simtx_block_info l2_cache_block_info;

#endif
