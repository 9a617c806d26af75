/* ldst_coalesce: lanes grouped by segment. */
#include "ldst_coalesce.h"

#include "simtx_assert.h"

/* A scattered warp touches up to 64 segments: a small hash table finds a lane's. */
uint32_t ldst_coalesce(const uint32_t *addresses, uint64_t mask, unsigned size, uint32_t segment_size, ldst_segment *segments)
{
    enum { TABLE_BITS = 7 }; /* 128 entries for at most 64 segments */
    uint8_t table[1u << TABLE_BITS] = {0}; /* segment index + 1; 0: empty */
    uint32_t count = 0;
    uint32_t segment_mask = ~(segment_size - 1);
    unsigned segment_shift = (unsigned)__builtin_ctz(segment_size);
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint32_t base = addresses[lane] & segment_mask, offset = addresses[lane] - base;
        /* The unit's requests are built within a segment: an access crossing one would write past its data. */
        simtx_assert("ldst_unit (coalescer)", offset + size <= segment_size);
        uint32_t h = ((base >> segment_shift) * 0x9e3779b1u) >> (32 - TABLE_BITS); /* Fibonacci hashing */
        while (table[h] && segments[table[h] - 1].base != base) h = (h + 1) & ((1u << TABLE_BITS) - 1);
        uint32_t k = table[h] ? table[h] - 1u : count;
        if (k == count) {
            segments[count++] = (ldst_segment){base, offset, offset + size, 0};
            table[h] = (uint8_t)count;
        }
        ldst_segment *s = &segments[k];
        s->lanes |= 1ull << lane;
        if (offset < s->first) s->first = offset;
        if (offset + size > s->end) s->end = offset + size;
    }
    return count;
}
