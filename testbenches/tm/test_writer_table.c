/* Unit tests of SI-TM's Writer Table (models/tm/writer_table/wt_table.h):
 * the single-writer rule (the new writer loses), section 4.3's capacity
 * (3000 entries of 40 bits = 15 KB, fully associative and as six 500-entry
 * slices), overflow refusing and then draining, a transaction too big for
 * its set, and a randomized run where overflowing transactions abort, wait
 * for the table to drain and all finish (progress). */
#include "test_support.h"
#include "wt_table.h"

#include <stdio.h>

static wt_table make(uint32_t entries, uint32_t ways)
{
    wt_table t;
    char error[200] = "";
    CHECK(wt_table_init(&t, entries, ways, error, sizeof error));
    return t;
}

static void single_writer(void)
{
    wt_table t = make(16, 4);
    unsigned owner = 99;
    CHECK_EQUAL(wt_table_claim(&t, 0x1000, 5, &owner), WT_OWNER);
    CHECK_EQUAL(wt_table_claim(&t, 0x1000, 5, &owner), WT_OWNER); /* its own word again */
    CHECK_EQUAL(wt_table_claim(&t, 0x1000, 7, &owner), WT_CONFLICT);
    CHECK_EQUAL(owner, 5);
    CHECK_EQUAL(wt_table_writer(&t, 0x1000), 5);
    CHECK_EQUAL(wt_table_writer(&t, 0x1001), -1);
    wt_table_drop(&t, 0x1000, 7); /* not its entry: stale, nothing freed */
    CHECK_EQUAL(t.stats.stale_releases, 1);
    CHECK_EQUAL(wt_table_used(&t), 1);
    wt_table_drop(&t, 0x1000, 5); /* T5 commits: T7 may write now */
    CHECK_EQUAL(wt_table_claim(&t, 0x1000, 7, &owner), WT_OWNER);
    CHECK_EQUAL(wt_table_writer(&t, 0x1000), 7);
    CHECK_EQUAL(t.stats.conflicts, 1);
    wt_table_release(&t);
}

static void capacity(void)
{
    /* Section 4.3: 3000 entries of 30-bit word address + 10-bit ID. */
    CHECK_EQUAL(3000u * WT_ENTRY_BITS / 8, 15000);
    wt_table t = make(3000, 3000);
    for (unsigned w = 0; w < 3000; w++) CHECK_EQUAL(wt_table_claim(&t, 0x40000 + w, w % 960, NULL), WT_OWNER);
    CHECK_EQUAL(wt_table_used(&t), 3000);
    CHECK(!t.overflowed);
    CHECK_EQUAL(wt_table_claim(&t, 0x90000, 1, NULL), WT_FULL);
    CHECK(t.overflowed);
    CHECK_EQUAL(wt_table_writer(&t, 0x90000), -1);
    wt_table_drop(&t, 0x40000, 0);
    CHECK(!t.overflowed);
    CHECK_EQUAL(wt_table_claim(&t, 0x90000, 1, NULL), WT_OWNER);
    CHECK_EQUAL(t.slots.peak, 3000);
    wt_table_release(&t);
    /* Six 500-entry slices, 20 ways: words spread over the sets fill most
     * of a slice before a set refuses one. */
    wt_table s = make(500, 20);
    unsigned taken = 0;
    for (unsigned w = 0; w < 500; w++) taken += wt_table_claim(&s, 0x1000 + 6 * w, 3, NULL) == WT_OWNER;
    printf("a 500-entry 20-way slice took %u of 500 interleaved words\n", taken);
    CHECK(taken > 400 && taken <= 500);
    wt_table_release(&s);
    /* Bad parameters name themselves. */
    wt_table bad;
    char error[200] = "";
    CHECK(!wt_table_init(&bad, 500, 7, error, sizeof error));
    CHECK_CONTAINS(error, "ways");
}

static void too_big(void)
{
    /* A transaction holding every way of the set its next word needs can
     * never run: WT_TOO_BIG, not an endless abort and retry. */
    wt_table t = make(16, 4);
    uint32_t set = slot_table_set(&t.slots, 0x100);
    unsigned found = 0;
    for (uint64_t w = 0x100; found < 5; w++) {
        if (slot_table_set(&t.slots, w) != set) continue;
        wt_result r = wt_table_claim(&t, w, 9, NULL);
        CHECK_EQUAL(r, found < 4 ? WT_OWNER : WT_TOO_BIG);
        found++;
    }
    wt_table_release(&t);
}

/* ---- Progress: transactions that overflow abort and wait. ---- */
static uint64_t rng = 12345;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % n);
}

enum { TXNS = 40, WORDS = 6, POOL = 200 };

static void progress(void)
{
    wt_table t = make(24, 4);
    uint64_t words[TXNS][WORDS];
    unsigned next[TXNS], done = 0, aborts_full = 0, aborts_conflict = 0, started = 0;
    bool running[TXNS] = {false}, finished[TXNS] = {false};
    for (unsigned i = 0; i < TXNS; i++) {
        next[i] = 0;
        for (unsigned k = 0; k < WORDS; k++) words[i][k] = 0x2000 + rnd(POOL);
    }
    unsigned round = 0;
    for (; round < 100000 && done < TXNS; round++) {
        for (unsigned i = 0; i < TXNS; i++) {
            if (finished[i]) continue;
            if (!running[i]) {
                /* New transactions wait while the table is overflowed. */
                if (t.overflowed || rnd(4)) continue;
                running[i] = true;
                next[i] = 0;
                started++;
                continue;
            }
            if (next[i] == WORDS) { /* commit: its entries go */
                for (unsigned k = 0; k < WORDS; k++) wt_table_drop(&t, words[i][k], i);
                running[i] = false;
                finished[i] = true;
                done++;
                continue;
            }
            wt_result r = wt_table_claim(&t, words[i][next[i]], i, NULL);
            CHECK(r != WT_TOO_BIG);
            if (r == WT_OWNER) {
                next[i]++;
                continue;
            }
            /* Abort: every entry it holds goes (a word listed twice or
             * owned by another is a stale drop). */
            for (unsigned k = 0; k < next[i]; k++) wt_table_drop(&t, words[i][k], i);
            running[i] = false;
            if (r == WT_FULL) aborts_full++;
            else aborts_conflict++;
        }
    }
    printf("progress: %u transactions done in %u rounds, %u starts, %u overflow aborts, %u single-writer aborts\n",
           done, round, started, aborts_full, aborts_conflict);
    CHECK_EQUAL(done, TXNS);
    CHECK(aborts_full > 0);
    CHECK(aborts_conflict > 0);
    CHECK_EQUAL(wt_table_used(&t), 0);
    wt_table_release(&t);
}

int main(void)
{
    single_writer();
    capacity();
    too_big();
    progress();
    return simtx_test_summary();
}
