/* The LD/ST path's coalescer alone: one segment, the byte range of a
 * partial segment, scattered lanes up to 64 segments, partial masks, and
 * random warps against a lane-by-lane reference. */
#include <stdlib.h>

#include "ldst_coalesce.h"
#include "test_support.h"

/* Checks segments against the lanes: each lane of mask in exactly one
 * segment whose base holds its address, segments in order of their first
 * lanes, each byte range the lanes' lowest and highest. */
static void check_against_lanes(const uint32_t *addresses, uint64_t mask, unsigned size, uint32_t segment_size,
                                const ldst_segment *segments, uint32_t count)
{
    uint64_t seen = 0;
    int previous_first_lane = -1;
    for (uint32_t k = 0; k < count; k++) {
        const ldst_segment *s = &segments[k];
        CHECK(s->lanes != 0);
        CHECK((s->lanes & ~mask) == 0);
        CHECK((s->lanes & seen) == 0);
        seen |= s->lanes;
        CHECK_EQUAL(s->base % segment_size, 0);
        int first_lane = __builtin_ctzll(s->lanes);
        CHECK(first_lane > previous_first_lane);
        previous_first_lane = first_lane;
        uint32_t low = UINT32_MAX, high = 0;
        for (uint64_t m = s->lanes; m; m &= m - 1) {
            uint32_t address = addresses[__builtin_ctzll(m)];
            CHECK_EQUAL(address & ~(segment_size - 1), s->base);
            if (address - s->base < low) low = address - s->base;
            if (address - s->base + size > high) high = address - s->base + size;
        }
        CHECK_EQUAL(s->first, low);
        CHECK_EQUAL(s->end, high);
        /* No other lane of mask belongs here. */
        for (uint64_t m = mask & ~s->lanes; m; m &= m - 1)
            CHECK((addresses[__builtin_ctzll(m)] & ~(segment_size - 1)) != s->base);
    }
    CHECK_EQUAL(seen, mask);
}

static void test_one_segment(void)
{
    uint32_t addresses[64];
    ldst_segment segments[64];
    for (uint32_t l = 0; l < 32; l++) addresses[l] = 0x10001000u + 4 * l;
    CHECK_EQUAL(ldst_coalesce(addresses, 0xffffffffull, 4, 128, segments), 1);
    CHECK_EQUAL(segments[0].base, 0x10001000u);
    CHECK_EQUAL(segments[0].first, 0);
    CHECK_EQUAL(segments[0].end, 128);
    CHECK_EQUAL(segments[0].lanes, 0xffffffffull);
    /* Every lane at one address (a broadcast): one segment, four bytes. */
    for (uint32_t l = 0; l < 32; l++) addresses[l] = 0x10001044u;
    CHECK_EQUAL(ldst_coalesce(addresses, 0xffffffffull, 4, 128, segments), 1);
    CHECK_EQUAL(segments[0].first, 0x44);
    CHECK_EQUAL(segments[0].end, 0x48);
}

static void test_sectors(void)
{
    uint32_t addresses[64];
    ldst_segment segments[64];
    /* Bytes 0x50..0x5f and 0x22 of a segment: the range covers the touched
     * sectors' span (the request rounds it to 32-byte sectors). */
    for (uint32_t l = 0; l < 16; l++) addresses[l] = 0x20000050u + l;
    addresses[16] = 0x20000022u;
    CHECK_EQUAL(ldst_coalesce(addresses, 0x1ffff, 1, 128, segments), 1);
    CHECK_EQUAL(segments[0].base, 0x20000000u);
    CHECK_EQUAL(segments[0].first, 0x22);
    CHECK_EQUAL(segments[0].end, 0x60);
    /* Halfwords straddling two 64-byte segments. */
    for (uint32_t l = 0; l < 32; l++) addresses[l] = 0x20000030u + 2 * l;
    CHECK_EQUAL(ldst_coalesce(addresses, 0xffffffffull, 2, 64, segments), 2);
    CHECK_EQUAL(segments[0].base, 0x20000000u);
    CHECK_EQUAL(segments[0].first, 0x30);
    CHECK_EQUAL(segments[0].end, 0x40);
    CHECK_EQUAL(segments[0].lanes, 0xffull);
    CHECK_EQUAL(segments[1].base, 0x20000040u);
    CHECK_EQUAL(segments[1].first, 0);
    CHECK_EQUAL(segments[1].end, 0x30);
    CHECK_EQUAL(segments[1].lanes, 0xffffff00ull);
}

static void test_scattered(void)
{
    uint32_t addresses[64];
    ldst_segment segments[64];
    /* 64 lanes, each in its own segment, in reverse address order and at
     * strides that share hash buckets (multiples of 128 segments). */
    for (uint32_t l = 0; l < 64; l++) addresses[l] = 0x30000000u + (63 - l) * 128u * 128u + 4 * (l % 32);
    CHECK_EQUAL(ldst_coalesce(addresses, UINT64_MAX, 4, 128, segments), 64);
    for (uint32_t k = 0; k < 64; k++) CHECK_EQUAL(segments[k].lanes, 1ull << k);
    check_against_lanes(addresses, UINT64_MAX, 4, 128, segments, 64);
    /* Pairs of lanes share a segment, in interleaved order. */
    for (uint32_t l = 0; l < 64; l++) addresses[l] = 0x30000000u + (l % 32) * 4096u + (l / 32) * 4;
    CHECK_EQUAL(ldst_coalesce(addresses, UINT64_MAX, 4, 128, segments), 32);
    CHECK_EQUAL(segments[5].lanes, (1ull << 5) | (1ull << 37));
    check_against_lanes(addresses, UINT64_MAX, 4, 128, segments, 32);
}

static void test_partial_masks(void)
{
    uint32_t addresses[64];
    ldst_segment segments[64];
    for (uint32_t l = 0; l < 64; l++) addresses[l] = 0x40000000u + 4096u * l; /* every lane elsewhere */
    addresses[2] = 0x40000004u;
    /* Lanes 0 and 2 share a segment; lane 1 (elsewhere) is inactive. */
    CHECK_EQUAL(ldst_coalesce(addresses, 0x5, 4, 128, segments), 1);
    CHECK_EQUAL(segments[0].lanes, 0x5);
    CHECK_EQUAL(segments[0].first, 0);
    CHECK_EQUAL(segments[0].end, 8);
    /* The order follows each segment's first active lane. */
    CHECK_EQUAL(ldst_coalesce(addresses, 0x6, 4, 128, segments), 2);
    CHECK_EQUAL(segments[0].lanes, 0x2);
    CHECK_EQUAL(segments[1].lanes, 0x4);
    CHECK_EQUAL(ldst_coalesce(addresses, 0, 4, 128, segments), 0);
    CHECK_EQUAL(ldst_coalesce(addresses, 1ull << 63, 4, 128, segments), 1);
    CHECK_EQUAL(segments[0].base, 0x40000000u + 4096u * 63);
}

static void test_random_warps(void)
{
    uint32_t addresses[64];
    ldst_segment segments[64];
    srand(14);
    for (int trial = 0; trial < 2000; trial++) {
        uint32_t segment_size = 32u << (trial % 3);
        unsigned size = 1u << (trial % 3);
        uint32_t spread = 1u << (4 + trial % 12); /* from one segment to many */
        uint32_t base = 0x50000000u + (uint32_t)(rand() % 1024) * 4096u;
        for (uint32_t l = 0; l < 64; l++) addresses[l] = (base + (uint32_t)rand() % spread) & ~(size - 1);
        uint64_t mask = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();
        if (trial % 4 == 0) mask = UINT64_MAX;
        uint32_t count = ldst_coalesce(addresses, mask, size, segment_size, segments);
        CHECK(count <= (uint32_t)__builtin_popcountll(mask));
        check_against_lanes(addresses, mask, size, segment_size, segments, count);
    }
}

int main(void)
{
    test_one_segment();
    test_sectors();
    test_scattered();
    test_partial_masks();
    test_random_warps();
    return simtx_test_summary();
}
