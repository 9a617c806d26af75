/* row_copy_initiator: a small test initiator that issues SIMTX_OP_ROW_COPY
 * operations at a fixed period, one at a time, so that platforms can show an
 * in-DRAM copy next to ordinary traffic. */
#ifndef SIMTX_ROW_COPY_INITIATOR_H
#define SIMTX_ROW_COPY_INITIATOR_H

#include "simtx_block.h"

typedef struct row_copy_initiator_params {
    int64_t copies;         /* operations to issue */
    int64_t start_cycle;    /* first issue */
    int64_t period;         /* cycles from one issue to the next (at least until the previous completes) */
    int64_t source_address; /* first copy's source */
    int64_t target_address; /* first copy's destination */
    int64_t stride;         /* added to both addresses for each further copy */
    int64_t copy_bytes;     /* size field of each operation */
} row_copy_initiator_params;

extern const simtx_block_info row_copy_initiator_block_info;

#endif
