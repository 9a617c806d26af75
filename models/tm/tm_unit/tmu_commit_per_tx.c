/* tmu_commit_per_tx: KILO TM's commit: per transaction, its log messages,
 * TM_LOG_DONE and decision to each partition it touches; and SI-TM's
 * write-set-only form of it (write_set, below). */
#include <stdlib.h>

#include "tmu_internal.h"

/* Per warp, per lane: the answers awaited and the partitions involved;
 * write_set: the lane's written words with its snapshot point. */
typedef struct per_tx_warp {
    struct {
        uint32_t outcomes_pending, acks_pending;
        uint64_t involved;
        tm_entry *points;
        uint32_t point_capacity;
    } lane[TMU_MAX_LANES];
} per_tx_warp;

static void per_tx_release(void *item)
{
    per_tx_warp *p = item;
    for (unsigned l = 0; l < TMU_MAX_LANES; l++) free(p->lane[l].points);
}

static bool per_tx_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)u, (void)index, (void)error, (void)error_size;
    return (*state = tmu_slot_warps_new(sizeof(per_tx_warp), per_tx_release)) != NULL;
}

static void tag(tmu_walk *walk, simtx_msg *msg, const tm_walk_event *e, uint32_t lane)
{
    per_tx_warp *p = walk->policy;
    msg->lane_mask = 1ull << lane;
    switch (e->kind) {
    case TM_WALK_LOG: msg->id = tmu_id(TMU_KIND_ACK, walk->warp, lane, e->partition); break;
    case TM_WALK_DONE:
        msg->id = tmu_id(TMU_KIND_OUTCOME, walk->warp, lane, e->partition);
        p->lane[lane].outcomes_pending++;
        break;
    case TM_WALK_DECISION:
        msg->id = tmu_id(TMU_KIND_DECISION, walk->warp, lane, e->partition);
        p->lane[lane].acks_pending++;
        break;
    default: break;
    }
}

/* The write_set form's "read log": each written word with the attempt's
 * snapshot point as its value (tm_lazy.h, WRITE-WRITE VALIDATION). */
static bool snapshot_points(tmu *u, per_tx_warp *p, uint32_t l, const tmu_lane *lane, uint32_t point, tm_walk_tx *tx)
{
    if (lane->writes.count > p->lane[l].point_capacity) {
        tm_entry *points = realloc(p->lane[l].points, lane->writes.count * sizeof *points);
        if (!points) {
            tmu_fail(u, "out of memory for the write set of a lane");
            return false;
        }
        p->lane[l].points = points;
        p->lane[l].point_capacity = lane->writes.count;
    }
    for (uint32_t i = 0; i < lane->writes.count; i++) p->lane[l].points[i] = (tm_entry){lane->writes.entries[i].address, point};
    tx->reads = p->lane[l].points;
    tx->read_count = lane->writes.count;
    return true;
}

/* KILO TM's log transfer: per committing lane with a commit ID (one
 * transaction), through the shared walker; write_set: no read log, the
 * written words with the snapshot point instead. */
static void send(void *state, tmu *u, tmu_warp *w, uint32_t warp, bool write_set)
{
    per_tx_warp *p = tmu_slot_warp(u, state, warp);
    if (!p) return;
    uint32_t point = 0;
    if (write_set && !tmu_snapshot_point(u, warp, &point)) {
        tmu_fail(u, "commit write_set: warp %u's attempt read no snapshot (it needs the snapshot filter)", warp);
        return;
    }
    tm_walk_tx txs[TMU_MAX_LANES];
    uint8_t lane_of[TMU_MAX_LANES];
    uint64_t involved[TMU_MAX_LANES];
    uint32_t count = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        p->lane[l].involved = 0;
        if (!w->lane[l].cid) continue;
        lane_of[count] = (uint8_t)l;
        txs[count] = tmu_walk_tx(&w->lane[l]);
        if (write_set && !snapshot_points(u, p, l, &w->lane[l], point, &txs[count])) return;
        w->lane[l].unvalidated = write_set; /* the commit record says its reads hold at its snapshot only */
        count++;
    }
    tmu_walk walk = {u, w, warp, lane_of, tag, p};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_logs_per_tx(&walker, txs, count, involved);
    for (uint32_t i = 0; i < count; i++) p->lane[lane_of[i]].involved |= involved[i];
}

static void send_logs(void *state, tmu *u, tmu_warp *w, uint32_t warp) { send(state, u, w, warp, false); }
static void send_write_set(void *state, tmu *u, tmu_warp *w, uint32_t warp) { send(state, u, w, warp, true); }

/* Every outcome of the lane is in: its decision to each partition it involved. */
static void send_decision(tmu *u, tmu_warp *w, per_tx_warp *p, uint32_t warp, uint32_t l)
{
    const tmu_lane *lane = &w->lane[l];
    tmu_walk walk = {u, w, warp, NULL, tag, p};
    tm_walker walker = tmu_walker(u, &walk);
    tm_walk_decision(&walker, l, lane->cid, lane->passed, p->lane[l].involved);
}

static bool per_tx_response(void *state, tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    if (kind != TMU_KIND_OUTCOME && kind != TMU_KIND_DECISION) return false;
    per_tx_warp *p = tmu_slot_warp(u, state, warp);
    if (!p) return true;
    if (kind == TMU_KIND_OUTCOME) {
        if (msg->aux != TM_OUTCOME_PASS) w->lane[l].passed = false;
        if (--p->lane[l].outcomes_pending == 0) send_decision(u, w, p, warp, l);
    } else if (--p->lane[l].acks_pending == 0 && --w->unresolved == 0) {
        tmu_finish_commit(u, w, warp, now);
    }
    return true;
}

const tmu_commit_policy tmu_commit_per_tx = {
    .name = "per_tx",
    .create = per_tx_create,
    .destroy = tmu_slot_warps_free,
    .send_logs = send_logs,
    .response = per_tx_response,
};

/* SI-TM (ISCA'17 section 5): the read log is not sent; the commit units
 * (validation = write_write) check the written words against the IDs
 * committed after the snapshot (first committer wins). */
const tmu_commit_policy tmu_commit_write_set = {
    .name = "write_set",
    .create = per_tx_create,
    .destroy = tmu_slot_warps_free,
    .send_logs = send_write_set,
    .response = per_tx_response,
};
