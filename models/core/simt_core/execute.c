/* execute: the issue stage of the core: the cycle's orchestration, warp readiness and issue (ALU, F, CSR, branch, jump, TX and barrier instructions). Kept in one file so that the cycle's steps inline (no link-time optimisation). */
#include "execute.h"

#include <inttypes.h>
#include <stdio.h>

#include "const_path.h"
#include "cta.h"
#include "lsu.h"
#include "rv32_float.h"

void exec_report_stack(simt_core *c, simt_stack_status status, uint32_t pc)
{
    if (status == SIMT_STACK_TOO_DEEP)
        core_fail(c, "SIMT stack deeper than %u entries (runaway recursion?) at pc 0x%x", SIMT_STACK_MAX_DEPTH, pc);
    else if (status == SIMT_STACK_NO_MEMORY)
        core_fail(c, "out of memory for a SIMT stack");
}

bool exec_push(simt_core *c, warp *w, uint32_t pc, uint32_t reconverge, uint64_t mask, bool is_call)
{
    simt_stack_status status = simt_stack_push(&w->stack, pc, reconverge, mask, is_call);
    if (status == SIMT_STACK_OK) return true;
    exec_report_stack(c, status, pc);
    return false;
}

/* Reads CSR csr into rd (NULL: x0) for the lanes of mask at cycle now;
 * false if the CSR is unknown. One decision per warp, not per lane; thread
 * ids step through the block instead of dividing per lane. */
static bool exec_read_csr(const simt_core *c, const warp *w, unsigned csr, uint64_t mask, uint32_t *rd, uint64_t now)
{
    const simt_launch *l = c->launch;
    const cta_slot *cta = &c->ctas[w->cta_slot];
    uint32_t uniform;
    switch (csr) {
    case RV_CSR_TID_X: case RV_CSR_TID_Y: case RV_CSR_TID_Z: {
        uint32_t first = w->warp_in_cta * c->lanes;
        uint32_t x = first % l->block[0], y = first / l->block[0] % l->block[1], z = first / (l->block[0] * l->block[1]);
        if (rd && x + c->lanes <= l->block[0]) { /* the warp lies in one row of the block: y and z are uniform */
            if (csr != RV_CSR_TID_X) fill_lanes(c, rd, mask, csr == RV_CSR_TID_Y ? y : z);
            else if (mask == c->full_mask)
                for (uint32_t lane = 0, lanes = c->lanes; lane < lanes; lane++) rd[lane] = x + lane; /* lanes: a local the stores cannot change */
            else
                for (uint64_t m = mask; m; m &= m - 1) rd[__builtin_ctzll(m)] = x + (uint32_t)__builtin_ctzll(m);
            return true;
        }
        for (uint32_t lane = 0; rd && lane < c->lanes; lane++) {
            if ((mask >> lane) & 1) rd[lane] = csr == RV_CSR_TID_X ? x : csr == RV_CSR_TID_Y ? y : z;
            if (++x == l->block[0]) {
                x = 0;
                if (++y == l->block[1]) y = 0, z++;
            }
        }
        return true;
    }
    case RV_CSR_LANE_ID:
        for (uint64_t m = mask; rd && m; m &= m - 1) rd[__builtin_ctzll(m)] = (uint32_t)__builtin_ctzll(m);
        return true;
    case RV_CSR_NTID_X: case RV_CSR_NTID_Y: case RV_CSR_NTID_Z: uniform = l->block[csr - RV_CSR_NTID_X]; break;
    case RV_CSR_CTAID_X: case RV_CSR_CTAID_Y: case RV_CSR_CTAID_Z: uniform = cta->id[csr - RV_CSR_CTAID_X]; break;
    case RV_CSR_NCTAID_X: case RV_CSR_NCTAID_Y: case RV_CSR_NCTAID_Z: uniform = l->grid[csr - RV_CSR_NCTAID_X]; break;
    case RV_CSR_WARP_ID: uniform = w->warp_in_cta; break;
    case RV_CSR_WARP_SIZE: uniform = c->lanes; break;
    case RV_CSR_DYNAMIC_SHARED: uniform = RV_SHARED_BASE + l->dynamic_shared_offset; break;
    /* The core's clock, as CUDA's clock(); time has no separate timer. */
    case RV_CSR_CYCLE: case RV_CSR_TIME: uniform = (uint32_t)now; break;
    case RV_CSR_CYCLEH: case RV_CSR_TIMEH: uniform = (uint32_t)(now >> 32); break;
    default: return false;
    }
    if (rd) fill_lanes(c, rd, mask, uniform);
    return true;
}

/* Whether exec_warp_ready() could register a warp as waiting for request room
 * or a transaction token (the only state it leaves for later cycles that a
 * warp_sched_set_hot of the warp does not). Speed only: when it cannot, GTO
 * skips decoding warps younger than the one it chose, which saves more
 * than 1% of host instructions on vector add (docs/performance.md). */
static inline bool exec_decode_may_register_waiter(const simt_core *c)
{
    return !lsu_has_room(c) ||
           (c->params.tm_warp_tokens && c->tm_tokens_used >= (uint32_t)c->params.tm_warp_tokens);
}

/* Whether a due warp's next instruction may issue now; sets why not. A
 * ready warp's decoded instruction goes to *insn, for exec_issue() (NULL: an
 * abort is due, or the pc is outside the text). */
CYCLE_STEP bool exec_warp_ready(simt_core *c, uint32_t warp_index, uint64_t now, stall_reason *why, uint64_t *when,
                           const kernel_insn **insn)
{
    warp *w = &c->warps[warp_index];
    if (w->at_barrier) {
        *why = STALL_BARRIER;
        return false;
    }
    if (w->tx && w->tx->phase != TX_IDLE) {
        tx_warp *tx = w->tx;
        if (tx->phase != TX_RUNNING) { /* the tm_unit answers */
            *why = STALL_MEMORY;
            warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
            return false;
        }
        /* Only a doomed attempt loops forever: a consistent one (TX_BEGIN_CONSISTENT) is not timed out. */
        if (!tx->abort_requested && tx->timeout && !tx->consistent && now - tx->attempt_start > tx->timeout) {
            tx->abort_requested = true;
            tx->abort_cause = TX_ROLLBACK_TIMEOUT;
        }
        if (tx_client_abort_pending(tx)) { /* roll back once no access of the attempt is in flight */
            if (w->pending_memory) {
                *why = STALL_MEMORY;
                return false;
            }
            *insn = NULL;
            return true;
        }
        if (tx->verdicts_pending) { /* tx.h 2: an access may pause lanes; nothing passes its verdict */
            *why = STALL_MEMORY;
            warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY); /* the verdict wakes the warp */
            return false;
        }
    }
    if (w->next_issue > now) {
        *why = STALL_PIPELINE;
        if (w->next_issue < *when) *when = w->next_issue;
        warp_sched_set_hot(&c->sched, warp_index, w->next_issue, STALL_PIPELINE);
        return false;
    }
    const stack_entry *top = &w->stack.entries[w->stack.depth - 1];
    const kernel_insn *k = kernel_image_insn(c->image, top->pc);
    *insn = k;
    if (!k) return true; /* executing it reports the error */
    uint64_t need = w->register_ready[k->insn.rs1];
    if (w->register_ready[k->insn.rs2] > need) need = w->register_ready[k->insn.rs2];
    if (w->register_ready[k->insn.rd] > need) need = w->register_ready[k->insn.rd];
    if (need > now) {
        *why = STALL_SCOREBOARD;
        if (need < *when) *when = need;
        warp_sched_set_hot(&c->sched, warp_index, need, STALL_SCOREBOARD); /* a returning load resets it */
        return false;
    }
    rv_class cls = (rv_class)k->op_class;
    /* Only these classes wait for anything more (tx_begin and sc included). */
    const uint32_t gated = 1u << RV_CLASS_LOAD | 1u << RV_CLASS_STORE | 1u << RV_CLASS_ATOMIC | 1u << RV_CLASS_BARRIER |
                           1u << RV_CLASS_FENCE | 1u << RV_CLASS_TX | 1u << RV_CLASS_FLOAT;
    if (!((gated >> cls) & 1)) return true;
    if (cls == RV_CLASS_FLOAT) { /* a fused multiply-add's third source */
        need = rv_is_fused((rv_op)k->insn.op) ? w->register_ready[rv_rs3(&k->insn)] : 0;
        if (need <= now) return true;
        *why = STALL_SCOREBOARD;
        if (need < *when) *when = need;
        warp_sched_set_hot(&c->sched, warp_index, need, STALL_SCOREBOARD);
        return false;
    }
    if (k->insn.op == RV_TX_COMMIT && w->pending_memory) { /* TX_COMMIT with none of its accesses in flight (tx.h) */
        *why = STALL_MEMORY;
        warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY); /* the last response wakes it */
        return false;
    }
    if (k->insn.op == RV_TX_BEGIN && !tx_client_active(w->tx) && c->params.tm_warp_tokens &&
        c->tm_tokens_used >= (uint32_t)c->params.tm_warp_tokens) {
        /* No transactional-warp token: sleep until a transaction ends. */
        *why = STALL_MEMORY;
        warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
        if (!w->waiting_token) {
            w->waiting_token = true;
            c->token_waiters++;
            c->tm_stats.tm_token_stalls++;
        }
        return false;
    }
    if (cls == RV_CLASS_LOAD || cls == RV_CLASS_STORE || cls == RV_CLASS_ATOMIC) {
        /* Room for the worst case (one request per lane): otherwise sleep
         * until a response or the socket frees room. */
        if (!lsu_has_room(c)) {
            /* Sleep until room frees: warp_sched_release_room_waiter() wakes one
             * waiter per freed entry, so stalled warps are not re-decoded
             * every cycle. */
            *why = STALL_MEMORY;
            warp_sched_wait_for_room(&c->sched, warp_index);
            return false;
        }
        if (c->lsu_free_cycle > now) {
            *why = STALL_MEMORY;
            if (c->lsu_free_cycle < *when) *when = c->lsu_free_cycle;
            return false;
        }
    }
    if (cls == RV_CLASS_BARRIER || cls == RV_CLASS_FENCE || cls == RV_CLASS_TX || k->insn.op == RV_SC) {
        /* Barriers and fences order the warp's memory accesses; sc needs the
         * value its lr read; tx_begin checkpoints registers that loads in
         * flight would still change, tx_commit sends logs those loads fill. */
        if (w->pending_memory) {
            *why = STALL_MEMORY;
            if (k->insn.op == RV_SFENCE && !c->sfence_since[warp_index]) c->sfence_since[warp_index] = now + 1;
            return false;
        }
    }
    return true;
}

static void trace_instruction(simt_core *c, const warp *w, uint32_t warp_index, uint32_t pc, uint64_t mask, uint64_t now)
{
    if (c->params.trace_warp >= 0 && (uint32_t)c->params.trace_warp != warp_index) return;
    char where[200];
    kernel_image_describe_pc(c->launch->image, pc, where, sizeof where);
    fprintf(c->trace, "%" PRIu64 " core %" PRId64 " warp %u cta %u mask %016" PRIx64 " %s\n", now, c->params.core_id, warp_index,
            w->cta_slot, mask, where);
}

/* rd = op(a, b) on every lane of a full warp, b a register. The common
 * ops get a loop each, in which rv_compute's switch folds away (the loop
 * vectorises); lane by lane, rd may be a or b. */
#define FULL_WARP_LOOP(OP, B) for (uint32_t l = 0; l < lanes; l++) rd[l] = rv_compute(OP, a[l], B)
static void compute_full_warp(rv_op op, const uint32_t *a, const uint32_t *b, uint32_t *rd, uint32_t lanes)
{
#define LANES_OF(OP) case OP: FULL_WARP_LOOP(OP, b[l]); break;
    switch (op) {
    LANES_OF(RV_ADD) LANES_OF(RV_SUB) LANES_OF(RV_MUL) LANES_OF(RV_SLL) LANES_OF(RV_SRL) LANES_OF(RV_SRA)
    LANES_OF(RV_AND) LANES_OF(RV_OR) LANES_OF(RV_XOR) LANES_OF(RV_SLT) LANES_OF(RV_SLTU)
    default: FULL_WARP_LOOP(op, b[l]);
    }
#undef LANES_OF
}

/* The same with an immediate: one b for every lane, so that shifts by it
 * vectorise too (SSE2 has no per-lane shift count). */
static void compute_full_warp_immediate(rv_op op, const uint32_t *a, uint32_t b, uint32_t *rd, uint32_t lanes)
{
#define LANES_OF(OP) case OP: FULL_WARP_LOOP(OP, b); break;
    switch (op) {
    LANES_OF(RV_ADDI) LANES_OF(RV_SLLI) LANES_OF(RV_SRLI) LANES_OF(RV_SRAI) LANES_OF(RV_ANDI) LANES_OF(RV_ORI)
    LANES_OF(RV_XORI) LANES_OF(RV_SLTI) LANES_OF(RV_SLTIU)
    default: FULL_WARP_LOOP(op, b);
    }
#undef LANES_OF
}
#undef FULL_WARP_LOOP

/* The lanes of mask that take a conditional branch: a loop per op, so the
 * comparison is not decoded again for every lane. A full warp first takes
 * a plain (vectorised) loop that finds whether its lanes agree, as they
 * mostly do; only a divergent one is gathered lane by lane. */
static uint64_t taken_lanes(rv_op op, const uint32_t *a, const uint32_t *b, uint64_t mask, uint64_t full_mask, uint32_t lanes)
{
    uint64_t taken = 0;
#define TAKEN_LANES(OP)                                                              \
    case OP:                                                                          \
        if (mask == full_mask) {                                                      \
            uint32_t any = 0, all = 1;                                                \
            for (uint32_t l = 0; l < lanes; l++) {                                    \
                uint32_t lane_taken = rv_branch_taken(OP, a[l], b[l]);                \
                any |= lane_taken;                                                    \
                all &= lane_taken;                                                    \
            }                                                                         \
            if (!any || all) return all ? mask : 0;                                   \
        }                                                                             \
        for (uint64_t m = mask; m; m &= m - 1) {                                      \
            uint32_t l = (uint32_t)__builtin_ctzll(m);                                \
            taken |= (uint64_t)rv_branch_taken(OP, a[l], b[l]) << l;                  \
        }                                                                             \
        break;
    switch (op) {
    TAKEN_LANES(RV_BEQ) TAKEN_LANES(RV_BNE) TAKEN_LANES(RV_BLT) TAKEN_LANES(RV_BGE) TAKEN_LANES(RV_BLTU) TAKEN_LANES(RV_BGEU)
    default: break; /* not a branch: never taken */
    }
#undef TAKEN_LANES
    return taken;
}

/* Serves a load of the argument block that the whole warp makes from one
 * address (a uniform base register) without the LD/ST path's call; false:
 * not such a load. Speed only (lsu_execute decides the same): most of
 * vector add's memory instructions are such loads, and the call saved pays
 * more than 1% of host instructions there (docs/performance.md). */
CYCLE_STEP bool exec_uniform_argument_load(simt_core *c, warp *w, const kernel_insn *k, uint64_t mask, uint64_t now)
{
    uint32_t uniform_address = reg(c, w, k->insn.rs1)[0] + (uint32_t)k->insn.imm;
    if (k->op_class != RV_CLASS_LOAD || !((w->uniform_registers >> k->insn.rs1) & 1) ||
        lsu_whole_warp_access(c, RV_CLASS_LOAD, rv_access_size((rv_op)k->insn.op), uniform_address, uniform_address,
                               uniform_address) != ACCESS_ARGUMENTS)
        return false;
    w->uniform_registers &= ~(1ull << k->insn.rd);
    const_load_arguments(c, w, k, mask, NULL, uniform_address, uniform_address, now);
    return true;
}

/* An F instruction (RV_CLASS_FLOAT) on the lanes of mask, each with its
 * own fcsr (rounding mode, accrued flags); returns its latency, 0 when it
 * failed the run (a reserved rounding mode). Out of line, like exec_sfence. */
static __attribute__((noinline)) uint64_t exec_float(simt_core *c, warp *w, const kernel_insn *k, uint32_t pc, uint64_t mask)
{
    rv_op op = (rv_op)k->insn.op;
    unsigned rd_index = k->insn.rd;
    const uint32_t *a = reg(c, w, k->insn.rs1), *b = reg(c, w, k->insn.rs2);
    const uint32_t *third = rv_is_fused(op) ? reg(c, w, rv_rs3(&k->insn)) : b;
    uint32_t *fcsr = reg(c, w, FCSR_ROW), *rd = reg(c, w, rd_index);
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m), result;
        if (op == RV_FCSR_ACCESS) {
            result = rv_fcsr_access(&k->insn, a[l], &fcsr[l]);
        } else {
            unsigned rm = rv_float_rounding(&k->insn, fcsr[l]);
            if (rm == RV_RM_DYNAMIC && rv_float_rounds(op)) {
                char where[320];
                core_describe(c, w, pc, where, sizeof where);
                core_fail(c, "reserved rounding mode (lane %u, frm %u) at %s", l, (fcsr[l] >> 5) & 7, where);
                return 0;
            }
            result = rv_float_compute(op, rm, a[l], b[l], third[l], &fcsr[l]);
        }
        if (rd_index) rd[l] = result;
    }
    w->uniform_registers &= ~(1ull << rd_index);
    switch (op) {
    case RV_FDIV: return (uint64_t)c->params.fdiv_latency;
    case RV_FSQRT: return (uint64_t)c->params.fsqrt_latency;
    case RV_FMADD: case RV_FMSUB: case RV_FNMSUB: case RV_FNMADD: return (uint64_t)c->params.fma_latency;
    default: return (uint64_t)c->params.fp_latency;
    }
}

/* The persist barrier, issued once the warp's earlier accesses have all
 * completed (exec_warp_ready): clwbs and non-temporal stores acknowledged
 * by the persistent domain. False: refused inside a transaction (reported).
 * Out of line: the cycle's code does not carry it. */
static __attribute__((noinline)) bool exec_sfence(simt_core *c, warp *w, uint32_t warp_index, uint32_t pc, uint64_t mask, uint64_t now)
{
    if (tx_client_active(w->tx)) {
        char where[320];
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "sfence inside a transaction (lane %u) at %s: the transactional memory defers its stores to the commit, "
                     "so nothing could be persisted here; persist after tx_commit", (unsigned)__builtin_ctzll(mask), where);
        return false;
    }
    c->pm_stats.sfences++;
    if (c->sfence_since[warp_index]) c->pm_stats.sfence_stall_cycles += now + 1 - c->sfence_since[warp_index];
    c->sfence_since[warp_index] = 0;
    return true;
}

/* Issues the warp's next instruction, k as exec_warp_ready() decoded it:
 * executes it on every active lane and updates the SIMT stack, unless a
 * structural stall or a failure (reported) stops it. */
CYCLE_STEP issue_result exec_issue(simt_core *c, uint32_t warp_index, const kernel_insn *k, uint64_t now)
{
    warp *w = &c->warps[warp_index];
    stack_entry *top = &w->stack.entries[w->stack.depth - 1];
    uint32_t pc = top->pc;
    uint64_t mask = top->mask;
    if (w->tx && w->tx->phase == TX_RUNNING && tx_client_abort_pending(w->tx)) {
        tx_client_abort_attempt(c, w, warp_index, now);
        return ISSUE_DONE;
    }
    if (w->tx && w->tx->walking) { /* no lane runs: the attempt walks to its tx_commit (tx.h) */
        tx_client_walk(c, w, warp_index, k, now);
        return ISSUE_DONE;
    }
    char where[320];
    if (!k && tx_client_may_be_doomed(w->tx)) { /* a doomed transaction jumped anywhere */
        tx_client_request_abort(w->tx, TX_ROLLBACK_FAULT, w->tx->begin_pc);
        return ISSUE_DONE;
    }
    if (!k) {
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "jumped outside the kernel's text: %s", where);
        return ISSUE_FAILED;
    }
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    unsigned rd_index = k->insn.rd;
    /* The operands' lanes, the latency and the next pc are made after the
     * calls of the memory path: made before, they would live across them
     * (stack traffic). */
    bool memory = cls == RV_CLASS_LOAD || cls == RV_CLASS_STORE || cls == RV_CLASS_ATOMIC;
    if (memory && !exec_uniform_argument_load(c, w, k, mask, now)) {
        issue_result result = lsu_execute(c, w, warp_index, k, pc, mask, now);
        if (result != ISSUE_DONE) return result;
    }
    uint64_t latency = memory ? 0 : (uint64_t)c->params.alu_latency; /* lsu_execute sets its own */
    uint32_t next_pc = pc + 4;
    if (c->trace) trace_instruction(c, w, warp_index, pc, mask, now);
    c->stats.warp_instructions++;
    /* A full warp needs no count (popcount is a library call on baseline x86-64). */
    unsigned active = mask == c->full_mask ? c->lanes : (unsigned)__builtin_popcountll(mask);
    c->stats.thread_instructions += active;
    c->energy_lanes[cls] += active;
    c->stats.issues_by_active_lanes[active]++;
    if (tx_client_active(w->tx)) w->tx->attempt_instructions += active;
    w->next_issue = now + 1;
    switch (cls) {
    case RV_CLASS_ALU:
    case RV_CLASS_MUL:
    case RV_CLASS_DIV: {
        if (cls == RV_CLASS_MUL) latency = (uint64_t)c->params.mul_latency;
        if (cls == RV_CLASS_DIV) latency = (uint64_t)c->params.div_latency;
        if (!rd_index) break;
        bool immediate = (k->insn.raw & 0x7f) == 0x13;
        uint32_t *rd = reg(c, w, rd_index);
        const uint32_t *a = reg(c, w, k->insn.rs1), *b = reg(c, w, k->insn.rs2);
        w->uniform_registers &= ~(1ull << rd_index); /* not followed through ALU ops: each would pay for it */
        if (op == RV_LUI || op == RV_AUIPC) {
            uint32_t value = (uint32_t)k->insn.imm + (op == RV_AUIPC ? pc : 0);
            fill_lanes(c, rd, mask, value);
        } else if (mask == c->full_mask) {
            if (immediate) compute_full_warp_immediate(op, a, (uint32_t)k->insn.imm, rd, c->lanes);
            else compute_full_warp(op, a, b, rd, c->lanes);
        } else {
            for (uint64_t m = mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                rd[l] = rv_compute(op, a[l], immediate ? (uint32_t)k->insn.imm : b[l]);
            }
        }
        break;
    }
    case RV_CLASS_CSR:
        w->uniform_registers &= ~(1ull << rd_index);
        if (!exec_read_csr(c, w, (unsigned)k->insn.imm, mask, rd_index ? reg(c, w, rd_index) : NULL, now)) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "read of unknown CSR 0x%x at %s", (unsigned)k->insn.imm, where);
            return ISSUE_FAILED;
        }
        break;
    case RV_CLASS_BRANCH: {
        uint64_t taken = taken_lanes(op, reg(c, w, k->insn.rs1), reg(c, w, k->insn.rs2), mask, c->full_mask, c->lanes);
        w->next_issue = now + (uint64_t)c->params.branch_latency;
        if (taken == mask) next_pc = k->target;
        else if (taken) {
            uint64_t not_taken = mask & ~taken;
            c->stats.divergent_branches++;
            top->pc = k->reconverge;
            if (!exec_push(c, w, pc + 4, k->reconverge, not_taken, false) ||
                !exec_push(c, w, k->target, k->reconverge, taken, false)) {
                return ISSUE_FAILED;
            }
            cta_reconverge_warp(c, w, warp_index, now);
            return ISSUE_DONE;
        }
        break;
    }
    case RV_CLASS_JUMP:
        w->next_issue = now + (uint64_t)c->params.branch_latency;
        if (k->flow != KERNEL_FLOW_RETURN && rd_index) {
            fill_lanes(c, reg(c, w, rd_index), mask, pc + 4);
            w->uniform_registers &= ~(1ull << rd_index);
        }
        switch ((kernel_flow)k->flow) {
        case KERNEL_FLOW_JUMP: next_pc = k->target; break;
        case KERNEL_FLOW_CALL:
            top->pc = pc + 4;
            if (!exec_push(c, w, k->target, KERNEL_EXIT_PC, mask, true)) return ISSUE_FAILED;
            w->register_ready[rd_index] = now + latency;
            return ISSUE_DONE;
        case KERNEL_FLOW_TAIL_CALL:
            top->pc = KERNEL_EXIT_PC;
            return exec_push(c, w, k->target, KERNEL_EXIT_PC, mask, true) ? ISSUE_DONE : ISSUE_FAILED;
        case KERNEL_FLOW_RETURN:
            top->pc = KERNEL_EXIT_PC;
            cta_reconverge_warp(c, w, warp_index, now);
            return ISSUE_DONE;
        default:
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "unresolved jump at %s", where);
            return ISSUE_FAILED;
        }
        break;
    case RV_CLASS_LOAD: case RV_CLASS_STORE: case RV_CLASS_ATOMIC:
        break;
    case RV_CLASS_FLOAT:
        latency = exec_float(c, w, k, pc, mask);
        if (!latency) return ISSUE_FAILED;
        break;
    case RV_CLASS_FENCE:
        if (op == RV_SFENCE && !exec_sfence(c, w, warp_index, pc, mask, now)) return ISSUE_FAILED;
        break;
    case RV_CLASS_TX:
        if (op == RV_TX_BEGIN) {
            if (tx_client_active(w->tx)) { /* nested: flattened */
                for (uint64_t m = mask; m; m &= m - 1) w->tx->lane[__builtin_ctzll(m)].depth++;
                break;
            }
            return tx_client_begin(c, w, warp_index, k, pc, mask, now) ? ISSUE_DONE : ISSUE_FAILED;
        } else {
            uint64_t outer = 0;
            if (tx_client_active(w->tx))
                for (uint64_t m = mask; m; m &= m - 1)
                    if (w->tx->lane[__builtin_ctzll(m)].depth == 1) outer |= 1ull << __builtin_ctzll(m);
            if (!tx_client_active(w->tx) || (outer && (outer != mask || top->kind != ENTRY_TRANSACTION || top->mask != mask))) {
                core_describe(c, w, pc, where, sizeof where);
                core_fail(c, "%s at %s", tx_client_active(w->tx) ? "tx_commit reached by only part of its transaction's lanes"
                                                      : "tx_commit outside a transaction", where);
                return ISSUE_FAILED;
            }
            if (!outer) { /* the end of a nested transaction */
                for (uint64_t m = mask; m; m &= m - 1) {
                    uint32_t l = (uint32_t)__builtin_ctzll(m);
                    w->tx->lane[l].depth--;
                    if (rd_index) reg(c, w, rd_index)[l] = 1;
                }
                w->uniform_registers &= ~(1ull << rd_index);
                break;
            }
            tx_client_commit(c, w, warp_index, rd_index, mask, now);
            return ISSUE_DONE;
        }
    case RV_CLASS_BARRIER: {
        if (tx_client_active(w->tx)) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "barrier inside a transaction at %s (it could wait for lanes that retry forever)", where);
            return ISSUE_FAILED;
        }
        simt_stack_park_top(&w->stack, next_pc);
        return cta_barrier_arrive(c, w, warp_index) ? ISSUE_DONE : ISSUE_FAILED;
    }
    case RV_CLASS_EXIT:
        if (tx_client_active(w->tx)) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "thread exit inside a transaction at %s", where);
            return ISSUE_FAILED;
        }
        /* The lanes leave every entry; the warp ends when no lane is left. */
        for (uint32_t e = 0; e < w->stack.depth; e++) w->stack.entries[e].mask &= ~mask;
        cta_reconverge_warp(c, w, warp_index, now);
        return ISSUE_DONE;
    default:
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "%s at %s", op == RV_ECALL ? "ecall (system calls are not supported)"
                            : op == RV_EBREAK ? "ebreak" : "illegal instruction", where);
        return ISSUE_FAILED;
    }
    if (rd_index && latency) w->register_ready[rd_index] = now + latency;
    top->pc = next_pc;
    if (top->pc == top->reconverge) cta_reconverge_warp(c, w, warp_index, now);
    return ISSUE_DONE;
}



/* The usual case inline: nothing queued (most cycles), or the port blocked. */
static inline void exec_drain(simt_core *c, uint64_t now)
{
    const ldst_socket *socket = &c->sockets[LDST_PORT];
    if ((!socket->blocked && !msg_queue_empty(&socket->beats)) || (c->tx_out.length && !c->sockets[c->tx_port].blocked))
        lsu_send_queued(c, now);
}

uint64_t exec_cycle(void *core, uint64_t now)
{
    simt_core *c = core;
    if (!c->launch) return SIMTX_NEVER;
    /* Account the cycles slept since the last tick to the reason it slept. */
    if (now > c->last_tick + 1 && c->last_stall != STALL_NONE && c->free_warps < (uint32_t)c->params.warps)
        c->stats.stall_cycles[c->last_stall] += now - c->last_tick - 1;
    c->last_tick = now;
    c->stats.ticks++;
    if (c->launch_fence_pending && c->launch_fence_since == UINT64_MAX) c->launch_fence_since = now;
    bool dispatched = c->cta_may_fit && cta_dispatch(c, now);
    /* The earliest cycle something can change (an issue, a latency): the
     * cycle only lowers it. */
    uint64_t wake = SIMTX_NEVER;
    exec_drain(c, now);
    /* Beats leave at issue; what a unit refused waits for its port_free. */
    if (c->sockets[LDS_PORT].beats.length) lsu_socket_send_queued(c, LDS_PORT);
    unsigned issued = 0;
    stall_reason worst = STALL_IDLE;
    uint32_t schedulers = (uint32_t)c->params.schedulers;
    if (c->sched.earliest_waiting <= now) warp_sched_promote_due(&c->sched, now);
    /* No due warp (all wait for memory, say): no scheduler has a choice, skip them. */
    uint64_t any_due = 0;
    for (uint32_t word = 0; word < c->sched.warp_set_words; word++) any_due |= c->sched.due_warps[word];
    if (!any_due) schedulers = 0;
    for (uint32_t s = 0; s < schedulers; s++) {
        /* Scheduler s owns warps s, s + schedulers, ...; only due warps are
         * decoded. */
        const uint64_t *owned = &c->sched.scheduler_warps[(size_t)s * c->sched.warp_set_words];
        uint32_t chosen = NO_SLOT;
        const kernel_insn *insn, *chosen_insn = NULL;
        uint32_t last = c->sched.last_issued[s];
        bool owns_last = last != NO_SLOT;
        stall_reason why;
        /* GTO: the last issued warp while it can issue, then the oldest due
         * warp that can (by dispatch order: slots are reused, so slot order
         * is not age). LRR: the first due warp that can in slot order,
         * starting after the last issued one and wrapping around. */
        if (!c->sched.lrr && owns_last && warp_set_has(c->sched.due_warps, last) && exec_warp_ready(c, last, now, &why, &wake, &insn)) {
            chosen = last;
            chosen_insn = insn;
        }
        /* (warp_ready changes no other warp's membership of the due set, so
         * its words are taken whole.) Once a ready warp is found, younger
         * ones cannot win and need no decode, as long as a decode could not
         * make a warp wait for request room or a transaction token (state
         * that later cycles see): with that room the chosen warp always
         * issues, and what a skipped decode records for a stalled warp
         * (warp_sched_set_hot) is only read in a cycle without an issue, in which no
         * warp is skipped; until then the warp stays due. */
        uint64_t chosen_age = UINT64_MAX; /* none chosen: every warp is older */
        if (!c->sched.lrr && chosen == NO_SLOT)
            for (uint32_t word = 0; word < c->sched.warp_set_words; word++)
                for (uint64_t due = c->sched.due_warps[word] & owned[word]; due; due &= due - 1) {
                    uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(due);
                    uint64_t age = c->warps[i].age;
                    if (age > chosen_age && !exec_decode_may_register_waiter(c)) continue;
                    if (!exec_warp_ready(c, i, now, &why, &wake, &insn)) {
                        if (why > worst) worst = why;
                    } else if (age < chosen_age) {
                        chosen = i;
                        chosen_age = age;
                        chosen_insn = insn;
                    }
                }
        if (c->sched.lrr) {
            uint32_t warp_count = (uint32_t)c->params.warps;
            uint32_t from = owns_last && last + 1 < warp_count ? last + 1 : 0;
            for (uint32_t pass = 0; chosen == NO_SLOT && pass < 2; pass++) {
                uint32_t end = pass ? from : warp_count;
                for (uint32_t i = warp_set_next(c->sched.due_warps, owned, pass ? 0 : from, end); i != NO_SLOT;
                     i = warp_set_next(c->sched.due_warps, owned, i + 1, end)) {
                    if (exec_warp_ready(c, i, now, &why, &wake, &insn)) {
                        chosen = i;
                        chosen_insn = insn;
                        break;
                    }
                    if (why > worst) worst = why;
                }
            }
        }
        if (chosen == NO_SLOT) continue;
        issue_result result = exec_issue(c, chosen, chosen_insn, now);
        if (result == ISSUE_STALLED) {
            worst = STALL_MEMORY;
            if (c->lsu_free_cycle > now && c->lsu_free_cycle < wake) wake = c->lsu_free_cycle;
            continue;
        }
        c->sched.last_issued[s] = chosen;
        issued++;
        if (result == ISSUE_FAILED) return SIMTX_NEVER;
    }
    if (!issued) {
        /* The warps not due stall for their own reasons until their cycles. */
        warp_sched_promote_due(&c->sched, now);
        if (c->sched.earliest_waiting < wake) wake = c->sched.earliest_waiting;
        for (int r = STALL_REASONS - 1; r > (int)worst; r--)
            if (c->sched.not_due_reasons[r]) {
                worst = (stall_reason)r;
                break;
            }
    }
    exec_drain(c, now);
    stall_reason reason = STALL_IDLE;
    if (issued) reason = STALL_NONE;
    else if (c->free_warps < (uint32_t)c->params.warps) reason = worst == STALL_IDLE ? STALL_MEMORY : worst;
    if (!issued) c->stats.stall_cycles[reason]++;
    c->last_stall = reason;
    if (c->env.probes_traced) { /* only a waveform reads them */
        c->probes.issued = issued;
        c->probes.stall_reason = reason;
        c->probes.pending_memory = (uint64_t)c->params.max_pending_memory - c->free_pending_count;
    }
    /* Sleep until something can change: an issue, a latency, a dispatch. */
    uint64_t next = wake;
    /* Room is free but warps still wait for it (the released one did not
     * need a request, e.g. a shared access): release the next one. */
    if (c->sched.room_waiter_count && lsu_has_room(c)) {
        warp_sched_release_room_waiter(&c->sched, c->warps);
        next = now + 1;
    }
    /* A CTA that did not fit is retried when one completes (a response or
     * an issue wakes the core then). */
    if (issued || (dispatched && cta_fits(c))) next = now + 1;
    const ldst_socket *ldst = &c->sockets[LDST_PORT];
    if ((!ldst->blocked && !msg_queue_empty(&ldst->beats)) || (c->tx_out.length && !c->sockets[c->tx_port].blocked)) next = now + 1;
    if (next <= now) next = now + 1;
    return next;
}
