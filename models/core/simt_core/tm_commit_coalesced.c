/* tm_commit_coalesced: Warp TM's commit: the warp's consecutive commit IDs share log messages, TM_LOG_DONEs and one decision per partition. */
#include <inttypes.h>
#include <string.h>

#include "core_internal.h"

/* Warp TM's log walker: the warp's IDs are consecutive, so per partition
 * the entries of up to 16 IDs share a message, and one coalesced
 * TM_LOG_DONE per 16 IDs carries their counts (a window with no entries
 * at a partition is one TM_SKIP). */
static void send_logs_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    uint64_t interleave = (uint64_t)c->params.tm_interleave;
    unsigned partitions = (unsigned)c->params.tm_partitions;
    tx->dones_pending = 0;
    tx->decision_partitions = 0;
    for (unsigned p = 0; p < partitions; p++) {
        uint64_t here = tm_partition_address(p, interleave);
        for (uint32_t window = 0; window < tx->cid_count; window += TM_MAX_ENTRIES_PER_MSG) {
            uint32_t ids = tx->cid_count - window < TM_MAX_ENTRIES_PER_MSG ? tx->cid_count - window : TM_MAX_ENTRIES_PER_MSG;
            uint32_t base = tx->first_cid + window;
            uint32_t counts[TM_MAX_ENTRIES_PER_MSG][2];
            uint32_t total = 0;
            for (int kind = 0; kind < 2; kind++) {
                simtx_op op = kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG;
                simtx_msg msg;
                tm_log_init(&msg, op, base, (int)c->params.core_id, (int)warp_index);
                for (uint32_t r = 0; r < ids; r++) {
                    uint32_t l = tx->lane_of_rank[window + r];
                    tx_lane *lane = &tx->lane[l];
                    const tx_log *log = kind ? &lane->writes : &lane->reads;
                    counts[r][kind] = 0;
                    for (uint32_t i = 0; i < log->count; i++) {
                        if (tm_partition_of(log->entries[i].address, interleave, partitions) != p) continue;
                        if (!tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value)) {
                            msg.id = tm_id(TM_KIND_ACK, warp_index, 0, p);
                            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                            tm_core_push(c, &msg);
                            tm_log_init(&msg, op, base, (int)c->params.core_id, (int)warp_index);
                            tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value);
                        }
                        msg.lane_mask |= 1ull << l;
                        counts[r][kind]++;
                        lane->involved |= 1ull << p;
                        total++;
                    }
                }
                if (msg.size) {
                    msg.id = tm_id(TM_KIND_ACK, warp_index, 0, p);
                    c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                    tm_core_push(c, &msg);
                }
            }
            if (!total) {
                tm_core_push_skip(c, p, here, base, ids, warp_index);
                continue;
            }
            simtx_msg done;
            tm_done_init(&done, here, base);
            for (uint32_t r = 0; r < ids; r++) tm_done_append(&done, counts[r][0], counts[r][1]);
            done.warp = (int32_t)warp_index;
            done.id = tm_id(TM_KIND_WARP_OUTCOME, warp_index, window, p);
            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + done.size;
            tm_core_push(c, &done);
            tx->dones_pending++;
            tx->decision_partitions |= 1ull << p;
        }
    }
}

/* Every coalesced outcome is in: one TM_DECISION per partition with entries. */
static void send_decisions_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    uint64_t commit_mask = 0;
    for (uint32_t r = 0; r < tx->cid_count; r++)
        if (tx->lane[tx->lane_of_rank[r]].passed) commit_mask |= 1ull << r;
    tx->acks_pending = 0;
    for (unsigned p = 0; p < (unsigned)c->params.tm_partitions; p++) {
        if (!((tx->decision_partitions >> p) & 1)) continue;
        simtx_msg d;
        tm_decision_init(&d, tm_partition_address(p, (uint64_t)c->params.tm_interleave), tx->first_cid, tx->cid_count, commit_mask);
        d.warp = (int32_t)warp_index;
        d.lane_mask = tx->committing;
        d.id = tm_id(TM_KIND_WARP_DECISION, warp_index, 0, p);
        tx->acks_pending++;
        tm_core_push(c, &d);
    }
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
