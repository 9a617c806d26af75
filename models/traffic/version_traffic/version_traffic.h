/* version_traffic: a test initiator of versioned memory (SI-TM's VIT slices,
 * models/protocols/version.h) standing in for the TM side until snapshot
 * reads run end to end: rounds of ACQUIRE at every partition, snapshot reads
 * and plain writes in a versioned region, a CLOSE (by the one agent that
 * closes) and RELEASE, checking that no snapshot read returns a value
 * written after its snapshot. */
#ifndef SIMTX_VERSION_TRAFFIC_H
#define SIMTX_VERSION_TRAFFIC_H

#include "simtx_block.h"

typedef struct version_traffic_params {
    int64_t rounds, reads, writes, max_outstanding, start_cycle;
    int64_t region_base, region_size;
    int64_t control_address; /* an address of partition 0 outside every region: the all-regions form */
    int64_t partition_count, partition_interleave;
    bool closer;             /* this agent writes and closes versions */
} version_traffic_params;

extern const simtx_block_info version_traffic_block_info;

#endif
