/* cache_fills: responses from the next level: fills landing in their MSHR
 * (the last one replays the MSHR's targets in arrival order), answers to
 * forwarded requests and acknowledged writebacks. */
#include "cache_messages.h"

static simtx_accept_result complete_fill(cache *c, unsigned mshr_index, const simtx_msg *msg, uint64_t now)
{
    mshr *m = &c->mshrs[mshr_index];
    cache_line *line = &c->lines[m->line_index];
    /* The last fill replays every target: room for all their responses. */
    if (m->fills_outstanding == 1 && response_room(c) < m->answers) return SIMTX_BUSY;
    unsigned sector_offset = offset_in_line(c, msg->address);
    uint32_t landed = sector_mask(c, sector_offset, msg->size) & m->requested & ~m->arrived;
    if (msg->status == SIMTX_STATUS_OK) {
        /* One copy per run of consecutive sectors (usually the whole fill). */
        for (uint32_t left = landed; left;) {
            unsigned first = (unsigned)__builtin_ctz(left), count = (unsigned)__builtin_ctzll(~(uint64_t)(left >> first));
            unsigned start = first * c->sector_size;
            memcpy(line_data(c, m->line_index) + start, msg->data + (start - sector_offset), count * c->sector_size);
            left &= ~sector_range(first, first + count - 1);
        }
    } else {
        m->status = msg->status;
    }
    m->arrived |= landed;
    if (msg->served_by > m->served_by) m->served_by = msg->served_by;
    c->stats.fills++;
    c->stats.fill_bytes += msg->size;
    if (--m->fills_outstanding) return SIMTX_ACCEPTED;

    if (m->status == SIMTX_STATUS_OK) line->valid |= m->arrived;
    for (unsigned i = 0; i < m->target_count; i++) {
        mshr_target *t = &m->targets[i];
        if (m->status != SIMTX_STATUS_OK) {
            if (t->respond) push_response(c, &t->msg, (simtx_status)m->status, now + 1);
            continue;
        }
        if (t->msg.op == SIMTX_OP_WRITE) {
            apply_write(c, m->line_index, &t->msg);
            if (t->respond) push_response(c, &t->msg, SIMTX_STATUS_OK, now + 1);
        } else {
            serve_from_line(c, m->line_index, &t->msg, 1, now)->served_by = m->served_by; /* the fill's level */
        }
    }
    line->mshr = -1;
    touch(c, m->line_index);
    if (m->status != SIMTX_STATUS_OK) invalidate(c, m->line_index);
    m->in_use = false;
    c->free_mshrs[mshr_index / 64] |= UINT64_C(1) << (mshr_index % 64);
    c->mshrs_used--;
    return SIMTX_ACCEPTED;
}

static simtx_accept_result downstream_response(cache *c, const simtx_msg *msg, uint64_t now)
{
    unsigned kind = (unsigned)(msg->id >> ID_KIND_SHIFT);
    uint64_t index = msg->id & ID_INDEX_MASK;
    if (kind == ID_FILL && index < c->config.mshr_entries && c->mshrs[index].in_use &&
        line_of(c, msg->address) == c->mshrs[index].line_address)
        return complete_fill(c, (unsigned)index, msg, now);
    if (kind == ID_EVICTION) {
        if (msg->status != SIMTX_STATUS_OK) c->stats.error_responses++;
        return SIMTX_ACCEPTED;
    }
    if (kind == ID_FORWARD && index < c->config.pending_entries) {
        if (!response_room(c)) return SIMTX_BUSY;
        simtx_msg *response = push_response(c, &c->pending[index].request, (simtx_status)msg->status, now + 1);
        if (simtx_op_info_of(response->op)->response_data && msg->size == response->size)
            memcpy(response->data, msg->data, msg->size);
        response->aux = msg->aux; /* what the next level answered: aux and transaction_id (version.h's ACQUIRE boundary) */
        response->transaction_id = msg->transaction_id;
        response->served_by = msg->served_by;
        c->free_pending[c->free_pending_count++] = (unsigned)index;
        return SIMTX_ACCEPTED;
    }
    c->env.fail(c->env.context, "a response from the next level matches no request in flight");
    return SIMTX_ACCEPTED;
}

simtx_accept_result cache_fills_accept_response(cache *c, const simtx_msg *msg, uint64_t now)
{
    if (!msg->is_response) {
        c->env.fail(c->env.context, "a request arrived on the downstream (initiator) socket");
        return SIMTX_ACCEPTED;
    }
    simtx_accept_result result = downstream_response(c, msg, now);
    if (result == SIMTX_BUSY) c->refused[CACHE_DOWNSTREAM_PORT] = true;
    note_mshr_occupancy(c, now);
    update_probes(c);
    return result;
}
