/* tmu_commit_coalesced: Warp TM's commit: the warp's consecutive commit IDs share log messages, TM_LOG_DONEs and one decision per partition. */
#include "tmu_internal.h"

/* Warp TM's log transfer: the warp's commit IDs are consecutive (in rank
 * order), so the shared walker coalesces their messages; the partitions
 * that got a TM_LOG_DONE get the decision. */
static void send_logs(tmu *u, tmu_warp *w, uint32_t warp)
{
    tm_walk_tx txs[TMU_MAX_LANES];
    uint64_t involved[TMU_MAX_LANES];
    for (uint32_t r = 0; r < w->cid_count; r++) txs[r] = tmu_walk_tx(&w->lane[w->lane_of_rank[r]]);
    w->dones_pending = 0;
    tmu_walk walk = {u, w, warp, w->lane_of_rank, true};
    tm_walker walker = tmu_walker(u, &walk);
    w->decision_partitions = tm_walk_logs_coalesced(&walker, txs, w->cid_count, involved);
    for (uint32_t r = 0; r < w->cid_count; r++) w->lane[w->lane_of_rank[r]].involved |= involved[r];
}

/* Every coalesced outcome is in: one TM_DECISION per partition with entries. */
static void send_decisions(tmu *u, tmu_warp *w, uint32_t warp)
{
    uint64_t commit_mask = 0;
    for (uint32_t r = 0; r < w->cid_count; r++)
        if (w->lane[w->lane_of_rank[r]].passed) commit_mask |= 1ull << r;
    w->acks_pending = 0;
    tmu_walk walk = {u, w, warp, NULL, true};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_decisions_coalesced(&walker, w->first_cid, w->cid_count, commit_mask, w->decision_partitions);
}

static bool coalesced_response(tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    switch (kind) {
    case TMU_KIND_WARP_OUTCOME: /* l: the first rank of the window */
        for (uint32_t r = l; r < w->cid_count && r < l + TM_MAX_ENTRIES_PER_MSG; r++)
            if (!((msg->aux >> (r - l)) & 1)) w->lane[w->lane_of_rank[r]].passed = false;
        if (--w->dones_pending == 0) send_decisions(u, w, warp);
        return true;
    case TMU_KIND_WARP_DECISION:
        if (--w->acks_pending == 0) tmu_finish_commit(u, w, warp, now);
        return true;
    default: return false;
    }
}

const tmu_commit_policy tmu_commit_coalesced = {"coalesced", send_logs, coalesced_response};
