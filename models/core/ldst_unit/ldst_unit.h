/* ldst_unit: a SIMT core's LD/ST unit for the global and persistent windows
 * as a block of its own: takes the core's ldst.h requests (per-lane
 * addresses and data), checks the lanes, coalesces them into mem.h requests
 * to the L1 and gathers the responses into the lanes' values; passes the
 * lazy TM protocol through unchanged (models/protocols/ldst.h). */
#ifndef SIMTX_LDST_UNIT_H
#define SIMTX_LDST_UNIT_H

#include "simtx_block.h"

typedef struct ldst_unit_params {
    int64_t segment_size;       /* coalescing segment (a power of two) */
    int64_t sector_size;        /* a request covers the touched sectors of its segment */
    int64_t request_queue;      /* mem.h requests waiting for the memory socket */
    int64_t max_in_flight;      /* ldst.h requests held, first beat to last response */
    int64_t global_base, global_size;         /* the windows lanes may access */
    int64_t persistent_base, persistent_size;
} ldst_unit_params;

extern const simtx_block_info ldst_unit_block_info;

#endif
