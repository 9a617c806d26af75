/* tmu_commit_per_tx: KILO TM's commit: per transaction, its log messages, TM_LOG_DONE and decision to each partition it touches. */
#include "tmu_internal.h"

/* KILO TM's log transfer: per committing lane with a commit ID (one
 * transaction), through the shared walker. */
static void send_logs(tmu *u, tmu_warp *w, uint32_t warp)
{
    tm_walk_tx txs[TMU_MAX_LANES];
    uint8_t lane_of[TMU_MAX_LANES];
    uint64_t involved[TMU_MAX_LANES];
    uint32_t count = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (!w->lane[l].cid) continue;
        lane_of[count] = (uint8_t)l;
        txs[count++] = tmu_walk_tx(&w->lane[l]);
    }
    tmu_walk walk = {u, w, warp, lane_of, false};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_logs_per_tx(&walker, txs, count, involved);
    for (uint32_t i = 0; i < count; i++) w->lane[lane_of[i]].involved |= involved[i];
}

/* Every outcome of the lane is in: its decision to each partition it involved. */
static void send_decision(tmu *u, tmu_warp *w, uint32_t warp, uint32_t l)
{
    tmu_lane *lane = &w->lane[l];
    tmu_walk walk = {u, w, warp, NULL, false};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_decision(&walker, l, lane->cid, lane->passed, lane->involved);
}

static bool per_tx_response(tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    tmu_lane *lane = &w->lane[l];
    switch (kind) {
    case TMU_KIND_OUTCOME:
        if (msg->aux != TM_OUTCOME_PASS) lane->passed = false;
        if (--lane->outcomes_pending == 0) send_decision(u, w, warp, l);
        return true;
    case TMU_KIND_DECISION:
        if (--lane->acks_pending == 0 && --w->unresolved == 0) tmu_finish_commit(u, w, warp, now);
        return true;
    default: return false;
    }
}

const tmu_commit_policy tmu_commit_per_tx = {"per_tx", send_logs, per_tx_response};
