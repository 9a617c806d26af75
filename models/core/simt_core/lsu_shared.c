/* lsu_shared: the core's side of the lds socket: requests of beats, CTA clears, the queue, responses. */
#include "lsu_shared.h"

#include <inttypes.h>

#include "lsu.h"

/* A beat's header: the request's fields (every beat repeats them). */
static simtx_msg *push_beat(simt_core *c, const simtx_msg *header, ldst_beat beat, unsigned group, uint64_t now)
{
    simtx_msg *msg = msg_queue_push_slot(&c->lds_requests, now);
    simtx_msg_copy_header(msg, header);
    msg->aux |= (uint64_t)beat << 16 | (uint64_t)group << 20;
    msg->size = ldst_beat_size(header->lane_mask, group);
    return msg;
}

void lsu_shared_request(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t entry_index, uint64_t lanes,
                         const uint32_t *addresses, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    const cta_slot *cta = &c->ctas[w->cta_slot];
    simtx_msg header;
    ldst_kind kind = op == RV_LR ? LDST_KIND_LR : op == RV_SC ? LDST_KIND_SC : LDST_KIND_PLAIN;
    simtx_op msg_op = cls == RV_CLASS_LOAD || op == RV_LR ? SIMTX_OP_READ : cls == RV_CLASS_STORE ? SIMTX_OP_WRITE : SIMTX_OP_ATOMIC;
    simtx_msg_init(&header, msg_op, cta->shared_offset, 0);
    if (msg_op == SIMTX_OP_ATOMIC) header.atomic_op = (uint8_t)lsu_atomic_code(op);
    header.aux = ldst_aux(k->insn.rd, rv_access_size(op), LDST_BEAT_ADDRESSES, 0, false, kind, c->launch->shared_bytes);
    header.lane_mask = lanes;
    header.id = entry_index;
    header.core = (int32_t)c->params.core_id;
    header.warp = (int32_t)warp_index;
    header.cta = (int32_t)w->cta_slot;
    const uint32_t *data = reg(c, w, k->insn.rs2);
    simtx_msg *msg = NULL;
    for (unsigned group = 0; group < LDST_MAX_GROUPS; group++) {
        uint32_t group_lanes = ldst_group_lanes(lanes, group);
        if (!group_lanes) continue;
        unsigned first = LDST_LANES_PER_BEAT * group;
        /* Offsets into the CTA's region; slots of inactive lanes are ignored. */
        msg = push_beat(c, &header, LDST_BEAT_ADDRESSES, group, now);
        for (uint32_t m = group_lanes; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            ldst_set_slot(msg, i, addresses[first + i] - RV_SHARED_BASE);
        }
        if (msg_op == SIMTX_OP_READ) continue;
        msg = push_beat(c, &header, LDST_BEAT_DATA, group, now);
        memcpy(msg->data, &data[first], msg->size); /* lanes are consecutive slots */
        if (op != RV_SC) continue;
        msg = push_beat(c, &header, LDST_BEAT_EXPECTED, group, now);
        memcpy(msg->data, &w->reserved_value[first], msg->size);
    }
    msg->aux |= LDST_LAST;
}

static void push_clear(simt_core *c, uint32_t offset, uint32_t bytes, int32_t cta_slot, uint64_t id, uint64_t now)
{
    simtx_msg *msg = msg_queue_push_slot(&c->lds_requests, now);
    if (!msg) return; /* room checked by the caller */
    simtx_msg_init(msg, SIMTX_OP_WRITE, offset, 0);
    msg->aux = ldst_aux(0, 0, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_CLEAR, bytes);
    msg->id = id;
    msg->core = (int32_t)c->params.core_id;
    msg->cta = cta_slot;
}

bool lsu_shared_clear(simt_core *c, uint32_t offset, uint32_t bytes, uint32_t cta_slot, uint64_t now)
{
    bool check = !c->lds_size_checked;
    if (c->lds_requests.capacity - c->lds_requests.length < 1u + check) return false;
    if (check) push_clear(c, (uint32_t)c->params.shared_memory, 0, -1, LDST_SHARED_SIZE_CHECK_ID, now);
    c->lds_size_checked = true;
    push_clear(c, offset, bytes, (int32_t)cta_slot, LDST_SHARED_CLEAR_ID, now);
    return true;
}

void lsu_shared_send_queued(simt_core *c)
{
    while (!c->lds_blocked && !msg_queue_empty(&c->lds_requests)) {
        if (!c->env.send(c->env.context, LDS_PORT, msg_queue_front(&c->lds_requests))) {
            c->lds_blocked = true;
            return;
        }
        msg_queue_pop(&c->lds_requests);
    }
}

/* A request's fault: fails the run naming the lane, or aborts a
 * transaction that may have computed the address from inconsistent data. */
static void report_fault(simt_core *c, const simtx_msg *msg)
{
    if (msg->id == LDST_SHARED_SIZE_CHECK_ID) {
        core_fail(c, "parameter 'shared_memory' (%" PRId64 " bytes) exceeds parameter 'size' of the lds on the 'lds' socket (it answered %s)",
                  c->params.shared_memory, ldst_fault_name(ldst_fault_of(msg)));
        return;
    }
    if (msg->id == LDST_SHARED_CLEAR_ID) {
        core_fail(c, "internal error: the lds answered %s to the clear of a CTA's region at offset %" PRIu64,
                  ldst_fault_name(ldst_fault_of(msg)), msg->address);
        return;
    }
    pending_access *entry = &c->pending[msg->id];
    warp *w = &c->warps[entry->warp];
    if (tm_core_active(w->tx)) {
        tm_core_request_abort(w->tx, ABORT_FAULT, entry->pc);
        return;
    }
    unsigned lane = ldst_fault_lane(msg);
    uint32_t address = entry->contiguous ? entry->addresses[0] + 4 * lane : entry->addresses[lane];
    char where[320];
    core_describe(c, w, entry->pc, where, sizeof where);
    if (ldst_fault_of(msg) == LDST_FAULT_RANGE)
        core_fail(c, "shared-memory access at 0x%08x (lane %u) beyond the CTA's %u bytes, at %s", address, lane,
                  c->launch->shared_bytes, where);
    else
        core_fail(c, "the lds answered %s for lane %u of the shared-memory access at 0x%08x, at %s",
                  ldst_fault_name(ldst_fault_of(msg)), lane, address, where);
}

void lsu_shared_response(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    if (msg->status != SIMTX_STATUS_OK && ldst_is_last(msg)) report_fault(c, msg); /* every beat's response carries it */
    if (msg->id >= LDST_SHARED_SIZE_CHECK_ID) return;
    pending_access *entry = &c->pending[msg->id];
    if (msg->size && msg->status == SIMTX_STATUS_OK) { /* an addresses beat's response: the lanes' values of rd */
        warp *w = &c->warps[entry->warp];
        rv_op op = (rv_op)entry->op;
        unsigned group = ldst_group(msg), first = LDST_LANES_PER_BEAT * group;
        uint32_t lanes = ldst_group_lanes(msg->lane_mask, group);
        uint32_t *rd = reg(c, w, entry->rd) + first;
        if (op == RV_LR)
            for (uint32_t m = lanes; m; m &= m - 1) w->reserved_value[first + (unsigned)__builtin_ctz(m)] = ldst_slot(msg, (unsigned)__builtin_ctz(m));
        if (!entry->rd) {
        } else if (op == RV_LW || entry->op_class == RV_CLASS_ATOMIC) {
            if (lanes == UINT32_MAX) memcpy(rd, msg->data, LDST_BEAT_BYTES); /* the usual full warp */
            else
                for (uint32_t m = lanes; m; m &= m - 1) rd[__builtin_ctz(m)] = ldst_slot(msg, (unsigned)__builtin_ctz(m));
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) rd[__builtin_ctz(m)] = rv_extend_load(op, ldst_slot(msg, (unsigned)__builtin_ctz(m)));
        }
    }
    if (ldst_is_last(msg)) lsu_complete(c, entry, (uint32_t)msg->id, now);
}
