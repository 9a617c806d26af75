/* memory: a simple memory target with a fixed access latency, a data-bus
 * bandwidth and a bounded request queue, holding real data. */
#ifndef SIMTX_MEMORY_H
#define SIMTX_MEMORY_H

#include "simtx_block.h"

typedef struct memory_params {
    int64_t latency;        /* cycles from service start to response */
    int64_t bytes_per_cycle;/* data-bus width; 0: unlimited */
    int64_t queue_depth;    /* requests accepted but not yet answered */
    int64_t base;           /* first address served */
    int64_t size;           /* bytes served from base */
} memory_params;

extern const simtx_block_info memory_block_info;

typedef struct memory memory;
/* Zero-time access for tests; returns false outside the served range. */
bool memory_peek(memory *m, uint64_t address, void *data, size_t size);

#endif
