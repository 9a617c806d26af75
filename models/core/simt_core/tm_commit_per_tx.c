/* tm_commit_per_tx: KILO TM's commit: per transaction, its log messages, TM_LOG_DONE and decision to each partition it touches. */
#include <inttypes.h>
#include <string.h>

#include "core_internal.h"

/* KILO TM's log walker: per committing lane (one transaction, one commit
 * ID), its read and write log entries go to the partitions owning them,
 * then TM_LOG_DONE with the counts; partitions without entries of a run of
 * consecutive IDs get one TM_SKIP. */
static void send_logs(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    unsigned partitions = (unsigned)c->params.tm_partitions;
    uint64_t interleave = (uint64_t)c->params.tm_interleave;
    for (unsigned p = 0; p < partitions; p++) {
        uint64_t here = tm_partition_address(p, interleave);
        uint32_t skip_first = 0, skip_count = 0;
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            tx_lane *lane = &tx->lane[l];
            if (!lane->cid) continue;
            uint32_t counts[2] = {0, 0};
            for (int kind = 0; kind < 2; kind++) {
                const tx_log *log = kind ? &lane->writes : &lane->reads;
                simtx_msg msg;
                tm_log_init(&msg, kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG, lane->cid, (int)c->params.core_id, (int)warp_index);
                for (uint32_t i = 0; i <= log->count; i++) {
                    bool last = i == log->count;
                    if (!last && tm_partition_of(log->entries[i].address, interleave, partitions) != p) continue;
                    if (msg.size && (last || tm_entry_count(&msg) == TM_MAX_ENTRIES_PER_MSG)) {
                        msg.lane_mask = 1ull << l;
                        msg.id = tm_id(TM_KIND_ACK, warp_index, l, p);
                        c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                        tm_core_push(c, &msg);
                        tm_log_init(&msg, kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG, lane->cid, (int)c->params.core_id,
                                    (int)warp_index);
                    }
                    if (last) break;
                    tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value);
                    counts[kind]++;
                }
            }
            if (!counts[0] && !counts[1]) {
                if (skip_count && skip_first + skip_count == lane->cid) skip_count++;
                else {
                    if (skip_count) tm_core_push_skip(c, p, here, skip_first, skip_count, warp_index);
                    skip_first = lane->cid;
                    skip_count = 1;
                }
                continue;
            }
            lane->involved |= 1ull << p;
            lane->outcomes_pending++;
            simtx_msg done;
            simtx_msg_init(&done, SIMTX_OP_TM_LOG_DONE, here, 0);
            done.transaction_id = lane->cid;
            done.aux = counts[0] | (uint64_t)counts[1] << 32;
            done.lane_mask = 1ull << l;
            done.warp = (int32_t)warp_index;
            done.id = tm_id(TM_KIND_OUTCOME, warp_index, l, p);
            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES;
            tm_core_push(c, &done);
        }
        if (skip_count) tm_core_push_skip(c, p, here, skip_first, skip_count, warp_index);
    }
}

/* Every outcome of the lane is in: its decision to each partition it involved. */
static void send_decision(simt_core *c, warp *w, uint32_t warp_index, uint32_t l)
{
    tx_lane *lane = &w->tx->lane[l];
    for (unsigned p = 0; p < (unsigned)c->params.tm_partitions; p++) {
        if (!((lane->involved >> p) & 1)) continue;
        simtx_msg d;
        simtx_msg_init(&d, SIMTX_OP_TM_DECISION, tm_partition_address(p, (uint64_t)c->params.tm_interleave), 0);
        d.transaction_id = lane->cid;
        d.aux = lane->passed ? TM_DECISION_COMMIT : TM_DECISION_ABORT;
        d.lane_mask = 1ull << l;
        d.warp = (int32_t)warp_index;
        d.id = tm_id(TM_KIND_DECISION, warp_index, l, p);
        lane->acks_pending++;
        tm_core_push(c, &d);
    }
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
