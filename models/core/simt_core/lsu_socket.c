/* lsu_socket: the core's side of the ldst_unit and lds sockets: requests of beats, CTA clears, the queues, responses. */
#include "lsu_socket.h"

#include <inttypes.h>

#include "lsu.h"
#include "simtx_assert.h"

/* Sends a beat, or queues it behind beats the unit has not taken yet. */
static void put_beat(simt_core *c, unsigned port, const simtx_msg *beat, uint64_t now)
{
    ldst_socket *socket = &c->sockets[port];
    if (!socket->blocked && msg_queue_empty(&socket->beats)) {
        if (c->env.send(c->env.context, port, beat)) return;
        socket->blocked = true;
    }
    msg_queue_push(&socket->beats, beat, now); /* room checked by the caller */
}

void lsu_socket_request(simt_core *c, unsigned port, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t entry_index,
                        uint64_t lanes, const uint32_t *addresses, bool word_run, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    const cta_slot *cta = &c->ctas[w->cta_slot];
    bool shared = port == LDS_PORT;
    /* Global lanes inside a transaction go to the tm_unit (tx.h). */
    bool transactional = !shared && tx_client_active(w->tx);
    /* lds: offsets into the CTA's region; ldst_unit: kernel addresses. */
    uint32_t address_offset = shared ? RV_SHARED_BASE : 0;
    simtx_msg header;
    ldst_kind kind = op == RV_LR ? LDST_KIND_LR : op == RV_SC ? LDST_KIND_SC : LDST_KIND_PLAIN;
    simtx_op msg_op = cls == RV_CLASS_LOAD || op == RV_LR ? SIMTX_OP_READ
                      : cls == RV_CLASS_STORE            ? (op == RV_CLWB ? SIMTX_OP_CLEAN_LINE : SIMTX_OP_WRITE)
                                                         : SIMTX_OP_ATOMIC;
    bool addresses_only = msg_op == SIMTX_OP_READ || msg_op == SIMTX_OP_CLEAN_LINE; /* no data beats */
    c->visible_events += msg_op != SIMTX_OP_READ;
    simtx_msg_init(&header, msg_op, shared ? cta->shared_offset : 0, 0);
    if (msg_op == SIMTX_OP_ATOMIC) header.atomic_op = (uint8_t)lsu_atomic_code(op);
    uint64_t header_aux = ldst_aux(k->insn.rd, rv_access_size(op), LDST_BEAT_ADDRESSES, 0, false, kind,
                                   shared ? c->launch->shared_bytes : 0);
    header.lane_mask = lanes;
    header.id = entry_index;
    header.core = (int32_t)c->params.core_id;
    header.warp = (int32_t)warp_index;
    header.cta = (int32_t)w->cta_slot;
    if (transactional) header.flags = SIMTX_FLAG_TRANSACTIONAL;
    if (op == RV_NT_STORE) header.flags = SIMTX_FLAG_NON_TEMPORAL; /* the caches' to act on (mem.h) */
    /* A log update is non-temporal unless a path selector between the
     * ldst_unit and the L1 chooses otherwise (mem.h PM_LOG). */
    if (op == RV_LOG_STORE) header.flags = SIMTX_FLAG_NON_TEMPORAL | SIMTX_FLAG_PM_LOG;
    if (op == RV_LOG_NAME_STORE) header.flags = SIMTX_FLAG_NON_TEMPORAL | SIMTX_FLAG_PM_LOG | SIMTX_FLAG_PM_LOG_NAMES;
    /* A run's addresses travel in the header: a load's addresses beats
     * carry no slots, a store sends none (ldst.h). */
    bool run = word_run && !shared && !transactional && kind == LDST_KIND_PLAIN && (msg_op == SIMTX_OP_READ || msg_op == SIMTX_OP_WRITE);
    if (run) {
        header.address = addresses[0];
        header_aux |= LDST_RUN;
    }
    if (transactional && w->tx->may_pause) { /* tx.h 2: a VERDICT beat first, and the warp waits for its answer */
        simtx_msg verdict;
        header.aux = header_aux;
        tx_verdict_beat(&verdict, &header);
        put_beat(c, port, &verdict, now);
        w->tx->verdicts_pending++;
    }
    const uint32_t *data = reg(c, w, k->insn.rs2);
    simtx_msg *beat = &header; /* each beat is the header with its kind, group, size and slots */
    for (unsigned group = 0; group < LDST_MAX_GROUPS; group++) {
        uint32_t group_lanes = ldst_group_lanes(lanes, group);
        if (!group_lanes) continue;
        unsigned first = LDST_LANES_PER_BEAT * group;
        bool last_group = group + 1 == LDST_MAX_GROUPS || !(lanes >> (first + LDST_LANES_PER_BEAT));
        beat->size = ldst_beat_size(lanes, group);
        uint64_t aux = header_aux | (uint64_t)group << 20;
        /* Slots of inactive lanes are ignored. */
        beat->aux = aux | (uint64_t)LDST_BEAT_ADDRESSES << 16 | (last_group && addresses_only ? LDST_LAST : 0);
        if (run) {
        } else if (group_lanes == UINT32_MAX && !address_offset) { /* the usual full warp: one copy */
            memcpy(beat->data, &addresses[first], LDST_BEAT_BYTES);
        } else {
            for (uint32_t m = group_lanes; m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                ldst_set_slot(beat, i, addresses[first + i] - address_offset);
            }
        }
        if (!run || msg_op == SIMTX_OP_READ) put_beat(c, port, beat, now);
        if (addresses_only) continue;
        beat->aux = aux | (uint64_t)LDST_BEAT_DATA << 16 | (last_group && op != RV_SC ? LDST_LAST : 0);
        memcpy(beat->data, &data[first], beat->size); /* lanes are consecutive slots */
        put_beat(c, port, beat, now);
        if (op != RV_SC) continue;
        beat->aux = aux | (uint64_t)LDST_BEAT_EXPECTED << 16 | (last_group ? LDST_LAST : 0);
        memcpy(beat->data, &w->reserved_value[first], beat->size);
        put_beat(c, port, beat, now);
    }
    /* A unit that holds a refused beat takes nothing more until its
     * port_free: global issue waits for it (lsu_has_room). */
    ldst_socket *socket = &c->sockets[port];
    if (port == LDST_PORT && !socket->blocked && c->env.can_send && !c->env.can_send(c->env.context, port)) socket->blocked = true;
}

static void push_clear(simt_core *c, uint32_t offset, uint32_t bytes, int32_t cta_slot, uint64_t id, uint64_t now)
{
    simtx_msg *msg = msg_queue_push_slot(&c->sockets[LDS_PORT].beats, now);
    if (!msg) return; /* room checked by the caller */
    simtx_msg_init(msg, SIMTX_OP_WRITE, offset, 0);
    msg->aux = ldst_aux(0, 0, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_CLEAR, bytes);
    msg->id = id;
    msg->core = (int32_t)c->params.core_id;
    msg->cta = cta_slot;
}

bool lsu_socket_clear(simt_core *c, uint32_t offset, uint32_t bytes, uint32_t cta_slot, uint64_t now)
{
    bool check = !c->lds_size_checked;
    const msg_queue *beats = &c->sockets[LDS_PORT].beats;
    if (beats->capacity - beats->length < 1u + check) return false;
    if (check) push_clear(c, (uint32_t)c->params.shared_memory, 0, -1, LDST_SHARED_SIZE_CHECK_ID, now);
    c->lds_size_checked = true;
    push_clear(c, offset, bytes, (int32_t)cta_slot, LDST_SHARED_CLEAR_ID, now);
    return true;
}

void lsu_socket_launch_fence(simt_core *c)
{
    simtx_msg *msg = msg_queue_push_slot(&c->sockets[LDST_PORT].beats, 0);
    if (!msg) {
        core_fail(c, "internal error: a launch found the ldst socket's queue full");
        return;
    }
    simtx_msg_init(msg, SIMTX_OP_FENCE, 0, 0);
    /* The launch's shared memory per CTA, for blocks that act on it (ldst.h). */
    msg->aux = ldst_aux(0, 0, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_INVALIDATE, c->launch ? c->launch->shared_bytes : 0);
    msg->id = LDST_LAUNCH_FENCE_ID;
    msg->core = (int32_t)c->params.core_id;
    c->launch_fence_pending = true;
    c->launch_fence_since = UINT64_MAX;
    c->cta_may_fit = false;
}

void lsu_socket_send_queued(simt_core *c, unsigned port)
{
    ldst_socket *socket = &c->sockets[port];
    while (!socket->blocked && !msg_queue_empty(&socket->beats)) {
        if (!c->env.send(c->env.context, port, msg_queue_front(&socket->beats))) {
            socket->blocked = true;
            return;
        }
        msg_queue_pop(&socket->beats);
    }
    /* A unit that holds a refused beat takes nothing more until its
     * port_free: global issue waits for it (lsu_has_room). */
    if (port == LDST_PORT && !socket->blocked && c->env.can_send && !c->env.can_send(c->env.context, port)) socket->blocked = true;
}

/* A request's fault: fails the run naming the lane, or aborts a
 * transaction that may have computed the address from inconsistent data. */
static void report_fault(simt_core *c, unsigned port, const simtx_msg *msg)
{
    ldst_fault fault = ldst_fault_of(msg);
    if (msg->id == LDST_SHARED_SIZE_CHECK_ID && port == LDS_PORT) {
        core_fail(c, "parameter 'shared_memory' (%" PRId64 " bytes) exceeds parameter 'size' of the lds on the 'lds' socket (it answered %s)",
                  c->params.shared_memory, ldst_fault_name(fault));
        return;
    }
    if (msg->id == LDST_SHARED_CLEAR_ID && port == LDS_PORT) {
        core_fail(c, "internal error: the lds answered %s to the clear of a CTA's region at offset %" PRIu64, ldst_fault_name(fault),
                  msg->address);
        return;
    }
    pending_access *entry = &c->pending[msg->id];
    warp *w = &c->warps[entry->warp];
    if (tx_client_active(w->tx)) {
        tx_client_request_abort(w->tx, TX_ROLLBACK_FAULT, entry->pc);
        return;
    }
    unsigned lane = ldst_fault_lane(msg);
    uint32_t address = entry->addresses[lane];
    char where[320];
    core_describe(c, w, entry->pc, where, sizeof where);
    if (port == LDS_PORT && fault == LDST_FAULT_RANGE)
        core_fail(c, "shared-memory access at 0x%08x (lane %u) beyond the CTA's %u bytes, at %s", address, lane,
                  c->launch->shared_bytes, where);
    else if (fault == LDST_FAULT_MEMORY)
        core_fail(c, "the memory side answered %s for the access at 0x%08x (lane %u) made by %s",
                  msg->status == SIMTX_STATUS_ADDRESS_ERROR ? "an address error (no memory there)" : "a command error", address, lane,
                  where);
    else
        core_fail(c, "the %s answered %s for lane %u of the access at 0x%08x, at %s", port == LDS_PORT ? "lds" : "ldst_unit",
                  ldst_fault_name(fault), lane, address, where);
}

void lsu_socket_response(simt_core *c, unsigned port, const simtx_msg *msg, uint64_t now)
{
    if (msg->id == LDST_LAUNCH_FENCE_ID && port == LDST_PORT) {
        if (msg->status != SIMTX_STATUS_OK)
            core_fail(c, "the ldst socket answered %s to the launch's invalidating fence", ldst_fault_name(ldst_fault_of(msg)));
        c->launch_fence_pending = false;
        c->cta_may_fit = true;
        return;
    }
    if (msg->status != SIMTX_STATUS_OK && ldst_is_last(msg)) report_fault(c, port, msg); /* every beat's response carries it */
    if (msg->id >= LDST_SHARED_SIZE_CHECK_ID) return;
    /* The id is the pending-table index the request carried out. */
    simtx_assert(c->env.instance_name, msg->id < (uint64_t)c->params.max_pending_memory && c->pending[msg->id].in_use);
    pending_access *entry = &c->pending[msg->id];
    uint32_t paused = 0; /* tx.h 2: the tm_unit paused these lanes of the beat's group */
    if (msg->flags & SIMTX_FLAG_TX_PAUSE) {
        if (ldst_beat_of(msg) == LDST_BEAT_VERDICT) {
            tx_client_verdict(c, &c->warps[entry->warp], entry->warp, entry->pc, msg, now);
            return;
        }
        paused = (uint32_t)(msg->aux >> 32);
    }
    if (msg->size && msg->status == SIMTX_STATUS_OK) { /* an addresses beat's response: the lanes' values of rd */
        warp *w = &c->warps[entry->warp];
        rv_op op = (rv_op)entry->op;
        unsigned group = ldst_group(msg), first = LDST_LANES_PER_BEAT * group;
        uint32_t lanes = ldst_group_lanes(msg->lane_mask, group) & ~paused;
        uint32_t *rd = reg(c, w, entry->rd) + first;
        if (op == RV_LR)
            for (uint32_t m = lanes; m; m &= m - 1) w->reserved_value[first + (unsigned)__builtin_ctz(m)] = ldst_slot(msg, (unsigned)__builtin_ctz(m));
        if (!entry->rd) {
        } else if (op == RV_LW || op == RV_FLW || entry->op_class == RV_CLASS_ATOMIC) {
            if (lanes == UINT32_MAX) memcpy(rd, msg->data, LDST_BEAT_BYTES); /* the usual full warp */
            else
                for (uint32_t m = lanes; m; m &= m - 1) rd[__builtin_ctz(m)] = ldst_slot(msg, (unsigned)__builtin_ctz(m));
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) rd[__builtin_ctz(m)] = rv_extend_load(op, ldst_slot(msg, (unsigned)__builtin_ctz(m)));
        }
    }
    if (!ldst_is_last(msg)) return;
    lsu_complete(c, entry, (uint32_t)msg->id, now);
}
