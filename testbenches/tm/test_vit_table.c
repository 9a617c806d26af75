/* Unit tests of the Version Index Table's rules (models/tm/vit/vit_table.h)
 * with the SI-TM paper's figures: Figure 4's life cycle of four versions,
 * Figures 5 and 6's lookups, relocations and recycling with the paper's
 * regions, creation times and reference counts, §4.3's 42 regions (the 43rd
 * refused, naming the allocation), timestamp overflow (one slice, and the
 * epoch rule shared by several partitions closing at different points) and
 * running out of versions (the writer waits, a release frees it). */
#include "test_support.h"
#include "version.h"
#include "vit_table.h"

#include <stdio.h>

static vit_table make(unsigned versions, unsigned timestamp_bits)
{
    vit_table t;
    char error[200] = "";
    CHECK(vit_table_init(&t, versions, 42, 0x10000, 0, timestamp_bits, error, sizeof error));
    return t;
}

static uint64_t route(vit_table *t, uint64_t address, bool snapshot, uint64_t ts, bool writes, vit_route expected)
{
    uint64_t out = 0, handle = version_handle(t->epoch, ts);
    CHECK_EQUAL(vit_table_route(t, address, snapshot, &handle, writes, &out), expected);
    CHECK_EQUAL(handle, version_handle(t->epoch, ts)); /* a handle of this epoch stays */
    return out;
}

static void copy(vit_table *t, int region)
{
    int r = -1;
    uint64_t source = 0, target = 0;
    CHECK(vit_table_next_copy(t, &r, &source, &target));
    CHECK_EQUAL(r, region);
    const vit_region *reg = &t->regions[region];
    /* A copy goes from the newest S3 into the S1 slot only. */
    CHECK_EQUAL(source, vit_version_address(t, reg, reg->newest));
    CHECK_EQUAL(reg->v[reg->newest].state, VIT_S3);
    CHECK(reg->open >= 0);
    if (reg->open < 0) return;
    CHECK_EQUAL(target, vit_version_address(t, reg, reg->open));
    CHECK_EQUAL(reg->v[reg->open].state, VIT_S1);
    vit_table_copy_done(t, region);
    CHECK_EQUAL(reg->v[reg->open].state, VIT_S2);
}

static void close_at(vit_table *t, int region, uint64_t ts)
{
    bool overflow = true;
    uint64_t handle = 0;
    char error[200] = "";
    CHECK(vit_table_close(t, region, ts, &overflow, &handle, error, sizeof error));
    CHECK(!overflow);
    CHECK_EQUAL(handle, version_handle(t->epoch, vit_table_time_of(t, ts)));
}

static void pin(vit_table *t, int region, uint64_t ts, unsigned times)
{
    char error[200] = "";
    for (unsigned i = 0; i < times; i++) {
        uint64_t handle = 0;
        CHECK_EQUAL(vit_table_acquire(t, region, ts, &handle, error, sizeof error), VIT_PINNED);
        CHECK_EQUAL(handle, version_handle(t->epoch, ts == VERSION_NEWEST ? t->clock : vit_table_time_of(t, ts)));
    }
}

static void check_states(const vit_table *t, int region, const vit_state *expected)
{
    bool readable = false;
    for (unsigned k = 0; k < t->versions; k++) {
        CHECK_EQUAL(t->regions[region].v[k].state, expected[k]);
        readable |= t->regions[region].v[k].state == VIT_S3;
    }
    CHECK(readable); /* at least one version is readable at all times */
}

/* Figure 4: four versions; a version in S3 makes the next enter S1 and copy
 * from it, S2 after the copy takes the commits, S3 at its creation time, S4
 * once no transaction reads it and it is not the newest. */
static void figure_4_life_cycle(void)
{
    vit_table t = make(4, 32);
    char error[200] = "";
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_NONE, VIT_NONE, VIT_NONE});
    uint64_t v0 = 0x800000, v1 = 0x810000, v2 = 0x820000, v3 = 0x830000;

    int r;
    uint64_t s, d;
    CHECK(vit_table_next_copy(&t, &r, &s, &d)); /* version 1 enters S1, copying version 0 */
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S1, VIT_NONE, VIT_NONE});
    CHECK_EQUAL(s, v0);
    CHECK_EQUAL(d, v1);
    route(&t, 0x800010, false, 0, true, VIT_WAIT);                  /* S1: no write */
    CHECK_EQUAL(route(&t, 0x800010, false, 0, false, VIT_VERSIONED), v0 + 0x10); /* the newest S3 is read */
    vit_table_copy_done(&t, 0);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S2, VIT_NONE, VIT_NONE});
    CHECK_EQUAL(route(&t, 0x800010, false, 0, true, VIT_VERSIONED), v1 + 0x10); /* writes go to S2 only */
    CHECK_EQUAL(route(&t, 0x800010, true, 0, false, VIT_VERSIONED), v0 + 0x10);  /* snapshot reads S3 only */
    pin(&t, 0, VERSION_NEWEST, 1);                                               /* a transaction reads version 0 */

    close_at(&t, 0, 10); /* the warp's write-back is done: S2 -> S3, and the next enters S1 */
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3, VIT_S1, VIT_NONE});
    CHECK_EQUAL(t.regions[0].v[1].created, 10);
    copy(&t, 0);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3, VIT_S2, VIT_NONE});
    CHECK_EQUAL(route(&t, 0x800000, false, 0, true, VIT_VERSIONED), v2);
    pin(&t, 0, VERSION_NEWEST, 1); /* another reads version 1 */
    close_at(&t, 0, 20);
    copy(&t, 0);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3, VIT_S3, VIT_S2});
    CHECK_EQUAL(route(&t, 0x800000, true, 9, false, VIT_VERSIONED), v0);
    CHECK_EQUAL(route(&t, 0x800000, true, 15, false, VIT_VERSIONED), v1);
    CHECK_EQUAL(route(&t, 0x800000, true, 25, false, VIT_VERSIONED), v2);
    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    CHECK_EQUAL(t.stats.versions_recycled, 0);

    /* Version 3 closes: version 2 (no reader, not the newest) is recycled
     * and becomes the next S1 (round-robin from the newest: 0 and 1 are
     * still read). */
    close_at(&t, 0, 30);
    CHECK_EQUAL(t.stats.versions_recycled, 1);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3, VIT_S1, VIT_S3});
    CHECK_EQUAL(route(&t, 0x800000, true, 31, false, VIT_VERSIONED), v3);
    route(&t, 0x800000, true, 25, false, VIT_GONE); /* nobody pinned it: recycled */
    copy(&t, 0);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3, VIT_S2, VIT_S3});

    /* The reader of version 0 ends: its count reaches 0, S4. */
    vit_table_release_snapshot(&t, 0, version_handle(0, 0));
    check_states(&t, 0, (vit_state[]){VIT_S4, VIT_S3, VIT_S2, VIT_S3});
    CHECK_EQUAL(t.stats.versions_recycled, 2);
    vit_table_release(&t);
}

/* Figures 5 and 6 on a one-partition map with the row at bit 16 (one
 * subarray row on = +0x10000): the two regions, creation times
 * {17,123,193,255} and {12,144,156,300}, reference counts {1,23,50,5} and
 * {0,9,35,47}. */
static void figures_5_and_6(void)
{
    vit_table t = make(8, 32);
    char error[200] = "";
    close_at(&t, -1, 12); /* no region yet: the clock moves */
    CHECK_EQUAL(vit_table_register(&t, 0x880000, 0x10000, 0xA10000, error, sizeof error), 0);
    close_at(&t, -1, 17); /* region 0x880000 has no written S2: nothing closes */
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 1);
    const int r1 = 1, r2 = 0;
    pin(&t, r1, 17, 1);
    copy(&t, r2);
    copy(&t, r1);

    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r1, 123);
    pin(&t, r1, 123, 23);
    copy(&t, r1);
    route(&t, 0x880000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r2, 144);
    pin(&t, r2, 144, 9);
    copy(&t, r2);
    route(&t, 0x880000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r2, 156);
    pin(&t, r2, 156, 35);
    copy(&t, r2);
    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r1, 193);
    pin(&t, r1, 193, 50);
    copy(&t, r1);
    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r1, 255);
    pin(&t, r1, 255, 5);
    copy(&t, r1);
    route(&t, 0x880000, false, 0, true, VIT_VERSIONED);
    close_at(&t, r2, 300);
    pin(&t, r2, 300, 47);

    /* Figure 6's table. */
    static const uint32_t times1[] = {17, 123, 193, 255}, refs1[] = {1, 23, 50, 5};
    static const uint32_t times2[] = {12, 144, 156, 300}, refs2[] = {0, 9, 35, 47};
    for (unsigned k = 0; k < 4; k++) {
        CHECK_EQUAL(t.regions[r1].v[k].created, times1[k]);
        CHECK_EQUAL(t.regions[r1].v[k].refs, refs1[k]);
        CHECK_EQUAL(t.regions[r2].v[k].created, times2[k]);
        CHECK_EQUAL(t.regions[r2].v[k].refs, refs2[k]);
        CHECK_EQUAL(t.regions[r1].v[k].state, VIT_S3);
    }
    /* "the version with refcount 0 and time 12 can be recycled": it was, as
     * soon as version 1 superseded it. */
    CHECK_EQUAL(t.regions[r2].v[0].state, VIT_S4);
    CHECK_EQUAL(t.regions[r2].v[1].state, VIT_S3);

    /* Which timestamp reads which address. */
    CHECK_EQUAL(route(&t, 0x800000, true, 122, false, VIT_VERSIONED), 0x800000);
    CHECK_EQUAL(route(&t, 0x800000, true, 123, false, VIT_VERSIONED), 0x810000);
    CHECK_EQUAL(route(&t, 0x800000, true, 192, false, VIT_VERSIONED), 0x810000);
    CHECK_EQUAL(route(&t, 0x800004, true, 193, false, VIT_VERSIONED), 0x820004);
    CHECK_EQUAL(route(&t, 0x800000, true, 255, false, VIT_VERSIONED), 0x830000);
    CHECK_EQUAL(route(&t, 0x8003FC, true, 100000, false, VIT_VERSIONED), 0x8303FC);
    route(&t, 0x800000, true, 16, false, VIT_GONE); /* before version 0 */
    CHECK_EQUAL(route(&t, 0x880000, true, 150, false, VIT_VERSIONED), 0x890000);
    CHECK_EQUAL(route(&t, 0x88FFFC, true, 156, false, VIT_VERSIONED), 0x8AFFFC);
    CHECK_EQUAL(route(&t, 0x880000, true, 300, false, VIT_VERSIONED), 0x8B0000);
    route(&t, 0x880000, true, 100, false, VIT_GONE); /* version 0, recycled */

    /* Which address relocates where (Figure 5): versions 1..7's footprint
     * goes to the relocated area, version k - 1 times the size on. */
    CHECK_EQUAL(route(&t, 0x810000, false, 0, false, VIT_RELOCATED), 0xA00000);
    CHECK_EQUAL(route(&t, 0x8103FF, false, 0, true, VIT_RELOCATED), 0xA003FF);
    CHECK_EQUAL(route(&t, 0x820000, false, 0, false, VIT_RELOCATED), 0xA00400);
    CHECK_EQUAL(route(&t, 0x870100, false, 0, false, VIT_RELOCATED), 0xA00000 + 6 * 0x400 + 0x100);
    CHECK_EQUAL(route(&t, 0x890000, false, 0, false, VIT_RELOCATED), 0xA10000);
    CHECK_EQUAL(route(&t, 0x8F0008, false, 0, false, VIT_RELOCATED), 0xA70008);
    CHECK_EQUAL(route(&t, 0x810400, false, 0, false, VIT_PLAIN), 0x810400); /* past version 1's 0x400 bytes */
    CHECK_EQUAL(route(&t, 0x900000, false, 0, false, VIT_PLAIN), 0x900000);
    CHECK_EQUAL(route(&t, 0x7FFFFC, false, 0, false, VIT_PLAIN), 0x7FFFFC);

    /* Which version may be recycled: only unread, non-newest ones. */
    vit_table_release_snapshot(&t, r1, version_handle(0, 17));
    CHECK_EQUAL(t.regions[r1].v[0].state, VIT_S4);
    for (unsigned i = 0; i < 5; i++) vit_table_release_snapshot(&t, r1, version_handle(0, 255));
    CHECK_EQUAL(t.regions[r1].v[3].state, VIT_S3); /* the newest stays readable at count 0 */
    vit_table_release(&t);
}

/* §4.3: 1 KB / 193-bit entries = 42 regions; the 43rd is refused, naming
 * the allocation; so are layouts the table cannot hold. */
static void capacity_42(void)
{
    vit_table t = make(8, 32);
    char error[240] = "";
    for (unsigned i = 0; i < 42; i++)
        CHECK_EQUAL(vit_table_register(&t, 0x1000000 + i * 0x80000ull, 0x100, 0x40000000 + i * 0x1000ull, error, sizeof error), i);
    CHECK_EQUAL(vit_table_register(&t, 0x9000000, 0x100, 0x50000000, error, sizeof error), -1);
    CHECK_CONTAINS(error, "versioned allocation 0x9000000 (256 bytes) refused");
    CHECK_CONTAINS(error, "42 regions");
    CHECK_EQUAL(t.count, 42);
    vit_table_release(&t);

    t = make(8, 32);
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
    CHECK_EQUAL(vit_table_register(&t, 0x820000, 0x400, 0xB00000, error, sizeof error), -1); /* on version 2 of the first */
    CHECK_CONTAINS(error, "versioned allocation 0x820000");
    CHECK_CONTAINS(error, "meet another region");
    CHECK_EQUAL(vit_table_register(&t, 0x900000, 0x20000, 0xB00000, error, sizeof error), -1);
    CHECK_CONTAINS(error, "larger than the version stride");
    CHECK_EQUAL(vit_table_register(&t, 0x900000, 0x400, 0xA00100, error, sizeof error), -1);
    CHECK_CONTAINS(error, "relocated area meets another region");
    vit_table_release(&t);
}

static vit_acquired acquire(vit_table *t, uint64_t point, uint64_t *handle)
{
    char error[200] = "";
    return vit_table_acquire(t, -1, point, handle, error, sizeof error);
}

/* A written version of region 0, closed at commit point `point`; returns
 * whether the slice overflowed. */
static bool write_and_close(vit_table *t, uint64_t point)
{
    copy(t, 0);
    route(t, t->regions[0].base, false, 0, true, VIT_VERSIONED);
    bool overflow = false;
    uint64_t handle = 0;
    char error[200] = "";
    CHECK(vit_table_close(t, -1, point, &overflow, &handle, error, sizeof error));
    CHECK_EQUAL(handle, version_handle(point >> t->timestamp_bits, point % (UINT64_C(1) << t->timestamp_bits)));
    return overflow;
}

/* §4.3 with 4-bit creation times: commit point P is time P mod 16 of epoch
 * P / 16. The first CLOSE of a later epoch invalidates every version but
 * the newest state, resets the counts, closes its version at its time in
 * the new epoch; snapshots of the old epoch are gone. */
static void timestamp_overflow(void)
{
    vit_table t = make(8, 4);
    char error[200] = "";
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
    copy(&t, 0);
    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    close_at(&t, 0, 5);
    pin(&t, 0, VERSION_NEWEST, 3);
    uint64_t old_handle = version_handle(0, 5);
    copy(&t, 0);
    CHECK_EQUAL(route(&t, 0x800000, false, 0, true, VIT_VERSIONED), 0x820000);

    bool overflow = false;
    uint64_t handle = 0;
    CHECK(vit_table_close(&t, -1, 18, &overflow, &handle, error, sizeof error)); /* epoch 1, time 2 */
    CHECK(overflow);
    CHECK_EQUAL(t.stats.overflows, 1);
    CHECK_EQUAL(t.epoch, 1);
    CHECK_EQUAL(handle, version_handle(1, 2));
    /* The S2 just written is the one readable version, created at 2. */
    CHECK_EQUAL(t.regions[0].newest, 2);
    CHECK_EQUAL(t.regions[0].v[2].created, 2);
    for (unsigned k = 0; k < 8; k++) {
        if (k == 2) continue;
        CHECK(t.regions[0].v[k].state != VIT_S3 && t.regions[0].v[k].state != VIT_S2);
        CHECK_EQUAL(t.regions[0].v[k].refs, 0);
    }
    CHECK_EQUAL(t.regions[0].v[2].refs, 0);
    /* A reader of the old epoch (being aborted) reads the newest readable
     * version and learns its handle; its release is ignored. */
    uint64_t out = 0, handle_read = old_handle;
    CHECK_EQUAL(vit_table_route(&t, 0x800000, true, &handle_read, false, &out), VIT_VERSIONED);
    CHECK_EQUAL(out, 0x820000);
    CHECK_EQUAL(handle_read, version_handle(1, 2));
    vit_table_release_snapshot(&t, 0, old_handle);
    CHECK_EQUAL(t.stats.stale_releases, 1);
    /* Snapshots: of the old epoch, or before the epoch's first version, too
     * old (acquire again); of a later epoch than any CLOSE, a protocol error. */
    CHECK_EQUAL(acquire(&t, 14, &handle), VIT_TOO_OLD);
    CHECK_EQUAL(acquire(&t, 17, &handle), VIT_TOO_OLD);
    CHECK_EQUAL(acquire(&t, 40, &handle), VIT_AHEAD);
    CHECK_EQUAL(t.stats.acquires, 3); /* the three NEWEST above */
    pin(&t, -1, 19, 1);
    /* Times go on in the epoch: no second overflow. */
    CHECK(!write_and_close(&t, 20));
    CHECK_EQUAL(t.regions[0].v[t.regions[0].newest].created, 4);
    CHECK_EQUAL(t.stats.overflows, 1);
    /* A close that does not move the point on is refused, in this epoch or an earlier one. */
    CHECK(!vit_table_close(&t, -1, 20, &overflow, &handle, error, sizeof error));
    CHECK_CONTAINS(error, "does not exceed");
    CHECK(!vit_table_close(&t, -1, 15, &overflow, &handle, error, sizeof error));
    CHECK_CONTAINS(error, "does not exceed");
    /* Epochs may be skipped (a batch of points retired together). */
    CHECK(write_and_close(&t, 3 * 16 + 1));
    CHECK_EQUAL(t.epoch, 3);
    CHECK_EQUAL(t.stats.overflows, 2);
    vit_table_release(&t);
}

/* The epoch rule across partitions (version.h, OVERFLOW): three slices
 * whose commit units close at different points (each at its own retired
 * IDs) cross the 4-bit boundary at 16 at their own first CLOSE past it
 * (points 17, 16 and 19) and overflow there, once. Every slice answers a
 * point P with the same handle (P / 16, P mod 16), reading its latest
 * version closed at or below P, or refuses it when all its versions of the
 * epoch postdate P (the TM side acquires again at a newer clock); a handle
 * of epoch 0 is gone everywhere. A reader pins each version as it closes. */
static void epoch_shared_by_partitions(void)
{
    static const uint64_t closes[3][5] = {{10, 15, 17, 20, 22}, {12, 16, 21, 22, 0}, {14, 19, 22, 0, 0}};
    static const uint64_t overflowed_at[3] = {17, 16, 19};
    vit_table slices[3];
    char error[200] = "";
    for (unsigned p = 0; p < 3; p++) {
        slices[p] = make(8, 4);
        CHECK_EQUAL(vit_table_register(&slices[p], 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
        for (unsigned i = 0; i < 5 && closes[p][i]; i++) {
            CHECK_EQUAL(write_and_close(&slices[p], closes[p][i]), closes[p][i] == overflowed_at[p]);
            pin(&slices[p], -1, closes[p][i], 1);
        }
        CHECK_EQUAL(slices[p].epoch, 1);
        CHECK_EQUAL(slices[p].stats.overflows, 1);
    }
    /* Point 21 (epoch 1, time 5): one handle, reading the versions closed at 20, 21 and 19. */
    static const uint32_t created[3] = {4, 5, 3};
    for (unsigned p = 0; p < 3; p++) {
        uint64_t handle = 0, out = 0;
        CHECK_EQUAL(acquire(&slices[p], 21, &handle), VIT_PINNED);
        CHECK_EQUAL(handle, version_handle(1, 5));
        CHECK_EQUAL(vit_table_route(&slices[p], 0x800000, true, &handle, false, &out), VIT_VERSIONED);
        CHECK_EQUAL(handle, version_handle(1, 5));
        CHECK_EQUAL(slices[p].regions[0].v[(out - 0x800000) / 0x10000].created, created[p]);
    }
    /* Point 17 (time 1): slices 0 and 1 read their versions of points 17
     * and 16; slice 2's first version of epoch 1 is of point 19. */
    uint64_t handle = 0;
    CHECK_EQUAL(acquire(&slices[0], 17, &handle), VIT_PINNED);
    CHECK_EQUAL(handle, version_handle(1, 1));
    CHECK_EQUAL(acquire(&slices[1], 17, &handle), VIT_PINNED);
    CHECK_EQUAL(handle, version_handle(1, 1));
    CHECK_EQUAL(acquire(&slices[2], 17, &handle), VIT_TOO_OLD);
    /* Epoch 0 is over everywhere: its snapshots are refused, its releases
     * ignored, its readers read the newest version and learn its handle. */
    for (unsigned p = 0; p < 3; p++) {
        CHECK_EQUAL(acquire(&slices[p], 15, &handle), VIT_TOO_OLD);
        vit_table_release_snapshot(&slices[p], -1, version_handle(0, 14));
        CHECK_EQUAL(slices[p].stats.stale_releases, 1);
        uint64_t out = 0, old = version_handle(0, 14);
        CHECK_EQUAL(vit_table_route(&slices[p], 0x800000, true, &old, false, &out), VIT_VERSIONED);
        CHECK_EQUAL(old, version_handle(1, 6));
        vit_table_release(&slices[p]);
    }
}

/* Two versions, a reader pinning the old one: the next version has no slot,
 * the writer waits; the release frees the slot and the copy starts. */
static void out_of_versions(void)
{
    vit_table t = make(2, 32);
    char error[200] = "";
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
    copy(&t, 0);
    pin(&t, 0, VERSION_NEWEST, 1);
    route(&t, 0x800000, false, 0, true, VIT_VERSIONED);
    close_at(&t, 0, 10);
    check_states(&t, 0, (vit_state[]){VIT_S3, VIT_S3});
    CHECK_EQUAL(t.stats.wait_slot, 1);
    route(&t, 0x800000, false, 0, true, VIT_WAIT);
    int r;
    uint64_t s, d;
    CHECK(!vit_table_next_copy(&t, &r, &s, &d));
    CHECK_EQUAL(route(&t, 0x800000, true, 5, false, VIT_VERSIONED), 0x800000); /* the reader still reads */
    vit_table_release_snapshot(&t, 0, version_handle(0, 0));
    check_states(&t, 0, (vit_state[]){VIT_S1, VIT_S3});
    copy(&t, 0);
    CHECK_EQUAL(route(&t, 0x800000, false, 0, true, VIT_VERSIONED), 0x800000);
    vit_table_release(&t);
}

/* Snapshot boundaries (version.h, ACQUIRE): the latest CLOSE point at or
 * below a point. IDs 3 and 4 closed together at 4: a snapshot at 3 holds
 * IDs up to 2 here, and reads the same version as one at 2. Older than the
 * CLOSEs kept: no answer (acquired again). */
static void snapshot_boundaries(void)
{
    vit_table t = make(8, 32);
    char error[200] = "";
    CHECK_EQUAL(vit_table_register(&t, 0x800000, 0x400, 0xA00000, error, sizeof error), 0);
    uint64_t boundary = 99;
    CHECK(vit_table_boundary(&t, 5, &boundary));
    CHECK_EQUAL(boundary, 0); /* nothing closed yet */
    write_and_close(&t, 1);
    close_at(&t, -1, 2);
    pin(&t, 0, 2, 1); /* read: not recycled */
    write_and_close(&t, 4);
    CHECK(vit_table_boundary(&t, 0, &boundary));
    CHECK_EQUAL(boundary, 0);
    CHECK(vit_table_boundary(&t, 2, &boundary));
    CHECK_EQUAL(boundary, 2);
    CHECK(vit_table_boundary(&t, 3, &boundary));
    CHECK_EQUAL(boundary, 2);
    CHECK(vit_table_boundary(&t, 4, &boundary));
    CHECK_EQUAL(boundary, 4);
    CHECK_EQUAL(route(&t, 0x800000, true, 3, false, VIT_VERSIONED), route(&t, 0x800000, true, 2, false, VIT_VERSIONED));
    for (uint64_t p = 5; p < 5 + VIT_CLOSE_HISTORY; p++) close_at(&t, -1, p);
    CHECK(vit_table_boundary(&t, 5, &boundary));
    CHECK_EQUAL(boundary, 5);
    CHECK(!vit_table_boundary(&t, 4, &boundary)); /* its CLOSE left the ring */
    vit_table_release(&t);
}

int main(void)
{
    snapshot_boundaries();
    figure_4_life_cycle();
    figures_5_and_6();
    capacity_42();
    timestamp_overflow();
    epoch_shared_by_partitions();
    out_of_versions();
    return simtx_test_summary();
}
