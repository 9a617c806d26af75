/* cache_messages: the cache's queues and the messages it makes (responses,
 * its own requests, writebacks, forwarded requests), the room checks and
 * announcements, and the per-cycle occupancy bookkeeping. Static inline:
 * the lookup and fill paths inline these steps. */
#ifndef SIMTX_CACHE_MESSAGES_H
#define SIMTX_CACHE_MESSAGES_H

#include "atomic_op.h"
#include "cache_lines.h"

/* ---- queues and messages ---- */

/* Copies a request, or starts its response from it. A read request's data
 * bytes mean nothing (its response's first `size` are filled in, and no
 * block reads past a message's size), so only a read's header is copied:
 * half the host cache lines of a whole message. */
CACHE_STEP void copy_request(simtx_msg *to, const simtx_msg *from)
{
    if (from->op == SIMTX_OP_READ) simtx_msg_copy_header(to, from);
    else *to = *from;
}

CACHE_STEP unsigned miss_room(const cache *c) { return (unsigned)(c->misses.capacity - c->misses.length); }
CACHE_STEP unsigned response_room(const cache *c) { return (unsigned)(c->responses.capacity - c->responses.length); }
CACHE_STEP unsigned pending_in_use(const cache *c) { return c->config.pending_entries - c->free_pending_count; }

/* A refused arrival on port may fit now. Only these make room: a pop of
 * the input queue (a request), a pop of the response queue or a fill added
 * to an MSHR (a response from the next level, see complete_fill). */
CACHE_STEP void announce_room(cache *c, unsigned port)
{
    if (!c->refused[port]) return;
    c->refused[port] = false;
    if (c->env.room) c->env.room(c->env.context, port);
}

/* A new entry at the tail of q, for the caller to write the message in
 * place. Callers check for room first: a full queue here is a model bug,
 * which fails the run (the caller writes into a scratch entry meanwhile). */
CACHE_STEP simtx_msg *queue_tail(cache *c, msg_queue *q, uint64_t ready)
{
    simtx_msg *slot = msg_queue_push_slot(q, ready);
    if (slot) return slot;
    c->env.fail(c->env.context, "internal error: a message was queued without room (it would be lost)");
    return &c->overflow;
}

/* Queues the response to request and returns it, for the caller to fill in
 * data in place. */
LOOKUP_STEP simtx_msg *push_response(cache *c, const simtx_msg *request, simtx_status status, uint64_t ready)
{
    simtx_msg *response = queue_tail(c, &c->responses, ready);
    copy_request(response, request);
    simtx_msg_make_response(response, status);
    if (status != SIMTX_STATUS_OK) c->stats.error_responses++;
    return response;
}

/* The next entry of the miss queue, for the caller to write in place. */
CACHE_STEP simtx_msg *push_downstream(cache *c, uint64_t now)
{
    return queue_tail(c, &c->misses, now + 1 + c->config.miss_latency);
}

/* Queues a fresh request of this cache's own, carrying the requester's
 * metadata (core, warp...) for blocks further down that attribute traffic. */
CACHE_STEP simtx_msg *own_request(cache *c, const simtx_msg *cause, simtx_op op, uint64_t address, uint32_t size,
                              unsigned kind, uint64_t index, uint64_t now)
{
    simtx_msg *msg = push_downstream(c, now);
    simtx_msg_init(msg, op, address, size);
    if (cause) {
        msg->core = cause->core;
        msg->warp = cause->warp;
        msg->cta = cause->cta;
        msg->transaction_id = cause->transaction_id;
        msg->lane_mask = cause->lane_mask;
    }
    msg->id = ((uint64_t)kind << ID_KIND_SHIFT) | index;
    return msg;
}

/* Queues a write of the line's dirty sectors (the span from the first to the
 * last, with only dirty bytes enabled). */
CACHE_STEP void push_writeback(cache *c, unsigned line_index, const simtx_msg *cause, unsigned kind, uint64_t index,
                           uint64_t now)
{
    cache_line *line = &c->lines[line_index];
    unsigned first = (unsigned)__builtin_ctz(line->dirty), last = 31u - (unsigned)__builtin_clz(line->dirty);
    unsigned offset = first * c->sector_size, size = (last - first + 1) * c->sector_size;
    simtx_msg *msg = own_request(c, cause, SIMTX_OP_WRITE, c->tags[line_index] * c->config.line_size + offset, size, kind, index, now);
    msg->aux = kind == ID_FORWARD ? MEM_WRITEBACK_CLEAN : MEM_WRITEBACK_EVICTION; /* why the data leaves (mem.h) */
    memcpy(msg->data, line_data(c, line_index) + offset, size);
    monitor(c, SIMTX_OP_MONITOR_WRITEBACK, line_index, cause, 0);
    msg->byte_enable[0] = msg->byte_enable[1] = 0;
    for (uint32_t dirty = line->dirty; dirty; dirty &= dirty - 1)
        simtx_msg_enable_bytes(msg, ((unsigned)__builtin_ctz(dirty) - first) * c->sector_size, c->sector_size);
    c->stats.writebacks++;
    c->stats.writeback_bytes += (uint64_t)__builtin_popcount(line->dirty) * c->sector_size;
    line->dirty = 0;
}

/* Forwards a request unchanged but for a fresh identity; the requester is
 * answered when the next level answers. Caller checked there is room. */
CACHE_STEP void forward(cache *c, const simtx_msg *request, uint64_t now)
{
    unsigned index = c->free_pending[--c->free_pending_count];
    copy_request(&c->pending[index].request, request);
    simtx_msg *msg = push_downstream(c, now);
    copy_request(msg, request);
    msg->id = ((uint64_t)ID_FORWARD << ID_KIND_SHIFT) | index;
    msg->handle = NULL;
    msg->route_depth = 0;
    c->stats.forwarded++;
}

CACHE_STEP bool can_forward(cache *c, unsigned extra_messages)
{
    if (!c->free_pending_count || miss_room(c) < 1 + extra_messages) {
        c->stats.stalls_queue++;
        return false;
    }
    return true;
}

/* Answers a read, or executes an atomic, on a line holding the sectors it
 * needs: an atomic's read-modify-write dirties its sector and answers the
 * old value after atomic_latency, a read answers after read_latency.
 * Returns the response (served by this cache's level, mem.h LEVELS). */
LOOKUP_STEP simtx_msg *serve_from_line(cache *c, unsigned line_index, const simtx_msg *msg, unsigned read_latency, uint64_t now)
{
    bool atomic = msg->op == SIMTX_OP_ATOMIC;
    simtx_msg *response = push_response(c, msg, SIMTX_STATUS_OK, now + (atomic ? c->config.atomic_latency : read_latency));
    response->served_by = (uint8_t)c->config.level;
    if (atomic) {
        unsigned offset = offset_in_line(c, msg->address);
        atomic_op_perform(response, line_data(c, line_index) + offset);
        c->lines[line_index].dirty |= sector_mask(c, offset, msg->size);
        c->stats.atomics++;
    } else {
        read_line(c, line_index, response);
    }
    return response;
}

/* The MSHR occupancy average gets a new level only when it changes: its
 * sums are of whole numbers, exact in a double, so merging intervals of
 * one level leaves them bit for bit the same. */
CACHE_STEP void note_mshr_occupancy(cache *c, uint64_t now)
{
    if (c->mshrs_noted == c->mshrs_used) return;
    c->mshrs_noted = c->mshrs_used;
    simtx_time_average_set(&c->stats.mshr_occupancy, (double)c->mshrs_used, now);
}

/* Only a waveform reads the probes: untraced, they are left stale. */
CACHE_STEP void update_probes(cache *c)
{
    if (!c->env.probes_traced) return;
    c->probes.mshr_occupancy = c->mshrs_used;
    c->probes.input_queue = c->input.length;
    c->probes.miss_queue = c->misses.length;
    c->probes.response_queue = c->responses.length;
    c->probes.pending = pending_in_use(c);
}


#endif
