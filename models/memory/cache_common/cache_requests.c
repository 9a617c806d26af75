/* cache_requests: request handling: the input queue, one tag lookup per
 * cycle, hits, misses (a victim line and an MSHR), the two write policies,
 * executed and forwarded atomics, clean/flush/fence and the pass-through
 * of other op families; and the cycle that moves the queues. */
#include "cache_mshr.h"

#include <inttypes.h>
#include <stdio.h>

/* Makes room for a new line; returns its index or -1 (stall). The caller
 * needs `extra` more miss-queue slots after a possible writeback. */
LOOKUP_STEP int allocate_line(cache *c, uint64_t line_address, const simtx_msg *cause, unsigned extra, uint64_t now)
{
    /* Without the queue room any victim stalls: only whether there is one
     * decides the stall's kind, which the first way not filling answers
     * (most of the L2's stalled retries on vector add end here). */
    if (miss_room(c) < extra) {
        if (set_all_filling(c, line_address)) c->stats.reservation_fails_set++;
        else c->stats.stalls_queue++;
        return -1;
    }
    int victim = choose_victim(c, line_address);
    if (victim < 0) {
        c->stats.reservation_fails_set++;
        return -1;
    }
    cache_line *line = &c->lines[victim];
    bool present = line_present(c, (unsigned)victim);
    if (miss_room(c) < extra + (present && line->dirty ? 1u : 0u)) {
        c->stats.stalls_queue++;
        return -1;
    }
    if (present) {
        c->stats.evictions++;
        monitor(c, SIMTX_OP_MONITOR_EVICT, (unsigned)victim, cause, line->dirty ? MONITOR_DIRTY : 0);
        if (line->dirty) push_writeback(c, (unsigned)victim, cause, ID_EVICTION, 0, now);
    }
    c->tags[victim] = line_address;
    c->searched = false;
    line->valid = line->dirty = 0;
    line->mshr = -1;
    touch(c, (unsigned)victim);
    return victim;
}

/* ---- request handling: each returns false to stall the input queue ---- */

/* An access to a line with a fill in flight joins its MSHR; `wanted` are the
 * sectors it needs valid, fetched now if nobody asked for them yet. */
static bool merge(cache *c, cache_line *line, const simtx_msg *msg, uint32_t wanted, uint32_t full, bool respond,
                  uint64_t now)
{
    mshr *m = &c->mshrs[line->mshr];
    if (m->target_count == c->config.mshr_max_merge) {
        c->stats.reservation_fails_merge++;
        return false;
    }
    uint32_t missing = wanted & ~line->valid & ~m->requested & ~m->full_written;
    if (missing && !miss_room(c)) {
        c->stats.stalls_queue++;
        return false;
    }
    if (missing) {
        push_fill(c, (unsigned)line->mshr, msg, missing, now);
        /* A refused response of the MSHR's fill is no longer the last one:
         * it needs no room for the replies any more. */
        announce_room(c, CACHE_DOWNSTREAM_PORT);
    }
    m->full_written |= full;
    add_target(c, m, msg, respond);
    c->stats.hit_reserved++;
    if (respond) monitor(c, SIMTX_OP_MONITOR_MISS, (unsigned)(line - c->lines), msg, access_bits(msg));
    return true;
}

/* A miss on a present line (sector miss) or a new one: an MSHR and a fill. */
LOOKUP_STEP bool start_miss(cache *c, int line_index, const simtx_msg *msg, uint32_t missing, uint32_t full, uint64_t now)
{
    if (c->mshrs_used == c->config.mshr_entries) {
        c->stats.reservation_fails_mshr++;
        return false;
    }
    if (line_index < 0) {
        line_index = allocate_line(c, line_of(c, msg->address), msg, 1, now);
        if (line_index < 0) return false;
        c->stats.misses++;
    } else {
        if (!miss_room(c)) {
            c->stats.stalls_queue++;
            return false;
        }
        c->stats.sector_misses++;
    }
    monitor(c, SIMTX_OP_MONITOR_MISS, (unsigned)line_index, msg, access_bits(msg));
    int m = allocate_mshr(c, (unsigned)line_index);
    push_fill(c, (unsigned)m, msg, missing, now);
    c->mshrs[m].full_written = full;
    add_target(c, &c->mshrs[m], msg, true);
    return true;
}

/* A read, or an atomic executed here (a read-modify-write of the line, which
 * a miss allocates and fills like a read). Merged into a fill in flight it is
 * replayed in arrival order, so atomics to a line apply in the order they
 * arrived and each access sees exactly the ones before it. */
LOOKUP_STEP bool handle_fetching_access(cache *c, const simtx_msg *msg, unsigned offset, uint64_t now)
{
    uint64_t address = msg->address;
    if (c->config.bypass_size && address >= c->config.bypass_base && address - c->config.bypass_base < c->config.bypass_size) {
        if (!can_forward(c, 0)) return false;
        forward(c, msg, now);
        return true;
    }
    int index = lookup_line(c, line_of(c, address));
    uint32_t wanted = sector_mask(c, offset, msg->size);
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (line && line->mshr >= 0) return merge(c, line, msg, wanted, 0, true, now);
    if (line && !(wanted & ~line->valid)) {
        if (!response_room(c)) {
            c->stats.stalls_queue++;
            return false;
        }
        serve_from_line(c, (unsigned)index, msg, c->config.hit_latency, now);
        touch(c, (unsigned)index);
        c->stats.hits++;
        monitor(c, SIMTX_OP_MONITOR_HIT, (unsigned)index, msg, 0);
        return true;
    }
    return start_miss(c, index, msg, wanted & ~(line ? line->valid : 0u), 0, now);
}

/* Write-through, no write-allocate: the write goes on to the next level; a
 * cached copy is dropped (write-evict), or patched when a fill is in flight
 * so that reads waiting behind the write see it. */
static bool handle_write_through(cache *c, const simtx_msg *msg, unsigned offset, uint64_t now)
{
    int index = lookup_line(c, line_of(c, msg->address));
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (!can_forward(c, 0)) return false;
    if (line && line->mshr >= 0) {
        if (!merge(c, line, msg, 0, fully_written_sectors(c, msg, offset), false, now)) return false;
    } else if (line) {
        /* A write hit as the monitor sees it (GPGPU-Sim counts it one),
         * though nothing is read: the statistics count it an eviction. */
        monitor(c, SIMTX_OP_MONITOR_HIT, (unsigned)index, msg, MONITOR_WRITE);
        drop_line(c, (unsigned)index, msg);
        c->stats.write_evictions++;
    }
    forward(c, msg, now);
    return true;
}

/* Write-back, write-allocate: sectors the write covers only in part must be
 * fetched first; sectors it overwrites whole need no fetch. */
static bool handle_write_back(cache *c, const simtx_msg *msg, unsigned offset, uint64_t now)
{
    uint32_t touched = sector_mask(c, offset, msg->size);
    uint32_t full = fully_written_sectors(c, msg, offset);
    uint32_t partial = touched & ~full;
    int index = lookup_line(c, line_of(c, msg->address));
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (line && line->mshr >= 0) return merge(c, line, msg, partial, full, true, now);
    if (line ? !(partial & ~line->valid) : !partial) {
        if (!response_room(c)) {
            c->stats.stalls_queue++;
            return false;
        }
        if (!line) {
            index = allocate_line(c, line_of(c, msg->address), msg, 0, now);
            if (index < 0) return false;
            c->stats.misses++;
            monitor(c, SIMTX_OP_MONITOR_MISS, (unsigned)index, msg, MONITOR_WRITE);
        } else {
            c->stats.hits++;
            monitor(c, SIMTX_OP_MONITOR_HIT, (unsigned)index, msg, MONITOR_WRITE);
        }
        apply_write(c, (unsigned)index, msg);
        touch(c, (unsigned)index);
        push_response(c, msg, SIMTX_STATUS_OK, now + c->config.hit_latency);
        return true;
    }
    return start_miss(c, index, msg, partial & ~(line ? line->valid : 0u), full, now);
}

/* CLEAN_LINE writes a dirty line back and keeps it; FLUSH_LINE also drops it.
 * The requester is answered once the next level acknowledges the data (a
 * clwb is durable once the NVM controller has it). A line not dirty here
 * (or a write-through cache, which holds nothing dirty) passes the request
 * on: behind a write-back of the line still on its way down, so that its
 * answer says the next level has the line's latest data. */
static bool handle_clean(cache *c, const simtx_msg *msg, uint64_t now)
{
    bool flush = msg->op == SIMTX_OP_FLUSH_LINE;
    int index = lookup_line(c, line_of(c, msg->address));
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (line && line->mshr >= 0) return false; /* wait for the fill to land first */
    if (!can_forward(c, 0)) return false;
    if (line && line->dirty) {
        unsigned entry = c->free_pending[--c->free_pending_count];
        c->pending[entry].request = *msg;
        push_writeback(c, (unsigned)index, msg, ID_FORWARD, entry, now);
        c->stats.clean_writebacks++;
        if (flush) drop_line(c, (unsigned)index, msg);
    } else {
        if (line && flush) drop_line(c, (unsigned)index, msg);
        forward(c, msg, now);
    }
    if (flush) c->stats.flushes++;
    else c->stats.cleans++;
    return true;
}

/* Atomics (unless executed here) and row copies act at the next level on
 * the line at msg->address: the line is written back if dirty and dropped
 * first, then the request is forwarded. */
static bool forward_acting_on_line(cache *c, const simtx_msg *msg, uint64_t now)
{
    int index = lookup_line(c, line_of(c, msg->address));
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (line && line->mshr >= 0) return false;
    bool dirty = line && line->dirty;
    if (!can_forward(c, dirty ? 1 : 0)) return false;
    if (line) {
        if (dirty) push_writeback(c, (unsigned)index, msg, ID_EVICTION, 0, now);
        drop_line(c, (unsigned)index, msg);
    }
    forward(c, msg, now);
    return true;
}

/* The next line of a DRAM row after `column` (a partition-local offset made
 * of line-aligned row_copy_column_bits), 0 after the last: the row's lines
 * are its base with every such subset of bits set. */
static uint64_t next_row_column(uint64_t column, uint64_t bits) { return (column - bits) & bits; }

static uint64_t row_line_address(const cache *c, uint64_t row_local, uint64_t column, uint64_t partition)
{
    uint64_t local = row_local | column, count = c->config.partition_count;
    return count > 1 ? partition_full_address(local, partition, c->config.partition_interleave, count) : local;
}

/* A ROW_COPY acts on whole DRAM rows (mem.h): every dirty line of the
 * source row is written back (and kept, clean: the copy does not change the
 * source) and every line of the destination row dropped before it goes on,
 * so DRAM copies the latest data and no stale copy of the destination
 * survives it (its dirty lines are discarded: the copy overwrites them).
 * Dirty lines leave as the miss queue has room, over as many lookups as
 * that takes; a line with a fill in flight waits for it. The tags of all
 * the rows' lines are looked up in one lookup (a row is 32 lines of 128
 * bytes on GTX480): an approximation of a wider probe. */
static __attribute__((noinline)) bool handle_row_copy(cache *c, const simtx_msg *msg, uint64_t now)
{
    uint64_t mask = c->config.row_copy_column_bits;
    if (!mask) return forward_acting_on_line(c, msg, now);
    uint64_t count = c->config.partition_count, interleave = c->config.partition_interleave;
    uint64_t bits = mask & ~(uint64_t)(c->config.line_size - 1);
    uint64_t rows[2] = {msg->address, msg->aux}, partition[2] = {0, 0};
    for (int r = 0; r < 2; r++) {
        if (count > 1) {
            partition[r] = partition_of_address(rows[r], interleave, count);
            rows[r] = partition_local_address(rows[r], interleave, count);
        }
        rows[r] &= ~mask;
    }
    unsigned dirty = 0;
    for (int r = 0; r < 2; r++) {
        uint64_t column = 0;
        do {
            int index = lookup_line(c, line_of(c, row_line_address(c, rows[r], column, partition[r])));
            if (index >= 0 && c->lines[index].mshr >= 0) return false; /* wait for the fill to land */
            dirty += r == 0 && index >= 0 && c->lines[index].dirty;
            column = next_row_column(column, bits);
        } while (column);
    }
    unsigned room = miss_room(c);
    if (dirty + 1 > room || !c->free_pending_count) {
        c->stats.stalls_queue++;
        if (room < 2) return false;
        /* Part of the source's dirty lines now; the write-backs leaving wake this cache. */
        unsigned budget = room - 1;
        uint64_t column = 0;
        do {
            int index = lookup_line(c, line_of(c, row_line_address(c, rows[0], column, partition[0])));
            if (index >= 0 && c->lines[index].dirty && budget) {
                push_writeback(c, (unsigned)index, msg, ID_EVICTION, 0, now);
                budget--;
            }
            column = next_row_column(column, bits);
        } while (column && budget);
        return false;
    }
    for (int r = 0; r < 2; r++) {
        uint64_t column = 0;
        do {
            int index = lookup_line(c, line_of(c, row_line_address(c, rows[r], column, partition[r])));
            if (index >= 0 && r == 0 && c->lines[index].dirty) push_writeback(c, (unsigned)index, msg, ID_EVICTION, 0, now);
            else if (index >= 0 && r == 1) drop_line(c, (unsigned)index, msg);
            column = next_row_column(column, bits);
        } while (column);
    }
    forward(c, msg, now);
    return true;
}

/* A non-temporal write (mem.h) is never cached: a write-through cache
 * drops its copy as for any write; a write-back one writes the line back if
 * dirty, drops it and forwards the write behind the write-back, so the next
 * level gets both in order and a later read misses and fetches the new
 * data. Answered when the next level acknowledges it (an NVM controller's
 * WPQ: durable). Out of line: plain writes never reach it. */
static __attribute__((noinline)) bool handle_non_temporal_write(cache *c, const simtx_msg *msg, unsigned offset, uint64_t now)
{
    bool taken = c->config.write_back ? forward_acting_on_line(c, msg, now) : handle_write_through(c, msg, offset, now);
    c->stats.non_temporal_writes += taken;
    return taken;
}

/* Row copies and the ops of the families this cache passes through are
 * forwarded, after the line at their address is written back and dropped
 * when they act on it (op property); any other op fails the run. Out of
 * line: the lookup of reads and writes does not carry its code. */
__attribute__((noinline)) static bool handle_other_family(cache *c, const simtx_msg *msg, uint64_t now)
{
    const simtx_op_info *op = simtx_op_info_of(msg->op);
    unsigned family = op->family;
    if (family == SIMTX_FAMILY_ROW_COPY) return handle_row_copy(c, msg, now);
    if (family < SIMTX_FAMILY_COUNT && (c->config.pass_through_families >> family) & 1u) {
        if (op->acts_on_line) return forward_acting_on_line(c, msg, now);
        if (!can_forward(c, 0)) return false;
        forward(c, msg, now);
        return true;
    }
    char error[160];
    simtx_op_unserved(error, sizeof error, c->env.instance_name ? c->env.instance_name : "a cache", msg->op);
    c->env.fail(c->env.context, error);
    return true;
}

static bool handle_request(cache *c, const simtx_msg *msg, uint64_t now)
{
    unsigned offset = offset_in_line(c, msg->address);
    bool executed_atomic = msg->op == SIMTX_OP_ATOMIC && c->config.execute_atomics;
    /* An atomic the memory block would refuse gets its command error below. */
    bool cached_op = msg->op == SIMTX_OP_READ || msg->op == SIMTX_OP_WRITE || (executed_atomic && atomic_op_supported(msg));
    if (cached_op && (offset + msg->size > c->config.line_size || msg->size > SIMTX_MSG_MAX_DATA)) {
        char error[160];
        snprintf(error, sizeof error, "a %s of %" PRIu32 " bytes at 0x%" PRIx64 " crosses a %u-byte line boundary",
                 simtx_op_name((simtx_op)msg->op), msg->size, msg->address, c->config.line_size);
        c->env.fail(c->env.context, error);
        return true;
    }
    switch (msg->op) {
    case SIMTX_OP_READ: return handle_fetching_access(c, msg, offset, now);
    case SIMTX_OP_WRITE:
        if (msg->flags & SIMTX_FLAG_NON_TEMPORAL) return handle_non_temporal_write(c, msg, offset, now);
        return c->config.write_back ? handle_write_back(c, msg, offset, now) : handle_write_through(c, msg, offset, now);
    case SIMTX_OP_CLEAN_LINE:
    case SIMTX_OP_FLUSH_LINE: return handle_clean(c, msg, now);
    case SIMTX_OP_FENCE: {
        /* Done when every request forwarded before it has been acknowledged.
         * With CACHE_FENCE_INVALIDATE in aux a write-through cache (never
         * dirty) also drops every line once no fill is in flight: the
         * kernel-boundary invalidation of non-coherent L1s. */
        bool drop = (msg->aux & CACHE_FENCE_INVALIDATE) && !c->config.write_back;
        if (pending_in_use(c) || (drop && c->mshrs_used) || !response_room(c)) return false;
        if (drop) {
            size_t line_count = (size_t)c->sets * c->config.associativity;
            for (size_t i = 0; i < line_count; i++)
                if (line_present(c, (unsigned)i)) {
                    drop_line(c, (unsigned)i, msg);
                    c->stats.invalidations++;
                }
        }
        push_response(c, msg, SIMTX_STATUS_OK, now + c->config.hit_latency);
        c->stats.fences++;
        return true;
    }
    case SIMTX_OP_ATOMIC:
        if (!executed_atomic) return forward_acting_on_line(c, msg, now);
        if (atomic_op_supported(msg)) return handle_fetching_access(c, msg, offset, now);
        if (!response_room(c)) {
            c->stats.stalls_queue++;
            return false;
        }
        push_response(c, msg, SIMTX_STATUS_COMMAND_ERROR, now + 1); /* as the memory block answers it */
        return true;
    default: return handle_other_family(c, msg, now);
    }
}

/* ---- block entry points ---- */

/* Requests past the access-latency pipeline: a prefix of the input queue,
 * whose ready cycles never decrease. */
static unsigned waiting_for_lookup(const cache *c, uint64_t now)
{
    if (!c->input.length || c->input.ready_cycles[msg_queue_slot(&c->input, c->input.length - 1)] <= now)
        return (unsigned)c->input.length; /* the newest is past the pipeline: all are */
    unsigned ready = 0;
    for (size_t i = 0; i < c->input.length; i++) {
        if (c->input.ready_cycles[msg_queue_slot(&c->input, i)] > now) break;
        ready++;
    }
    return ready;
}

simtx_accept_result cache_accept(cache *c, unsigned port, const simtx_msg *msg, uint64_t now)
{
    if (port != CACHE_UPSTREAM_PORT) return cache_fills_accept_response(c, msg, now);
    if (msg->is_response) {
        c->env.fail(c->env.context, "a response arrived on the upstream (target) socket");
        return SIMTX_ACCEPTED;
    }
    if (msg_queue_full(&c->input) || waiting_for_lookup(c, now) >= c->config.input_queue_depth) {
        c->refused[port] = true;
        return SIMTX_BUSY;
    }
    copy_request(msg_queue_push_slot(&c->input, now + c->config.access_latency), msg);
    c->stats.accesses++;
    if (msg->op == SIMTX_OP_READ) c->stats.reads++;
    else if (msg->op == SIMTX_OP_WRITE) c->stats.writes++;
    if (c->env.probes_traced) c->probes.input_queue = c->input.length; /* the only probe a request changes */
    return SIMTX_ACCEPTED;
}

uint64_t cache_cycle(cache *c, uint64_t now)
{
    if (!c->upstream_blocked && !msg_queue_empty(&c->responses) && msg_queue_front_ready(&c->responses) <= now) {
        if (c->env.send(c->env.context, CACHE_UPSTREAM_PORT, msg_queue_front(&c->responses))) {
            msg_queue_pop(&c->responses);
            announce_room(c, CACHE_DOWNSTREAM_PORT); /* a refused fill or forwarded answer may fit now */
        } else {
            c->upstream_blocked = true;
        }
    }
    if (!c->downstream_blocked && !msg_queue_empty(&c->misses) && msg_queue_front_ready(&c->misses) <= now) {
        if (c->env.send(c->env.context, CACHE_DOWNSTREAM_PORT, msg_queue_front(&c->misses))) msg_queue_pop(&c->misses);
        else c->downstream_blocked = true;
    }
    /* One tag lookup per cycle; a head that cannot proceed stays and the full
     * input queue pushes back on the requesters. It is retried when a
     * response arrives or a queue drains, both of which wake this core. */
    bool stalled = false;
    if (!msg_queue_empty(&c->input) && msg_queue_front_ready(&c->input) <= now) {
        if (handle_request(c, msg_queue_front(&c->input), now)) {
            msg_queue_pop(&c->input);
            announce_room(c, CACHE_UPSTREAM_PORT);
        } else {
            stalled = true;
        }
    }
    note_mshr_occupancy(c, now);
    update_probes(c);

    uint64_t next = SIMTX_NEVER;
    if (!c->upstream_blocked && !msg_queue_empty(&c->responses)) {
        uint64_t ready = msg_queue_front_ready(&c->responses);
        next = ready > now ? ready : now + 1;
    }
    if (!c->downstream_blocked && !msg_queue_empty(&c->misses)) {
        uint64_t ready = msg_queue_front_ready(&c->misses);
        ready = ready > now ? ready : now + 1;
        if (ready < next) next = ready;
    }
    /* A stalled head needs no polling: what frees it (a response, a port
     * freeing) wakes this core, and our own queue drains are planned above. */
    if (!msg_queue_empty(&c->input) && !stalled) {
        uint64_t ready = msg_queue_front_ready(&c->input);
        ready = ready > now ? ready : now + 1;
        if (ready < next) next = ready;
    }
    return next;
}

void cache_port_free(cache *c, unsigned port)
{
    if (port == CACHE_UPSTREAM_PORT) c->upstream_blocked = false;
    else c->downstream_blocked = false;
}

