/* lsu: the core's LD/ST path (load-store unit; the seed of the ldst_unit block): windows and faults, coalescing, local memory, atomics, the pending table and request queue, responses; shared lanes go to the lds (lsu_shared.c). */
#include "lsu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "const_path.h"
#include "cta.h"

/* Lanes in a mask of consecutive lanes (not empty). */
static uint32_t lane_run(uint64_t lanes) { return 64u - (uint32_t)__builtin_clzll(lanes) - (uint32_t)__builtin_ctzll(lanes); }

/* A scattered warp touches up to 64 segments: a small hash table finds a lane's. */
uint32_t lsu_coalesce(const uint32_t *addresses, uint64_t mask, unsigned size, uint32_t segment_size, lsu_segment *segments)
{
    enum { TABLE_BITS = 7 }; /* 128 entries for at most 64 segments */
    uint8_t table[1u << TABLE_BITS] = {0}; /* segment index + 1; 0: empty */
    uint32_t count = 0;
    uint32_t segment_mask = ~(segment_size - 1);
    unsigned segment_shift = (unsigned)__builtin_ctz(segment_size);
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint32_t base = addresses[lane] & segment_mask, offset = addresses[lane] - base;
        uint32_t h = ((base >> segment_shift) * 0x9e3779b1u) >> (32 - TABLE_BITS); /* Fibonacci hashing */
        while (table[h] && segments[table[h] - 1].base != base) h = (h + 1) & ((1u << TABLE_BITS) - 1);
        uint32_t k = table[h] ? table[h] - 1u : count;
        if (k == count) {
            segments[count++] = (lsu_segment){base, offset, offset + size, 0};
            table[h] = (uint8_t)count;
        }
        lsu_segment *s = &segments[k];
        s->lanes |= 1ull << lane;
        if (offset < s->first) s->first = offset;
        if (offset + size > s->end) s->end = offset + size;
    }
    return count;
}


/* Whether a pending load keeps only its first lane's address, its lanes'
 * words being consecutive (a response's lanes are then one copy). Speed
 * only: the per-lane addresses and copies it saves cost more than 1% of
 * host instructions on vector add (docs/performance.md). */
static inline bool pending_is_word_run(const pending_access *entry) { return entry->contiguous && !entry->transactional; }

/* Whether a global access's responses write registers (or the reservation),
 * so read the lanes' addresses that its pending entry keeps. */
static bool response_reads_lanes(rv_class cls, rv_op op, unsigned rd)
{
    return cls != RV_CLASS_STORE && (rd || op == RV_LR);
}

issue_result lsu_execute(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    unsigned size = rv_access_size(op);
    uint32_t addresses[MAX_LANES];
    uint64_t global_mask = 0, shared_mask = 0; /* lanes to the memory side, to the lds */
    const uint32_t *base = reg(c, w, k->insn.rs1);
    int32_t offset = cls == RV_CLASS_ATOMIC ? 0 : k->insn.imm;
    bool transactional = tm_core_active(w->tx);
    uint32_t lowest = UINT32_MAX, highest = 0, address_bits = 0;
    uint32_t lanes = c->lanes; /* a local: the stores below cannot change it */
    bool contiguous = false; /* every lane, a word each, lane l at addresses[0] + 4 l */
    bool uniform_base = (w->uniform_registers >> k->insn.rs1) & 1;
    /* Loads write rd (set again below for an argument the whole warp reads). */
    if (cls != RV_CLASS_STORE) w->uniform_registers &= ~(1u << k->insn.rd);
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
            address_bits = first; /* as aligned as the others (4 l adds no low bits) */
            lowest = first;
            highest = last_of_run;
            contiguous = size == 4;
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
            tm_core_request_abort(w->tx, ABORT_FAULT, pc);
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
    /* Inside a transaction (lazy versioning): stores go to the lane's write
     * log; loads of words the lane wrote or read already are served from
     * its logs; other loads go to memory and are logged on return. */
    uint64_t tx_served = 0;
    if (global_mask && transactional) {
        char where[320];
        if (cls == RV_CLASS_ATOMIC) {
            core_describe(c, w, pc, where, sizeof where);
            core_fail(c, "atomic inside a transaction at %s: not supported (use plain loads and stores)", where);
            return ISSUE_FAILED;
        }
        uint32_t *load_rd = reg(c, w, k->insn.rd);
        const uint32_t *store_data = reg(c, w, k->insn.rs2);
        for (uint64_t m = global_mask; m; m &= m - 1) {
            uint32_t lane_index = (uint32_t)__builtin_ctzll(m);
            tx_lane *lane = &w->tx->lane[lane_index];
            uint32_t word = addresses[lane_index] & ~3u, shift = (addresses[lane_index] & 3u) * 8;
            tm_entry *written = tm_core_log_find(&lane->writes, word);
            if (cls == RV_CLASS_LOAD) {
                tm_entry *seen = written ? written : tm_core_log_find(&lane->reads, word);
                if (!seen) continue;
                if (k->insn.rd) load_rd[lane_index] = rv_extend_load(op, seen->value >> shift);
            } else {
                uint32_t value = store_data[lane_index];
                if (size < 4) {
                    const tm_entry *base_word = written ? written : tm_core_log_find(&lane->reads, word);
                    if (!base_word) {
                        core_describe(c, w, pc, where, sizeof where);
                        core_fail(c, "%u-byte transactional store to 0x%08x (lane %u) to a word the transaction neither read nor wrote: not supported, at %s",
                             size, addresses[lane_index], lane_index, where);
                        return ISSUE_FAILED;
                    }
                    uint32_t byte_mask = (size == 1 ? 0xffu : 0xffffu) << shift;
                    value = (base_word->value & ~byte_mask) | ((value << shift) & byte_mask);
                }
                if (written) written->value = value;
                else if (!tm_core_log_append(c, &lane->writes, word, value)) {
                    return ISSUE_FAILED;
                }
            }
            tx_served |= 1ull << lane_index;
        }
        global_mask &= ~tx_served;
    }
    lsu_segment segments[MAX_LANES];
    uint32_t segment_mask = ~((uint32_t)c->params.segment_size - 1);
    uint32_t messages;
    if (!global_mask) {
        messages = 0;
    } else if (cls == RV_CLASS_ATOMIC) {
        messages = (uint32_t)__builtin_popcountll(global_mask); /* one request per lane */
    } else if (global_mask == mask && (lowest & segment_mask) == (highest & segment_mask)) {
        /* The usual coalesced access: every lane in one segment. */
        uint32_t segment_base = lowest & segment_mask;
        segments[0] = (lsu_segment){segment_base, lowest - segment_base, highest + size - segment_base, mask};
        messages = 1;
    } else {
        messages = lsu_coalesce(addresses, global_mask, size, (uint32_t)c->params.segment_size, segments);
    }
    if (messages && (!c->free_pending_count || c->requests.capacity - c->requests.length < messages)) return ISSUE_STALLED;
    if (shared_mask && (!c->free_pending_count || !lsu_shared_has_room(c, lsu_shared_beats(cls, op, shared_mask)))) return ISSUE_STALLED;

    uint32_t *rd = reg(c, w, k->insn.rd);
    const uint32_t *data = reg(c, w, k->insn.rs2);
    uint64_t ready = now + 1;
    uint64_t lsu_cycles = 1;
    /* Local and code-window lanes are served inside the core. */
    uint64_t local_mask = mask & ~global_mask & ~shared_mask & ~failed_sc & ~tx_served;
    if (tx_served) ready = now + (uint64_t)c->params.local_latency; /* the logs live in local memory */
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
            if (undo_offset != UINT32_MAX && !tm_core_undo_append(c, &w->tx->lane[lane], undo_offset, old, size)) {
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
    if (messages || shared_mask) {
        uint32_t entry_index = c->free_pending[--c->free_pending_count];
        pending_access *entry = &c->pending[entry_index];
        entry->in_use = true;
        entry->warp = warp_index;
        entry->pc = pc;
        entry->op = (uint8_t)op;
        entry->op_class = (uint8_t)cls;
        entry->rd = k->insn.rd;
        entry->remaining = messages + (shared_mask != 0); /* the lds answers one completion */
        entry->lanes = global_mask;
        /* The lds performs a warp's requests in order, so nothing waits for
         * a shared store's completion (barriers, fences, the CTA's end). */
        entry->warp_waits = messages || cls != RV_CLASS_STORE;
        entry->transactional = cls == RV_CLASS_LOAD && transactional;
        entry->contiguous = contiguous && op == RV_LW;
        /* Only a response that writes registers reads the addresses (a
         * store's does not), and a contiguous load's follow from its first. */
        if (response_reads_lanes(cls, op, k->insn.rd) || shared_mask) { /* an lds fault names a lane's address */
            if (pending_is_word_run(entry)) entry->addresses[0] = addresses[0];
            else memcpy(entry->addresses, addresses, sizeof addresses);
        }
        w->pending_memory += entry->warp_waits;
        if (!messages) {
        } else if (cls == RV_CLASS_LOAD) c->stats.global_loads++;
        else if (cls == RV_CLASS_STORE) c->stats.global_stores++;
        else c->stats.global_atomics++;
        if (shared_mask) {
            lsu_shared_request(c, w, warp_index, k, entry_index, shared_mask, addresses, now);
            lsu_shared_send_queued(c);
            c->stats.shared_accesses++;
        }
        uint32_t sector = (uint32_t)c->params.sector_size;
        uint64_t atomic_lanes = global_mask; /* the lanes still without a request */
        for (uint32_t s = 0; s < messages; s++) {
            /* Written in place: room for every message was checked above. */
            simtx_msg *msg = msg_queue_push_slot(&c->requests, now + s);
            if (!msg) {
                core_fail(c, "internal error: memory request %u of %u queued without room", s, messages);
                break;
            }
            uint64_t lanes_of_message;
            if (cls == RV_CLASS_ATOMIC) {
                uint32_t lane = (uint32_t)__builtin_ctzll(atomic_lanes);
                atomic_lanes &= atomic_lanes - 1;
                if (op == RV_LR) {
                    simtx_msg_init(msg, SIMTX_OP_READ, addresses[lane], 4);
                } else {
                    simtx_msg_init(msg, SIMTX_OP_ATOMIC, addresses[lane], 4);
                    msg->atomic_op = (uint8_t)lsu_atomic_code(op);
                    memcpy(msg->data, &data[lane], 4);
                    if (op == RV_SC) msg->aux = entry->expected[lane] = w->reserved_value[lane];
                }
                lanes_of_message = 1ull << lane;
            } else {
                lanes_of_message = segments[s].lanes;
                uint32_t first = segments[s].first / sector * sector;
                uint32_t last = (segments[s].end + sector - 1) / sector * sector;
                simtx_msg_init(msg, cls == RV_CLASS_LOAD ? SIMTX_OP_READ : SIMTX_OP_WRITE, segments[s].base + first, last - first);
                if (cls == RV_CLASS_STORE) {
                    msg->byte_enable[0] = msg->byte_enable[1] = 0;
                    memset(msg->data, 0, msg->size);
                    if (contiguous) { /* the message's lanes are one run of words: one copy */
                        uint32_t lane = (uint32_t)__builtin_ctzll(lanes_of_message);
                        uint32_t o = addresses[lane] - (uint32_t)msg->address, bytes = lane_run(lanes_of_message) * 4;
                        memcpy(msg->data + o, &data[lane], bytes);
                        simtx_msg_enable_bytes(msg, o, bytes);
                    }
                    for (uint64_t m = contiguous ? 0 : lanes_of_message; m; m &= m - 1) {
                        uint32_t lane = (uint32_t)__builtin_ctzll(m);
                        uint32_t o = addresses[lane] - (uint32_t)msg->address;
                        if (size == 4) memcpy(msg->data + o, &data[lane], 4);
                        else memcpy(msg->data + o, &data[lane], size);
                        /* aligned, so within one enable word */
                        msg->byte_enable[o >> 6] |= ((1ull << size) - 1) << (o & 63);
                    }
                }
            }
            msg->lane_mask = lanes_of_message;
            msg->core = (int32_t)c->params.core_id;
            msg->warp = (int32_t)warp_index;
            msg->cta = (int32_t)w->cta_slot;
            msg->id = entry_index;
            c->stats.memory_requests++;
        }
        if (messages > lsu_cycles) lsu_cycles = messages;
        if (cls != RV_CLASS_STORE && k->insn.rd) w->register_ready[k->insn.rd] = UINT64_MAX;
    }
    if (cls != RV_CLASS_STORE && k->insn.rd && !(messages || shared_mask)) w->register_ready[k->insn.rd] = ready;
    if (op == RV_LR) { /* the value arrives with the response (or was read above) */
        w->reserved |= mask;
        for (uint64_t m = mask; m; m &= m - 1) w->reserved_address[__builtin_ctzll(m)] = addresses[__builtin_ctzll(m)];
    } else if (op == RV_SC) {
        w->reserved &= ~mask;
    }
    c->lsu_free_cycle = now + lsu_cycles;
    return ISSUE_DONE;
}

void lsu_send_queued(simt_core *c, uint64_t now)
{
    tm_queue *q = &c->tm_out;
    while (!c->port_blocked && q->length) {
        if (!c->env.send(c->env.context, MEMORY_PORT, &q->messages[q->head])) {
            c->port_blocked = true;
            return;
        }
        q->head = (q->head + 1) % q->capacity;
        q->length--;
    }
    while (!c->port_blocked && !msg_queue_empty(&c->requests) && msg_queue_front_ready(&c->requests) <= now) {
        if (!c->env.send(c->env.context, MEMORY_PORT, msg_queue_front(&c->requests))) {
            c->port_blocked = true;
            return;
        }
        msg_queue_pop(&c->requests);
        if (c->sched.room_waiter_count) warp_sched_release_room_waiter(&c->sched, c->warps);
    }
}

/* Inline in the memory side's response path, which most responses take. */
static inline void complete_entry(simt_core *c, pending_access *entry, uint32_t entry_index, uint64_t now)
{
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

void lsu_response(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    pending_access *entry = &c->pending[msg->id];
    warp *w = &c->warps[entry->warp];
    if (msg->status != SIMTX_STATUS_OK) {
        char where[320];
        core_describe(c, w, entry->pc, where, sizeof where);
        core_fail(c, "the memory side answered %s for a request at 0x%08" PRIx64 " (%u bytes) made by %s",
             msg->status == SIMTX_STATUS_ADDRESS_ERROR ? "an address error (no memory there)" : "a command error", msg->address,
             msg->size, where);
        return;
    }
    rv_op op = (rv_op)entry->op;
    rv_class cls = (rv_class)entry->op_class;
    if (response_reads_lanes(cls, op, entry->rd)) {
        uint32_t *rd = reg(c, w, entry->rd);
        uint64_t lanes = msg->lane_mask & entry->lanes;
        if (pending_is_word_run(entry)) { /* the lanes' words are consecutive: one copy */
            if (lanes) {
                uint32_t lane = (uint32_t)__builtin_ctzll(lanes);
                uint32_t address = entry->addresses[0] + 4 * lane;
                memcpy(&rd[lane], msg->data + (address - (uint32_t)msg->address), lane_run(lanes) * 4);
            }
        } else if (op == RV_LW && !entry->transactional) { /* the common case: a word per lane */
            for (uint64_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctzll(m);
                memcpy(&rd[lane], msg->data + (entry->addresses[lane] - (uint32_t)msg->address), 4);
            }
        } else {
            unsigned size = rv_access_size(op);
            for (uint64_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctzll(m);
                uint32_t offset = entry->addresses[lane] - (uint32_t)msg->address;
                uint32_t value = read_bytes(msg->data + offset, size);
                if (op == RV_LR) w->reserved_value[lane] = value;
                if (op == RV_SC) value = value == entry->expected[lane] ? 0 : 1;
                if (entry->rd) rd[lane] = cls == RV_CLASS_ATOMIC ? value : rv_extend_load(op, value);
                if (entry->transactional) { /* the read log keeps the whole word */
                    uint32_t word = entry->addresses[lane] & ~3u, word_value = 0;
                    memcpy(&word_value, msg->data + (word - (uint32_t)msg->address), 4);
                    tx_lane *tx_lane_state = &w->tx->lane[lane];
                    if (!tm_core_log_find(&tx_lane_state->reads, word)) tm_core_log_append(c, &tx_lane_state->reads, word, word_value);
                }
            }
        }
    }
    complete_entry(c, entry, (uint32_t)msg->id, now);
}

void lsu_complete(simt_core *c, pending_access *entry, uint32_t entry_index, uint64_t now)
{
    complete_entry(c, entry, entry_index, now);
}
