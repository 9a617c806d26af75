/* The SIMT stack alone: divergence and reconvergence, calls and exits, a
 * transaction's Retry/Transaction entries through commits that fail some
 * lanes and then commit all, and Pause-and-Go's Paused entries as HPCA'16
 * Figures 6 and 7 draw them. */
#include "simt_stack.h"
#include "test_support.h"

enum { EXIT_PC = 0xfffffff0u };

static void test_divergence(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 2)); /* small: pushes must grow it */
    simt_stack_start(&s, 0x100, EXIT_PC, 0xf);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->kind, ENTRY_NORMAL);
    CHECK(simt_stack_top(&s)->is_call);
    /* A branch at 0x104 splits lanes 0-1 (fall through to 0x108) from 2-3
     * (taken to 0x110); both reconverge at 0x120. */
    simt_stack_top(&s)->pc = 0x120;
    CHECK_EQUAL(simt_stack_push(&s, 0x108, 0x120, 0x3, false), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_push(&s, 0x110, 0x120, 0xc, false), SIMT_STACK_OK);
    CHECK_EQUAL(s.depth, 3);
    CHECK(s.capacity >= 3);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x110);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xc);
    /* The taken side reaches the reconvergence point: the other side runs. */
    simt_stack_top(&s)->pc = 0x120;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 2);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x108);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x3);
    /* It reaches it too: the whole warp continues at 0x120. */
    simt_stack_top(&s)->pc = 0x120;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x120);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xf);
    /* Lanes 0-1 exit inside a new divergent region: emptied entries pop. */
    simt_stack_top(&s)->pc = 0x140;
    CHECK_EQUAL(simt_stack_push(&s, 0x124, 0x140, 0x3, false), SIMT_STACK_OK);
    simt_stack_remove_lanes(&s, 0x3);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xc);
    /* The last lanes exit: the warp is finished. */
    simt_stack_remove_lanes(&s, 0xc);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_FINISHED);
    CHECK_EQUAL(s.depth, 0);
    simt_stack_release(&s);
}

static void test_calls_and_broken_return(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 16));
    simt_stack_start(&s, 0x100, EXIT_PC, 0x1);
    /* A call: the caller resumes at 0x108 once the callee returns. */
    simt_stack_top(&s)->pc = 0x108;
    CHECK_EQUAL(simt_stack_push(&s, 0x400, EXIT_PC, 0x1, true), SIMT_STACK_OK);
    CHECK(simt_stack_top(&s)->is_call);
    simt_stack_top(&s)->pc = EXIT_PC; /* return */
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x108);
    /* A return inside a divergent region (reconvergence elsewhere) is an
     * internal error, reported with the entry left on top. */
    CHECK_EQUAL(simt_stack_push(&s, 0x10c, 0x200, 0x1, false), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = EXIT_PC;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_BROKEN);
    CHECK_EQUAL(simt_stack_top(&s)->reconverge, 0x200);
    simt_stack_release(&s);
}

static void test_depth_limit(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 16));
    simt_stack_start(&s, 0x100, EXIT_PC, 0x1);
    simt_stack_status status = SIMT_STACK_OK;
    uint32_t pushes = 0;
    while (status == SIMT_STACK_OK && pushes < 2 * SIMT_STACK_MAX_DEPTH) {
        status = simt_stack_push(&s, 0x400, EXIT_PC, 0x1, true);
        pushes += status == SIMT_STACK_OK;
    }
    CHECK_EQUAL(status, SIMT_STACK_TOO_DEEP);
    CHECK_EQUAL(s.depth, SIMT_STACK_MAX_DEPTH);
    CHECK_EQUAL(pushes, SIMT_STACK_MAX_DEPTH - 1);
    simt_stack_release(&s);
}

static void test_transaction(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 16));
    simt_stack_start(&s, 0x100, EXIT_PC, 0xff);
    simt_stack_top(&s)->pc = 0x200;
    /* tx_begin at 0x200, its tx_commit at 0x240, lanes 0-3 of the warp. */
    uint32_t retry = 0;
    CHECK_EQUAL(simt_stack_open_transaction(&s, 0x200, 0x240, 0x0f, &retry), SIMT_STACK_OK);
    CHECK_EQUAL(retry, 1);
    CHECK_EQUAL(s.depth, 3);
    CHECK_EQUAL(s.entries[0].pc, 0x244); /* the parent continues after tx_commit */
    CHECK_EQUAL(s.entries[retry].kind, ENTRY_RETRY);
    CHECK_EQUAL(s.entries[retry].mask, 0);
    CHECK_EQUAL(s.entries[retry].reconverge, TX_NO_RECONVERGE);
    const stack_entry *attempt = simt_stack_top(&s);
    CHECK_EQUAL(attempt->kind, ENTRY_TRANSACTION);
    CHECK_EQUAL(attempt->pc, 0x204);
    CHECK_EQUAL(attempt->mask, 0x0f);
    CHECK_EQUAL(attempt->reconverge, TX_NO_RECONVERGE);
    CHECK_EQUAL(simt_stack_attempt_lanes(&s, retry), 0x0f);
    /* The attempt diverges inside the transaction (an entry above it). */
    simt_stack_top(&s)->pc = 0x230;
    CHECK_EQUAL(simt_stack_push(&s, 0x210, 0x230, 0x03, false), SIMT_STACK_OK);
    /* The commit: lanes 1 and 3 fail validation and retry; 0 and 2 commit. */
    simt_stack_retry_lanes(&s, retry, 0x0a);
    simt_settle next = SIMT_SETTLE_DONE;
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RERUN);
    CHECK_EQUAL(s.depth, 3);
    CHECK_EQUAL(s.entries[retry].mask, 0);
    CHECK_EQUAL(simt_stack_top(&s)->kind, ENTRY_TRANSACTION);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x204);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x0a);
    /* A doomed attempt of lane 3 aborts while lane 1 commits. */
    simt_stack_retry_lanes(&s, retry, 0x08);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RERUN);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x08);
    /* Every lane committed: the Retry entry pops, the warp goes on after tx_commit. */
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_DONE);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x244);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xff);
    CHECK_EQUAL(simt_stack_top(&s)->kind, ENTRY_NORMAL);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    simt_stack_release(&s);
}

/* An entry's fields at once. */
static void check_entry(const simt_stack *s, uint32_t e, simt_stack_kind kind, uint32_t pc, uint64_t mask, uint32_t log_index)
{
    CHECK(e < s->depth);
    if (e >= s->depth) return;
    CHECK_EQUAL(s->entries[e].kind, kind);
    CHECK_EQUAL(s->entries[e].pc, pc);
    CHECK_EQUAL(s->entries[e].mask, mask);
    if (kind == ENTRY_PAUSED) CHECK_EQUAL(s->entries[e].log_index, log_index);
}

/* Figure 6 (8 threads; x = a[i+1] at 0x108, y = a[i-1] at 0x110, a[i] = z
 * at 0x120, tx_commit at 0x128; 4-byte instructions here, so Retry's pc is
 * 0x104, and the log index is the paper's L + 1: the next position, tx.h 5).
 * 1: the transaction opens; 2: threads 0-3 pause at the load at 0x110 (log
 * index 1) in a new entry below the running one; 3: 4-7 reach tx_commit, 5
 * and 6 fail validation into Retry, 4 and 7 leave, and 0-3 resume at 0x110;
 * 4: they commit but for 1 and 2; 5: Retry's 1, 2, 5, 6 re-run. */
static void test_pause_figure6(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 4)); /* small: the pause must grow it */
    simt_stack_start(&s, 0x100, EXIT_PC, 0xff);
    uint32_t retry = 0;
    CHECK_EQUAL(simt_stack_open_transaction(&s, 0x100, 0x128, 0xff, &retry), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x110; /* 0x108 executed */
    /* state 1 */
    CHECK_EQUAL(s.depth, 3);
    check_entry(&s, 0, ENTRY_NORMAL, 0x12c, 0xff, 0);
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x00, 0);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x110, 0xff, 0);
    /* state 2: the load issued (pc on), then its response paused 0-3 */
    simt_stack_top(&s)->pc = 0x118;
    CHECK_EQUAL(simt_stack_pause(&s, retry, 0x110, 0x0f, 1), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 4);
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x00, 0);
    check_entry(&s, 2, ENTRY_PAUSED, 0x110, 0x0f, 1);
    check_entry(&s, 3, ENTRY_TRANSACTION, 0x118, 0xf0, 0);
    CHECK_EQUAL(simt_stack_attempt_index(&s, retry), 3);
    CHECK_EQUAL(simt_stack_attempt_lanes(&s, retry), 0xf0);
    /* state 3: 4-7 at tx_commit; 5 and 6 fail */
    simt_stack_top(&s)->pc = 0x128;
    simt_stack_retry_lanes(&s, retry, 0x60);
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x60, 0);
    check_entry(&s, 2, ENTRY_PAUSED, 0x110, 0x0f, 1);
    check_entry(&s, 3, ENTRY_TRANSACTION, 0x128, 0xf0, 0);
    simt_settle next = SIMT_SETTLE_DONE;
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RESUME); /* 0-3 continue from 0x110 with their log index */
    CHECK_EQUAL(s.depth, 3);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x110, 0x0f, 0);
    CHECK_EQUAL(simt_stack_top(&s)->log_index, 1);
    CHECK_EQUAL(simt_stack_attempt_lanes(&s, retry), 0x0f);
    /* state 4: 0-3 at tx_commit; 1 and 2 fail */
    simt_stack_top(&s)->pc = 0x128;
    simt_stack_retry_lanes(&s, retry, 0x06);
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x66, 0);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x128, 0x0f, 0);
    /* state 5: Retry is copied into a new Transaction entry */
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RERUN);
    simt_stack_top(&s)->pc = 0x128; /* executed till commit */
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x00, 0);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x128, 0x66, 0);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_DONE);
    check_entry(&s, 0, ENTRY_NORMAL, 0x12c, 0xff, 0);
    CHECK_EQUAL(s.depth, 1);
    simt_stack_release(&s);
}

/* Figure 7: three rounds of pause. 1, 2, 5, 6 pause at 0x128 (log index 4,
 * the paper's 3), 0 and 3 at 0x148 (7: the paper's 6), and 4 and 7 run on
 * to 0x168. The newest pause resumes first, then the oldest, then the
 * transaction ends. */
static void test_pause_figure7(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 16));
    simt_stack_start(&s, 0x100, EXIT_PC, 0xff);
    uint32_t retry = 0;
    CHECK_EQUAL(simt_stack_open_transaction(&s, 0x100, 0x180, 0xff, &retry), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x12c;
    CHECK_EQUAL(simt_stack_pause(&s, retry, 0x128, 0x66, 4), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x14c;
    CHECK_EQUAL(simt_stack_pause(&s, retry, 0x148, 0x09, 7), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x168;
    CHECK_EQUAL(s.depth, 5);
    check_entry(&s, 1, ENTRY_RETRY, 0x104, 0x00, 0);
    check_entry(&s, 2, ENTRY_PAUSED, 0x128, 0x66, 4);
    check_entry(&s, 3, ENTRY_PAUSED, 0x148, 0x09, 7);
    check_entry(&s, 4, ENTRY_TRANSACTION, 0x168, 0x90, 0);
    simt_settle next = SIMT_SETTLE_DONE;
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RESUME);
    CHECK_EQUAL(s.depth, 4);
    check_entry(&s, 3, ENTRY_TRANSACTION, 0x148, 0x09, 0);
    CHECK_EQUAL(simt_stack_top(&s)->log_index, 7);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RESUME);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x128, 0x66, 0);
    CHECK_EQUAL(simt_stack_top(&s)->log_index, 4);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_DONE);
    CHECK_EQUAL(s.depth, 1);
    simt_stack_release(&s);
}

/* Lanes paused inside a divergent path and inside a call keep those
 * entries: 0-3 and 4-7 diverge at 0x140 (reconverging at 0x160); 4-7 call
 * a function at 0x400 from 0x150, where 6 and 7 pause at 0x408. Their
 * segment (the Transaction entry's copy, the path's, the call's) waits
 * below the running entry; the others' emptied nothing, and their call
 * returns and reconverges. On resume 6 and 7 continue in the call, return
 * to 0x154 and reconverge at 0x160 before tx_commit. */
static void test_pause_divergence_and_calls(void)
{
    simt_stack s;
    CHECK(simt_stack_init(&s, 4));
    simt_stack_start(&s, 0x100, EXIT_PC, 0xff);
    uint32_t retry = 0;
    CHECK_EQUAL(simt_stack_open_transaction(&s, 0x100, 0x180, 0xff, &retry), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x160;
    CHECK_EQUAL(simt_stack_push(&s, 0x144, 0x160, 0x0f, false), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_push(&s, 0x150, 0x160, 0xf0, false), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = 0x154; /* the call */
    CHECK_EQUAL(simt_stack_push(&s, 0x40c, EXIT_PC, 0xf0, true), SIMT_STACK_OK); /* after the load at 0x408 */
    CHECK_EQUAL(simt_stack_pause(&s, retry, 0x408, 0xc0, 2), SIMT_STACK_OK);
    CHECK_EQUAL(s.depth, 9);
    check_entry(&s, 2, ENTRY_PAUSED, 0x160, 0xc0, 2);
    check_entry(&s, 3, ENTRY_NORMAL, 0x154, 0xc0, 0);
    check_entry(&s, 4, ENTRY_NORMAL, 0x408, 0xc0, 0);
    CHECK(s.entries[4].is_call);
    CHECK_EQUAL(s.entries[4].reconverge, EXIT_PC);
    check_entry(&s, 5, ENTRY_TRANSACTION, 0x160, 0x3f, 0);
    check_entry(&s, 6, ENTRY_NORMAL, 0x144, 0x0f, 0);
    check_entry(&s, 7, ENTRY_NORMAL, 0x154, 0x30, 0);
    check_entry(&s, 8, ENTRY_NORMAL, 0x40c, 0x30, 0);
    CHECK_EQUAL(simt_stack_attempt_lanes(&s, retry), 0x3f);
    /* 4 and 5 return and reach 0x160, then 0-3 do: the attempt is whole. */
    simt_stack_top(&s)->pc = EXIT_PC;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    simt_stack_top(&s)->pc = 0x160;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    simt_stack_top(&s)->pc = 0x160;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    check_entry(&s, s.depth - 1, ENTRY_TRANSACTION, 0x160, 0x3f, 0);
    simt_stack_top(&s)->pc = 0x180; /* at tx_commit: all commit */
    simt_settle next = SIMT_SETTLE_DONE;
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_RESUME);
    CHECK_EQUAL(s.depth, 5);
    check_entry(&s, 2, ENTRY_TRANSACTION, 0x160, 0xc0, 0);
    CHECK_EQUAL(simt_stack_attempt_index(&s, retry), 2);
    CHECK_EQUAL(simt_stack_attempt_lanes(&s, retry), 0xc0);
    check_entry(&s, 4, ENTRY_NORMAL, 0x408, 0xc0, 0); /* the paused load again, inside the call */
    simt_stack_top(&s)->pc = EXIT_PC; /* the return */
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    check_entry(&s, s.depth - 1, ENTRY_NORMAL, 0x154, 0xc0, 0);
    simt_stack_top(&s)->pc = 0x160;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    check_entry(&s, s.depth - 1, ENTRY_TRANSACTION, 0x160, 0xc0, 0);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x100, &next), SIMT_STACK_OK);
    CHECK_EQUAL(next, SIMT_SETTLE_DONE);
    CHECK_EQUAL(s.depth, 1);
    simt_stack_release(&s);
}

/* CTA barriers count threads: a branch at 0x104 reconverging at 0x200,
 * past a barrier on each side (0x110 for lanes 0-1, 0x140 for lanes 2-3). */
static void test_barrier_in_divergence(void)
{
    simt_stack s;
    uint32_t pc = 0;
    CHECK(simt_stack_init(&s, 4));
    simt_stack_start(&s, 0x100, EXIT_PC, 0xf);
    simt_stack_top(&s)->pc = 0x200;
    CHECK_EQUAL(simt_stack_push(&s, 0x108, 0x200, 0x3, false), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_push(&s, 0x130, 0x200, 0xc, false), SIMT_STACK_OK);
    /* Lanes 2-3 reach their barrier first: lanes 0-1 run next, in their own entry. */
    simt_stack_park_top(&s, 0x144);
    CHECK(simt_stack_run_other_leaf(&s));
    CHECK_EQUAL(s.depth, 3);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x3);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x108);
    CHECK(!simt_stack_top(&s)->at_barrier);
    CHECK(s.entries[1].at_barrier);
    CHECK_EQUAL(s.entries[1].mask, 0xc);
    /* They reach theirs: every lane waits, none past the barrier. */
    simt_stack_park_top(&s, 0x114);
    CHECK(!simt_stack_run_other_leaf(&s));
    CHECK_EQUAL(simt_stack_lanes_past_barrier(&s, EXIT_PC, &pc), 0);
    /* Released: lanes 0-1 (on top) run on, then lanes 2-3, then all at 0x200. */
    simt_stack_release_barrier(&s);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x114);
    simt_stack_top(&s)->pc = 0x200;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xc);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x144);
    simt_stack_top(&s)->pc = 0x200;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xf);

    /* A barrier right before the reconvergence point: its entry stays until
     * the release, then pops. */
    simt_stack_top(&s)->pc = 0x300;
    CHECK_EQUAL(simt_stack_push(&s, 0x208, 0x300, 0x1, false), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_push(&s, 0x280, 0x300, 0xe, false), SIMT_STACK_OK);
    simt_stack_park_top(&s, 0x300);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 3);
    CHECK(simt_stack_run_other_leaf(&s));
    /* Lane 0 skips the barrier and waits at 0x300 to reconverge: past it. */
    simt_stack_top(&s)->pc = 0x300;
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK(simt_stack_top(&s)->at_barrier);
    CHECK(!simt_stack_run_other_leaf(&s));
    CHECK_EQUAL(simt_stack_lanes_past_barrier(&s, EXIT_PC, &pc), 0x1);
    CHECK_EQUAL(pc, 0x300);
    simt_stack_release_barrier(&s);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x300);

    /* Lanes that returned from the kernel (every entry holding them at the
     * exit) have finished: they are not waiting past the barrier. */
    simt_stack_top(&s)->pc = EXIT_PC;
    CHECK_EQUAL(simt_stack_push(&s, 0x308, EXIT_PC, 0x3, false), SIMT_STACK_OK);
    CHECK_EQUAL(simt_stack_push(&s, 0x380, EXIT_PC, 0xc, false), SIMT_STACK_OK);
    simt_stack_top(&s)->pc = EXIT_PC; /* lanes 2-3 return */
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    simt_stack_park_top(&s, 0x310);
    CHECK(!simt_stack_run_other_leaf(&s));
    CHECK_EQUAL(simt_stack_lanes_past_barrier(&s, EXIT_PC, &pc), 0);
    simt_stack_release(&s);
}

int main(void)
{
    test_divergence();
    test_calls_and_broken_return();
    test_depth_limit();
    test_transaction();
    test_pause_figure6();
    test_pause_figure7();
    test_pause_divergence_and_calls();
    test_barrier_in_divergence();
    return simtx_test_summary();
}
