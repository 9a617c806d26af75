/* Unit tests of the snapshot-isolation history checker (verification/
 * si_check): it accepts a history serializable only in an order other than
 * its commit order (which the commit-order replay of tm_oracle rejects) and
 * a validated A-B-A history, and rejects write skew, Fekete's read-only
 * anomaly, a lost update, torn snapshots (newer and older versions), a read
 * of uncommitted data, a lost final write and a reused commit ID, naming
 * the cycle or the transaction and word. Plain SI mode accepts write skew
 * and the read-only anomaly. On 3000 random SI histories its verdict
 * equals a brute force over every serial order. Words: X = 0x100, Y = 0x104, initially 0. */
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


/* Random snapshot-isolated histories of 5 transactions on 3 words (snapshot
 * reads, first committer wins, no blind writes, unique written values),
 * against a brute force over all 120 serial orders: with no blind writes
 * and unique values a history is serializable exactly when some serial
 * order replays every read and the final state, so the checker must accept
 * exactly those in serializable mode, and every one in plain SI mode. */
enum { RANDOM_TXS = 5, RANDOM_WORDS = 3 };

typedef struct random_tx {
    uint32_t commit, snapshot, reads, writes, words[4 * RANDOM_WORDS];
} random_tx;

static bool replays(const random_tx *txs, const int *order, const uint32_t *final)
{
    uint32_t state[RANDOM_WORDS] = {0, 0, 0};
    for (int i = 0; i < RANDOM_TXS; i++) {
        const random_tx *t = &txs[order[i]];
        for (uint32_t r = 0; r < t->reads; r++)
            if (state[(t->words[2 * r] - X) / 4] != t->words[2 * r + 1]) return false;
        for (uint32_t w = 0; w < t->writes; w++) state[(t->words[2 * (t->reads + w)] - X) / 4] = t->words[2 * (t->reads + w) + 1];
    }
    return !memcmp(state, final, sizeof state);
}

static bool some_order_replays(const random_tx *txs, int *order, int k, const uint32_t *final)
{
    if (k == RANDOM_TXS) return replays(txs, order, final);
    for (int i = k; i < RANDOM_TXS; i++) {
        int t = order[k];
        order[k] = order[i], order[i] = t;
        bool ok = some_order_replays(txs, order, k + 1, final);
        order[i] = order[k], order[k] = t;
        if (ok) return true;
    }
    return false;
}

typedef struct three_words {
    uint32_t word[RANDOM_WORDS];
} three_words;

static bool read_three(void *context, uint64_t address, void *data, size_t size)
{
    const three_words *m = context;
    if (size != 4 || address < X || address >= X + 4 * RANDOM_WORDS || address % 4) return false;
    memcpy(data, &m->word[(address - X) / 4], 4);
    return true;
}

static void agrees_with_brute_force(void)
{
    uint64_t seed = 12345;
    unsigned serializable = 0, rejected = 0;
    for (int h = 0; h < 3000; h++) {
        random_tx txs[RANDOM_TXS];
        uint32_t states[RANDOM_TXS + 1][RANDOM_WORDS] = {{0}}; /* the state after each commit */
        uint32_t last_writer[RANDOM_WORDS] = {0, 0, 0};
        for (uint32_t c = 1; c <= RANDOM_TXS; c++) {
            random_tx *t = &txs[c - 1];
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint32_t bits = (uint32_t)(seed >> 33);
            t->commit = c;
            t->snapshot = bits % c; /* 0 .. c - 1 */
            t->reads = t->writes = 0;
            uint32_t read_mask = 1 + (bits >> 4) % 7, write_mask = (bits >> 8) % 8 & read_mask;
            for (uint32_t w = 0; w < RANDOM_WORDS; w++)
                if (write_mask >> w & 1 && last_writer[w] > t->snapshot) write_mask = 0; /* first committer wins: it aborts its writes */
            for (uint32_t w = 0; w < RANDOM_WORDS; w++)
                if (read_mask >> w & 1) {
                    t->words[2 * t->reads] = X + 4 * w;
                    t->words[2 * t->reads + 1] = states[t->snapshot][w];
                    t->reads++;
                }
            memcpy(states[c], states[c - 1], sizeof states[c]);
            for (uint32_t w = 0; w < RANDOM_WORDS; w++)
                if (write_mask >> w & 1) {
                    t->words[2 * (t->reads + t->writes)] = X + 4 * w;
                    t->words[2 * (t->reads + t->writes) + 1] = states[c][w] = 16 * c + w + 1;
                    t->writes++;
                    last_writer[w] = c;
                }
        }
        three_words initial = {{0, 0, 0}}, final;
        memcpy(final.word, states[RANDOM_TXS], sizeof final.word);
        bool verdicts[2];
        for (int mode = 0; mode < 2; mode++) {
            si_check *c = si_check_create(read_three, &initial);
            for (int i = 0; i < RANDOM_TXS; i++)
                CHECK(si_check_add(c, &(si_check_tx){txs[i].commit, txs[i].snapshot, false, txs[i].reads, txs[i].writes, txs[i].words}));
            verdicts[mode] = si_check_run(c, mode ? SI_CHECK_SERIALIZABLE : SI_CHECK_SNAPSHOT_ISOLATION, read_three, &final) == NULL;
            si_check_destroy(c);
        }
        int order[RANDOM_TXS] = {0, 1, 2, 3, 4};
        bool brute = some_order_replays(txs, order, 0, final.word);
        if (!CHECK(verdicts[0]) || !CHECK_EQUAL(verdicts[1], brute)) break;
        serializable += brute;
        rejected += !brute;
    }
    printf("random SI histories: %u serializable, %u not, each as the brute force says\n", serializable, rejected);
    CHECK(serializable > 100 && rejected > 100); /* both kinds were drawn */
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
    agrees_with_brute_force();
    return simtx_test_summary();
}
