/* test_abort_filter: the testbenches' filters (test_abort_filter.h). */
#include "test_abort_filter.h"

#include <stdlib.h>

#include "notify.h"
#include "tm_lazy.h"
#include "tmu_internal.h"

test_abort_filter_state *test_abort_filter_last;

static bool test_filter_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)u, (void)error, (void)error_size;
    test_abort_filter_state *s = calloc(1, sizeof *s);
    if (s) s->index = index;
    *state = test_abort_filter_last = s;
    return s != NULL;
}

/* Holds TX_BEGIN until a clock read (a commit-ID request for 0 IDs) answers. */
static bool test_filter_begin(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)lanes, (void)now;
    test_abort_filter_state *s = state;
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = 0;
    request.warp = (int32_t)warp;
    request.id = tmu_filter_id(s->index, warp, 0);
    s->begins++;
    return tmu_push(u, &request);
}

static void test_filter_response(void *state, tmu *u, uint32_t warp, uint32_t lane, const simtx_msg *msg, uint64_t now)
{
    (void)lane;
    ((test_abort_filter_state *)state)->timestamp = (uint32_t)msg->aux + 1000;
    tmu_begin_ready(u, warp, now);
}

static uint64_t test_filter_access(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort)
{
    (void)u, (void)warp, (void)pause;
    test_abort_filter_state *s = state;
    for (uint64_t m = r->lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        if (r->op == SIMTX_OP_READ && r->addresses[l] == TEST_ABORT_TRIGGER && !(s->aborted >> l & 1)) *abort |= 1ull << l;
    }
    s->aborted |= *abort;
    return 2;
}

static void test_filter_forward(void *state, tmu *u, uint32_t warp, const tmu_request *r, simtx_msg *header)
{
    (void)u, (void)warp, (void)r;
    header->flags |= SIMTX_FLAG_SNAPSHOT;
    header->transaction_id = ((test_abort_filter_state *)state)->timestamp;
}

/* A NOTIFY_KIND_TEST naming a warp aborts its lanes in aux (as SI-TM's
 * writer conflicts will arrive); others are only counted. */
static void test_filter_notify(void *state, tmu *u, const simtx_msg *msg, uint64_t now)
{
    test_abort_filter_state *s = state;
    if (msg->id != NOTIFY_KIND_TEST) return;
    s->notifications++;
    uint32_t warp = (uint32_t)msg->warp;
    if (msg->warp >= 0 && warp < u->warp_count && u->warps[warp])
        tmu_abort_lanes(u, u->warps[warp], warp, msg->aux, tmu_abort_cause(u, "test_abort"), TX_ABORT_WRITER_CONFLICT, now);
}

/* A lane's abort once its TX_COMMIT arrived (as a snapshot filter's epoch
 * abort or an SI-TM verdict may come while the pre-commit checks run). */
static void test_filter_commit_started(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    test_abort_filter_state *s = state;
    if (s->abort_at_commit & lanes)
        tmu_abort_lanes(u, u->warps[warp], warp, s->abort_at_commit & lanes, tmu_abort_cause(u, "test_abort"), TX_ABORT_WRITER_CONFLICT, now);
}

static void test_filter_ended(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)u, (void)warp, (void)now;
    ((test_abort_filter_state *)state)->ended += (unsigned)__builtin_popcountll(lanes);
}

static const tmu_filter test_abort_filter = {
    .name = "test_abort",
    .abort_cause = "test_abort",
    .abort_description = "aborts: the test filter's trigger word",
    .tx_abort_cause = TX_ABORT_WRITER_CONFLICT,
    .create = test_filter_create,
    .destroy = free,
    .begin = test_filter_begin,
    .access = test_filter_access,
    .forward = test_filter_forward,
    .response = test_filter_response,
    .notify = test_filter_notify,
    .commit_started = test_filter_commit_started,
    .attempt_ended = test_filter_ended,
};

/* test_abort_first: every lane aborts at the first access of its first
 * attempt when that access is a load, so each such transaction runs twice
 * and a workload's oracle checks the re-runs. */
static uint64_t abort_first_access(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort)
{
    (void)state, (void)pause;
    const tmu_warp *w = u->warps[warp];
    if (r->op != SIMTX_OP_READ || w->log_position) return 0;
    for (uint64_t m = r->lanes; m; m &= m - 1)
        if (!w->lane[__builtin_ctzll(m)].attempts) *abort |= m & -m;
    return 0;
}

static const tmu_filter test_abort_first_filter = {
    .name = "test_abort_first",
    .abort_cause = "test_abort_first",
    .abort_description = "aborts: the test filter's first load of a first attempt",
    .tx_abort_cause = TX_ABORT_EARLY,
    .access = abort_first_access,
};

bool test_abort_filter_register(void) { return tmu_register_filter(&test_abort_filter) && tmu_register_filter(&test_abort_first_filter); }
