/* The nvm_controller's behaviour: arrivals (writes into the WPQ, reads with
 * their data taken at once), FR-FCFS over the banks, media completion, and
 * the responses. */
#include <stdio.h>

#include "mem.h"
#include "nvm_controller_internal.h"
#include "partition_interleave.h"

#define NVM_BLOCK_BYTES 128 /* a request stays within one such block, hence one bank */

static unsigned bank_of(const nvm_controller *c, uint64_t address)
{
    const nvm_controller_params *p = &c->params;
    uint64_t local = partition_local_address(address, (uint64_t)p->partition_interleave, (uint64_t)p->partition_count);
    return (unsigned)(local / (uint64_t)p->bank_interleave % (uint64_t)p->banks);
}

static uint64_t transfer_cycles(const nvm_controller *c, uint32_t size)
{
    uint64_t width = (uint64_t)c->params.bus_bytes_per_cycle;
    return size ? (size + width - 1) / width : 1;
}

static void note_levels(nvm_controller *c, uint64_t now)
{
    simtx_time_average_set(&c->stats.wpq_occupancy, c->wpq.count, now);
    simtx_time_average_set(&c->stats.read_queue_occupancy, c->read_count, now);
    c->probes.wpq_occupancy = c->wpq.count;
    c->probes.read_queue_depth = c->read_count;
}

/* A resource an arrival may have been refused for has freed. */
static void announce_room(nvm_controller *c)
{
    if (!c->refused) return;
    c->refused = false;
    if (c->env.room) c->env.room(c->env.context, 0);
}

static simtx_accept_result refuse(nvm_controller *c)
{
    c->refused = true;
    return SIMTX_BUSY;
}

static void answer(nvm_controller *c, const simtx_msg *request, simtx_status status, uint64_t now)
{
    simtx_msg *slot = msg_queue_push_slot(&c->answers, now + (uint64_t)c->params.wpq_latency);
    *slot = *request;
    simtx_msg_make_response(slot, status);
    slot->served_by = SIMTX_LEVEL_NVM; /* mem.h LEVELS */
}

static simtx_accept_result accept_write(nvm_controller *c, const simtx_msg *msg, uint64_t now)
{
    if (nvm_wpq_full(&c->wpq)) {
        if (!c->write_refused) {
            c->write_refused = true;
            c->write_refused_since = now;
            c->stats.wpq_full_stalls++;
        }
        return refuse(c);
    }
    uint64_t waited = 0;
    if (c->write_refused) { /* the shim holds one message per port: this is the refused write */
        waited = now - c->write_refused_since;
        c->stats.wpq_full_cycles += waited;
        c->write_refused = false;
    }
    nvm_wpq_insert(&c->wpq, msg, bank_of(c, msg->address), now);
    simtx_msg *ack = msg_queue_push_slot(&c->answers, now + (uint64_t)c->params.wpq_latency);
    simtx_msg_copy_header(ack, msg);
    simtx_msg_make_response(ack, SIMTX_STATUS_OK);
    ack->served_by = SIMTX_LEVEL_NVM;
    c->stats.writes++;
    c->stats.bytes_written += msg->size;
    if (msg->flags & SIMTX_FLAG_NON_TEMPORAL) c->stats.persists_non_temporal++;
    else if (msg->aux == MEM_WRITEBACK_CLEAN) c->stats.persists_clwb++;
    else if (msg->aux == MEM_WRITEBACK_EVICTION) c->stats.persists_writeback++;
    else c->stats.persists_other++;
    simtx_histogram_add(&c->stats.write_accept_latency, waited + (uint64_t)c->params.wpq_latency);
    return SIMTX_ACCEPTED;
}

static simtx_accept_result accept_read(nvm_controller *c, const simtx_msg *msg, uint64_t now)
{
    uint8_t data[SIMTX_MSG_MAX_DATA];
    sparse_memory_read(c->media, msg->address, data, msg->size);
    bool forwarded = nvm_wpq_overlay(&c->wpq, msg->address, data, msg->size);
    if (!forwarded && c->read_count == (unsigned)c->params.read_queue_depth) return refuse(c);
    simtx_msg *response;
    if (forwarded) {
        response = msg_queue_push_slot(&c->answers, now + (uint64_t)c->params.wpq_latency);
        c->stats.forwarded_reads++;
        c->stats.reads++;
        c->stats.bytes_read += msg->size;
        simtx_histogram_add(&c->stats.read_latency, (uint64_t)c->params.wpq_latency);
    } else {
        nvm_read *read = c->reads;
        while (read->valid) read++;
        *read = (nvm_read){.seq = c->next_read_seq++, .arrival = now, .bank = bank_of(c, msg->address), .valid = true};
        c->read_count++;
        response = &read->msg;
    }
    simtx_msg_copy_header(response, msg);
    memcpy(response->data, data, msg->size);
    simtx_msg_make_response(response, SIMTX_STATUS_OK);
    response->served_by = SIMTX_LEVEL_NVM; /* mem.h LEVELS: its media or its WPQ */
    return SIMTX_ACCEPTED;
}

simtx_accept_result nvm_controller_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    nvm_controller *c = core;
    (void)port;
    /* Any arrival may need a slot in `answers`; it holds wpq_entries +
     * read_queue_depth, so it fills only while the port refuses responses. */
    if (msg_queue_full(&c->answers)) return refuse(c);
    simtx_accept_result result = SIMTX_ACCEPTED;
    switch (msg->op) {
    case SIMTX_OP_READ:
    case SIMTX_OP_WRITE:
        if (msg->size > SIMTX_MSG_MAX_DATA ||
            (msg->size && msg->address / NVM_BLOCK_BYTES != (msg->address + msg->size - 1) / NVM_BLOCK_BYTES)) {
            c->stats.address_errors++;
            answer(c, msg, SIMTX_STATUS_ADDRESS_ERROR, now);
        } else {
            result = msg->op == SIMTX_OP_READ ? accept_read(c, msg, now) : accept_write(c, msg, now);
        }
        break;
    case SIMTX_OP_FENCE:
        c->stats.fences++;
        answer(c, msg, SIMTX_STATUS_OK, now);
        break;
    case SIMTX_OP_CLEAN_LINE:
    case SIMTX_OP_FLUSH_LINE: /* no cache above held the line dirty: the durable image already has it */
        c->stats.line_requests++;
        answer(c, msg, SIMTX_STATUS_OK, now);
        break;
    case SIMTX_OP_ATOMIC:
        c->stats.command_errors++;
        answer(c, msg, SIMTX_STATUS_COMMAND_ERROR, now);
        break;
    default: {
        char text[160];
        simtx_op_unserved(text, sizeof text, c->env.instance_name, msg->op);
        c->env.fail(c->env.context, text);
        return SIMTX_ACCEPTED;
    }
    }
    note_levels(c, now);
    return result;
}

/* WPQ entries whose media write has finished leave the queue. */
static void complete_media_writes(nvm_controller *c, uint64_t now)
{
    bool freed = false;
    for (unsigned i = 0; i < c->wpq.capacity; i++) {
        nvm_wpq_entry *entry = &c->wpq.entries[i];
        if (!entry->valid || !entry->issued || entry->done > now) continue;
        sparse_memory_write_masked(c->media, entry->address, entry->data, entry->size, entry->byte_enable);
        c->stats.media_writes++;
        simtx_histogram_add(&c->stats.write_media_latency, entry->done - entry->arrival);
        nvm_wpq_remove(&c->wpq, entry);
        freed = true;
    }
    if (freed) announce_room(c);
}

/* FR-FCFS without a row buffer: a request is ready when its bank is free;
 * the oldest ready read goes first, unless the WPQ has reached its drain
 * threshold (then the oldest ready write), and writes drain whenever no
 * read is ready. A request is seen from the cycle after it arrived, so the
 * choice does not depend on when the controller is woken. */
static void issue(nvm_controller *c, uint64_t now)
{
    if (c->bus_free > now) return;
    nvm_read *read = NULL;
    for (unsigned i = 0; i < (unsigned)c->params.read_queue_depth; i++) {
        nvm_read *r = &c->reads[i];
        if (r->valid && !r->issued && r->arrival < now && c->bank_free[r->bank] <= now && (!read || r->seq < read->seq))
            read = r;
    }
    nvm_wpq_entry *write = NULL;
    for (unsigned i = 0; i < c->wpq.capacity; i++) {
        nvm_wpq_entry *w = &c->wpq.entries[i];
        if (w->valid && !w->issued && w->arrival < now && c->bank_free[w->bank] <= now && (!write || w->seq < write->seq))
            write = w;
    }
    bool writes_first = c->wpq.count >= (unsigned)c->params.write_drain_threshold;
    if (write && (!read || writes_first)) {
        uint64_t transfer = transfer_cycles(c, write->size);
        write->issued = true;
        write->done = now + transfer + (uint64_t)c->params.write_cycles;
        c->bank_free[write->bank] = write->done;
        c->bus_free = now + transfer;
    } else if (read) {
        uint64_t transfer = transfer_cycles(c, read->msg.size);
        read->issued = true;
        read->ready = now + (uint64_t)c->params.read_cycles + transfer;
        c->bank_free[read->bank] = now + (uint64_t)c->params.read_cycles;
        c->bus_free = now + transfer;
        c->stats.media_reads++;
    }
}

/* The media read ready earliest (oldest on a tie), or NULL. */
static nvm_read *first_ready_read(nvm_controller *c, uint64_t now)
{
    nvm_read *best = NULL;
    for (unsigned i = 0; i < (unsigned)c->params.read_queue_depth; i++) {
        nvm_read *r = &c->reads[i];
        if (r->valid && r->issued && r->ready <= now &&
            (!best || r->ready < best->ready || (r->ready == best->ready && r->seq < best->seq)))
            best = r;
    }
    return best;
}

/* Sends what is ready, earliest first; answers before media reads on a tie. */
static void respond(nvm_controller *c, uint64_t now)
{
    while (!c->port_blocked) {
        nvm_read *read = first_ready_read(c, now);
        bool answer_ready = !msg_queue_empty(&c->answers) && msg_queue_front_ready(&c->answers) <= now;
        if (answer_ready && (!read || msg_queue_front_ready(&c->answers) <= read->ready)) {
            if (!c->env.send(c->env.context, 0, msg_queue_front(&c->answers))) {
                c->port_blocked = true;
                return;
            }
            msg_queue_pop(&c->answers);
            announce_room(c);
        } else if (read) {
            if (!c->env.send(c->env.context, 0, &read->msg)) {
                c->port_blocked = true;
                return;
            }
            c->stats.reads++;
            c->stats.bytes_read += read->msg.size;
            simtx_histogram_add(&c->stats.read_latency, read->ready - read->arrival);
            read->valid = false;
            c->read_count--;
            announce_room(c);
        } else {
            return;
        }
    }
}

static uint64_t later(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The first cycle after now at which anything can happen. */
static uint64_t next_cycle(const nvm_controller *c, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    for (unsigned i = 0; i < (unsigned)c->params.read_queue_depth; i++) {
        const nvm_read *r = &c->reads[i];
        if (!r->valid) continue;
        uint64_t when = r->issued ? (c->port_blocked ? SIMTX_NEVER : r->ready)
                                  : later(later(c->bus_free, c->bank_free[r->bank]), r->arrival + 1);
        if (when < next) next = when;
    }
    for (unsigned i = 0; i < c->wpq.capacity; i++) {
        const nvm_wpq_entry *w = &c->wpq.entries[i];
        if (!w->valid) continue;
        uint64_t when = w->issued ? w->done : later(later(c->bus_free, c->bank_free[w->bank]), w->arrival + 1);
        if (when < next) next = when;
    }
    if (!c->port_blocked && !msg_queue_empty(&c->answers) && msg_queue_front_ready(&c->answers) < next)
        next = msg_queue_front_ready(&c->answers);
    return next == SIMTX_NEVER ? next : later(next, now + 1);
}

uint64_t nvm_controller_cycle(void *core, uint64_t now)
{
    nvm_controller *c = core;
    complete_media_writes(c, now);
    issue(c, now);
    respond(c, now);
    note_levels(c, now);
    return next_cycle(c, now);
}

void nvm_controller_finish(void *core, uint64_t now)
{
    nvm_controller *c = core;
    simtx_time_average_close(&c->stats.wpq_occupancy, now);
    simtx_time_average_close(&c->stats.read_queue_occupancy, now);
}
