/* ldst_coalesce: groups a warp's lanes by memory segment (the coalescer of
 * the ldst_unit), on its own so that it is tested alone. */
#ifndef SIMTX_LDST_COALESCE_H
#define SIMTX_LDST_COALESCE_H

#include <stdint.h>

/* A coalesced request: the segment, the lanes in it and the byte range
 * [first, end) they touch within it. */
typedef struct ldst_segment {
    uint32_t base, first, end;
    uint64_t lanes;
} ldst_segment;

/* Groups the lanes of mask by segment (segment_size: a power of two), in
 * order of each segment's first lane, in one pass over the lanes; returns
 * how many segments (at most one per lane). `size`: bytes per access. */
uint32_t ldst_coalesce(const uint32_t *addresses, uint64_t mask, unsigned size, uint32_t segment_size, ldst_segment *segments);

#endif
