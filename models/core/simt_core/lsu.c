/* lsu: the core's LD/ST path: addresses, the window decision per lane, local memory, the lr/sc reservation, the pending table; global lanes go to the ldst_unit, shared lanes to the lds (lsu_socket.c). */
#include "lsu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "const_path.h"
#include "cta.h"
#include "lsu_memcheck.h"
#include "simtx_assert.h"

/* clwb and the non-temporal store act on persistent memory only, and
 * outside transactions (the lazy TM model logs no persistence op): any
 * other use fails the run naming the lane and the instruction. Out of line:
 * the other memory instructions never call it. */
static __attribute__((noinline)) bool persist_op_refused(simt_core *c, warp *w, rv_op op, uint32_t pc, uint64_t mask,
                                                         const uint32_t *addresses)
{
    char where[320];
    unsigned size = rv_access_size(op);
    if (tx_client_active(w->tx)) {
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "%s inside a transaction (lane %u) at %s: not supported (persist the transaction's data after its commit)",
                  rv_op_name(op), (unsigned)__builtin_ctzll(mask), where);
        return true;
    }
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m), address = addresses[lane];
        if (rv_window_of(address) == RV_WINDOW_PERSISTENT && rv_window_of(address + size - 1) == RV_WINDOW_PERSISTENT) continue;
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "%s at 0x%08x (lane %u) outside the persistent window 0x%08x..0x%08x (it acts on persistent memory only), at %s",
                  rv_op_name(op), address, lane, RV_PERSISTENT_BASE, RV_PERSISTENT_END - 1, where);
        return true;
    }
    return false;
}

issue_result lsu_execute(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    unsigned size = rv_access_size(op);
    uint32_t addresses[MAX_LANES];
    uint64_t global_mask = 0, shared_mask = 0; /* lanes to the ldst_unit, to the lds */
    const uint32_t *base = reg(c, w, k->insn.rs1);
    int32_t offset = cls == RV_CLASS_ATOMIC ? 0 : k->insn.imm;
    bool transactional = tx_client_active(w->tx);
    uint32_t lowest = UINT32_MAX, highest = 0, address_bits = 0;
    bool word_run = false; /* lane l at addresses[0] + 4 l: an ldst.h run */
    uint32_t lanes = c->lanes; /* a local: the stores below cannot change it */
    bool uniform_base = (w->uniform_registers >> k->insn.rs1) & 1;
    /* Loads write rd (set again below for an argument the whole warp reads). */
    if (cls != RV_CLASS_STORE) w->uniform_registers &= ~(1ull << k->insn.rd);
    if (uniform_base) { /* one address for the warp (the lanes' copies are made below, if needed) */
        lowest = highest = address_bits = base[0] + (uint32_t)offset;
    } else if (mask == c->full_mask) { /* every lane: plain loops */
        /* The usual pattern first, which gives the lowest and highest
         * address without comparing (SSE2 has no unsigned vector minimum):
         * lane l at addresses[0] + 4 l. The addresses are made in the same
         * pass. (One address for the warp mostly comes from a register
         * known to be uniform, above; the comparisons find the others.) */
        uint32_t first = base[0] + (uint32_t)offset, last_of_run = first + 4 * (lanes - 1);
        uint32_t off_stride_bits = 0;
#define FULL_WARP_ADDRESSES(COUNT)                                                                     \
    for (uint32_t lane = 0; lane < (COUNT); lane++) {                                                  \
        uint32_t address = base[lane] + (uint32_t)offset;                                              \
        addresses[lane] = address;                                                                     \
        off_stride_bits |= address ^ (first + (lane << 2)); /* a shift: SSE2 has no 32-bit multiply */ \
    }
        if (lanes == 32) FULL_WARP_ADDRESSES(32) /* the usual warp: a loop of known count, unrolled */
        else FULL_WARP_ADDRESSES(lanes)
#undef FULL_WARP_ADDRESSES
        if (!off_stride_bits && last_of_run > first) { /* not wrapping around */
            word_run = true;
            address_bits = first; /* as aligned as the others (4 l adds no low bits) */
            lowest = first;
            highest = last_of_run;
        } else {
            for (uint32_t lane = 0; lane < c->lanes; lane++) {
                lowest = addresses[lane] < lowest ? addresses[lane] : lowest;
                highest = addresses[lane] > highest ? addresses[lane] : highest;
                address_bits |= addresses[lane];
            }
        }
    } else {
        for (uint32_t lane = 0; lane < lanes; lane++) addresses[lane] = base[lane] + (uint32_t)offset; /* inactive lanes too: a plain loop */
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t address = addresses[__builtin_ctzll(m)];
            lowest = address < lowest ? address : lowest;
            highest = address > highest ? address : highest;
            address_bits |= address;
        }
    }
    warp_access access = lsu_whole_warp_access(c, cls, size, lowest, highest, address_bits);
    if (access == ACCESS_ARGUMENTS) {
        /* Kernel parameters: read-only, served by the core like a constant
         * cache (CUDA's parameter space); usually one address for the warp,
         * read once. Nothing below applies to them. */
        const_load_arguments(c, w, k, mask, addresses, lowest, highest, now);
        return ISSUE_DONE;
    }
    if (uniform_base) fill_lanes(c, addresses, c->full_mask, lowest);
    if ((op == RV_CLWB || op == RV_NT_STORE || op == RV_LOG_STORE || op == RV_LOG_NAME_STORE) && persist_op_refused(c, w, op, pc, mask, addresses)) return ISSUE_FAILED;
    if (access == ACCESS_MEMORY) global_mask = mask;
    else if (access == ACCESS_IN_CORE && rv_window_of(lowest) == RV_WINDOW_SHARED) shared_mask = mask;
    for (uint64_t m = access == ACCESS_LANE_BY_LANE ? mask : 0; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint32_t address = addresses[lane];
        rv_window window = rv_window_of(address);
        char where[320];
        if (transactional &&
            (window == RV_WINDOW_NONE || rv_window_of(address + size - 1) != window ||
             (window == RV_WINDOW_CODE && cls != RV_CLASS_LOAD) || (address & (size - 1)))) {
            /* A doomed transaction (it read inconsistent data) may compute
             * any address: abort it rather than fail the run. */
            tx_client_request_abort(w->tx, TX_ROLLBACK_FAULT, pc);
            return ISSUE_DONE;
        }
        if (window == RV_WINDOW_NONE || rv_window_of(address + size - 1) != window ||
            (window == RV_WINDOW_CODE && cls != RV_CLASS_LOAD)) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "%s of %u bytes at 0x%08x (thread lane %u) lies outside every window it may use, at %s",
                 cls == RV_CLASS_LOAD ? "load" : cls == RV_CLASS_STORE ? "store" : "atomic", size, address, lane, where);
            return ISSUE_FAILED;
        }
        if (address & (size - 1)) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "misaligned %u-byte access at 0x%08x (lane %u) at %s", size, address, lane, where);
            return ISSUE_FAILED;
        }
        if (address - c->launch->args_address < c->launch->args_size) {
            /* The argument block: read-only, served by the core like a
             * constant cache (CUDA's parameter space). */
            if (cls != RV_CLASS_LOAD) {
                core_describe(c, w, pc, where, sizeof where);
                core_fail(c, "%s to the kernel's argument block at 0x%08x (lane %u; it is read-only) at %s",
                     cls == RV_CLASS_STORE ? "store" : "atomic", address, lane, where);
                return ISSUE_FAILED;
            }
            continue;
        }
        if (window == RV_WINDOW_GLOBAL || window == RV_WINDOW_PERSISTENT) global_mask |= 1ull << lane;
        else if (window == RV_WINDOW_SHARED) shared_mask |= 1ull << lane;
    }
    uint64_t failed_sc = 0; /* sc lanes without a matching reservation: fail without an access */
    if (op == RV_SC) {
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            if (!((w->reserved >> lane) & 1) || w->reserved_address[lane] != addresses[lane]) failed_sc |= 1ull << lane;
        }
        global_mask &= ~failed_sc;
        shared_mask &= ~failed_sc;
    }
    if (c->launch->memcheck && (global_mask || shared_mask) &&
        lsu_memcheck_refused(c, w, op, pc, global_mask, shared_mask, addresses, lowest, highest))
        return transactional ? ISSUE_DONE : ISSUE_FAILED; /* a transaction aborts instead */
    /* Inside a transaction the global lanes go to the tm_unit (tx.h), which
     * logs stores and answers loads from its logs; atomics are not part of
     * the lazy TM model. */
    if (global_mask && transactional && cls == RV_CLASS_ATOMIC) {
        char where[320];
        core_describe(c, w, pc, where, sizeof where);
        core_fail(c, "atomic inside a transaction at %s: not supported (use plain loads and stores)", where);
        return ISSUE_FAILED;
    }
    if (global_mask && (!c->free_pending_count ||
                        !lsu_socket_has_room(c, LDST_PORT, lsu_socket_beats(cls, op, global_mask) + (transactional && w->tx->may_pause))))
        return ISSUE_STALLED;
    if (shared_mask && (!c->free_pending_count || !lsu_socket_has_room(c, LDS_PORT, lsu_socket_beats(cls, op, shared_mask))))
        return ISSUE_STALLED;

    uint32_t *rd = reg(c, w, k->insn.rd);
    const uint32_t *data = reg(c, w, k->insn.rs2);
    uint64_t ready = now + 1;
    /* Local and code-window lanes are served inside the core. */
    uint64_t local_mask = mask & ~global_mask & ~shared_mask & ~failed_sc;
    for (uint64_t m = failed_sc; m; m &= m - 1)
        if (k->insn.rd) rd[__builtin_ctzll(m)] = 1;
    if (local_mask) {
        bool any_local = false, any_code = false;
        for (uint64_t m = local_mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            uint32_t address = addresses[lane];
            rv_window window = rv_window_of(address);
            uint8_t *bytes = NULL;
            uint32_t undo_offset = UINT32_MAX;
            char where[320];
            if (window == RV_WINDOW_LOCAL) {
                uint32_t local_offset = address - RV_LOCAL_BASE;
                if (local_offset + size > (uint32_t)c->params.local_memory) {
                    core_describe(c, w, pc, where, sizeof where);
                    core_fail(c, "local-memory access at 0x%08x (lane %u) beyond the thread's %" PRId64 " bytes (stack overflow?), at %s",
                         address, lane, c->params.local_memory, where);
                    return ISSUE_FAILED;
                }
                if (!w->local) {
                    w->local = calloc((size_t)c->lanes, (size_t)c->params.local_memory);
                    if (!w->local) {
                        core_fail(c, "out of memory for local memory");
                        return ISSUE_FAILED;
                    }
                }
                bytes = w->local + (size_t)lane * (size_t)c->params.local_memory + local_offset;
                any_local = true;
                if (cls != RV_CLASS_LOAD && transactional) undo_offset = local_offset;
            } else if (address - c->launch->args_address < c->launch->args_size) {
                if (k->insn.rd) rd[lane] = rv_extend_load(op, const_read_argument(c->launch, address, size));
                any_code = true;
                continue;
            } else { /* code window, loads only */
                uint32_t value = 0;
                if (!kernel_image_read_code(c->launch->image, address, &value, size)) {
                    core_describe(c, w, pc, where, sizeof where);
                    core_fail(c, "load at 0x%08x (lane %u) outside the kernel's image in the code window, at %s", address, lane, where);
                    return ISSUE_FAILED;
                }
                if (k->insn.rd) rd[lane] = rv_extend_load(op, value);
                any_code = true;
                continue;
            }
            uint32_t old = 0;
            memcpy(&old, bytes, size);
            /* The private stack is restored if the transaction aborts. */
            if (undo_offset != UINT32_MAX && !tx_client_undo_append(c, &w->tx->lane[lane], undo_offset, old, size)) {
                return ISSUE_FAILED;
            }
            if (cls == RV_CLASS_LOAD) {
                if (k->insn.rd) rd[lane] = rv_extend_load(op, old);
            } else if (cls == RV_CLASS_STORE) {
                memcpy(bytes, &data[lane], size);
            } else if (op == RV_LR) {
                w->reserved_value[lane] = old;
                if (k->insn.rd) rd[lane] = old;
            } else if (op == RV_SC) {
                bool success = old == w->reserved_value[lane];
                if (success) memcpy(bytes, &data[lane], 4);
                if (k->insn.rd) rd[lane] = success ? 0 : 1;
            } else {
                uint32_t updated = rv_amo_apply(op, old, data[lane]);
                memcpy(bytes, &updated, 4);
                if (k->insn.rd) rd[lane] = old;
            }
        }
        if (any_local) {
            c->stats.local_accesses++;
            if (now + (uint64_t)c->params.local_latency > ready) ready = now + (uint64_t)c->params.local_latency;
        }
        if (any_code) {
            c->stats.constant_loads++; /* read-only data and arguments */
            if (now + (uint64_t)c->params.constant_latency > ready) ready = now + (uint64_t)c->params.constant_latency;
        }
    }
    if (global_mask || shared_mask) {
        simtx_assert(c->env.instance_name, c->free_pending_count > 0); /* issue checked for room */
        uint32_t entry_index = c->free_pending[--c->free_pending_count];
        pending_access *entry = &c->pending[entry_index];
        entry->in_use = true;
        entry->warp = warp_index;
        entry->pc = pc;
        entry->op = (uint8_t)op;
        entry->op_class = (uint8_t)cls;
        entry->rd = k->insn.rd;
        entry->remaining = (global_mask != 0) + (shared_mask != 0); /* each unit answers one completion */
        /* The lds performs a warp's requests in order, so nothing waits for
         * a shared store's completion (barriers, fences, the CTA's end). */
        entry->warp_waits = global_mask || cls != RV_CLASS_STORE;
        memcpy(entry->addresses, addresses, sizeof(uint32_t) * lanes);
        w->pending_memory += entry->warp_waits;
        if (cls != RV_CLASS_STORE && k->insn.rd) w->register_ready[k->insn.rd] = UINT64_MAX;
        if (global_mask) {
            lsu_socket_request(c, LDST_PORT, w, warp_index, k, entry_index, global_mask, addresses, word_run, now);
        }
        if (shared_mask) {
            lsu_socket_request(c, LDS_PORT, w, warp_index, k, entry_index, shared_mask, addresses, false, now);
            c->stats.shared_accesses++;
        }
    }
    if (cls != RV_CLASS_STORE && k->insn.rd && !(global_mask || shared_mask)) w->register_ready[k->insn.rd] = ready;
    if (op == RV_LR) { /* the value arrives with the response (or was read above) */
        w->reserved |= mask;
        for (uint64_t m = mask; m; m &= m - 1) w->reserved_address[__builtin_ctzll(m)] = addresses[__builtin_ctzll(m)];
    } else if (op == RV_SC) {
        w->reserved &= ~mask;
    }
    c->lsu_free_cycle = now + 1;
    return ISSUE_DONE;
}

void lsu_send_queued(simt_core *c, uint64_t now)
{
    (void)now;
    /* The beats first: a request's beats stay together, and an event never
     * needs to pass one (TX_BEGIN precedes its attempt's accesses, which
     * wait for its answer; TX_COMMIT and TX_ROLLBACK wait for none in flight). */
    lsu_socket_send_queued(c, LDST_PORT);
    tx_queue *q = &c->tx_out;
    ldst_socket *socket = &c->sockets[LDST_PORT];
    while (!socket->blocked && q->length && msg_queue_empty(&socket->beats)) {
        if (!c->env.send(c->env.context, LDST_PORT, &q->messages[q->head])) {
            socket->blocked = true;
            return;
        }
        q->head = (q->head + 1) % q->capacity;
        q->length--;
    }
}

void lsu_complete(simt_core *c, pending_access *entry, uint32_t entry_index, uint64_t now)
{
    simtx_assert(c->env.instance_name, entry->in_use && entry->remaining > 0);
    if (--entry->remaining) return;
    if (!entry->warp_waits) { /* a shared store: its warp may have ended, leave it alone */
        entry->in_use = false;
        c->free_pending[c->free_pending_count++] = entry_index;
        if (c->sched.room_waiter_count) warp_sched_release_room_waiter(&c->sched, c->warps);
        return;
    }
    warp *w = &c->warps[entry->warp];
    if (entry->op_class != RV_CLASS_STORE && entry->rd) w->register_ready[entry->rd] = now + 1;
    if (w->stack.depth && !w->at_barrier && !warp_set_has(c->sched.room_waiters, entry->warp)) {
        warp_sched_set_hot(&c->sched, entry->warp, 0, STALL_NONE);
        /* Its next decode reads the stack's top entry, long untouched
         * (perf: the core cycle's most sampled load): fetch it now. */
        __builtin_prefetch(&w->stack.entries[w->stack.depth - 1]);
    }
    entry->in_use = false;
    c->free_pending[c->free_pending_count++] = entry_index;
    if (c->sched.room_waiter_count) warp_sched_release_room_waiter(&c->sched, c->warps);
    w->pending_memory--;
    if (!w->stack.depth && !w->pending_memory) {
        c->ctas[w->cta_slot].draining--;
        cta_check_done(c, w->cta_slot, now);
    }
}

