/* tmu_tx: the tx.h events (TX_BEGIN, TX_COMMIT, TX_ROLLBACK, TX_RESUME), the commit's
 * common steps (pre-commit chain, commit IDs, the outcome) and the dispatch
 * of the memory side's TM responses to the policy slots. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tmu_internal.h"

#define MAX_WARPS 0x10000u /* the warp field of a TM protocol id */

static void lane_reset(tmu_lane *lane)
{
    lane->reads.count = lane->writes.count = 0;
    lane->cid = 0;
    lane->passed = true;
    lane->check_committed = false;
    lane->unvalidated = false;
    lane->serial_after = 0;
    lane->abort_cause = NULL;
    lane->paused = false;
    lane->pauses = 0;
}

/* The warp's state, allocated at its first event; NULL after a failure. */
static tmu_warp *warp_state(tmu *u, int32_t warp)
{
    if (warp < 0 || (uint32_t)warp >= MAX_WARPS) {
        tmu_fail(u, "a tx.h event names warp %d (0..%u)", warp, MAX_WARPS - 1);
        return NULL;
    }
    if ((uint32_t)warp >= u->warp_count) {
        size_t capacity = u->warp_count;
        tmu_warp **warps = simtx_array_reserve(u->warps, &capacity, (size_t)warp + 1, sizeof *warps, 64);
        if (!warps) {
            tmu_fail(u, "out of memory for warp state");
            return NULL;
        }
        memset(warps + u->warp_count, 0, (capacity - u->warp_count) * sizeof *warps);
        u->warps = warps;
        u->warp_count = (uint32_t)capacity;
    }
    if (!u->warps[warp]) {
        tmu_warp *w = calloc(1, sizeof *w);
        if (!w) {
            tmu_fail(u, "out of memory for warp state");
            return NULL;
        }
        u->warps[warp] = w;
    }
    return u->warps[warp];
}

/* The answer to a tx.h event, ready at now + 1. */
static void answer(tmu *u, const simtx_msg *request, simtx_status status, const void *data, uint32_t size, uint64_t now)
{
    simtx_msg response;
    simtx_msg_copy_header(&response, request);
    simtx_msg_make_response(&response, status);
    response.size = size;
    if (size) memcpy(response.data, data, size);
    tmu_queue_push(u, &u->to_core, &response, now + 1);
}

/* The answer to TX_BEGIN or TX_RESUME: the attempt may run, and its
 * accesses may pause lanes when a filter pauses (tx.h 2). */
static void answer_start(tmu *u, const simtx_msg *request, uint64_t now)
{
    simtx_msg response;
    simtx_msg_copy_header(&response, request);
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    response.size = 0;
    if (u->may_pause) response.flags |= SIMTX_FLAG_TX_PAUSE;
    tmu_queue_push(u, &u->to_core, &response, now + 1);
}

static void begin(tmu *u, tmu_warp *w, uint32_t warp, const simtx_msg *msg, uint64_t now)
{
    if (w->phase != TMU_IDLE || w->paused) {
        tmu_fail(u, "TX_BEGIN of warp %u while its transaction runs or lanes 0x%llx are paused", warp, (unsigned long long)w->paused);
        return;
    }
    w->lanes = msg->lane_mask;
    w->core = msg->core;
    w->cta = msg->cta;
    for (uint64_t m = msg->lane_mask; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        lane_reset(lane);
        lane->ended_cid = 0;
        lane->attempts = msg->aux ? lane->attempts + 1 : 0; /* a re-run holds the lanes that failed */
    }
    u->probes.tx_warps++;
    w->read_stamp = UINT32_MAX;
    w->log_position = 0;
    w->aborted = w->committing = 0;
    w->attempt = (uint32_t)msg->aux;
    w->begin_holds = 0;
    for (uint32_t i = 0; i < u->filter_count; i++)
        w->begin_holds += u->filter[i]->begin && u->filter[i]->begin(u->filter_state[i], u, warp, msg->lane_mask, now);
    if (w->begin_holds) { /* a filter fetches what the attempt needs first */
        w->phase = TMU_STARTING;
        simtx_msg_copy_header(&w->begin_event, msg);
        return;
    }
    w->phase = TMU_RUNNING;
    answer_start(u, msg, now);
}

void tmu_begin_ready(tmu *u, uint32_t warp, uint64_t now)
{
    tmu_warp *w = warp < u->warp_count ? u->warps[warp] : NULL;
    if (!w || w->phase != TMU_STARTING || !w->begin_holds) {
        tmu_fail(u, "a filter released TX_BEGIN of warp %u, which it does not hold", warp);
        return;
    }
    if (--w->begin_holds) {
        for (uint32_t i = 0; i < u->filter_count; i++)
            if (u->filter[i]->begin_released) u->filter[i]->begin_released(u->filter_state[i], u, warp, now);
        return;
    }
    w->phase = TMU_RUNNING;
    answer_start(u, &w->begin_event, now);
}

/* TX_RESUME (tx.h 5): paused lanes run again from their access, their logs
 * back at the log index (nothing was appended to them while they waited;
 * the truncation keeps that so). The warp's read stamp still holds their
 * earlier reads. */
static void resume(tmu *u, tmu_warp *w, uint32_t warp, const simtx_msg *msg, uint64_t now)
{
    uint64_t lanes = msg->lane_mask;
    if (w->phase != TMU_IDLE || !lanes || (lanes & ~w->paused)) {
        tmu_fail(u, "TX_RESUME of warp %u for lanes 0x%llx: not paused lanes (0x%llx), or while an attempt runs", warp,
                 (unsigned long long)lanes, (unsigned long long)w->paused);
        return;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        if (lane->pause_index != msg->transaction_id) {
            tmu_fail(u, "TX_RESUME of warp %u: log index %u, lane %d paused at %u", warp, msg->transaction_id,
                     __builtin_ctzll(m), lane->pause_index);
            return;
        }
        lane->reads.count = lane->pause_reads;
        lane->writes.count = lane->pause_writes;
        lane->paused = false;
    }
    unsigned count = (unsigned)__builtin_popcountll(lanes);
    w->paused &= ~lanes;
    w->lanes = lanes;
    w->log_position = msg->transaction_id;
    w->phase = TMU_RUNNING;
    u->probes.tx_warps++;
    u->probes.paused_lanes -= count;
    u->stats.resumes++;
    answer_start(u, msg, now);
}

/* `lanes` left the attempt (committed, failed, rolled back or aborted): the filters hear it. */
static void lanes_left(tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->attempt_ended) u->filter[i]->attempt_ended(u->filter_state[i], u, warp, lanes, now);
}

/* The attempt ends (committed, failed or rolled back) for `lanes`. */
static void attempt_ended(tmu *u, tmu_warp *w, uint32_t warp, uint64_t lanes, uint64_t now)
{
    lanes_left(u, warp, lanes, now);
    w->phase = TMU_IDLE;
    if (u->probes.tx_warps) u->probes.tx_warps--;
}

uint64_t tmu_abort_lanes(tmu *u, tmu_warp *w, uint32_t warp, uint64_t lanes, uint64_t *cause, unsigned tx_cause, uint64_t now)
{
    /* A committing attempt's outcome is its commit's: lanes at TX_COMMIT
     * are refused in every phase, its pre-commit checks included (they run
     * in the running phase and read the lanes' logs). */
    lanes &= w->lanes & ~w->committing;
    if (w->phase != TMU_RUNNING || !lanes) return 0;
    unsigned count = (unsigned)__builtin_popcountll(lanes);
    u->stats.aborts += count;
    if (cause) *cause += count;
    for (uint64_t m = lanes; m; m &= m - 1) lane_reset(&w->lane[__builtin_ctzll(m)]);
    w->lanes &= ~lanes;
    w->aborted |= lanes;
    if (w->lanes) lanes_left(u, warp, lanes, now);
    else attempt_ended(u, w, warp, lanes, now); /* no lane runs on: the core settles the transaction (resume or re-run) */
    simtx_msg abort;
    simtx_msg_init(&abort, SIMTX_OP_TX_ABORT, 0, 0);
    abort.lane_mask = lanes;
    abort.aux = tx_cause;
    abort.transaction_id = w->attempt;
    abort.warp = (int32_t)warp;
    abort.core = w->core;
    abort.cta = w->cta;
    abort.id = SIMTX_OP_TX_ABORT;
    tmu_queue_push(u, &u->events, &abort, now);
    return lanes;
}

uint64_t tmu_filter_id(uint32_t filter_index, uint32_t warp, uint32_t lane)
{
    return tmu_id(TMU_KIND_FILTER + filter_index, warp, lane, 0);
}

static void rollback(tmu *u, tmu_warp *w, uint32_t warp, const simtx_msg *msg, uint64_t now)
{
    if (w->phase != TMU_RUNNING || w->in_flight || (msg->lane_mask & ~(w->lanes | w->aborted))) {
        tmu_fail(u, "TX_ROLLBACK of warp %u outside a running attempt of its lanes, or with accesses in flight", warp);
        return;
    }
    unsigned count = (unsigned)__builtin_popcountll(msg->lane_mask & ~w->aborted); /* aborted ones were counted */
    u->stats.aborts += count;
    if (msg->aux == TX_ROLLBACK_TIMEOUT) u->stats.aborts_timeout += count;
    else u->stats.aborts_fault += count;
    for (uint64_t m = msg->lane_mask; m; m &= m - 1) lane_reset(&w->lane[__builtin_ctzll(m)]);
    attempt_ended(u, w, warp, msg->lane_mask & ~w->aborted, now); /* the aborted ones left at their TX_ABORT */
    answer(u, msg, SIMTX_STATUS_OK, NULL, 0, now);
}

static void commit(tmu *u, tmu_warp *w, uint32_t warp, const simtx_msg *msg, uint64_t now)
{
    if (w->phase == TMU_IDLE && msg->lane_mask && !(msg->lane_mask & ~w->aborted)) {
        /* tx.h 6: it crossed the TX_ABORT that took every lane (the attempt is over here):
         * answered with them all in retry, counted at the TX_ABORT */
        tx_outcome outcome = {0, msg->lane_mask, TX_SERIALIZE_NONE};
        answer(u, msg, SIMTX_STATUS_OK, &outcome, sizeof outcome, now);
        return;
    }
    if (w->phase != TMU_RUNNING || w->in_flight || (msg->lane_mask & ~(w->lanes | w->aborted))) {
        tmu_fail(u, "TX_COMMIT of warp %u outside a running attempt of its lanes, or with accesses in flight (tx.h 3)", warp);
        return;
    }
    simtx_msg_copy_header(&w->commit_event, msg);
    w->committing = msg->lane_mask;
    w->commit_start = now;
    w->check_cycles = 0;
    u->probes.committing++;
    /* lanes a filter aborted before the core heard of it retry */
    for (uint64_t m = msg->lane_mask; m; m &= m - 1) w->lane[__builtin_ctzll(m)].passed = !(w->aborted >> __builtin_ctzll(m) & 1);
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->commit_started) u->filter[i]->commit_started(u->filter_state[i], u, warp, msg->lane_mask, now);
    tmu_precommit_continue(u, w, warp, 0, now);
}

void tmu_tx_event(tmu *u, const simtx_msg *msg, uint64_t now)
{
    tmu_warp *w = warp_state(u, msg->warp);
    if (!w) return;
    uint32_t warp = (uint32_t)msg->warp;
    switch (msg->op) {
    case SIMTX_OP_TX_BEGIN: begin(u, w, warp, msg, now); break;
    case SIMTX_OP_TX_COMMIT: commit(u, w, warp, msg, now); break;
    case SIMTX_OP_TX_ROLLBACK: rollback(u, w, warp, msg, now); break;
    case SIMTX_OP_TX_RESUME: resume(u, w, warp, msg, now); break;
    default: answer(u, msg, SIMTX_STATUS_COMMAND_ERROR, NULL, 0, now); break; /* TX_ABORT comes from the unit, never to it */
    }
}

/* Every committing lane is resolved: committed lanes leave, the others
 * retry (TX_COMMIT's response carries the tx_outcome). */
bool tmu_start_timed_check(tmu *u, tmu_warp *w, uint32_t next_stage, uint64_t cycles, uint64_t now)
{
    uint64_t beyond = cycles > w->check_cycles ? cycles - w->check_cycles : 0;
    if (!beyond) return false;
    w->check_cycles += beyond;
    w->check_done_at = now + beyond;
    w->phase = TMU_CONFLICT_CHECK;
    w->precommit_resume = next_stage;
    u->timed_checks++;
    return true;
}

uint64_t tmu_timed_checks_cycle(tmu *u, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    for (uint32_t i = 0; u->timed_checks && i < u->warp_count; i++) {
        tmu_warp *w = u->warps[i];
        if (!w || w->phase != TMU_CONFLICT_CHECK) continue;
        if (w->check_done_at > now) {
            if (w->check_done_at < next) next = w->check_done_at;
            continue;
        }
        u->timed_checks--;
        tmu_precommit_continue(u, w, i, w->precommit_resume, now);
        if (w->phase == TMU_CONFLICT_CHECK && w->check_done_at < next) next = w->check_done_at; /* the next check */
    }
    return next;
}

void tmu_finish_commit(tmu *u, tmu_warp *w, uint32_t warp, uint64_t now)
{
    tx_outcome outcome = {0, 0, TX_SERIALIZE_NONE};
    u->stats.commit_cycles += now - w->commit_start;
    simtx_histogram_add(&u->stats.commit_duration, now - w->commit_start);
    if (u->probes.committing) u->probes.committing--;
    unsigned count = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        tmu_lane *lane = &w->lane[l];
        if (lane->passed) {
            outcome.committed |= 1ull << l;
            u->stats.commits++;
            simtx_histogram_add(&u->stats.read_set, lane->reads.count);
            simtx_histogram_add(&u->stats.write_set, lane->writes.count);
            simtx_histogram_add(&u->stats.aborts_per_tx, lane->attempts);
            if (u->recording && (lane->cid || lane->check_committed))
                tmu_record_commit(u, warp, lane, lane->check_committed ? lane->serial_after : lane->cid, lane->check_committed);
        } else {
            outcome.retry |= 1ull << l;
            if (w->aborted >> l & 1) continue; /* counted at its TX_ABORT */
            count++;
            if (lane->abort_cause) (*lane->abort_cause)++; /* a slot's cause */
            else u->stats.aborts_validation++;
        }
    }
    u->stats.aborts += count;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        lane->ended_cid = lane->cid; /* kept past the reset, for SI_END */
    }
    w->committed = outcome.committed; /* for the attempt_ended hooks (which also see the lanes' commit IDs) */
    attempt_ended(u, w, warp, w->committing & ~w->aborted, now);
    for (uint64_t m = w->committing; m; m &= m - 1) lane_reset(&w->lane[__builtin_ctzll(m)]);
    w->committed = w->committing = 0;
    answer(u, &w->commit_event, SIMTX_STATUS_OK, &outcome, sizeof outcome, now);
}

static void emit(void *context, simtx_msg *msg, const tm_walk_event *e)
{
    tmu_walk *walk = context;
    tmu *u = walk->u;
    msg->warp = (int32_t)walk->warp;
    msg->core = walk->w->core;
    if (e->kind == TM_WALK_SKIP) {
        msg->id = tmu_id(TMU_KIND_ACK, walk->warp, 0, e->partition); /* an acknowledgement nobody waits for */
    } else {
        walk->tag(walk, msg, e, walk->lane_of ? walk->lane_of[e->tx] : e->tx);
        if (e->kind != TM_WALK_DECISION) u->stats.log_bytes += tm_walk_log_bytes(msg);
    }
    tmu_push(u, msg);
}

tm_walker tmu_walker(tmu *u, tmu_walk *walk)
{
    return (tm_walker){(unsigned)u->params.partitions, (uint64_t)u->params.interleave, emit, walk};
}

static void request_cids(tmu *u, tmu_warp *w, uint32_t warp, uint32_t wanted)
{
    w->phase = TMU_WAIT_CID;
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = wanted;
    request.lane_mask = w->committing;
    request.warp = (int32_t)warp;
    request.core = w->core;
    request.id = tmu_id(TMU_KIND_CID, warp, 0, 0);
    tmu_push(u, &request);
}

/* Lanes a check committed (TCD) or failed (intra_warp) are resolved; with
 * none left unresolved the commit ends, else the next check runs, and after
 * the last the lanes take commit IDs. */
void tmu_precommit_continue(tmu *u, tmu_warp *w, uint32_t warp, uint32_t stage, uint64_t now)
{
    for (;;) {
        uint32_t wanted = 0;
        for (uint64_t m = w->committing; m; m &= m - 1) {
            const tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
            wanted += lane->passed && !lane->check_committed && (lane->reads.count || lane->writes.count);
        }
        w->unresolved = wanted;
        if (!wanted) {
            tmu_finish_commit(u, w, warp, now);
            return;
        }
        if (stage == u->precommit_count) {
            request_cids(u, w, warp, wanted);
            return;
        }
        const tmu_precommit *check = u->precommit[stage++];
        if (check->check && check->check(u->precommit_state[stage - 1], u, w, warp, stage, now)) return;
    }
}

void tmu_tx_response(tmu *u, const simtx_msg *msg, uint64_t now)
{
    unsigned kind = (unsigned)(msg->id >> 48) & 0xff;
    uint32_t warp = (uint32_t)(msg->id >> 16) & 0xffff, l = (uint32_t)(msg->id >> 8) & 0xff;
    if (msg->status != SIMTX_STATUS_OK) {
        tmu_fail(u, "the memory side answered status %u to a TM %s message at 0x%08" PRIx64 " (are commit units attached? see platforms/parts/tm_lazy.lua)",
                 (unsigned)msg->status, simtx_op_name((simtx_op)msg->op), msg->address);
        return;
    }
    if (kind == TMU_KIND_ACK) return;
    if (kind >= TMU_KIND_FILTER && kind - TMU_KIND_FILTER < u->filter_count) { /* a filter's own request, at any phase */
        const tmu_filter *filter = u->filter[kind - TMU_KIND_FILTER];
        if (filter->response) filter->response(u->filter_state[kind - TMU_KIND_FILTER], u, warp, l, msg, now);
        return;
    }
    tmu_warp *w = warp < u->warp_count ? u->warps[warp] : NULL;
    if (!w || w->phase == TMU_IDLE || (l >= TMU_MAX_LANES && kind != TMU_KIND_LWT)) {
        tmu_fail(u, "unexpected TM response (id 0x%" PRIx64 ")", msg->id);
        return;
    }
    if (kind == TMU_KIND_CID) {
        uint32_t cid = (uint32_t)msg->aux;
        for (uint64_t m = w->committing; m; m &= m - 1) {
            tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
            if (lane->passed && !lane->check_committed && (lane->reads.count || lane->writes.count)) lane->cid = cid++;
        }
        w->phase = TMU_VALIDATING;
        u->commit->send_logs(u->commit_state, u, w, warp);
        return;
    }
    bool handled = u->commit->response(u->commit_state, u, w, warp, kind, l, msg, now);
    for (uint32_t i = 0; !handled && i < u->precommit_count; i++)
        handled = u->precommit[i]->response && u->precommit[i]->response(u->precommit_state[i], u, w, warp, kind, l, msg, now);
    if (!handled) tmu_fail(u, "unexpected TM response kind %u", kind);
}

void tmu_tx_release(tmu *u)
{
    for (uint32_t i = 0; i < u->warp_count; i++) {
        tmu_warp *w = u->warps[i];
        if (!w) continue;
        for (uint32_t l = 0; l < TMU_MAX_LANES; l++) free(w->lane[l].reads.entries), free(w->lane[l].writes.entries);
        free(w);
    }
    free(u->warps);
}
