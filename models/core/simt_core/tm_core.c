/* tm_core: transactions on the core: attempts, logs, checkpoints, the commit's common steps and the response dispatch; the variants are the policy slots of tm_core.h. */
#include "tm_core.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "cta.h"
#include "execute.h"

bool tm_core_push(simt_core *c, const simtx_msg *msg)
{
    tm_queue *q = &c->tm_out;
    if (q->length == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 256;
        simtx_msg *grown = malloc(capacity * sizeof *grown);
        if (!grown) {
            core_fail(c, "out of memory for TM messages");
            return false;
        }
        for (size_t i = 0; i < q->length; i++) grown[i] = q->messages[(q->head + i) % q->capacity];
        free(q->messages);
        q->messages = grown;
        q->head = 0;
        q->capacity = capacity;
    }
    simtx_msg *slot = &q->messages[(q->head + q->length++) % q->capacity];
    *slot = *msg;
    slot->core = (int32_t)c->params.core_id;
    c->tm_stats.tm_messages++;
    return true;
}

bool tm_core_log_grow_append(simt_core *c, tx_log *log, uint32_t word, uint32_t value)
{
    tm_entry *entries = core_reserve(log->entries, &log->capacity, log->count + 1u, sizeof *entries, 16);
    if (!entries) {
        core_fail(c, "out of memory for a transaction log");
        return false;
    }
    log->entries = entries;
    log->entries[log->count++] = (tm_entry){word, value};
    return true;
}

bool tm_core_undo_append(simt_core *c, tx_lane *lane, uint32_t offset, uint32_t old, uint32_t size)
{
    local_undo *undo = core_reserve(lane->undo, &lane->undo_capacity, lane->undo_count + 1u, sizeof *undo, 16);
    if (!undo) {
        core_fail(c, "out of memory for a transaction's stack undo log");
        return false;
    }
    lane->undo = undo;
    lane->undo[lane->undo_count++] = (local_undo){offset, old, size};
    return true;
}

/* Clears a lane's logs for a new attempt or after its commit. */
static void lane_reset(tx_lane *lane)
{
    lane->reads.count = lane->writes.count = 0;
    lane->undo_count = 0;
    lane->cid = 0;
    lane->involved = 0;
    lane->outcomes_pending = lane->acks_pending = 0;
    lane->passed = true;
    lane->tcd = false;
}


/* Rolls a lane back to its tx_begin: registers from the checkpoint, its
 * private-stack stores undone (newest first), logs dropped. */
static void attempt_started(simt_core *c, warp *w, uint32_t warp_index)
{
    for (uint32_t i = 0; i < c->tm_precommit_count; i++)
        if (c->tm_precommit[i]->attempt_started) c->tm_precommit[i]->attempt_started(c, w, warp_index);
}

static void lane_rollback(simt_core *c, warp *w, uint32_t l)
{
    tx_warp *tx = w->tx;
    tx_lane *lane = &tx->lane[l];
    for (unsigned r = 0; r < 32; r++) w->registers[r * c->lanes + l] = tx->checkpoint[r * c->lanes + l];
    w->uniform_registers = 1; /* x0 only */
    for (uint32_t u = lane->undo_count; u-- > 0;)
        memcpy(w->local + (size_t)l * (size_t)c->params.local_memory + lane->undo[u].offset, &lane->undo[u].old, lane->undo[u].size);
    lane_reset(lane);
    lane->depth = 1;
    lane->attempts++;
}

void tm_core_release_token(simt_core *c)
{
    c->tm_tokens_used--;
    c->tm_probes.tx_warps = c->tm_tokens_used;
    if (!c->token_waiters) return;
    for (uint32_t i = 0; i < (uint32_t)c->params.warps; i++)
        if (c->warps[i].waiting_token) {
            c->warps[i].waiting_token = false;
            warp_sched_set_hot(&c->sched, i, 0, STALL_NONE);
        }
    c->token_waiters = 0;
}

/* After a commit or an abort left the Transaction entry empty: lanes in the
 * Retry entry start a new attempt under a fresh Transaction entry; with none
 * left the transaction is over and the warp continues after tx_commit. */
static void settle_transaction(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    for (unsigned r = 0; r < 32; r++) w->register_ready[r] = now + 1;
    w->next_issue = now + 1;
    warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
    bool rerun;
    simt_stack_status status = simt_stack_settle_transaction(&w->stack, tx->retry_index, tx->begin_pc, &rerun);
    if (status != SIMT_STACK_OK) exec_report_stack(c, status, tx->begin_pc + 4);
    if (rerun) {
        tx->phase = TX_RUNNING;
        tx->attempt_start = now;
        tx->attempt_instructions = 0;
        attempt_started(c, w, warp_index);
        return;
    }
    tx->phase = TX_IDLE;
    tm_core_release_token(c);
    cta_reconverge_warp(c, w, warp_index, now);
}

/* Aborts the warp's whole running attempt (a doomed transaction: fault or
 * timeout). Only called with no memory access of the warp in flight. */
void tm_core_abort_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t lanes = simt_stack_attempt_lanes(&w->stack, tx->retry_index);
    unsigned count = (unsigned)__builtin_popcountll(lanes);
    c->tm_stats.tm_n_aborts += count;
    if (tx->abort_cause == ABORT_TIMEOUT) {
        c->tm_stats.tm_aborts_timeout += count;
        tx->timeout *= 2;
    } else {
        c->tm_stats.tm_aborts_fault += count;
        if (++tx->fault_aborts > 1000) { /* not doomed: it faults whatever it reads */
            char where[320];
            core_describe(c, w, tx->fault_pc, where, sizeof where);
            core_fail(c, "a transaction faulted on 1000 retries in a row (a bad address or jump, not an inconsistent read), last at %s", where);
            return;
        }
    }
    c->tm_stats.tm_wasted_cycles += now - tx->attempt_start;
    c->tm_stats.tm_wasted_instructions += tx->attempt_instructions;
    for (uint64_t m = lanes; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
    simt_stack_retry_lanes(&w->stack, tx->retry_index, lanes);
    tx->abort_requested = false;
    settle_transaction(c, w, warp_index, now);
}

bool tm_core_begin(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now)
{
    if (tm_core_active(w->tx)) { /* nested: flattened into the outer transaction */
        for (uint64_t m = mask; m; m &= m - 1) w->tx->lane[__builtin_ctzll(m)].depth++;
        return true;
    }
    if (!w->tx) {
        w->tx = calloc(1, sizeof *w->tx);
        if (w->tx) w->tx->checkpoint = calloc(32 * (size_t)c->lanes, sizeof(uint32_t));
        if (!w->tx || !w->tx->checkpoint) {
            core_fail(c, "out of memory for transaction state");
            return false;
        }
    }
    tx_warp *tx = w->tx;
    c->tm_tokens_used++;
    c->tm_probes.tx_warps = c->tm_tokens_used;
    tx->phase = TX_RUNNING;
    tx->timeout = (uint64_t)c->params.tm_timeout;
    tx->fault_aborts = 0;
    tx->begin_pc = pc;
    tx->commit_pc = k->target;
    tx->attempt_start = now;
    tx->attempt_instructions = 0;
    tx->abort_requested = false;
    memcpy(tx->checkpoint, w->registers, 32 * sizeof(uint32_t) * c->lanes);
    for (uint64_t m = mask; m; m &= m - 1) {
        tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        lane_reset(lane);
        lane->depth = 1;
        lane->attempts = 0;
    }
    /* The parent continues after tx_commit once every lane committed; the
     * Retry entry collects lanes that failed; the Transaction entry runs. */
    simt_stack_status status = simt_stack_open_transaction(&w->stack, pc, tx->commit_pc, mask, &tx->retry_index);
    if (status != SIMT_STACK_OK) {
        exec_report_stack(c, status, pc + 4);
        return false;
    }
    attempt_started(c, w, warp_index);
    return true;
}

static void record_commit(simt_core *c, const tx_lane *lane, uint32_t cid, uint32_t after)
{
    tx_history *h = &c->history;
    simt_tm_record *records = core_reserve(h->records, &h->capacity, h->count + 1, sizeof *records, 256);
    if (records) h->records = records;
    size_t words_needed = h->word_count + 2 * ((size_t)lane->reads.count + lane->writes.count);
    uint32_t *words = records ? core_reserve(h->words, &h->word_capacity, words_needed, sizeof *words, 1024) : NULL;
    if (!words) {
        core_fail(c, "out of memory recording the transaction history");
        return;
    }
    h->words = words;
    h->records[h->count++] = (simt_tm_record){cid, after, lane->reads.count, lane->writes.count, h->word_count};
    for (uint32_t i = 0; i < lane->reads.count; i++) {
        h->words[h->word_count++] = lane->reads.entries[i].address;
        h->words[h->word_count++] = lane->reads.entries[i].value;
    }
    for (uint32_t i = 0; i < lane->writes.count; i++) {
        h->words[h->word_count++] = lane->writes.entries[i].address;
        h->words[h->word_count++] = lane->writes.entries[i].value;
    }
}

/* Every committing lane has its decision acknowledged (or needed none):
 * committed lanes leave with tx_commit's result 1, failed lanes roll back
 * into the Retry entry. */
void tm_core_finish_commit(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t aborted = 0;
    c->tm_stats.tm_commit_cycles += now - tx->commit_start;
    simtx_histogram_add(&c->tm_stats.tm_commit_duration, now - tx->commit_start);
    if (c->tm_probes.committing_warps) c->tm_probes.committing_warps--;
    for (uint64_t m = tx->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        tx_lane *lane = &tx->lane[l];
        if (lane->passed) {
            tx->fault_aborts = 0; /* progress: the faults were doomed attempts */
            c->tm_stats.tm_n_commits++;
            simtx_histogram_add(&c->tm_stats.tm_read_set, lane->reads.count);
            simtx_histogram_add(&c->tm_stats.tm_write_set, lane->writes.count);
            simtx_histogram_add(&c->tm_stats.tm_aborts_per_tx, lane->attempts);
            if (lane->tcd) c->tm_stats.tm_tcd_commits++;
            if (c->tm_recording && (lane->cid || lane->tcd)) record_commit(c, lane, lane->tcd ? tx->start_time - 1 : lane->cid, lane->tcd);
            if (tx->commit_rd) w->registers[tx->commit_rd * c->lanes + l] = 1;
            w->uniform_registers &= ~(1u << tx->commit_rd);
            lane->depth = 0;
            lane_reset(lane);
        } else {
            aborted |= 1ull << l;
        }
    }
    if (aborted) {
        unsigned count = (unsigned)__builtin_popcountll(aborted), intra = 0;
        for (uint64_t m = aborted; m; m &= m - 1) intra += !tx->lane[__builtin_ctzll(m)].cid; /* failed before taking an ID */
        c->tm_stats.tm_n_aborts += count;
        c->tm_stats.tm_aborts_validation += count - intra;
        c->tm_stats.tm_aborts_intra_warp += intra;
        c->tm_stats.tm_wasted_cycles += now - tx->attempt_start;
        c->tm_stats.tm_wasted_instructions +=
            tx->attempt_instructions * count / (unsigned)__builtin_popcountll(tx->committing);
        for (uint64_t m = aborted; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
        simt_stack_retry_lanes(&w->stack, tx->retry_index, aborted);
    }
    /* Committed lanes keep tx_commit's register values; restored lanes got
     * their checkpoint back. */
    settle_transaction(c, w, warp_index, now);
}

static void walk_emit(void *context, simtx_msg *msg, const tm_walk_event *e)
{
    tm_core_walk *walk = context;
    simt_core *c = walk->c;
    uint32_t lane = walk->lane_of ? walk->lane_of[e->tx] : e->tx;
    msg->warp = (int32_t)walk->warp_index;
    switch (e->kind) {
    case TM_WALK_LOG:
        if (walk->coalesced) {
            for (uint64_t m = e->carried; m; m &= m - 1) msg->lane_mask |= 1ull << walk->lane_of[__builtin_ctzll(m)];
            msg->id = tm_id(TM_KIND_ACK, walk->warp_index, 0, e->partition);
        } else {
            msg->lane_mask = 1ull << lane;
            msg->id = tm_id(TM_KIND_ACK, walk->warp_index, lane, e->partition);
        }
        c->tm_stats.tm_log_bytes += tm_walk_log_bytes(msg);
        break;
    case TM_WALK_DONE:
        if (walk->coalesced) {
            msg->id = tm_id(TM_KIND_WARP_OUTCOME, walk->warp_index, e->tx, e->partition);
            walk->tx->dones_pending++;
        } else {
            msg->lane_mask = 1ull << lane;
            msg->id = tm_id(TM_KIND_OUTCOME, walk->warp_index, lane, e->partition);
            walk->tx->lane[lane].outcomes_pending++;
        }
        c->tm_stats.tm_log_bytes += tm_walk_log_bytes(msg);
        break;
    case TM_WALK_SKIP:
        msg->id = tm_id(TM_KIND_ACK, walk->warp_index, 0, e->partition);
        break;
    case TM_WALK_DECISION:
        if (walk->coalesced) {
            msg->lane_mask = walk->tx->committing;
            msg->id = tm_id(TM_KIND_WARP_DECISION, walk->warp_index, 0, e->partition);
            walk->tx->acks_pending++;
        } else {
            msg->lane_mask = 1ull << lane;
            msg->id = tm_id(TM_KIND_DECISION, walk->warp_index, lane, e->partition);
            walk->tx->lane[lane].acks_pending++;
        }
        break;
    }
    tm_core_push(c, msg);
}

tm_walker tm_core_walker(simt_core *c, tm_core_walk *walk)
{
    return (tm_walker){(unsigned)c->params.tm_partitions, (uint64_t)c->params.tm_interleave, walk_emit, walk};
}

static void request_cids(simt_core *c, warp *w, uint32_t warp_index, uint32_t wanted)
{
    tx_warp *tx = w->tx;
    tx->phase = TX_WAIT_CID;
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = wanted;
    request.lane_mask = tx->committing;
    request.warp = (int32_t)warp_index;
    request.id = tm_id(TM_KIND_CID, warp_index, 0, 0);
    tm_core_push(c, &request);
}


/* tx_commit of the outer transaction: lanes with logs take commit IDs; a
 * warp whose lanes logged nothing commits at once. */
void tm_core_start_commit(simt_core *c, warp *w, uint32_t warp_index, uint32_t rd, uint64_t mask, uint64_t now)
{
    tx_warp *tx = w->tx;
    tx->committing = mask;
    tx->commit_rd = rd;
    tx->commit_start = now;
    c->tm_stats.tm_core_cycles += now - tx->attempt_start;
    simtx_histogram_add(&c->tm_stats.tm_core_duration, now - tx->attempt_start);
    c->tm_probes.committing_warps++;
    for (uint64_t m = mask; m; m &= m - 1) tx->lane[__builtin_ctzll(m)].passed = true;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    tm_core_precommit_continue(c, w, warp_index, 0, now);
}

/* Lanes a check committed (temporal conflict detection) or failed (Warp
 * TM's) are resolved; with none left unresolved the commit ends, else the
 * next check runs, and after the last the lanes take commit IDs. */
void tm_core_precommit_continue(simt_core *c, warp *w, uint32_t warp_index, uint32_t stage, uint64_t now)
{
    tx_warp *tx = w->tx;
    for (;;) {
        uint32_t wanted = 0;
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
            wanted += lane->passed && !lane->tcd && (lane->reads.count || lane->writes.count);
        }
        tx->unresolved = wanted;
        if (!wanted) {
            tm_core_finish_commit(c, w, warp_index, now);
            return;
        }
        if (stage == c->tm_precommit_count) {
            request_cids(c, w, warp_index, wanted);
            return;
        }
        const tm_precommit *check = c->tm_precommit[stage++];
        if (check->check && check->check(c, w, warp_index, stage, now)) return;
    }
}

void tm_core_response(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    unsigned kind = (unsigned)(msg->id >> 48) & 0xff;
    uint32_t warp_index = (uint32_t)(msg->id >> 16) & 0xffff, l = (uint32_t)(msg->id >> 8) & 0xff;
    if (msg->status != SIMTX_STATUS_OK) {
        core_fail(c, "the memory side answered status %u to a TM %s message at 0x%08" PRIx64 " (are commit units attached? see platforms/parts/tm_lazy.lua)",
             (unsigned)msg->status, simtx_op_name((simtx_op)msg->op), msg->address);
        return;
    }
    if (kind == TM_KIND_ACK) return;
    if (warp_index >= (uint32_t)c->params.warps || !tm_core_active(c->warps[warp_index].tx) ||
        (l >= MAX_LANES && kind != TM_KIND_LWT)) {
        core_fail(c, "unexpected TM response (id 0x%" PRIx64 ")", msg->id);
        return;
    }
    warp *w = &c->warps[warp_index];
    tx_warp *tx = w->tx;
    switch (kind) {
    case TM_KIND_CID: {
        uint32_t cid = (uint32_t)msg->aux;
        tx->first_cid = cid;
        tx->cid_count = 0;
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
            if (lane->passed && !lane->tcd && (lane->reads.count || lane->writes.count)) {
                lane->cid = cid++;
                tx->lane_of_rank[tx->cid_count++] = (uint8_t)__builtin_ctzll(m);
            }
        }
        tx->phase = TX_VALIDATING;
        c->tm_commit->send_logs(c, w, warp_index);
        break;
    }
    default: {
        bool handled = c->tm_commit->response(c, w, warp_index, kind, l, msg, now);
        for (uint32_t i = 0; !handled && i < c->tm_precommit_count; i++)
            handled = c->tm_precommit[i]->response && c->tm_precommit[i]->response(c, w, warp_index, kind, l, msg, now);
        if (!handled) core_fail(c, "unexpected TM response kind %u", kind);
        break;
    }
    }
}

void simt_core_tm_set_recording(simt_core *c, bool on) { c->tm_recording = on; }

size_t simt_core_tm_history(const simt_core *c, const simt_tm_record **records, const uint32_t **words)
{
    *records = c->history.records;
    *words = c->history.words;
    return c->history.count;
}

void simt_core_tm_clear_history(simt_core *c)
{
    c->history.count = 0;
    c->history.word_count = 0;
}

uint64_t tm_core_cycle(simt_core *c, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    for (uint32_t i = 0; i < c->tm_precommit_count; i++)
        if (c->tm_precommit[i]->cycle) {
            uint64_t at = c->tm_precommit[i]->cycle(c, now);
            if (at < next) next = at;
        }
    return next;
}

bool tm_core_init(simt_core *c, char *error, size_t error_size)
{
    (void)error, (void)error_size;
    bool warp_tm = !strcmp(c->params.tm_mode, "warp");
    c->tm_commit = warp_tm ? &tm_commit_coalesced : &tm_commit_per_tx;
    c->tm_precommit_count = 0;
    /* Temporal conflict detection commits read-only lanes first; Warp TM's
     * intra-warp check then runs on the lanes left. */
    if (c->params.tm_tcd) c->tm_precommit[c->tm_precommit_count++] = &tm_precommit_tcd;
    if (warp_tm) c->tm_precommit[c->tm_precommit_count++] = &tm_precommit_intra_warp;
    c->tm_before_load = NULL;
    for (uint32_t i = 0; i < c->tm_precommit_count; i++)
        if (c->tm_precommit[i]->before_load) c->tm_before_load = c->tm_precommit[i]->before_load;
    return true;
}

void tm_core_release(simt_core *c)
{
    free(c->tm_out.messages);
    free(c->ownership);
    free(c->history.records);
    free(c->history.words);
}

void tm_core_release_warp(tx_warp *tx)
{
    if (!tx) return;
    for (uint32_t l = 0; l < MAX_LANES; l++) free(tx->lane[l].reads.entries), free(tx->lane[l].writes.entries), free(tx->lane[l].undo);
    free(tx->checkpoint);
    free(tx->blocks);
    free(tx);
}
