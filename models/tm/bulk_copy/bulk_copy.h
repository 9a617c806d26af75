/* bulk_copy: SI-TM's Bulk In-Memory Copy Unit of one memory partition
 * (ISCA'17 §5, Figure 12 step 4): it turns its VIT slice's VERSION_COPY
 * into one RowClone ROW_COPY per DRAM row of the version in this partition,
 * issued through the L2 (which writes the source rows' dirty lines back and
 * drops the destination rows' lines first), at most copy_queue_depth in flight; every
 * other request passes through (models/protocols/version.h). */
#ifndef SIMTX_BULK_COPY_H
#define SIMTX_BULK_COPY_H

#include "simtx_block.h"

typedef struct bulk_copy_params {
    int64_t partition;            /* this partition's index */
    int64_t partition_count;      /* partitions the addresses are interleaved over */
    int64_t partition_interleave; /* bytes per partition chunk */
    int64_t row_column_bits;      /* partition-local bits varying within a DRAM row */
    int64_t row_bytes;            /* the size field of each ROW_COPY (the DRAM's row) */
    int64_t copy_queue_depth;     /* ROW_COPYs in flight */
    int64_t queue_depth;          /* messages waiting in each direction */
    int64_t max_rows;             /* rows of one version in this partition */
} bulk_copy_params;

extern const simtx_block_info bulk_copy_block_info;

#endif
