/* tx_client: transactions on the core as a client of the tm_unit (tx.h): checkpoints, attempts, the events and their answers. */
#include "tx_client.h"

#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "cta.h"
#include "execute.h"
#include "lsu.h"

/* Queues a tx.h event of the warp for the ldst socket; NULL when out of memory. */
static simtx_msg *send_event(simt_core *c, simtx_op op, uint32_t warp_index, uint64_t lanes, uint64_t aux)
{
    tx_queue *q = &c->tx_out;
    c->visible_events++;
    if (q->length == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 16;
        simtx_msg *grown = malloc(capacity * sizeof *grown);
        if (!grown) {
            core_fail(c, "out of memory for transaction events");
            return NULL;
        }
        for (size_t i = 0; i < q->length; i++) grown[i] = q->messages[(q->head + i) % q->capacity];
        free(q->messages);
        q->messages = grown;
        q->head = 0;
        q->capacity = capacity;
    }
    simtx_msg *msg = &q->messages[(q->head + q->length++) % q->capacity];
    simtx_msg_init(msg, op, 0, 0);
    msg->lane_mask = lanes;
    msg->aux = aux;
    msg->id = op; /* the events of a warp are answered in order; warp names it */
    msg->core = (int32_t)c->params.core_id;
    msg->warp = (int32_t)warp_index;
    msg->cta = (int32_t)c->warps[warp_index].cta_slot;
    return msg;
}

bool tx_client_undo_append(simt_core *c, tx_lane *lane, uint32_t offset, uint32_t old, uint32_t size)
{
    local_undo *undo = simtx_array_reserve(lane->undo, &lane->undo_capacity, lane->undo_count + 1u, sizeof *undo, 16);
    if (!undo) {
        core_fail(c, "out of memory for a transaction's stack undo log");
        return false;
    }
    lane->undo = undo;
    lane->undo[lane->undo_count++] = (local_undo){offset, old, size};
    return true;
}

/* Rolls a lane back to its tx_begin: registers from the checkpoint, its
 * private-stack stores undone (newest first). */
static void lane_rollback(simt_core *c, warp *w, uint32_t l)
{
    tx_warp *tx = w->tx;
    tx_lane *lane = &tx->lane[l];
    for (unsigned r = 0; r < WARP_ROWS; r++) w->registers[r * c->lanes + l] = tx->checkpoint[r * c->lanes + l];
    w->uniform_registers = 1; /* x0 only */
    for (uint32_t u = lane->undo_count; u-- > 0;)
        memcpy(w->local + (size_t)l * (size_t)c->params.local_memory + lane->undo[u].offset, &lane->undo[u].old, lane->undo[u].size);
    lane->undo_count = 0;
    lane->depth = 1;
}

void tx_client_release_token(simt_core *c)
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

/* The newest paused lanes (now the Transaction entry) run again from their
 * access: TX_RESUME with their log index, and the warp waits for its answer
 * (their accesses must not pass it on the link). */
static void resume_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    const stack_entry *top = &w->stack.entries[simt_stack_attempt_index(&w->stack, tx->retry_index)];
    tx->phase = TX_WAIT_BEGIN;
    tx->attempt_start = now; /* its timeout; its time and instructions count from the attempt's start */
    tx->retry_at_commit = 0;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    simtx_msg *resume = send_event(c, SIMTX_OP_TX_RESUME, warp_index, top->mask, 0);
    if (resume) resume->transaction_id = top->log_index;
}

/* An attempt of `lanes` starts: TX_BEGIN, and the warp waits for its answer. */
static void start_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t lanes, uint64_t now)
{
    tx_warp *tx = w->tx;
    tx->phase = TX_WAIT_BEGIN;
    tx->attempt_start = now;
    tx->attempt_instructions = 0;
    tx->retry_at_commit = 0;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    simtx_msg *begin = send_event(c, SIMTX_OP_TX_BEGIN, warp_index, lanes, tx->attempt++);
    if (begin) begin->transaction_id = w->warp_in_cta * c->lanes; /* the warp's first thread in its CTA (tx.h 1) */
}

/* After a commit or an abort left the Transaction entry empty: the newest
 * paused lanes resume; else lanes in the Retry entry start a new attempt
 * under a fresh Transaction entry; with none left the transaction is over
 * and the warp continues after tx_commit. */
static void settle_transaction(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    for (unsigned r = 0; r < RV_REGISTERS; r++) w->register_ready[r] = now + 1;
    w->next_issue = now + 1;
    warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
    simt_settle next;
    simt_stack_status status = simt_stack_settle_transaction(&w->stack, tx->retry_index, tx->begin_pc, &next);
    if (status != SIMT_STACK_OK) {
        exec_report_stack(c, status, tx->begin_pc + 4);
        return;
    }
    if (next == SIMT_SETTLE_RESUME) {
        resume_attempt(c, w, warp_index, now);
        return;
    }
    if (next == SIMT_SETTLE_RERUN) {
        uint64_t lanes = simt_stack_attempt_lanes(&w->stack, tx->retry_index);
        if (tx->serialize != TX_SERIALIZE_NONE) { /* one retry lane runs, the others wait in Retry (tx.h 3) */
            uint64_t lowest = lanes & (~lanes + 1);
            simt_stack_abort_lanes(&w->stack, tx->retry_index, lanes & ~lowest);
            lanes = lowest;
            tx->serialize = TX_SERIALIZE_NONE;
        }
        start_attempt(c, w, warp_index, lanes, now);
        return;
    }
    tx->serialize = TX_SERIALIZE_NONE;
    tx->phase = TX_IDLE;
    tx_client_release_token(c);
    cta_reconverge_warp(c, w, warp_index, now);
}

/* The lanes the tm_unit aborted (tx.h 6) roll back into the Retry entry;
 * the others run on. False when none runs on (the transaction settled). */
static bool abort_lanes(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t running = simt_stack_attempt_lanes(&w->stack, tx->retry_index), lanes = tx->abort_lanes & running;
    tx->abort_lanes = 0;
    if (!lanes) return true;
    c->tm_stats.tm_wasted_cycles += now - tx->round_start;
    c->tm_stats.tm_wasted_instructions += tx->attempt_instructions * (unsigned)__builtin_popcountll(lanes) / (unsigned)__builtin_popcountll(running);
    for (uint64_t m = lanes; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
    simt_stack_abort_lanes(&w->stack, tx->retry_index, lanes);
    if (lanes == running) { /* the tm_unit ended the attempt: nothing to roll back there */
        tx->abort_requested = false;
        if (!(lanes & ~tx->retry_at_commit)) { /* their retry waits for tx_commit: walk there empty (tx.h) */
            w->stack.depth = simt_stack_attempt_index(&w->stack, tx->retry_index) + 1; /* entries above hold no lane */
            tx->walking = true;
            tx->walk_start = now;
            w->next_issue = now + 1;
            warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
            return false;
        }
        settle_transaction(c, w, warp_index, now);
        return false;
    }
    cta_reconverge_warp(c, w, warp_index, now); /* entries the aborted lanes emptied pop */
    return true;
}

void tx_client_event(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    (void)now;
    uint32_t warp_index = (uint32_t)msg->warp;
    warp *w = warp_index < (uint32_t)c->params.warps ? &c->warps[warp_index] : NULL;
    if (msg->op != SIMTX_OP_TX_ABORT || msg->is_response || !w) {
        core_fail(c, "unexpected %s on the tx_events socket (warp %d): only TX_ABORT comes there (tx.h 6)", simtx_op_name((simtx_op)msg->op), msg->warp);
        return;
    }
    tx_warp *tx = w->tx;
    /* Stale when the attempt already ended: its TX_COMMIT's outcome or its
     * TX_ROLLBACK covered the lanes (tx.h 6). */
    if (!tx || tx->phase != TX_RUNNING || msg->transaction_id + 1 != tx->attempt) return;
    uint64_t lanes = msg->lane_mask & simt_stack_attempt_lanes(&w->stack, tx->retry_index);
    if (!lanes) return;
    tx->abort_lanes |= lanes;
    if (!w->pending_memory && !w->at_barrier) warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE); /* it rolls them back at its next issue */
}

/* With no memory access of the warp in flight: the lanes the tm_unit
 * aborted, then the whole running attempt when it is doomed (fault or
 * timeout). */
void tx_client_abort_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    if (tx->abort_lanes && !abort_lanes(c, w, warp_index, now)) return;
    if (!tx->abort_requested) return;
    uint64_t lanes = simt_stack_attempt_lanes(&w->stack, tx->retry_index);
    if (tx->abort_cause == TX_ROLLBACK_TIMEOUT) {
        tx->timeout *= 2;
    } else if (++tx->fault_aborts > 1000) { /* not doomed: it faults whatever it reads */
        char where[320];
        core_describe(c, w, tx->fault_pc, where, sizeof where);
        core_fail(c, "a transaction faulted on 1000 retries in a row (a bad address or jump, not an inconsistent read), last at %s", where);
        return;
    }
    c->tm_stats.tm_wasted_cycles += now - tx->round_start;
    c->tm_stats.tm_wasted_instructions += tx->attempt_instructions;
    send_event(c, SIMTX_OP_TX_ROLLBACK, warp_index, lanes, (uint64_t)tx->abort_cause);
    for (uint64_t m = lanes; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
    simt_stack_retry_lanes(&w->stack, tx->retry_index, lanes);
    tx->abort_requested = false;
    settle_transaction(c, w, warp_index, now);
}

bool tx_client_begin(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now)
{
    if (!w->tx) {
        w->tx = calloc(1, sizeof *w->tx);
        if (w->tx) w->tx->checkpoint = calloc(WARP_ROWS * (size_t)c->lanes, sizeof(uint32_t));
        if (!w->tx || !w->tx->checkpoint) {
            core_fail(c, "out of memory for transaction state");
            return false;
        }
    }
    tx_warp *tx = w->tx;
    c->tm_tokens_used++;
    c->tm_probes.tx_warps = c->tm_tokens_used;
    tx->timeout = (uint64_t)c->params.tm_timeout;
    tx->fault_aborts = 0;
    tx->attempt = 0;
    tx->begin_pc = pc;
    tx->commit_pc = k->target;
    tx->abort_requested = false;
    tx->abort_lanes = 0;
    tx->walking = false;
    tx->serialize = TX_SERIALIZE_NONE;
    memcpy(tx->checkpoint, w->registers, WARP_ROWS * sizeof(uint32_t) * c->lanes);
    for (uint64_t m = mask; m; m &= m - 1) {
        tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        lane->undo_count = 0;
        lane->depth = 1;
    }
    /* The parent continues after tx_commit once every lane committed; the
     * Retry entry collects lanes that failed; the Transaction entry runs. */
    simt_stack_status status = simt_stack_open_transaction(&w->stack, pc, tx->commit_pc, mask, &tx->retry_index);
    if (status != SIMT_STACK_OK) {
        exec_report_stack(c, status, pc + 4);
        return false;
    }
    start_attempt(c, w, warp_index, mask, now);
    return true;
}

/* tx_commit of the outer transaction: TX_COMMIT, and the warp waits for the outcome. */
void tx_client_commit(simt_core *c, warp *w, uint32_t warp_index, uint32_t rd, uint64_t mask, uint64_t now)
{
    tx_warp *tx = w->tx;
    tx->commit_rd = rd;
    tx->committing = mask;
    tx->phase = TX_WAIT_COMMIT;
    c->tm_stats.tm_core_cycles += now - tx->round_start;
    simtx_histogram_add(&c->tm_stats.tm_core_duration, now - tx->round_start);
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    send_event(c, SIMTX_OP_TX_COMMIT, warp_index, mask, 0);
}

/* TX_COMMIT's outcome: committed lanes leave with tx_commit's result 1,
 * retry lanes roll back into the Retry entry. */
static void commit_answered(simt_core *c, warp *w, uint32_t warp_index, const tx_outcome *outcome, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t committing = tx->committing;
    if ((outcome->committed | outcome->retry) != committing || (outcome->committed & outcome->retry)) {
        core_fail(c, "the tm_unit's outcome of warp %u (committed 0x%llx, retry 0x%llx) does not cover its committing lanes 0x%llx",
                  warp_index, (unsigned long long)outcome->committed, (unsigned long long)outcome->retry, (unsigned long long)committing);
        return;
    }
    if (outcome->committed) tx->fault_aborts = 0; /* progress: the faults were doomed attempts */
    for (uint64_t m = outcome->committed; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (tx->commit_rd) w->registers[tx->commit_rd * c->lanes + l] = 1;
        tx->lane[l].depth = 0;
        tx->lane[l].undo_count = 0;
    }
    w->uniform_registers &= ~(1u << tx->commit_rd);
    tx->serialize = outcome->serialize;
    if (outcome->retry) {
        unsigned count = (unsigned)__builtin_popcountll(outcome->retry);
        c->tm_stats.tm_wasted_cycles += now - tx->round_start;
        c->tm_stats.tm_wasted_instructions += tx->attempt_instructions * count / (unsigned)__builtin_popcountll(committing);
        for (uint64_t m = outcome->retry; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
        simt_stack_retry_lanes(&w->stack, tx->retry_index, outcome->retry);
    }
    settle_transaction(c, w, warp_index, now);
}

void tx_client_verdict(simt_core *c, warp *w, uint32_t warp_index, uint32_t pc, const simtx_msg *msg, uint64_t now)
{
    tx_warp *tx = w->tx;
    if (!tx_client_active(tx) || !tx->verdicts_pending) {
        core_fail(c, "a verdict for warp %u, which waits for none (tx.h 2)", warp_index);
        return;
    }
    tx->verdicts_pending--;
    uint64_t lanes = msg->status == SIMTX_STATUS_OK ? tx_verdict_lanes(msg) : 0; /* a fault pauses nothing */
    /* Lanes the access aborted (the lds's conflict mask under GPU-LocalTM):
     * they run nothing more and roll back into Retry before the warp
     * issues again, once its accesses completed (as for TX_ABORT, tx.h 6). */
    uint64_t aborted = msg->status == SIMTX_STATUS_OK ? tx_verdict_aborted(msg) : 0;
    if (aborted) tx->abort_lanes |= aborted & simt_stack_attempt_lanes(&w->stack, tx->retry_index);
    if (aborted && (msg->aux & TX_VERDICT_RETRY_AT_COMMIT)) tx->retry_at_commit |= aborted;
    if (lanes) {
        uint64_t running = simt_stack_attempt_lanes(&w->stack, tx->retry_index);
        if ((lanes & ~running) || lanes == running) {
            core_fail(c, "the tm_unit paused lanes 0x%llx of warp %u: not a part of its running attempt (tx.h 2 keeps one running)",
                      (unsigned long long)lanes, warp_index);
            return;
        }
        simt_stack_status status = simt_stack_pause(&w->stack, tx->retry_index, pc, lanes, msg->transaction_id);
        if (status != SIMT_STACK_OK) {
            exec_report_stack(c, status, pc);
            return;
        }
        cta_reconverge_warp(c, w, warp_index, now); /* entries the paused lanes emptied pop */
    }
    /* The warp may issue again (an abort the access's fault asks for
     * waits for its completion in exec_warp_ready). */
    if (!tx->verdicts_pending && !w->at_barrier && !warp_set_has(c->sched.room_waiters, warp_index))
        warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
}

void tx_client_response(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    uint32_t warp_index = (uint32_t)msg->warp;
    warp *w = warp_index < (uint32_t)c->params.warps ? &c->warps[warp_index] : NULL;
    if (msg->status != SIMTX_STATUS_OK) {
        core_fail(c, "the ldst socket answered %s to %s of warp %d: is a tm_unit attached (platforms/parts/tm_lazy.lua)?",
                  msg->status == SIMTX_STATUS_COMMAND_ERROR ? "a command error" : "an error", simtx_op_name((simtx_op)msg->op), msg->warp);
        return;
    }
    if (msg->op == SIMTX_OP_TX_ROLLBACK) return; /* the re-run's TX_BEGIN follows it in order */
    bool starts = msg->op == SIMTX_OP_TX_BEGIN || msg->op == SIMTX_OP_TX_RESUME;
    int expected = starts ? TX_WAIT_BEGIN : msg->op == SIMTX_OP_TX_COMMIT ? TX_WAIT_COMMIT : -1;
    if (!w || !w->tx || w->tx->phase != expected) {
        core_fail(c, "unexpected %s response for warp %d", simtx_op_name((simtx_op)msg->op), msg->warp);
        return;
    }
    if (starts) {
        /* Lanes the unit holds out of this attempt (a serialised retry):
         * they wait in the Retry entry, having run nothing of it. */
        uint64_t held = msg->op == SIMTX_OP_TX_BEGIN ? tx_begin_held(msg) : 0;
        if (held) {
            uint64_t running = simt_stack_attempt_lanes(&w->stack, w->tx->retry_index);
            if ((held & ~running) || held == running) {
                core_fail(c, "TX_BEGIN's answer of warp %d holds lanes 0x%llx: not a part of its attempt's lanes 0x%llx (one must run)", msg->warp,
                          (unsigned long long)held, (unsigned long long)running);
                return;
            }
            simt_stack_abort_lanes(&w->stack, w->tx->retry_index, held);
        }
        w->tx->may_pause = (msg->flags & SIMTX_FLAG_TX_PAUSE) != 0;
        w->tx->consistent = (msg->aux & TX_BEGIN_CONSISTENT) != 0;
        w->tx->verdicts_pending = 0; /* none: the warp had no access in flight */
        w->tx->phase = TX_RUNNING;
        w->tx->attempt_start = now;
        if (msg->op == SIMTX_OP_TX_BEGIN) w->tx->round_start = now;
        warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
        return;
    }
    tx_outcome outcome;
    if (msg->size < sizeof outcome) {
        core_fail(c, "TX_COMMIT's response of warp %d carries %u bytes, not a tx_outcome", msg->warp, msg->size);
        return;
    }
    memcpy(&outcome, msg->data, sizeof outcome);
    commit_answered(c, w, warp_index, &outcome, now);
}

void tx_client_walk(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint64_t now)
{
    tx_warp *tx = w->tx;
    stack_entry *top = simt_stack_top(&w->stack);
    uint32_t pc = top->pc;
    bool inside = k && pc > tx->begin_pc && pc <= tx->commit_pc;
    if (inside) { /* an issue with no active lane */
        c->stats.warp_instructions++;
        c->stats.issues_by_active_lanes[0]++;
        w->next_issue = now + 1;
        /* Its result register is busy for the class's latency, as on a
         * lane, so that the walk's instructions wait for each other as the
         * attempt's would (a memory one as an ALU op: no lane accesses). */
        uint64_t latency = (uint64_t)(k->op_class == RV_CLASS_MUL ? c->params.mul_latency
                                      : k->op_class == RV_CLASS_DIV ? c->params.div_latency
                                      : k->op_class == RV_CLASS_FLOAT ? c->params.fp_latency : c->params.alu_latency);
        if (k->insn.rd && k->op_class != RV_CLASS_BRANCH && k->op_class != RV_CLASS_STORE && k->op_class != RV_CLASS_TX)
            w->register_ready[k->insn.rd] = now + latency;
        uint32_t next = pc + 4;
        if (k->op_class == RV_CLASS_BRANCH) {
            next = k->reconverge; /* no lane takes either side */
            w->next_issue = now + (uint64_t)c->params.branch_latency;
        } else if (k->op_class == RV_CLASS_JUMP) {
            next = k->flow == KERNEL_FLOW_JUMP ? k->target : k->flow == KERNEL_FLOW_CALL ? pc + 4 : KERNEL_EXIT_PC;
            w->next_issue = now + (uint64_t)c->params.branch_latency;
        }
        if (pc != tx->commit_pc) {
            top->pc = next;
            return;
        }
    }
    /* At tx_commit (issued above), or outside the body: the retry starts. */
    c->tm_stats.tm_core_cycles += now - tx->round_start;
    simtx_histogram_add(&c->tm_stats.tm_core_duration, now - tx->round_start);
    c->tm_stats.tm_wasted_cycles += now - tx->walk_start;
    tx->walking = false;
    settle_transaction(c, w, warp_index, now);
}

void tx_client_release(simt_core *c) { free(c->tx_out.messages); }

void tx_client_release_warp(tx_warp *tx)
{
    if (!tx) return;
    for (uint32_t l = 0; l < MAX_LANES; l++) free(tx->lane[l].undo);
    free(tx->checkpoint);
    free(tx);
}
