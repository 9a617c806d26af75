/* Unit tests of the set-associative table (models/common/assoc_table.h) on
 * its own: lookups, the larger value kept on a store, stale values as free
 * ways, eviction of a set's smallest value into the floor, and growth
 * instead of eviction. */
#include "assoc_table.h"
#include "test_support.h"

static void store(assoc_table *t, uint64_t key, uint32_t value, uint32_t stale_below, bool expect_eviction)
{
    bool evicted = false;
    CHECK(assoc_table_store(t, key, value, stale_below, &evicted));
    CHECK_EQUAL(evicted, expect_eviction);
}

static void find_and_keep_larger(void)
{
    assoc_table t;
    CHECK(assoc_table_init(&t, 8, 4, false));
    CHECK_EQUAL(t.sets, 2);
    CHECK_EQUAL(assoc_table_find(&t, 10, 0), 0);
    store(&t, 10, 5, 0, false);
    CHECK_EQUAL(assoc_table_find(&t, 10, 0), 5);
    CHECK_EQUAL(assoc_table_find(&t, 12, 0), 0); /* same set, other key */
    store(&t, 10, 3, 0, false);                  /* older: the larger stays */
    CHECK_EQUAL(assoc_table_find(&t, 10, 0), 5);
    store(&t, 10, 7, 0, false);
    CHECK_EQUAL(assoc_table_find(&t, 10, 0), 7);
    CHECK_EQUAL(assoc_table_find(&t, 10, 7), 7);
    CHECK_EQUAL(assoc_table_find(&t, 10, 8), 0); /* stale */
    assoc_table_release(&t);

    assoc_table one;
    CHECK(assoc_table_init(&one, 2, 4, false)); /* fewer entries than ways: one set */
    CHECK_EQUAL(one.sets, 1);
    assoc_table_release(&one);
}

static void eviction_and_staleness(void)
{
    assoc_table t;
    CHECK(assoc_table_init(&t, 8, 4, false)); /* 2 sets of 4: even keys share set 0 */
    store(&t, 0, 4, 0, false);
    store(&t, 2, 2, 0, false);
    store(&t, 4, 3, 0, false);
    store(&t, 6, 5, 0, false);
    store(&t, 1, 9, 0, false); /* the other set */
    CHECK_EQUAL(t.floor, 0);
    store(&t, 8, 6, 0, true); /* set 0 is full: key 2 (value 2, the smallest) goes */
    CHECK_EQUAL(t.floor, 2);
    CHECK_EQUAL(assoc_table_find(&t, 2, 0), 0);
    CHECK_EQUAL(assoc_table_find(&t, 8, 0), 6);
    CHECK_EQUAL(assoc_table_find(&t, 0, 0), 4);
    CHECK_EQUAL(assoc_table_find(&t, 1, 0), 9);
    /* Values below 5 are stale: keys 0 and 4 free their ways, no eviction. */
    store(&t, 10, 7, 5, false);
    store(&t, 12, 8, 5, false);
    CHECK_EQUAL(t.floor, 2);
    CHECK_EQUAL(assoc_table_find(&t, 6, 5), 5);
    CHECK_EQUAL(assoc_table_find(&t, 10, 5), 7);
    CHECK_EQUAL(assoc_table_find(&t, 12, 5), 8);
    CHECK_EQUAL(assoc_table_find(&t, 0, 0), 0); /* its way was taken */
    store(&t, 14, 10, 5, true);                 /* full of live values again: key 6 (5) goes */
    CHECK_EQUAL(t.floor, 5);
    CHECK_EQUAL(assoc_table_find(&t, 6, 0), 0);
    assoc_table_release(&t);
}

static void growth(void)
{
    assoc_table t;
    CHECK(assoc_table_init(&t, 4, 2, true)); /* 2 sets of 2 */
    for (uint32_t k = 0; k < 64; k++) store(&t, k * 2, k + 1, 0, false);
    CHECK(t.sets * t.ways >= 64);
    CHECK_EQUAL(t.floor, 0);
    unsigned found = 0;
    for (uint32_t k = 0; k < 64; k++) found += assoc_table_find(&t, k * 2, 0) == k + 1;
    CHECK_EQUAL(found, 64);
    /* Stale entries make room: 140 more keys, values below 60 stale. */
    for (uint32_t k = 64; k < 200; k++) store(&t, k * 2, k + 1, 60, false);
    CHECK_EQUAL(assoc_table_find(&t, 2 * 60, 60), 61);
    CHECK_EQUAL(assoc_table_find(&t, 2 * 70, 60), 71);
    CHECK_EQUAL(assoc_table_find(&t, 2 * 199, 60), 200);
    assoc_table_release(&t);
}

int main(void)
{
    find_and_keep_larger();
    eviction_and_staleness();
    growth();
    return simtx_test_summary();
}
