/* tm_lazy_walker: the lazy TM protocol's log transfer and decisions, core
 * side (see tm_lazy_walker.h for the message order). */
#include "tm_lazy_walker.h"

static void emit(const tm_walker *walker, simtx_msg *msg, tm_walk_kind kind, unsigned partition, uint32_t tx,
                 uint64_t carried)
{
    tm_walk_event event = {kind, partition, tx, carried};
    walker->emit(walker->context, msg, &event);
}

static unsigned partition_of(const tm_walker *walker, uint32_t address)
{
    return tm_partition_of(address, walker->interleave, walker->partitions);
}

static void skip(const tm_walker *walker, unsigned p, uint32_t first_cid, uint32_t ids, uint32_t tx)
{
    simtx_msg msg;
    simtx_msg_init(&msg, SIMTX_OP_TM_SKIP, tm_partition_address(p, walker->interleave), 0);
    msg.transaction_id = first_cid;
    msg.aux = ids;
    emit(walker, &msg, TM_WALK_SKIP, p, tx, 0);
}

/* The entries of one log of transaction i at partition p, in messages of up
 * to TM_MAX_ENTRIES_PER_MSG; returns how many. */
static uint32_t send_log(const tm_walker *walker, simtx_op op, const tm_walk_tx *tx, uint32_t i, const tm_entry *entries,
                         uint32_t count, unsigned p)
{
    simtx_msg msg; /* started at the first entry here: most partitions have none */
    uint32_t sent = 0;
    for (uint32_t e = 0; e < count; e++) {
        if (partition_of(walker, entries[e].address) != p) continue;
        if (!sent) {
            tm_log_init(&msg, op, tx->cid, -1, -1);
        } else if (tm_entry_count(&msg) == TM_MAX_ENTRIES_PER_MSG) {
            emit(walker, &msg, TM_WALK_LOG, p, i, UINT64_C(1) << i);
            tm_log_init(&msg, op, tx->cid, -1, -1);
        }
        tm_log_append(&msg, tx->cid, entries[e].address, entries[e].value);
        sent++;
    }
    if (sent) emit(walker, &msg, TM_WALK_LOG, p, i, UINT64_C(1) << i);
    return sent;
}

void tm_walk_logs_per_tx(const tm_walker *walker, const tm_walk_tx *txs, uint32_t count, uint64_t *involved)
{
    for (uint32_t i = 0; involved && i < count; i++) involved[i] = 0;
    for (unsigned p = 0; p < walker->partitions; p++) {
        uint32_t run_first = 0, run_ids = 0, run_tx = 0; /* the current run of IDs without entries here */
        for (uint32_t i = 0; i < count; i++) {
            const tm_walk_tx *tx = &txs[i];
            uint32_t reads = send_log(walker, SIMTX_OP_TM_READ_LOG, tx, i, tx->reads, tx->read_count, p);
            uint32_t writes = send_log(walker, SIMTX_OP_TM_WRITE_LOG, tx, i, tx->writes, tx->write_count, p);
            if (!reads && !writes) {
                if (run_ids && run_first + run_ids == tx->cid) {
                    run_ids++;
                } else {
                    if (run_ids) skip(walker, p, run_first, run_ids, run_tx);
                    run_first = tx->cid;
                    run_ids = 1;
                    run_tx = i;
                }
                continue;
            }
            if (involved) involved[i] |= UINT64_C(1) << p;
            simtx_msg done;
            simtx_msg_init(&done, SIMTX_OP_TM_LOG_DONE, tm_partition_address(p, walker->interleave), 0);
            done.transaction_id = tx->cid;
            done.aux = reads | (uint64_t)writes << 32;
            emit(walker, &done, TM_WALK_DONE, p, i, 0);
        }
        if (run_ids) skip(walker, p, run_first, run_ids, run_tx);
    }
}

uint64_t tm_walk_logs_coalesced(const tm_walker *walker, const tm_walk_tx *txs, uint32_t count, uint64_t *involved)
{
    uint64_t done_partitions = 0;
    for (uint32_t i = 0; involved && i < count; i++) involved[i] = 0;
    if (!count) return 0;
    for (unsigned p = 0; p < walker->partitions; p++) {
        uint64_t here = tm_partition_address(p, walker->interleave);
        for (uint32_t window = 0; window < count; window += TM_MAX_ENTRIES_PER_MSG) {
            uint32_t ids = count - window < TM_MAX_ENTRIES_PER_MSG ? count - window : TM_MAX_ENTRIES_PER_MSG;
            uint32_t base = txs[window].cid;
            uint32_t counts[TM_MAX_ENTRIES_PER_MSG][2];
            uint32_t total = 0;
            for (int kind = 0; kind < 2; kind++) {
                simtx_op op = kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG;
                simtx_msg msg; /* started at the first entry here */
                uint64_t carried = 0;
                bool started = false;
                for (uint32_t r = 0; r < ids; r++) {
                    uint32_t i = window + r;
                    const tm_entry *entries = kind ? txs[i].writes : txs[i].reads;
                    uint32_t n = kind ? txs[i].write_count : txs[i].read_count;
                    counts[r][kind] = 0;
                    for (uint32_t e = 0; e < n; e++) {
                        if (partition_of(walker, entries[e].address) != p) continue;
                        if (!started) {
                            tm_log_init(&msg, op, base, -1, -1);
                            started = true;
                        }
                        if (!tm_log_append(&msg, txs[i].cid, entries[e].address, entries[e].value)) {
                            emit(walker, &msg, TM_WALK_LOG, p, window, carried);
                            tm_log_init(&msg, op, base, -1, -1);
                            carried = 0;
                            tm_log_append(&msg, txs[i].cid, entries[e].address, entries[e].value);
                        }
                        carried |= UINT64_C(1) << i;
                        counts[r][kind]++;
                        if (involved) involved[i] |= UINT64_C(1) << p;
                        total++;
                    }
                }
                if (started) emit(walker, &msg, TM_WALK_LOG, p, window, carried);
            }
            if (!total) {
                skip(walker, p, base, ids, window);
                continue;
            }
            simtx_msg done;
            tm_done_init(&done, here, base);
            for (uint32_t r = 0; r < ids; r++) tm_done_append(&done, counts[r][0], counts[r][1]);
            emit(walker, &done, TM_WALK_DONE, p, window, 0);
            done_partitions |= UINT64_C(1) << p;
        }
    }
    return done_partitions;
}

void tm_walk_decision(const tm_walker *walker, uint32_t tx, uint32_t cid, bool commit, uint64_t partitions)
{
    for (unsigned p = 0; p < walker->partitions; p++) {
        if (!((partitions >> p) & 1)) continue;
        simtx_msg d;
        simtx_msg_init(&d, SIMTX_OP_TM_DECISION, tm_partition_address(p, walker->interleave), 0);
        d.transaction_id = cid;
        d.aux = commit ? TM_DECISION_COMMIT : TM_DECISION_ABORT;
        emit(walker, &d, TM_WALK_DECISION, p, tx, 0);
    }
}

void tm_walk_decisions_coalesced(const tm_walker *walker, uint32_t first_cid, uint32_t count, uint64_t commit_mask,
                                 uint64_t partitions)
{
    for (unsigned p = 0; p < walker->partitions; p++) {
        if (!((partitions >> p) & 1)) continue;
        simtx_msg d;
        tm_decision_init(&d, tm_partition_address(p, walker->interleave), first_cid, count, commit_mask);
        emit(walker, &d, TM_WALK_DECISION, p, 0, 0);
    }
}
