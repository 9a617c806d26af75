/* lts_postdate: SI-TM's logical timestamp table (ISCA'17 section 4.1,
 * Figure 7) as plain data and rules, without timing or messages: one entry
 * per transaction ID (CTS, PDTS, PrevTS), post-dating of one dependency edge
 * pred -> succ at a time, the loop verdict, AtCommitOrAbort and the reset on
 * overflow.
 *
 * This is the CORRECTED algorithm. Figure 7 as printed misses loops; the
 * unit test (testbenches/tm/test_lts_postdate.c) runs the printed code beside
 * this one and shows each defect:
 *   (a) line 11 `if (pred->PDTS > midpoint)` never sets an unset (-1) PDTS,
 *       so 3 of Figure 8's 6 edge orders declare no loop: here an unset PDTS
 *       is +infinity (LTS_UNSET) in every comparison;
 *   (b) line 20 `succ->CTS = ts + 1` may lower a CTS and forget an ordering
 *       learnt earlier: here CTS = max(CTS, ts + 1);
 *   (c) the text's "T3 PDTS 5" (Figure 8, order A,C,B) needs the midpoint
 *       floor((CTS + PDTS - 1) / 2); the printed (CTS + PDTS) / 2 gives 6.
 *
 * What the paper leaves open, decided here (and why):
 *   - A committed transaction is a fixed point at PrevTS (its final CTS).
 *     As a predecessor it returns PrevTS (Figure 7 line 2). As a successor
 *     (a running transaction read a word it overwrote after the reader's
 *     snapshot) the running predecessor must order before that point: its
 *     PDTS drops to the midpoint below PrevTS, and when its CTS is already at
 *     or past PrevTS the edge closes a loop. An edge between two committed
 *     transactions changes nothing (neither can abort).
 *   - AtCommitOrAbort's `ts` is not defined by the paper. A commit freezes
 *     the entry (PrevTS = CTS); an abort frees it (its edges die with it).
 *     lts_begin gives the slot's next transaction CTS = clock + 1, where the
 *     clock is the largest PrevTS committed so far: the tables drop a
 *     committed writer's entries, so the write-read edges from every
 *     transaction committed before a snapshot to its readers are never
 *     reported; starting above all of them orders the new transaction after
 *     them, which is what those edges would have done. Before any commit
 *     this is Figure 8's start (CTS 1, PDTS unset).
 *   - Overflow (section 4.3): a value past 2^bits - 1 is reported; the owner
 *     aborts every running transaction and calls lts_postdate_reset, which
 *     restarts every entry and the clock.
 *   - A midpoint equal to the predecessor's CTS (no room left between two
 *     timestamps) breaks CTS < PDTS: the successor's check then declares a
 *     loop, a false positive the paper allows ("running out of precision"). */
#ifndef SIMTX_LTS_POSTDATE_H
#define SIMTX_LTS_POSTDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LTS_UNSET UINT32_MAX /* Figure 7's -1: no PDTS (compares as +infinity) */

typedef enum lts_state { LTS_FREE, LTS_RUNNING, LTS_COMMITTED } lts_state;

typedef struct lts_entry {
    uint32_t cts, pdts, prev;
    uint8_t state; /* lts_state */
} lts_entry;

typedef enum lts_verdict {
    LTS_OK,       /* the edge is recorded; the invariant holds */
    LTS_LOOP,     /* the edge closes a dependency loop (or precision ran out) */
    LTS_OVERFLOW, /* a timestamp would pass 2^bits - 1: abort all, reset */
    LTS_IGNORED,  /* an end is neither running nor committed, or both committed */
} lts_verdict;

typedef struct lts_postdate_stats {
    uint64_t edges, loops, overflows, ignored, lowered_cts_avoided;
} lts_postdate_stats;

typedef struct lts_postdate {
    lts_entry *entries;
    unsigned count, bits;
    uint32_t delta, max, clock;
    lts_postdate_stats stats;
} lts_postdate;

/* count entries (transaction IDs), bits per timestamp (2..31), delta >= 1.
 * Returns false with a message naming the parameter. */
bool lts_postdate_init(lts_postdate *t, unsigned count, unsigned bits, uint32_t delta, char *error, size_t error_size);
void lts_postdate_release(lts_postdate *t);

/* A transaction starts in slot id: CTS = clock + 1, PDTS unset. */
void lts_postdate_begin(lts_postdate *t, unsigned id);

/* Post-dates the edge pred -> succ (pred must precede succ in a serial
 * order: pred wrote what succ read, or pred read what succ overwrote). On
 * LTS_LOOP the successor's check failed (or, with a committed successor,
 * the predecessor's): the caller aborts one running end, normally the one
 * whose access found the edge. */
lts_verdict lts_postdate_edge(lts_postdate *t, unsigned pred, unsigned succ);

/* Edges to a transaction that committed and left the table, known only by
 * its final timestamp `point` (its PrevTS): the running transaction id must
 * order before it (it read a version the committed one replaced) or after it
 * (it overwrites a word the committed one read). Same verdicts as an edge
 * with a committed end. */
lts_verdict lts_postdate_before_point(lts_postdate *t, unsigned id, uint32_t point);
lts_verdict lts_postdate_after_point(lts_postdate *t, unsigned id, uint32_t point);

/* AtCommitOrAbort: a commit freezes the entry at PrevTS = CTS and raises the
 * clock to it; an abort frees it. */
void lts_postdate_commit(lts_postdate *t, unsigned id);
void lts_postdate_abort(lts_postdate *t, unsigned id);
/* The slot's committed transaction no longer has table entries: free it. */
void lts_postdate_retire(lts_postdate *t, unsigned id);

/* After an overflow, once every running transaction was aborted: every entry
 * and the clock restart. */
void lts_postdate_reset(lts_postdate *t);

/* Figure 8's midpoint (defect c): floor((cts + pdts - 1) / 2). */
static inline uint32_t lts_midpoint(uint32_t cts, uint32_t pdts)
{
    return (uint32_t)(((uint64_t)cts + pdts - 1) / 2);
}

#endif
