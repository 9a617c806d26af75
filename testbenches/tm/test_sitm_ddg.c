/* Unit tests of SITM_Oracle's exact dependency graph (models/tm/lts_table/
 * sitm_ddg.h; ISCA'17 section 6):
 *   - Figure 8 in all six edge orders: the loop verdict comes at the third
 *     edge and never before;
 *   - Figure 9's longer loops (4 and 5 transactions) in every edge order;
 *   - random graphs: a verdict exactly when the edge closes a cycle (checked
 *     by a reference reachability), where post-dating (lts_postdate) gives
 *     early alarms on some of the same graphs;
 *   - per word: write skew (the second write closes the loop), a history
 *     serializable only in an order other than commit order (no alarm),
 *     Fekete's read-only anomaly (the read-only transaction's read closes
 *     it), a write-write loser left out, a commit that reaches the graph
 *     after a read of its version (the edge turned round), pruning. */
#include "lts_postdate.h"
#include "sitm_ddg.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

static sitm_ddg make(unsigned ids)
{
    sitm_ddg g;
    char error[200] = "";
    CHECK(sitm_ddg_init(&g, ids, error, sizeof error));
    for (unsigned i = 0; i < ids; i++) sitm_ddg_begin(&g, i);
    return g;
}

/* Figure 8's edges A T1->T2, B T2->T3, C T3->T1 in the given order: OK,
 * OK, LOOP (no early alarm), as the paper's numbers declare at the third. */
static void figure8(void)
{
    static const unsigned pred[3] = {0, 1, 2}, succ[3] = {1, 2, 0};
    static const unsigned orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (unsigned o = 0; o < 6; o++) {
        sitm_ddg g = make(3);
        for (unsigned k = 0; k < 3; k++) {
            unsigned e = orders[o][k];
            CHECK_EQUAL(sitm_ddg_edge(&g, pred[e], succ[e]), k < 2 ? SITM_DDG_OK : SITM_DDG_LOOP);
        }
        CHECK_EQUAL(g.stats.loops, 1);
        CHECK_EQUAL(g.stats.edges, 2);
        sitm_ddg_release(&g);
    }
}

static bool next_permutation(unsigned *a, unsigned n)
{
    int i = (int)n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return false;
    int j = (int)n - 1;
    while (a[j] <= a[i]) j--;
    unsigned t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (unsigned l = (unsigned)i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

/* Figure 9: a ring of n transactions, every edge order: the last edge closes it. */
static void figure9(unsigned n)
{
    unsigned order[5] = {0, 1, 2, 3, 4}, orders = 0;
    do {
        sitm_ddg g = make(n);
        for (unsigned k = 0; k < n; k++) {
            unsigned e = order[k];
            CHECK_EQUAL(sitm_ddg_edge(&g, e, (e + 1) % n), k + 1 < n ? SITM_DDG_OK : SITM_DDG_LOOP);
        }
        sitm_ddg_release(&g);
        orders++;
    } while (next_permutation(order, n));
    CHECK_EQUAL(orders, n == 4 ? 24u : 120u);
}

/* Reference: whether `to` is reachable from `from` in an adjacency matrix. */
static bool reference_reaches(bool adjacency[8][8], unsigned n, unsigned from, unsigned to)
{
    bool seen[8] = {false};
    unsigned stack[64], depth = 0;
    stack[depth++] = from;
    seen[from] = true;
    while (depth) {
        unsigned u = stack[--depth];
        if (u == to) return true;
        for (unsigned v = 0; v < n; v++)
            if (adjacency[u][v] && !seen[v]) {
                seen[v] = true;
                stack[depth++] = v;
            }
    }
    return false;
}

/* Random graphs of 3-6 transactions and 2-8 edges in random order: the
 * graph's verdict is LOOP exactly when the reference finds the edge closing
 * a cycle; post-dating on the same edges alarms early on some. */
static void random_graphs(void)
{
    uint64_t state = 12345;
    unsigned graphs = 0, loops = 0, postdate_early = 0;
    for (unsigned trial = 0; trial < 20000; trial++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned n = 3 + (unsigned)(state >> 33) % 4, edges = 2 + (unsigned)(state >> 40) % 7;
        sitm_ddg g = make(n);
        lts_postdate t;
        char error[200] = "";
        CHECK(lts_postdate_init(&t, n, 24, 10, error, sizeof error));
        for (unsigned i = 0; i < n; i++) lts_postdate_begin(&t, i);
        bool adjacency[8][8] = {{false}}, postdate_alarmed = false;
        for (unsigned k = 0; k < edges; k++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            unsigned u = (unsigned)(state >> 33) % n, v = (unsigned)(state >> 45) % n;
            if (u == v) continue;
            bool closes = reference_reaches(adjacency, n, v, u);
            sitm_ddg_verdict verdict = sitm_ddg_edge(&g, u, v);
            CHECK_EQUAL(verdict, closes ? SITM_DDG_LOOP : SITM_DDG_OK);
            if (!postdate_alarmed && lts_postdate_edge(&t, u, v) == LTS_LOOP) {
                postdate_alarmed = true;
                if (!closes) postdate_early++;
            }
            if (closes) {
                loops++;
                break; /* the accessor aborts */
            }
            adjacency[u][v] = true;
        }
        graphs++;
        lts_postdate_release(&t);
        sitm_ddg_release(&g);
    }
    CHECK(loops > 1000);
    CHECK(postdate_early > 0); /* post-dating alarms before a cycle closes; the graph never does */
    printf("random graphs: %u, loops %u (each at the closing edge), post-dating's early alarms %u\n", graphs, loops, postdate_early);
}

/* Write skew: T0 and T1 read x and y from the same snapshot, T0 writes x,
 * T1 writes y: T1 -rw-> T0 (x), T0 -rw-> T1 (y) closes the loop at T1's write. */
static void write_skew(void)
{
    sitm_ddg g = make(2);
    enum { X = 100, Y = 101 };
    for (unsigned i = 0; i < 2; i++) sitm_ddg_snapshot(&g, i, 1);
    CHECK_EQUAL(sitm_ddg_read(&g, 0, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_read(&g, 0, Y), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_read(&g, 1, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_read(&g, 1, Y), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 0, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 1, Y), SITM_DDG_LOOP);
    CHECK(sitm_ddg_doomed(&g, 1));
    CHECK(!sitm_ddg_doomed(&g, 0));
    sitm_ddg_abort(&g, 1);
    sitm_ddg_commit(&g, 0, 1);
    sitm_ddg_release(&g);
}

/* T0 reads x from snapshot 1; T1 writes x and commits (ID 1); T0 then
 * writes y and commits (ID 2): serial T0, T1, not commit order: no alarm. */
static void not_commit_order(void)
{
    sitm_ddg g = make(2);
    enum { X = 7, Y = 8 };
    sitm_ddg_snapshot(&g, 0, 1);
    sitm_ddg_snapshot(&g, 1, 1);
    CHECK_EQUAL(sitm_ddg_read(&g, 0, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 1, X), SITM_DDG_OK);
    sitm_ddg_commit(&g, 1, 1);
    CHECK_EQUAL(sitm_ddg_write(&g, 0, Y), SITM_DDG_OK);
    sitm_ddg_commit(&g, 0, 2);
    CHECK_EQUAL(g.stats.loops, 0);
    CHECK_EQUAL(g.stats.doomed, 0);
    sitm_ddg_release(&g);
}

/* Fekete's read-only anomaly: T2 reads x, y and writes x; T1 writes y and
 * commits (T2 -rw-> T1); the read-only T3 starts after it, reads y (T1
 * -wr-> T3) and then x, which T2 is writing (T3 -rw-> T2): the loop closes
 * at the read-only transaction's read. */
static void read_only_anomaly(void)
{
    sitm_ddg g;
    char error[200] = "";
    CHECK(sitm_ddg_init(&g, 4, error, sizeof error));
    enum { X = 1, Y = 2 };
    sitm_ddg_begin(&g, 2);
    sitm_ddg_begin(&g, 1);
    sitm_ddg_snapshot(&g, 2, 1);
    sitm_ddg_snapshot(&g, 1, 1);
    CHECK_EQUAL(sitm_ddg_read(&g, 2, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_read(&g, 2, Y), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 2, X), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 1, Y), SITM_DDG_OK);
    sitm_ddg_commit(&g, 1, 1);
    sitm_ddg_begin(&g, 3);
    sitm_ddg_snapshot(&g, 3, 2);
    CHECK_EQUAL(sitm_ddg_read(&g, 3, Y), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_read(&g, 3, X), SITM_DDG_LOOP);
    sitm_ddg_release(&g);
}

/* Two writers of x from snapshot 1: the first commits, the second is left
 * out (the commit units abort it); a writer that began after the commit
 * follows it (ww) without doom. */
static void write_write(void)
{
    sitm_ddg g = make(3);
    sitm_ddg_snapshot(&g, 0, 1);
    sitm_ddg_snapshot(&g, 1, 1);
    CHECK_EQUAL(sitm_ddg_write(&g, 0, 5), SITM_DDG_OK);
    CHECK_EQUAL(sitm_ddg_write(&g, 1, 5), SITM_DDG_OK); /* no single-writer rule */
    sitm_ddg_commit(&g, 0, 1);
    CHECK(sitm_ddg_doomed(&g, 1));
    CHECK_EQUAL(g.stats.doomed, 1);
    sitm_ddg_snapshot(&g, 2, 2);
    CHECK_EQUAL(sitm_ddg_write(&g, 2, 5), SITM_DDG_OK);
    CHECK(!sitm_ddg_doomed(&g, 2));
    sitm_ddg_abort(&g, 1);
    sitm_ddg_commit(&g, 2, 2);
    CHECK_EQUAL(g.stats.doom_misses, 0);
    sitm_ddg_release(&g);
}

/* T1 wrote x and committed with ID 1, but its commit reaches the graph only
 * after T3 (snapshot 2: it saw T1) read x: the edge T3 -> T1 taken then
 * turns round to T1 -> T3. */
static void late_commit(void)
{
    sitm_ddg g = make(4);
    sitm_ddg_snapshot(&g, 1, 1);
    CHECK_EQUAL(sitm_ddg_write(&g, 1, 9), SITM_DDG_OK);
    sitm_ddg_snapshot(&g, 3, 2);
    CHECK_EQUAL(sitm_ddg_read(&g, 3, 9), SITM_DDG_OK);
    sitm_ddg_commit(&g, 1, 1);
    CHECK_EQUAL(g.stats.flips, 1);
    CHECK_EQUAL(g.stats.late_loops, 0);
    sitm_ddg_release(&g);
}

/* A long run of transactions in turn keeps the graph small. */
static void pruning(void)
{
    sitm_ddg g;
    char error[200] = "";
    CHECK(sitm_ddg_init(&g, 2, error, sizeof error));
    uint32_t cid = 1;
    for (unsigned i = 0; i < 10000; i++) {
        unsigned id = i % 2;
        sitm_ddg_begin(&g, id);
        sitm_ddg_snapshot(&g, id, cid);
        CHECK_EQUAL(sitm_ddg_read(&g, id, i % 13), SITM_DDG_OK);
        CHECK_EQUAL(sitm_ddg_write(&g, id, i % 7), SITM_DDG_OK);
        sitm_ddg_commit(&g, id, cid++);
    }
    CHECK(g.stats.nodes_peak <= SITM_DDG_RETAIN + 4);
    CHECK(g.stats.pruned >= 10000 - SITM_DDG_RETAIN - 4);
    CHECK_EQUAL(g.stats.stale_snapshots, 0);
    /* An attempt from a snapshot below a pruned position is counted. */
    sitm_ddg_begin(&g, 0);
    sitm_ddg_snapshot(&g, 0, 3);
    CHECK_EQUAL(g.stats.stale_snapshots, 1);
    char bad[100] = "";
    sitm_ddg none;
    CHECK(!sitm_ddg_init(&none, 0, bad, sizeof bad));
    CHECK_CONTAINS(bad, "ids");
    sitm_ddg_release(&g);
}

int main(void)
{
    figure8();
    figure9(4);
    figure9(5);
    random_graphs();
    write_skew();
    not_commit_order();
    read_only_anomaly();
    write_write();
    late_commit();
    pruning();
    return simtx_test_summary();
}
