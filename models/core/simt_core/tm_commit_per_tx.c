/* tm_commit_per_tx: KILO TM's commit: per transaction, its log messages, TM_LOG_DONE and decision to each partition it touches. */
#include "core_internal.h"

/* KILO TM's log transfer: per committing lane with a commit ID (one
 * transaction), through the shared walker. */
static void send_logs(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    tm_walk_tx txs[MAX_LANES];
    uint8_t lane_of[MAX_LANES];
    uint64_t involved[MAX_LANES];
    uint32_t count = 0;
    for (uint64_t m = tx->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (!tx->lane[l].cid) continue;
        lane_of[count] = (uint8_t)l;
        txs[count++] = tm_core_walk_tx(&tx->lane[l]);
    }
    tm_core_walk walk = {c, tx, warp_index, lane_of, false};
    tm_walker walker = tm_core_walker(c, &walk);
    tm_walk_logs_per_tx(&walker, txs, count, involved);
    for (uint32_t i = 0; i < count; i++) tx->lane[lane_of[i]].involved |= involved[i];
}

/* Every outcome of the lane is in: its decision to each partition it involved. */
static void send_decision(simt_core *c, warp *w, uint32_t warp_index, uint32_t l)
{
    tx_lane *lane = &w->tx->lane[l];
    tm_core_walk walk = {c, w->tx, warp_index, NULL, false};
    tm_walker walker = tm_core_walker(c, &walk);
    tm_walk_decision(&walker, l, lane->cid, lane->passed, lane->involved);
}

static bool per_tx_response(simt_core *c, warp *w, uint32_t warp_index, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    tx_warp *tx = w->tx;
    switch (kind) {
    case TM_KIND_OUTCOME: {
        tx_lane *lane = &tx->lane[l];
        if (msg->aux != TM_OUTCOME_PASS) lane->passed = false;
        if (--lane->outcomes_pending == 0) send_decision(c, w, warp_index, l);
        return true;
    }
    case TM_KIND_DECISION: {
        tx_lane *lane = &tx->lane[l];
        if (--lane->acks_pending == 0 && --tx->unresolved == 0) tm_core_finish_commit(c, w, warp_index, now);
        return true;
    }
    default: return false;
    }
}

const tm_commit_policy tm_commit_per_tx = {"per_tx", send_logs, per_tx_response};
