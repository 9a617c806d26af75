/* tm_commit_coalesced: Warp TM's commit: the warp's consecutive commit IDs share log messages, TM_LOG_DONEs and one decision per partition. */
#include "core_internal.h"

/* Warp TM's log transfer: the warp's commit IDs are consecutive (in rank
 * order), so the shared walker coalesces their messages; the partitions
 * that got a TM_LOG_DONE get the decision. */
static void send_logs_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    tm_walk_tx txs[MAX_LANES];
    uint64_t involved[MAX_LANES];
    for (uint32_t r = 0; r < tx->cid_count; r++) txs[r] = tm_core_walk_tx(&tx->lane[tx->lane_of_rank[r]]);
    tx->dones_pending = 0;
    tm_core_walk walk = {c, tx, warp_index, tx->lane_of_rank, true};
    tm_walker walker = tm_core_walker(c, &walk);
    tx->decision_partitions = tm_walk_logs_coalesced(&walker, txs, tx->cid_count, involved);
    for (uint32_t r = 0; r < tx->cid_count; r++) tx->lane[tx->lane_of_rank[r]].involved |= involved[r];
}

/* Every coalesced outcome is in: one TM_DECISION per partition with entries. */
static void send_decisions_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    uint64_t commit_mask = 0;
    for (uint32_t r = 0; r < tx->cid_count; r++)
        if (tx->lane[tx->lane_of_rank[r]].passed) commit_mask |= 1ull << r;
    tx->acks_pending = 0;
    tm_core_walk walk = {c, tx, warp_index, NULL, true};
    tm_walker walker = tm_core_walker(c, &walk);
    tm_walk_decisions_coalesced(&walker, tx->first_cid, tx->cid_count, commit_mask, tx->decision_partitions);
}

static bool coalesced_response(simt_core *c, warp *w, uint32_t warp_index, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    tx_warp *tx = w->tx;
    switch (kind) {
    case TM_KIND_WARP_OUTCOME: /* l: the first rank of the window */
        for (uint32_t r = l; r < tx->cid_count && r < l + TM_MAX_ENTRIES_PER_MSG; r++)
            if (!((msg->aux >> (r - l)) & 1)) tx->lane[tx->lane_of_rank[r]].passed = false;
        if (--tx->dones_pending == 0) send_decisions_coalesced(c, w, warp_index);
        return true;
    case TM_KIND_WARP_DECISION:
        if (--tx->acks_pending == 0) tm_core_finish_commit(c, w, warp_index, now);
        return true;
    default: return false;
    }
}

const tm_commit_policy tm_commit_coalesced = {"coalesced", send_logs_coalesced, coalesced_response};
