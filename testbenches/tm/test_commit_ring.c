/* Unit tests of the commit-ID window (models/tm/commit_unit/commit_ring.h)
 * on its own: the window bounds, opening slots (and refusing an ID whose
 * slot another live ID holds), completeness of a slot's logs, groups,
 * held requests beyond the initial capacity, the work queues, and
 * retirement in ID order that stops at the first live ID and wakes the IDs
 * waiting for a retired one. */
#include "commit_ring.h"
#include "test_support.h"

static void window_and_slots(void)
{
    commit_ring r;
    CHECK(commit_ring_init(&r, 8));
    CHECK_EQUAL(r.retire_cid, 1);
    CHECK_EQUAL(r.hazard_cid, 1);
    CHECK_EQUAL(r.writeback_cid, 1);
    CHECK(!commit_ring_in_window(&r, 0));
    CHECK(commit_ring_in_window(&r, 1));
    CHECK(commit_ring_in_window(&r, 8));
    CHECK(!commit_ring_in_window(&r, 9));

    commit_slot *s = commit_ring_open(&r, 3);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQUAL(s->cid, 3);
        CHECK_EQUAL(s->state, COMMIT_SLOT_FILL);
        CHECK(commit_ring_open(&r, 3) == s);   /* more entries of the same ID */
        CHECK(commit_ring_open(&r, 11) == NULL); /* 11 maps to 3's slot */
        s->expected_reads = 2;
        s->expected_writes = 1;
        s->done_received = true;
        CHECK(!commit_ring_slot_complete(s));
        CHECK(commit_log_append(&s->reads, (tm_entry){0x100, 1}));
        CHECK(commit_log_append(&s->reads, (tm_entry){0x104, 2}));
        CHECK(!commit_ring_slot_complete(s));
        CHECK(commit_log_append(&s->writes, (tm_entry){0x108, 3}));
        CHECK(commit_ring_slot_complete(s));
        for (uint32_t i = 0; i < 40; i++) CHECK(commit_log_append(&s->writes, (tm_entry){4 * i, i})); /* grows */
        CHECK_EQUAL(s->writes.count, 41);
        CHECK_EQUAL(s->writes.entries[40].value, 39);
        s->state = COMMIT_SLOT_SKIP;
        CHECK(commit_ring_open(&r, 3) == NULL); /* skipped: no more entries */
    }
    commit_ring_release(&r);
}

static void groups_and_held(void)
{
    commit_ring r;
    CHECK(commit_ring_init(&r, 4));
    CHECK_EQUAL(r.free_group_count, 8);
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_LOG_DONE, 0, 0);
    int32_t opened[8];
    for (int i = 0; i < 8; i++) {
        request.transaction_id = (uint32_t)i + 1;
        opened[i] = commit_ring_group_open(&r, &request);
    }
    CHECK_EQUAL(r.free_group_count, 0);
    CHECK_EQUAL(opened[0], 0);
    CHECK_EQUAL(r.groups[opened[5]].request.transaction_id, 6);
    commit_ring_group_free(&r, opened[5]);
    CHECK_EQUAL(r.free_group_count, 1);
    request.transaction_id = 99;
    CHECK_EQUAL(commit_ring_group_open(&r, &request), opened[5]);
    CHECK_EQUAL(r.groups[opened[5]].pending, 0);

    for (uint64_t i = 0; i < 100; i++) { /* past the initial 64 */
        simtx_msg q;
        simtx_msg_init(&q, SIMTX_OP_TM_LWT_QUERY, 0, 0);
        q.aux = i;
        CHECK(commit_ring_hold(&r.queries, &q));
    }
    CHECK_EQUAL(r.queries.length, 100);
    commit_ring_unhold(&r.queries, 0);
    commit_ring_unhold(&r.queries, 50);
    CHECK_EQUAL(r.queries.length, 98);
    CHECK_EQUAL(r.queries.messages[0].aux, 1);
    CHECK_EQUAL(r.queries.messages[49].aux, 50);
    CHECK_EQUAL(r.queries.messages[50].aux, 52);
    CHECK_EQUAL(r.queries.messages[97].aux, 99);
    commit_ring_release(&r);
}

static void retirement(void)
{
    commit_ring r;
    CHECK(commit_ring_init(&r, 8));
    /* 1 skipped, 2 done with waiters 5 and 6, 3 still validating; all three
     * written back (or skipped) by the write-back pointer. */
    commit_slot *s1 = commit_ring_slot(&r, 1), *s2 = commit_ring_open(&r, 2), *s3 = commit_ring_open(&r, 3);
    s1->cid = 1;
    s1->state = COMMIT_SLOT_SKIP;
    CHECK(s2 && s3);
    if (!s2 || !s3) return;
    CHECK(commit_log_append(&s2->reads, (tm_entry){0x10, 1}));
    s2->state = COMMIT_SLOT_DONE;
    s2->has_decision = s2->validation_failed = true;
    s2->first_waiter = 5;
    commit_ring_open(&r, 5)->next_waiter = 6;
    commit_ring_open(&r, 6);
    s3->state = COMMIT_SLOT_VALIDATING;
    r.hazard_cid = r.writeback_cid = 4;
    CHECK_EQUAL(commit_ring_retire(&r), 2);
    CHECK_EQUAL(r.retire_cid, 3);
    CHECK_EQUAL(s1->state, COMMIT_SLOT_FREE);
    CHECK_EQUAL(s2->state, COMMIT_SLOT_FREE);
    CHECK_EQUAL(s2->reads.count, 0);
    CHECK(!s2->has_decision && !s2->validation_failed);
    CHECK_EQUAL(s2->first_waiter, 0);
    CHECK_EQUAL(r.validate_length, 2);
    CHECK_EQUAL(commit_ring_next_validation(&r), 5);
    commit_ring_pop_validation(&r);
    CHECK_EQUAL(commit_ring_next_validation(&r), 6);
    commit_ring_pop_validation(&r);
    CHECK_EQUAL(r.validate_length, 0);
    CHECK(commit_ring_in_window(&r, 10)); /* the window moved on */
    CHECK_EQUAL(commit_ring_retire(&r), 0); /* 3 is live */
    s3->state = COMMIT_SLOT_DONE;
    CHECK_EQUAL(commit_ring_retire(&r), 1);
    CHECK_EQUAL(r.retire_cid, 4);
    CHECK_EQUAL(commit_ring_retire(&r), 0); /* nothing written back beyond */
    commit_ring_release(&r);
}

/* The completion queue holds 2 x window IDs, oldest first, and wraps. */
static void completion_queue(void)
{
    commit_ring r;
    CHECK(commit_ring_init(&r, 2));
    for (uint32_t round = 0; round < 3; round++) {
        for (uint32_t i = 1; i <= 4; i++) commit_ring_queue_completion(&r, 10 * round + i);
        CHECK_EQUAL(r.complete_length, 4);
        for (uint32_t i = 1; i <= 3; i++) {
            CHECK_EQUAL(commit_ring_next_completion(&r), 10 * round + i);
            commit_ring_pop_completion(&r);
        }
        CHECK_EQUAL(commit_ring_next_completion(&r), 10 * round + 4);
        commit_ring_pop_completion(&r);
        CHECK_EQUAL(r.complete_length, 0);
    }
    commit_ring_release(&r);
}

int main(void)
{
    completion_queue();
    window_and_slots();
    groups_and_held();
    retirement();
    return simtx_test_summary();
}
