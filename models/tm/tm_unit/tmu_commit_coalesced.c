/* tmu_commit_coalesced: Warp TM's commit: the warp's consecutive commit IDs share log messages, TM_LOG_DONEs and one decision per partition. */
#include "tmu_internal.h"

/* Per warp: its commit IDs first_cid.. in rank (lane) order and the answers awaited. */
typedef struct coalesced_warp {
    uint32_t first_cid, cid_count, dones_pending, acks_pending;
    uint64_t decision_partitions;
    uint8_t lane_of_rank[TMU_MAX_LANES];
} coalesced_warp;

static bool coalesced_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)u, (void)index, (void)error, (void)error_size;
    return (*state = tmu_slot_warps_new(sizeof(coalesced_warp), NULL)) != NULL;
}

static void tag(tmu_walk *walk, simtx_msg *msg, const tm_walk_event *e, uint32_t lane)
{
    (void)lane;
    coalesced_warp *c = walk->policy;
    switch (e->kind) {
    case TM_WALK_LOG:
        for (uint64_t m = e->carried; m; m &= m - 1) msg->lane_mask |= 1ull << c->lane_of_rank[__builtin_ctzll(m)];
        msg->id = tmu_id(TMU_KIND_ACK, walk->warp, 0, e->partition);
        break;
    case TM_WALK_DONE:
        msg->id = tmu_id(TMU_KIND_WARP_OUTCOME, walk->warp, e->tx, e->partition);
        c->dones_pending++;
        break;
    case TM_WALK_DECISION:
        msg->lane_mask = walk->w->committing;
        msg->id = tmu_id(TMU_KIND_WARP_DECISION, walk->warp, 0, e->partition);
        c->acks_pending++;
        break;
    default: break;
    }
}

/* Warp TM's log transfer: the warp's commit IDs are consecutive (in rank
 * order), so the shared walker coalesces their messages; the partitions
 * that got a TM_LOG_DONE get the decision. */
static void send_logs(void *state, tmu *u, tmu_warp *w, uint32_t warp)
{
    coalesced_warp *c = tmu_slot_warp(u, state, warp);
    if (!c) return;
    tm_walk_tx txs[TMU_MAX_LANES];
    uint64_t involved[TMU_MAX_LANES];
    c->cid_count = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (!w->lane[l].cid) continue;
        if (!c->cid_count) c->first_cid = w->lane[l].cid;
        c->lane_of_rank[c->cid_count] = (uint8_t)l;
        txs[c->cid_count++] = tmu_walk_tx(&w->lane[l]);
    }
    c->dones_pending = 0;
    tmu_walk walk = {u, w, warp, c->lane_of_rank, tag, c};
    tm_walker walker = tmu_walker(u, &walk);
    c->decision_partitions = tm_walk_logs_coalesced(&walker, txs, c->cid_count, involved);
}

/* Every coalesced outcome is in: one TM_DECISION per partition with entries. */
static void send_decisions(tmu *u, tmu_warp *w, coalesced_warp *c, uint32_t warp)
{
    uint64_t commit_mask = 0;
    for (uint32_t r = 0; r < c->cid_count; r++)
        if (w->lane[c->lane_of_rank[r]].passed) commit_mask |= 1ull << r;
    c->acks_pending = 0;
    tmu_walk walk = {u, w, warp, NULL, tag, c};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_decisions_coalesced(&walker, c->first_cid, c->cid_count, commit_mask, c->decision_partitions);
}

static bool coalesced_response(void *state, tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    if (kind != TMU_KIND_WARP_OUTCOME && kind != TMU_KIND_WARP_DECISION) return false;
    coalesced_warp *c = tmu_slot_warp(u, state, warp);
    if (!c) return true;
    if (kind == TMU_KIND_WARP_OUTCOME) { /* l: the first rank of the window */
        for (uint32_t r = l; r < c->cid_count && r < l + TM_MAX_ENTRIES_PER_MSG; r++)
            if (!((msg->aux >> (r - l)) & 1)) w->lane[c->lane_of_rank[r]].passed = false;
        if (--c->dones_pending == 0) send_decisions(u, w, c, warp);
    } else if (--c->acks_pending == 0) {
        tmu_finish_commit(u, w, warp, now);
    }
    return true;
}

const tmu_commit_policy tmu_commit_coalesced = {
    .name = "coalesced",
    .create = coalesced_create,
    .destroy = tmu_slot_warps_free,
    .send_logs = send_logs,
    .response = coalesced_response,
};
