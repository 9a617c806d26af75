/* Unit tests of SI-TM's logical timestamps (models/tm/lts_table/
 * lts_postdate.h) with the ISCA'17 paper's worked examples:
 *   - Figure 8 in all six edge orders with the text's numbers (A,B,C: T1
 *     (1,11), T2 (12,22), T3 (23,33), the loop at 34 > 11; A,C,B: T3's PDTS
 *     5, the loop at 23 > 5) and the rotations the text calls equivalent;
 *   - Figure 7 AS PRINTED, transcribed below, failing three of those orders
 *     (defect a), missing loops in random graphs even with (a) fixed (defect
 *     b: a lowered CTS), and giving T3 PDTS 6, not the text's 5 (defect c);
 *   - the corrected algorithm never missing a loop in ~12,000 random graphs;
 *   - Figure 9's longer loops (4 and 5 transactions) in every edge order;
 *   - edges to committed transactions, the start clock, and the overflow
 *     reset of section 4.3. */
#include "lts_postdate.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

/* ---- Figure 7 as printed (signed, -1 = none), with switches that apply
 * one fix at a time so that each defect shows on its own. ---- */
typedef struct printed_txn {
    long cts, pdts;
} printed_txn;

typedef struct printed_fixes {
    bool a; /* an unset PDTS is +infinity at line 11 */
    bool b; /* line 20 never lowers CTS */
    bool c; /* midpoint floor((CTS + PDTS - 1) / 2) */
} printed_fixes;

/* Returns true when a loop is declared (line 18). */
static bool printed_edge(printed_txn *pred, printed_txn *succ, printed_fixes fix)
{
    long ts;
    /* 1. OnPredecessorReceivesTS (line 2's committed case is not exercised) */
    if (succ->pdts == -1) {
        if (pred->pdts == -1) pred->pdts = pred->cts + 10;
    } else if (pred->cts >= succ->pdts) {
        if (pred->pdts == -1) pred->pdts = pred->cts + 10;
    } else {
        long midpoint = fix.c ? (pred->cts + succ->pdts - 1) / 2 : (pred->cts + succ->pdts) / 2;
        if (pred->pdts > midpoint || (fix.a && pred->pdts == -1)) pred->pdts = midpoint;
    }
    ts = pred->pdts;
    /* 2. OnSuccessorReceivesTS */
    if (succ->pdts != -1 && ts >= succ->pdts) return true;
    if (!fix.b || ts + 1 > succ->cts) succ->cts = ts + 1;
    return false;
}

/* Figure 8's edges: A T1->T2, B T2->T3, C T3->T1 (transactions 0..2). */
static const unsigned fig8_pred[3] = {0, 1, 2}, fig8_succ[3] = {1, 2, 0};

static lts_postdate make(unsigned count, unsigned bits, uint32_t delta)
{
    lts_postdate t;
    char error[200] = "";
    CHECK(lts_postdate_init(&t, count, bits, delta, error, sizeof error));
    for (unsigned i = 0; i < count; i++) lts_postdate_begin(&t, i);
    return t;
}

static void expect_entry(const lts_postdate *t, unsigned id, uint32_t cts, uint32_t pdts)
{
    CHECK_EQUAL(t->entries[id].cts, cts);
    CHECK_EQUAL(t->entries[id].pdts, pdts);
}

/* Order A,B,C rotated by r (r = 1: B,C,A; r = 2: C,A,B): transaction Ti of
 * the text is (i + r) % 3 here. */
static void figure8_abc(unsigned r)
{
    lts_postdate t = make(3, 24, 10);
    unsigned T1 = r % 3, T2 = (1 + r) % 3, T3 = (2 + r) % 3;
    unsigned e0 = r % 3, e1 = (1 + r) % 3, e2 = (2 + r) % 3;
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[e0], fig8_succ[e0]), LTS_OK);
    expect_entry(&t, T1, 1, 11);
    expect_entry(&t, T2, 12, LTS_UNSET);
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[e1], fig8_succ[e1]), LTS_OK);
    expect_entry(&t, T2, 12, 22);
    expect_entry(&t, T3, 23, LTS_UNSET);
    /* T3 gets PDTS 33; T1 would take CTS 34 > its PDTS 11: the loop. */
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[e2], fig8_succ[e2]), LTS_LOOP);
    expect_entry(&t, T3, 23, 33);
    expect_entry(&t, T1, 1, 11);
    CHECK(t.entries[T3].pdts + 1 == 34 && 34 > t.entries[T1].pdts);
    lts_postdate_release(&t);
}

/* Order A,C,B rotated by r (r = 1: B,A,C; r = 2: C,B,A). */
static void figure8_acb(unsigned r)
{
    lts_postdate t = make(3, 24, 10);
    unsigned T1 = r % 3, T2 = (1 + r) % 3, T3 = (2 + r) % 3;
    unsigned A = r % 3, B = (1 + r) % 3, C = (2 + r) % 3;
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[A], fig8_succ[A]), LTS_OK);
    expect_entry(&t, T1, 1, 11);
    expect_entry(&t, T2, 12, LTS_UNSET);
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[C], fig8_succ[C]), LTS_OK);
    expect_entry(&t, T3, 1, 5); /* the text's "T3's PTDS of 5" (fix c) */
    expect_entry(&t, T1, 6, 11);
    /* T2 gets PDTS 22; T3 would take CTS 23 > its PDTS 5: the loop. */
    CHECK_EQUAL(lts_postdate_edge(&t, fig8_pred[B], fig8_succ[B]), LTS_LOOP);
    expect_entry(&t, T2, 12, 22);
    CHECK(t.entries[T2].pdts + 1 == 23 && 23 > t.entries[T3].pdts);
    lts_postdate_release(&t);
}

/* The printed algorithm on one of Figure 8's orders: true when it declares
 * the loop. */
static bool printed_figure8(const unsigned order[3], printed_fixes fix, printed_txn out[3])
{
    printed_txn tx[3] = {{1, -1}, {1, -1}, {1, -1}};
    bool loop = false;
    for (unsigned k = 0; k < 3 && !loop; k++) loop = printed_edge(&tx[fig8_pred[order[k]]], &tx[fig8_succ[order[k]]], fix);
    if (out) memcpy(out, tx, sizeof tx);
    return loop;
}

static void figure7_as_printed(void)
{
    static const unsigned orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const bool printed_finds[6] = {true, false, false, true, true, false}; /* ABC ACB BAC BCA CAB CBA */
    unsigned missed = 0;
    for (unsigned o = 0; o < 6; o++) {
        bool loop = printed_figure8(orders[o], (printed_fixes){0}, NULL);
        CHECK_EQUAL(loop, printed_finds[o]);
        missed += !loop;
        /* Fix (a) alone finds every order. */
        CHECK(printed_figure8(orders[o], (printed_fixes){.a = true}, NULL));
    }
    CHECK_EQUAL(missed, 3); /* defect (a): ACB, BAC and CBA pass as printed */
    /* As printed, A,C,B leaves T3's PDTS unset after C and T1's CTS at 0. */
    printed_txn tx[3];
    static const unsigned ac[3] = {0, 2, 1};
    printed_figure8(ac, (printed_fixes){0}, tx);
    CHECK_EQUAL(tx[2].pdts, -1);
    /* Defect (c): with (a) fixed, the printed midpoint gives T3 (1,6), T1
     * (7,11); the text says 5, which floor((CTS + PDTS - 1) / 2) gives. */
    printed_txn p[3] = {{1, -1}, {1, -1}, {1, -1}};
    printed_edge(&p[0], &p[1], (printed_fixes){.a = true});
    printed_edge(&p[2], &p[0], (printed_fixes){.a = true});
    CHECK_EQUAL(p[2].pdts, 6);
    CHECK_EQUAL(p[0].cts, 7);
    printed_txn q[3] = {{1, -1}, {1, -1}, {1, -1}};
    printed_edge(&q[0], &q[1], (printed_fixes){.a = true, .c = true});
    printed_edge(&q[2], &q[0], (printed_fixes){.a = true, .c = true});
    CHECK_EQUAL(q[2].pdts, 5);
    CHECK_EQUAL(q[0].cts, 6);
}

/* ---- Random graphs: 3-6 transactions, 2-8 edges, in random order. ---- */
static uint64_t rng_state = 0x5eed5eedULL;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % n);
}

/* Whether `to` reaches `from` over the first k edges. */
static bool reaches(unsigned n, const unsigned *ep, const unsigned *es, unsigned k, unsigned from, unsigned to)
{
    bool seen[8] = {false};
    unsigned stack[64], top = 0;
    stack[top++] = from;
    seen[from] = true;
    while (top) {
        unsigned v = stack[--top];
        if (v == to) return true;
        for (unsigned e = 0; e < k; e++)
            if (ep[e] == v && !seen[es[e]]) {
                seen[es[e]] = true;
                stack[top++] = es[e];
            }
    }
    (void)n;
    return false;
}

typedef struct random_result {
    unsigned graphs, with_loop, missed, early;
} random_result;

/* mode 0: the corrected module; 1: printed with fix (a) only. */
static random_result random_graphs(int mode, unsigned graphs)
{
    random_result r = {0};
    rng_state = 0x5eed5eedULL;
    for (unsigned g = 0; g < graphs; g++) {
        unsigned n = 3 + rnd(4), m = 2 + rnd(7);
        unsigned ep[8], es[8];
        for (unsigned e = 0; e < m; e++) {
            ep[e] = rnd(n);
            do es[e] = rnd(n);
            while (es[e] == ep[e]);
        }
        /* The first edge that closes a cycle (m: none). */
        unsigned closes = m;
        for (unsigned e = 0; e < m && closes == m; e++)
            if (reaches(n, ep, es, e, es[e], ep[e])) closes = e;
        lts_postdate t = make(n, 24, 10);
        printed_txn p[8];
        for (unsigned i = 0; i < n; i++) p[i] = (printed_txn){1, -1};
        unsigned declared = m;
        for (unsigned e = 0; e < m && declared == m; e++) {
            bool loop = mode == 0 ? lts_postdate_edge(&t, ep[e], es[e]) == LTS_LOOP
                                  : printed_edge(&p[ep[e]], &p[es[e]], (printed_fixes){.a = true, .c = true});
            if (loop) declared = e;
        }
        lts_postdate_release(&t);
        r.graphs++;
        if (closes < m) r.with_loop++;
        if (closes < m && declared > closes) r.missed++;
        if (declared < closes) r.early++;
    }
    return r;
}

static void random_loops(void)
{
    random_result fixed = random_graphs(0, 40000);
    random_result printed = random_graphs(1, 40000);
    printf("random graphs: %u, %u with a loop; corrected: %u missed, %u early alarms (%.1f%%); "
           "printed with (a) fixed: %u missed\n",
           fixed.graphs, fixed.with_loop, fixed.missed, fixed.early, 100.0 * fixed.early / fixed.graphs, printed.missed);
    CHECK(fixed.with_loop > 10000);
    CHECK_EQUAL(fixed.missed, 0);                /* the corrected algorithm finds every loop */
    CHECK(printed.missed > 0);                   /* defect (b): a lowered CTS forgets an ordering */
    CHECK(fixed.early * 10 < fixed.graphs);      /* false alarms stay rare (allowed: aborts only) */
}

/* ---- Figure 9: loops of more than three transactions, every edge order. ---- */
static unsigned loops_in_all_orders(unsigned n, uint32_t delta, unsigned *early)
{
    unsigned perm[5] = {0, 1, 2, 3, 4}, found = 0, orders = 0;
    *early = 0;
    /* Heap's algorithm over the n edges Ti -> T(i+1) % n. */
    unsigned c[5] = {0};
    for (unsigned i = 0;;) {
        lts_postdate t = make(n, 24, delta);
        unsigned declared = n;
        for (unsigned k = 0; k < n && declared == n; k++)
            if (lts_postdate_edge(&t, perm[k], (perm[k] + 1) % n) == LTS_LOOP) declared = k;
        lts_postdate_release(&t);
        orders++;
        found += declared < n;
        *early += declared < n - 1;
        while (i < n && c[i] >= i) c[i++] = 0;
        if (i >= n) break;
        unsigned j = i % 2 ? c[i] : 0, tmp = perm[j];
        perm[j] = perm[i];
        perm[i] = tmp;
        c[i]++;
        i = 0;
    }
    CHECK_EQUAL(found, orders);
    return orders;
}

static void figure9(void)
{
    unsigned early4 = 0, early5 = 0;
    CHECK_EQUAL(loops_in_all_orders(4, 10, &early4), 24);
    CHECK_EQUAL(loops_in_all_orders(5, 10, &early5), 120);
    /* Early alarms are allowed (aborts only): an edge whose predecessor
     * already ran past a successor that has successors of its own cannot be
     * post-dated (0->1 and 2->3 first, then 1->2: T1 CTS 12 >= T2 PDTS 11),
     * and with delta 10 the midpoints of a chain post-dated backwards also
     * run out of room (1..11 -> 5 -> 2 -> 1). More room removes only the
     * second kind. */
    unsigned wide4 = 0, wide5 = 0;
    CHECK_EQUAL(loops_in_all_orders(4, 1000, &wide4), 24);
    CHECK_EQUAL(loops_in_all_orders(5, 1000, &wide5), 120);
    printf("figure 9: early alarms, delta 10: %u of 24 orders (4 transactions), %u of 120 (5); delta 1000: %u, %u\n",
           early4, early5, wide4, wide5);
    CHECK(early4 < 24 && early5 < 120);
    CHECK(wide4 <= early4 && wide5 <= early5);
    /* The forward order (0->1, 1->2, ...) never alarms before the last edge. */
    lts_postdate f = make(5, 24, 10);
    for (unsigned k = 0; k < 4; k++) CHECK_EQUAL(lts_postdate_edge(&f, k, k + 1), LTS_OK);
    CHECK_EQUAL(lts_postdate_edge(&f, 4, 0), LTS_LOOP);
    lts_postdate_release(&f);
    /* Figure 9's transitivity invariants along a chain T0 -> T1 -> T2 -> T3
     * post-dated backwards (the hardest order): PDTS_i > CTS_i, CTS_j > PDTS_i. */
    lts_postdate t = make(4, 24, 10);
    for (int k = 2; k >= 0; k--) CHECK_EQUAL(lts_postdate_edge(&t, (unsigned)k, (unsigned)k + 1), LTS_OK);
    for (unsigned i = 0; i < 3; i++) {
        CHECK(t.entries[i].pdts > t.entries[i].cts);
        CHECK(t.entries[i + 1].cts > t.entries[i].pdts);
    }
    CHECK_EQUAL(lts_postdate_edge(&t, 3, 0), LTS_LOOP);
    lts_postdate_release(&t);
}

/* ---- Committed transactions, the start clock, overflow. ---- */
static void committed_and_clock(void)
{
    lts_postdate t = make(3, 24, 10);
    /* T1 -> T0 while both run, T1 commits: as a predecessor it returns
     * PrevTS (Figure 7 line 2); T0 -> T1 then closes the loop at T0. */
    CHECK_EQUAL(lts_postdate_edge(&t, 1, 0), LTS_OK);
    expect_entry(&t, 1, 1, 11);
    expect_entry(&t, 0, 12, LTS_UNSET);
    lts_postdate_commit(&t, 1);
    CHECK_EQUAL(t.entries[1].prev, 1);
    CHECK_EQUAL(t.entries[1].state, LTS_COMMITTED);
    CHECK_EQUAL(t.clock, 1);
    CHECK_EQUAL(lts_postdate_edge(&t, 1, 2), LTS_OK); /* committed pred: T2's CTS = PrevTS + 1 */
    expect_entry(&t, 2, 2, LTS_UNSET);
    CHECK_EQUAL(lts_postdate_edge(&t, 0, 1), LTS_LOOP); /* T0 (CTS 12) cannot precede a point at 1 */
    /* A running predecessor below a committed point gets a PDTS under it. */
    lts_postdate_begin(&t, 0);
    CHECK_EQUAL(t.entries[0].cts, 2); /* clock 1 + 1 */
    lts_postdate_commit(&t, 2);       /* T2 commits at 2 */
    lts_postdate_begin(&t, 1);        /* slot 1's next transaction: CTS 3 */
    CHECK_EQUAL(t.entries[1].cts, 3);
    t.entries[2].prev = 40;           /* a committed point far above */
    t.clock = 40;
    CHECK_EQUAL(lts_postdate_edge(&t, 0, 2), LTS_OK);
    expect_entry(&t, 0, 2, lts_midpoint(2, 40));
    CHECK_EQUAL(lts_postdate_edge(&t, 2, 0), LTS_LOOP); /* committed pred at 40 >= T0's PDTS 20 */
    /* An aborted transaction's edges are ignored; two committed ends too. */
    lts_postdate_abort(&t, 1);
    CHECK_EQUAL(lts_postdate_edge(&t, 0, 1), LTS_IGNORED);
    lts_postdate_commit(&t, 0);
    CHECK_EQUAL(lts_postdate_edge(&t, 0, 2), LTS_IGNORED);
    lts_postdate_retire(&t, 0);
    CHECK_EQUAL(t.entries[0].state, LTS_FREE);
    lts_postdate_release(&t);
}

/* Edges to transactions that left the table, known by their final
 * timestamps: a stale reader orders before the point, a writer after it. */
static void points(void)
{
    lts_postdate t = make(2, 24, 10);
    CHECK_EQUAL(lts_postdate_before_point(&t, 0, 21), LTS_OK); /* T0 (1, unset) before 21: PDTS 10 */
    expect_entry(&t, 0, 1, lts_midpoint(1, 21));
    CHECK_EQUAL(lts_postdate_after_point(&t, 0, 30), LTS_LOOP); /* after 30 but before 21: a loop */
    CHECK_EQUAL(lts_postdate_after_point(&t, 1, 30), LTS_OK);   /* T1 after 30: CTS 31 */
    expect_entry(&t, 1, 31, LTS_UNSET);
    CHECK_EQUAL(lts_postdate_before_point(&t, 1, 31), LTS_LOOP); /* and before 31: a loop */
    lts_postdate_release(&t);
}

static void overflow(void)
{
    /* 5-bit timestamps (max 31), delta 10: T0 (1,11), T1 (12,22), T2 23;
     * T2's PDTS would be 33: overflow, nothing changed; then the reset. */
    lts_postdate t = make(4, 5, 10);
    CHECK_EQUAL(lts_postdate_edge(&t, 0, 1), LTS_OK);
    CHECK_EQUAL(lts_postdate_edge(&t, 1, 2), LTS_OK);
    expect_entry(&t, 2, 23, LTS_UNSET);
    CHECK_EQUAL(lts_postdate_edge(&t, 2, 3), LTS_OVERFLOW);
    expect_entry(&t, 2, 23, LTS_UNSET);
    expect_entry(&t, 3, 1, LTS_UNSET);
    CHECK_EQUAL(t.stats.overflows, 1);
    /* Section 4.3: every running transaction aborts, the timestamps restart. */
    for (unsigned i = 0; i < 4; i++) lts_postdate_abort(&t, i);
    lts_postdate_reset(&t);
    for (unsigned i = 0; i < 4; i++) {
        lts_postdate_begin(&t, i);
        expect_entry(&t, i, 1, LTS_UNSET);
    }
    CHECK_EQUAL(t.clock, 0);
    CHECK_EQUAL(lts_postdate_edge(&t, 2, 3), LTS_OK); /* progress after the reset */
    lts_postdate_release(&t);
    /* Bad parameters name themselves. */
    lts_postdate bad;
    char error[200] = "";
    CHECK(!lts_postdate_init(&bad, 1024, 40, 10, error, sizeof error));
    CHECK_CONTAINS(error, "timestamp_bits");
    CHECK(!lts_postdate_init(&bad, 1024, 24, 0, error, sizeof error));
    CHECK_CONTAINS(error, "delta");
}

int main(void)
{
    for (unsigned r = 0; r < 3; r++) {
        figure8_abc(r);
        figure8_acb(r);
    }
    figure7_as_printed();
    random_loops();
    figure9();
    committed_and_clock();
    points();
    overflow();
    /* Section 4.3: 1024 entries of three 24-bit timestamps = 9 KB (the
     * paper says 12 KB; 1024 * 24 * 3 / 8 = 9216 bytes). */
    CHECK_EQUAL(1024u * 24 * 3 / 8, 9216);
    return simtx_test_summary();
}
