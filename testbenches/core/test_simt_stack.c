/* The SIMT stack alone: divergence and reconvergence, calls and exits, and
 * a transaction's Retry/Transaction entries through commits that fail some
 * lanes and then commit all. */
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
    bool rerun = false;
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &rerun), SIMT_STACK_OK);
    CHECK(rerun);
    CHECK_EQUAL(s.depth, 3);
    CHECK_EQUAL(s.entries[retry].mask, 0);
    CHECK_EQUAL(simt_stack_top(&s)->kind, ENTRY_TRANSACTION);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x204);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x0a);
    /* A doomed attempt of lane 3 aborts while lane 1 commits. */
    simt_stack_retry_lanes(&s, retry, 0x08);
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &rerun), SIMT_STACK_OK);
    CHECK(rerun);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0x08);
    /* Every lane committed: the Retry entry pops, the warp goes on after tx_commit. */
    CHECK_EQUAL(simt_stack_settle_transaction(&s, retry, 0x200, &rerun), SIMT_STACK_OK);
    CHECK(!rerun);
    CHECK_EQUAL(s.depth, 1);
    CHECK_EQUAL(simt_stack_top(&s)->pc, 0x244);
    CHECK_EQUAL(simt_stack_top(&s)->mask, 0xff);
    CHECK_EQUAL(simt_stack_top(&s)->kind, ENTRY_NORMAL);
    CHECK_EQUAL(simt_stack_reconverge(&s, EXIT_PC), SIMT_STACK_RUNNING);
    simt_stack_release(&s);
}

int main(void)
{
    test_divergence();
    test_calls_and_broken_return();
    test_depth_limit();
    test_transaction();
    return simtx_test_summary();
}
