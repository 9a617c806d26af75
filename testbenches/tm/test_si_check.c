/* Unit tests of the snapshot-isolation history checker (verification/
 * si_check): it accepts a history serializable only in an order other than
 * its commit order (which the commit-order replay of tm_oracle rejects) and
 * a validated A-B-A history, and rejects write skew, Fekete's read-only
 * anomaly, a lost update, torn snapshots (newer and older versions), a read
 * of uncommitted data, a lost final write and a reused commit ID, naming
 * the cycle or the transaction and word. Plain SI mode accepts write skew
 * and the read-only anomaly. Words: X = 0x100, Y = 0x104, initially 0. */
#include <stdio.h>
#include <string.h>

#include "si_check.h"
#include "test_support.h"
#include "tm_oracle.h"

enum { X = 0x100, Y = 0x104 };

typedef struct memory {
    uint32_t word[2]; /* X, Y */
} memory;

static bool read_memory(void *context, uint64_t address, void *data, size_t size)
{
    const memory *m = context;
    if (size != 4 || (address != X && address != Y)) return false;
    memcpy(data, &m->word[(address - X) / 4], 4);
    return true;
}

typedef struct tx {
    uint32_t commit, snapshot;
    bool validated;
    uint32_t reads, writes;
    uint32_t words[8];
} tx;

/* The checker's verdict on a history; final holds X and Y after it. */
static const char *verdict(si_check_mode mode, const tx *txs, size_t count, uint32_t final_x, uint32_t final_y, char *text,
                           size_t size)
{
    static memory initial = {{0, 0}};
    memory final = {{final_x, final_y}};
    si_check *c = si_check_create(read_memory, &initial);
    for (size_t i = 0; i < count; i++)
        CHECK(si_check_add(c, &(si_check_tx){txs[i].commit, txs[i].snapshot, txs[i].validated, txs[i].reads, txs[i].writes,
                                             txs[i].words}));
    const char *error = si_check_run(c, mode, read_memory, &final);
    if (error) snprintf(text, size, "%s", error);
    si_check_destroy(c);
    return error ? text : NULL;
}

static void expect_error(const char *error, const char *part)
{
    CHECK(error != NULL);
    if (error) CHECK_CONTAINS(error, part);
}

/* SI: T1 reads X on snapshot 0 and writes Y (commit 2); T2 writes X (commit
 * 1). Serializable as T1, T2 (T1 -rw X-> T2), not in commit order. */
static void accepts_non_commit_order(void)
{
    char text[1024];
    const tx history[] = {{2, 0, false, 1, 1, {X, 0, Y, 1}}, {1, 0, false, 0, 1, {X, 5}}};
    CHECK(verdict(SI_CHECK_SERIALIZABLE, history, 2, 5, 1, text, sizeof text) == NULL);
    /* A read-only transaction on snapshot 0 after both commits: also before T2. */
    const tx with_reader[] = {{2, 0, false, 1, 1, {X, 0, Y, 1}}, {1, 0, false, 0, 1, {X, 5}}, {0, 0, false, 2, 0, {X, 0, Y, 0}}};
    CHECK(verdict(SI_CHECK_SERIALIZABLE, with_reader, 3, 5, 1, text, sizeof text) == NULL);

    /* The commit-order replay rejects the first history. */
    memory initial = {{0, 0}};
    tm_oracle *o = tm_oracle_create(read_memory, &initial);
    tm_oracle_access w1 = {X, 5, 4}, r2 = {X, 0, 4}, w2 = {Y, 1, 4};
    tm_oracle_commit(o, 1, NULL, 0, &w1, 1);
    CHECK(!tm_oracle_commit(o, 2, &r2, 1, &w2, 1));
    tm_oracle_destroy(o);
}

/* Warp TM's value validation: T reads X = 0 on snapshot 0; W1 writes 1, W2
 * writes 0 back; T validates X = 0 at commit 3 and writes X. In value, T
 * read W2's version: serializable W1, W2, T. Unvalidated it would be a lost
 * update (plain SI's first committer wins). */
static void accepts_validated_aba(void)
{
    char text[1024];
    tx history[] = {{1, 0, true, 0, 1, {X, 1}}, {2, 1, true, 0, 1, {X, 0}}, {3, 0, true, 1, 1, {X, 0, X, 7}}};
    CHECK(verdict(SI_CHECK_SERIALIZABLE, history, 3, 7, 0, text, sizeof text) == NULL);
    /* Validated, a read newer than its snapshot is harmless: noted, not rejected. */
    memory initial = {{0, 0}};
    si_check *c = si_check_create(read_memory, &initial);
    const uint32_t first[] = {X, 1}, second[] = {X, 1, Y, 2};
    CHECK(si_check_add(c, &(si_check_tx){1, 0, true, 0, 1, first}));
    CHECK(si_check_add(c, &(si_check_tx){2, 0, true, 1, 1, second}));
    memory final = {{1, 2}};
    CHECK(si_check_run(c, SI_CHECK_SERIALIZABLE, read_memory, &final) == NULL);
    CHECK_EQUAL(si_check_get_counts(c)->validated_torn_reads, 1);
    CHECK(si_check_note(c) != NULL);
    if (si_check_note(c))
        CHECK_CONTAINS(si_check_note(c), "torn snapshot: commit 2 read 0x100 = 0x1, the version commit 1 wrote, newer than its snapshot point 0");
    si_check_destroy(c);
    history[2].validated = false;
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 3, 7, 0, text, sizeof text),
                 "lost update: commit 3 (snapshot 0) overwrote 0x100, which commit 2 committed after its snapshot");
}

/* Both read X and Y on snapshot 0; T1 writes X, T2 writes Y: no common
 * write (plain SI commits both), two rw edges. */
static void rejects_write_skew(void)
{
    char text[1024];
    const tx history[] = {{1, 0, false, 2, 1, {X, 0, Y, 0, X, 1}}, {2, 0, false, 2, 1, {X, 0, Y, 0, Y, 1}}};
    CHECK(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 2, 1, 1, text, sizeof text) == NULL);
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 2, 1, 1, text, sizeof text),
                 "dependency cycle (write skew, 2 transactions): commit 1 -rw 0x104-> commit 2 -rw 0x100-> commit 1");
}

/* Fekete, O'Neil, O'Neil (2004): T2 reads X, Y on snapshot 0 and writes X
 * (commit 2); T1 writes Y (commit 1); read-only T3 on snapshot 1 sees T1's
 * Y but not T2's X. T2 -rw Y-> T1 -wr Y-> T3 -rw X-> T2. */
static void rejects_read_only_anomaly(void)
{
    char text[1024];
    const tx history[] = {{2, 0, false, 2, 1, {X, 0, Y, 0, X, 0xFFFFFFF5}},
                          {1, 0, false, 1, 1, {Y, 0, Y, 20}},
                          {0, 1, false, 2, 0, {X, 0, Y, 20}}};
    CHECK(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 3, 0xFFFFFFF5, 20, text, sizeof text) == NULL);
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 3, 0xFFFFFFF5, 20, text, sizeof text),
                 "dependency cycle (read-only anomaly, 3 transactions): ");
    CHECK_CONTAINS(text, "commit 2 -rw 0x104-> commit 1");
    CHECK_CONTAINS(text, "commit 1 -wr 0x104-> read-only #2 (snapshot 1)");
    CHECK_CONTAINS(text, "read-only #2 (snapshot 1) -rw 0x100-> commit 2");
    /* Without T3 the rest is serializable (T2, T1). */
    CHECK(verdict(SI_CHECK_SERIALIZABLE, history, 2, 0xFFFFFFF5, 20, text, sizeof text) == NULL);
}

/* Both increment X from snapshot 0: the second overwrites the first. */
static void rejects_lost_update(void)
{
    char text[1024];
    tx history[] = {{1, 0, false, 1, 1, {X, 0, X, 1}}, {2, 0, false, 1, 1, {X, 0, X, 1}}};
    expect_error(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 2, 1, 0, text, sizeof text),
                 "lost update: commit 2 (snapshot 0) overwrote 0x100, which commit 1 committed after its snapshot (first committer wins)");
    /* Validated by value at commit, the second read is stale. */
    history[0].validated = history[1].validated = true;
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 2, 1, 0, text, sizeof text),
                 "stale read: commit 2 read 0x100 = 0x0, its initial value, overwritten before its commit point 1");
}

/* T1 writes X = Y = 1 (commit 1), T2 X = Y = 2 (commit 2). */
static void rejects_torn_snapshot(void)
{
    char text[1024];
    tx history[] = {{1, 0, false, 0, 2, {X, 1, Y, 1}}, {2, 1, false, 0, 2, {X, 2, Y, 2}}, {0, 1, false, 2, 0, {X, 1, Y, 2}}};
    expect_error(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 3, 2, 2, text, sizeof text),
                 "torn snapshot: read-only #2 (snapshot 1) read 0x104 = 0x2, the version commit 2 wrote, newer than its snapshot "
                 "point 1 (in its snapshot the word holds 0x1)");
    /* An old version in one partition: X from before T1. */
    history[2].words[1] = 0;
    history[2].words[3] = 1;
    expect_error(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 3, 2, 2, text, sizeof text),
                 "torn snapshot: read-only #2 (snapshot 1) read 0x100 = 0x0, its initial value, overwritten before its snapshot point 1");
    /* An intermediate version, overwritten before the snapshot. */
    history[2].snapshot = 2;
    history[2].words[1] = 2;
    history[2].words[3] = 1;
    expect_error(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 3, 2, 2, text, sizeof text),
                 "torn snapshot: read-only #2 (snapshot 2) read 0x104 = 0x1, the version commit 1 wrote, overwritten before its "
                 "snapshot point 2");
}

static void rejects_uncommitted_read(void)
{
    char text[1024];
    const tx history[] = {{1, 0, false, 0, 1, {X, 1}}, {2, 1, false, 1, 1, {X, 77, Y, 1}}};
    expect_error(verdict(SI_CHECK_SNAPSHOT_ISOLATION, history, 2, 1, 1, text, sizeof text),
                 "read of uncommitted data: commit 2 read 0x100 = 0x4d, which no committed transaction wrote there");
}

static void rejects_bad_final_memory_and_ids(void)
{
    char text[1024];
    const tx history[] = {{1, 0, false, 0, 1, {X, 1}}, {2, 1, false, 1, 1, {X, 1, X, 2}}};
    CHECK(verdict(SI_CHECK_SERIALIZABLE, history, 2, 2, 0, text, sizeof text) == NULL);
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 2, 1, 0, text, sizeof text),
                 "final memory at 0x100 holds 0x1 but its last version (commit 2) is 0x2 (a lost write)");
    const tx twice[] = {{1, 0, false, 0, 1, {X, 1}}, {1, 0, false, 0, 1, {X, 2}}};
    expect_error(verdict(SI_CHECK_SERIALIZABLE, twice, 2, 2, 0, text, sizeof text),
                 "commit ID 1 was used by two transactions that wrote 0x100");
    const tx own[] = {{3, 3, false, 0, 1, {X, 1}}};
    expect_error(verdict(SI_CHECK_SERIALIZABLE, own, 1, 1, 0, text, sizeof text), "commit 3 has snapshot point 3, not before its own commit");
}

/* A write skew with a third transaction reading both results: the cycle
 * named is the shortest one, not a walk through the reader. */
static void names_the_shortest_cycle(void)
{
    char text[1024];
    /* T1 (commit 1) reads Y = 0, writes X; T2 (commit 2, snapshot 0) reads X = 0, writes Y; T3 (commit 3, snapshot 2) reads X, Y. */
    const tx history[] = {{1, 0, false, 1, 1, {Y, 0, X, 1}}, {2, 0, false, 1, 1, {X, 0, Y, 1}}, {3, 2, false, 2, 1, {X, 1, Y, 1, X, 3}}};
    expect_error(verdict(SI_CHECK_SERIALIZABLE, history, 3, 3, 1, text, sizeof text),
                 "dependency cycle (write skew, 2 transactions): commit 1 -rw 0x104-> commit 2 -rw 0x100-> commit 1");
}

int main(void)
{
    accepts_non_commit_order();
    accepts_validated_aba();
    rejects_write_skew();
    rejects_read_only_anomaly();
    rejects_lost_update();
    rejects_torn_snapshot();
    rejects_uncommitted_read();
    rejects_bad_final_memory_and_ids();
    names_the_shortest_cycle();
    return simtx_test_summary();
}
