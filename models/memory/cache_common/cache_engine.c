#include "cache_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_op.h"
#include "monitor.h"
#include "msg_queue.h"
#include "partition_interleave.h"

/* Messages this cache makes itself carry their kind in the top byte of the
 * id and an index below, so that a response finds its MSHR or entry. */
#define ID_KIND_SHIFT 56
#define ID_INDEX_MASK ((UINT64_C(1) << ID_KIND_SHIFT) - 1)
enum { ID_FILL = 1, ID_EVICTION = 2, ID_FORWARD = 3 };

/* A line's address (address / line_size) lives in the cache's tags array,
 * NO_LINE when the way is empty: a lookup reads one compact array. */
typedef struct cache_line {
    uint32_t valid, dirty; /* sector masks */
    int mshr;              /* the MSHR filling this line, or -1 */
} cache_line;

/* Not a line address (address / line_size reaches it only for the last byte
 * of the address space with 1-byte lines). */
#define NO_LINE UINT64_MAX

/* An access waiting on a line in flight, replayed in arrival order when the
 * fill completes so that each sees exactly the writes that came before it. */
typedef struct mshr_target {
    simtx_msg msg;
    bool respond; /* false: a write-through patch, answered by the next level */
} mshr_target;

typedef struct mshr {
    bool in_use;
    uint64_t line_address;
    unsigned line_index;
    uint32_t requested;    /* sectors asked of the next level */
    uint32_t arrived;      /* sectors received */
    uint32_t full_written; /* sectors a waiting write overwrites completely */
    unsigned fills_outstanding;
    uint8_t status;        /* worst status of the fills */
    unsigned target_count;
    unsigned answers;      /* targets to respond to: the last fill needs room for them (counted
                              here, as the targets' flags lie a message apart in memory) */
    mshr_target *targets;
} mshr;

typedef struct pending_entry {
    simtx_msg request; /* the requester's message, answered when the next level acknowledges */
} pending_entry;

struct cache {
    /* What every cycle reads first, together in the first host cache lines
     * (a platform's caches do not all stay in the host's L1 between their
     * cycles): the queues, the ports' state, the MSHR count, the upcalls. */
    msg_queue input, misses, responses;
    bool upstream_blocked, downstream_blocked;
    /* Per port: an arrival was refused since the port's last room
     * announcement, so the shim may hold one (announcing otherwise only
     * costs the shim a search). */
    bool refused[2];
    bool monitored;                /* the monitor port is bound: emit monitor.h events */
    unsigned mshrs_used;
    unsigned mshrs_noted;          /* the MSHR occupancy average's level */
    simtx_env env;
    cache_config config;
    unsigned sets, sector_size;
    unsigned line_shift;           /* log2(line_size) when a power of two, else 0 (divide) */
    uint64_t lines_per_chunk;      /* partition_interleave / line_size (partitioned L2 slices) */
    bool sets_power_of_two;        /* index sets with a mask */
    cache_line *lines;
    uint64_t *tags;                /* per line: its line address, or NO_LINE */
    /* Per line, its rank as a victim, smallest first: 0 empty, its LRU stamp
     * (from 1), UINT64_MAX while it waits for a fill. A victim search reads
     * this one compact array rather than every way's line state. */
    uint64_t *victim_ranks;
    /* The last lookup's tag search (line address and way, or -1): a request
     * stalled at the head of the input queue searches again on every retry
     * (most of the L2's lookups on vector add). Tags change only in
     * allocate_line and invalidate, which forget it. */
    bool searched;
    uint64_t searched_line;
    int searched_index;
    uint8_t *data;
    mshr *mshrs;
    uint64_t *free_mshrs;          /* bit i: MSHR i is free (the lowest is taken, found without visiting each) */
    pending_entry *pending;
    unsigned *free_pending;
    unsigned free_pending_count;
    uint64_t use_clock;
    cache_stats stats;
    struct {
        uint64_t mshr_occupancy, input_queue, miss_queue, response_queue, pending;
    } probes;
    simtx_msg overflow;            /* scratch for a message queued without room: see queue_tail */
};

/* A step of a tag lookup or a fill, inlined although GCC finds it too big
 * to: the calls' saves cost more than the code's growth (BFS: 1.5% fewer
 * host instructions for handle_fetching_access, start_miss, allocate_line,
 * serve_from_line and push_response; forward, push_fill or apply_write
 * inlined too cost more than they saved). */
#define LOOKUP_STEP static inline __attribute__((always_inline))

/* ---- geometry ---- */

/* Lines are almost always a power of two: shift rather than divide. */
static uint64_t line_of(const cache *c, uint64_t address)
{
    return c->line_shift ? address >> c->line_shift : address / c->config.line_size;
}
static unsigned offset_in_line(const cache *c, uint64_t address)
{
    return (unsigned)(c->line_shift ? address & (c->config.line_size - 1u) : address % c->config.line_size);
}

static unsigned set_of(const cache *c, uint64_t line_address)
{
    uint64_t index_line = line_address;
    if (c->lines_per_chunk) {
        /* Index with the partition's own address space: the bits choosing the
         * partition would otherwise leave most sets unused. Counted in lines
         * (the interleave is a multiple of the line size). */
        index_line = partition_local_address(line_address, c->lines_per_chunk, c->config.partition_count);
    }
    return (unsigned)(c->sets_power_of_two ? index_line & (c->sets - 1u) : index_line % c->sets);
}

static int find_line(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *tags = &c->tags[first];
    for (unsigned way = 0; way < c->config.associativity; way++)
        if (tags[way] == line_address) return (int)(first + way);
    return -1;
}

/* find_line for a lookup, remembering its answer. */
static int lookup_line(cache *c, uint64_t line_address)
{
    if (c->searched && c->searched_line == line_address) return c->searched_index;
    c->searched = true;
    c->searched_line = line_address;
    c->searched_index = find_line(c, line_address);
    return c->searched_index;
}

static bool line_present(const cache *c, unsigned line_index) { return c->tags[line_index] != NO_LINE; }

static uint8_t *line_data(const cache *c, unsigned line_index)
{
    return c->data + (size_t)line_index * c->config.line_size;
}

/* ---- monitor events (models/protocols/monitor.h) ---- */

/* Sends one event for the line at line_index (its tag still the line's).
 * Out of line: only a bound monitor port pays for it. */
__attribute__((noinline, cold)) static void emit_event(cache *c, simtx_op op, unsigned line_index, const simtx_msg *cause, uint64_t bits)
{
    simtx_msg event;
    simtx_msg_init(&event, op, c->tags[line_index] * c->config.line_size, c->config.line_size);
    if (cause) {
        event.core = cause->core;
        event.warp = cause->warp;
        event.cta = cause->cta;
    }
    unsigned set = line_index / c->config.associativity;
    event.aux = monitor_location(set, line_index - set * c->config.associativity) | bits;
    if (!c->env.send(c->env.context, CACHE_MONITOR_PORT, &event)) {
        char error[160];
        snprintf(error, sizeof error, "the monitor receiver refused a %s event (monitor events must always be taken)",
                 simtx_op_name(op));
        c->env.fail(c->env.context, error);
    }
}

/* An event, when a monitor is bound: the only cost otherwise is this test. */
static inline void monitor(cache *c, simtx_op op, unsigned line_index, const simtx_msg *cause, uint64_t bits)
{
    if (__builtin_expect(c->monitored, 0)) emit_event(c, op, line_index, cause, bits);
}

static uint64_t access_bits(const simtx_msg *msg) { return msg->op == SIMTX_OP_WRITE ? MONITOR_WRITE : 0; }

/* Sectors first..last (inclusive, last < 32) as a mask. */
static uint32_t sector_range(unsigned first, unsigned last)
{
    return (uint32_t)((UINT64_C(2) << last) - (UINT64_C(1) << first));
}

/* Sectors touched by bytes [offset, offset + size) of a line. */
static uint32_t sector_mask(const cache *c, unsigned offset, unsigned size)
{
    if (!size) size = 1;
    unsigned first = offset / c->sector_size, last = (offset + size - 1) / c->sector_size;
    if (last >= c->config.sectors) last = c->config.sectors - 1;
    return first <= last ? sector_range(first, last) : 0;
}

/* The byte-enable bits of msg bytes [first, first + count), count <= 64,
 * as the low bits of the result. */
static uint64_t enable_bits(const simtx_msg *msg, unsigned first, unsigned count)
{
    unsigned word = first >> 6, shift = first & 63;
    uint64_t bits = msg->byte_enable[word] >> shift;
    if (shift && word + 1 < 2) bits |= msg->byte_enable[word + 1] << (64 - shift);
    return count < 64 ? bits & ((UINT64_C(1) << count) - 1) : bits;
}

/* True when every msg byte of [first, first + count) is enabled. */
static bool bytes_enabled(const simtx_msg *msg, unsigned first, unsigned count)
{
    for (unsigned done = 0; done < count; done += 64) {
        unsigned n = count - done < 64 ? count - done : 64;
        uint64_t want = n < 64 ? (UINT64_C(1) << n) - 1 : UINT64_MAX;
        if (enable_bits(msg, first + done, n) != want) return false;
    }
    return true;
}

/* Sectors a write replaces entirely (every byte of the sector enabled). */
static uint32_t fully_written_sectors(const cache *c, const simtx_msg *msg, unsigned offset)
{
    /* The sectors lying wholly inside [offset, offset + size). */
    unsigned first = (offset + c->sector_size - 1) / c->sector_size, end = (offset + msg->size) / c->sector_size;
    if (end > c->config.sectors) end = c->config.sectors;
    if (first >= end) return 0;
    if ((msg->byte_enable[0] & msg->byte_enable[1]) == UINT64_MAX) return sector_range(first, end - 1); /* every byte enabled */
    uint32_t mask = 0;
    for (unsigned s = first; s < end; s++)
        if (bytes_enabled(msg, s * c->sector_size - offset, c->sector_size)) mask |= UINT32_C(1) << s;
    return mask;
}

/* A line not waiting for a fill was used: its LRU stamp. */
static void touch(cache *c, unsigned line_index) { c->victim_ranks[line_index] = ++c->use_clock; }

/* ---- queues and messages ---- */

/* Copies a request, or starts its response from it. A read request's data
 * bytes mean nothing (its response's first `size` are filled in, and no
 * block reads past a message's size), so only a read's header is copied:
 * half the host cache lines of a whole message. */
static void copy_request(simtx_msg *to, const simtx_msg *from)
{
    if (from->op == SIMTX_OP_READ) memcpy(to, from, offsetof(simtx_msg, data));
    else *to = *from;
}

static unsigned miss_room(const cache *c) { return (unsigned)(c->misses.capacity - c->misses.length); }
static unsigned response_room(const cache *c) { return (unsigned)(c->responses.capacity - c->responses.length); }
static unsigned pending_in_use(const cache *c) { return c->config.pending_entries - c->free_pending_count; }

/* A refused arrival on port may fit now. Only these make room: a pop of
 * the input queue (a request), a pop of the response queue or a fill added
 * to an MSHR (a response from the next level, see complete_fill). */
static void announce_room(cache *c, unsigned port)
{
    if (!c->refused[port]) return;
    c->refused[port] = false;
    if (c->env.room) c->env.room(c->env.context, port);
}

/* A new entry at the tail of q, for the caller to write the message in
 * place. Callers check for room first: a full queue here is a model bug,
 * which fails the run (the caller writes into a scratch entry meanwhile). */
static simtx_msg *queue_tail(cache *c, msg_queue *q, uint64_t ready)
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
static simtx_msg *push_downstream(cache *c, uint64_t now)
{
    return queue_tail(c, &c->misses, now + 1);
}

/* Queues a fresh request of this cache's own, carrying the requester's
 * metadata (core, warp...) for blocks further down that attribute traffic. */
static simtx_msg *own_request(cache *c, const simtx_msg *cause, simtx_op op, uint64_t address, uint32_t size,
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
static void push_writeback(cache *c, unsigned line_index, const simtx_msg *cause, unsigned kind, uint64_t index,
                           uint64_t now)
{
    cache_line *line = &c->lines[line_index];
    unsigned first = (unsigned)__builtin_ctz(line->dirty), last = 31u - (unsigned)__builtin_clz(line->dirty);
    unsigned offset = first * c->sector_size, size = (last - first + 1) * c->sector_size;
    simtx_msg *msg = own_request(c, cause, SIMTX_OP_WRITE, c->tags[line_index] * c->config.line_size + offset, size, kind, index, now);
    memcpy(msg->data, line_data(c, line_index) + offset, size);
    monitor(c, SIMTX_OP_MONITOR_WRITEBACK, line_index, cause, 0);
    msg->byte_enable[0] = msg->byte_enable[1] = 0;
    for (uint32_t dirty = line->dirty; dirty; dirty &= dirty - 1)
        simtx_msg_enable_bytes(msg, ((unsigned)__builtin_ctz(dirty) - first) * c->sector_size, c->sector_size);
    c->stats.writebacks++;
    c->stats.writeback_bytes += (uint64_t)__builtin_popcount(line->dirty) * c->sector_size;
    line->dirty = 0;
}

static void invalidate(cache *c, unsigned line_index)
{
    c->tags[line_index] = NO_LINE;
    c->victim_ranks[line_index] = 0;
    c->searched = false;
    c->lines[line_index].valid = c->lines[line_index].dirty = 0;
}

/* A present line leaves the cache other than by replacement (write-evict,
 * flush, a pass-through acting on it, a fence dropping all lines). */
static void drop_line(cache *c, unsigned line_index, const simtx_msg *cause)
{
    monitor(c, SIMTX_OP_MONITOR_EVICT, line_index, cause, c->lines[line_index].dirty ? MONITOR_DIRTY : 0);
    invalidate(c, line_index);
}

/* Queues a read of the span covering the wanted sectors for an MSHR. */
static void push_fill(cache *c, unsigned mshr_index, const simtx_msg *cause, uint32_t sectors, uint64_t now)
{
    mshr *m = &c->mshrs[mshr_index];
    unsigned first = (unsigned)__builtin_ctz(sectors), last = 31u - (unsigned)__builtin_clz(sectors);
    own_request(c, cause, SIMTX_OP_READ, m->line_address * c->config.line_size + first * c->sector_size,
                (last - first + 1) * c->sector_size, ID_FILL, mshr_index, now);
    m->requested |= sectors;
    m->fills_outstanding++;
}

/* Forwards a request unchanged but for a fresh identity; the requester is
 * answered when the next level answers. Caller checked there is room. */
static void forward(cache *c, const simtx_msg *request, uint64_t now)
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

static bool can_forward(cache *c, unsigned extra_messages)
{
    if (!c->free_pending_count || miss_room(c) < 1 + extra_messages) {
        c->stats.stalls_queue++;
        return false;
    }
    return true;
}

/* ---- line allocation ---- */

/* The way to replace in the set of line_address: the first empty one, else
 * the least recently used line not waiting for a fill; -1 when every way
 * waits. */
static int choose_victim(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *ranks = &c->victim_ranks[first];
    int victim = -1;
    uint64_t victim_rank = UINT64_MAX;
    for (unsigned way = 0; way < c->config.associativity; way++) {
        uint64_t rank = ranks[way];
        if (rank < victim_rank) {
            if (!rank) return (int)(first + way); /* empty: nothing ranks lower */
            victim = (int)(first + way);
            victim_rank = rank;
        }
    }
    return victim;
}

/* True when every way of line_address's set waits for a fill (no victim). */
static bool set_all_filling(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *ranks = &c->victim_ranks[first];
    for (unsigned way = 0; way < c->config.associativity; way++)
        if (ranks[way] != UINT64_MAX) return false;
    return true;
}

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

static int allocate_mshr(cache *c, unsigned line_index)
{
    for (unsigned word = 0; word * 64 < c->config.mshr_entries; word++) {
        if (!c->free_mshrs[word]) continue;
        unsigned i = word * 64 + (unsigned)__builtin_ctzll(c->free_mshrs[word]);
        c->free_mshrs[word] &= c->free_mshrs[word] - 1;
        mshr *m = &c->mshrs[i];
        m->in_use = true;
        m->line_address = c->tags[line_index];
        m->line_index = line_index;
        m->requested = m->arrived = m->full_written = 0;
        m->fills_outstanding = 0;
        m->status = SIMTX_STATUS_OK;
        m->target_count = m->answers = 0;
        c->lines[line_index].mshr = (int)i;
        c->victim_ranks[line_index] = UINT64_MAX;
        c->mshrs_used++;
        return (int)i;
    }
    return -1;
}

static void add_target(cache *c, mshr *m, const simtx_msg *msg, bool respond)
{
    mshr_target *t = &m->targets[m->target_count++];
    copy_request(&t->msg, msg);
    t->respond = respond;
    m->answers += respond;
    (void)c;
}

/* ---- data ---- */

/* Writes a request's enabled bytes into the line's sectors that are valid or
 * that it overwrites whole (which become valid); bytes of other sectors are
 * dropped (only write-through caches meet them: the next level has them). */
static void apply_write(cache *c, unsigned line_index, const simtx_msg *msg)
{
    cache_line *line = &c->lines[line_index];
    unsigned offset = offset_in_line(c, msg->address);
    uint32_t full = fully_written_sectors(c, msg, offset);
    uint32_t touched = sector_mask(c, offset, msg->size);
    uint32_t writable = (line->valid | full) & touched;
    uint8_t *data = line_data(c, line_index);
    /* Every byte enabled and every touched sector written: one copy. */
    bool whole = writable == touched && bytes_enabled(msg, 0, msg->size);
    if (whole) memcpy(data + offset, msg->data, msg->size);
    /* Otherwise sector by sector: a whole enabled span is one copy. */
    for (uint32_t left = whole ? 0 : writable; left; left &= left - 1) {
        unsigned sector = (unsigned)__builtin_ctz(left);
        unsigned start = sector * c->sector_size, end = start + c->sector_size;
        if (start < offset) start = offset;
        if (end > offset + msg->size) end = offset + msg->size;
        if (bytes_enabled(msg, start - offset, end - start)) {
            memcpy(data + start, msg->data + (start - offset), end - start);
            continue;
        }
        for (unsigned at = start; at < end; at++)
            if (simtx_msg_byte_enabled(msg, at - offset)) data[at] = msg->data[at - offset];
    }
    line->valid |= writable;
    if (c->config.write_back) line->dirty |= writable;
}

static void read_line(const cache *c, unsigned line_index, simtx_msg *msg)
{
    memcpy(msg->data, line_data(c, line_index) + offset_in_line(c, msg->address), msg->size);
}

/* Answers a read, or executes an atomic, on a line holding the sectors it
 * needs: an atomic's read-modify-write dirties its sector and answers the
 * old value after atomic_latency, a read answers after read_latency. */
LOOKUP_STEP void serve_from_line(cache *c, unsigned line_index, const simtx_msg *msg, unsigned read_latency, uint64_t now)
{
    bool atomic = msg->op == SIMTX_OP_ATOMIC;
    simtx_msg *response = push_response(c, msg, SIMTX_STATUS_OK, now + (atomic ? c->config.atomic_latency : read_latency));
    if (atomic) {
        unsigned offset = offset_in_line(c, msg->address);
        atomic_op_perform(response, line_data(c, line_index) + offset);
        c->lines[line_index].dirty |= sector_mask(c, offset, msg->size);
        c->stats.atomics++;
    } else {
        read_line(c, line_index, response);
    }
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
 * The requester is answered once the next level acknowledges the data. A
 * write-through cache holds nothing dirty: it passes the request on. */
static bool handle_clean(cache *c, const simtx_msg *msg, uint64_t now)
{
    bool flush = msg->op == SIMTX_OP_FLUSH_LINE;
    int index = lookup_line(c, line_of(c, msg->address));
    cache_line *line = index >= 0 ? &c->lines[index] : NULL;
    if (line && line->mshr >= 0) return false; /* wait for the fill to land first */
    if (!c->config.write_back) {
        if (!can_forward(c, 0)) return false;
        if (line && flush) drop_line(c, (unsigned)index, msg);
        forward(c, msg, now);
    } else if (line && line->dirty) {
        if (!can_forward(c, 0)) return false;
        unsigned entry = c->free_pending[--c->free_pending_count];
        c->pending[entry].request = *msg;
        push_writeback(c, (unsigned)index, msg, ID_FORWARD, entry, now);
        if (flush) drop_line(c, (unsigned)index, msg);
    } else {
        if (!response_room(c)) {
            c->stats.stalls_queue++;
            return false;
        }
        if (line && flush) drop_line(c, (unsigned)index, msg);
        push_response(c, msg, SIMTX_STATUS_OK, now + c->config.hit_latency);
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

/* Row copies and the ops of the families this cache passes through are
 * forwarded, after the line at their address is written back and dropped
 * when they act on it (op property); any other op fails the run. Out of
 * line: the lookup of reads and writes does not carry its code. */
__attribute__((noinline)) static bool handle_other_family(cache *c, const simtx_msg *msg, uint64_t now)
{
    const simtx_op_info *op = simtx_op_info_of(msg->op);
    unsigned family = op->family;
    if (family == SIMTX_FAMILY_ROW_COPY || (family < SIMTX_FAMILY_COUNT && (c->config.pass_through_families >> family) & 1u)) {
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

/* ---- responses from the next level ---- */

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
            serve_from_line(c, m->line_index, &t->msg, 1, now);
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
        response->aux = msg->aux;
        c->free_pending[c->free_pending_count++] = (unsigned)index;
        return SIMTX_ACCEPTED;
    }
    c->env.fail(c->env.context, "a response from the next level matches no request in flight");
    return SIMTX_ACCEPTED;
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

/* The MSHR occupancy average gets a new level only when it changes: its
 * sums are of whole numbers, exact in a double, so merging intervals of
 * one level leaves them bit for bit the same. */
static void note_mshr_occupancy(cache *c, uint64_t now)
{
    if (c->mshrs_noted == c->mshrs_used) return;
    c->mshrs_noted = c->mshrs_used;
    simtx_time_average_set(&c->stats.mshr_occupancy, (double)c->mshrs_used, now);
}

/* Only a waveform reads the probes: untraced, they are left stale. */
static void update_probes(cache *c)
{
    if (!c->env.probes_traced) return;
    c->probes.mshr_occupancy = c->mshrs_used;
    c->probes.input_queue = c->input.length;
    c->probes.miss_queue = c->misses.length;
    c->probes.response_queue = c->responses.length;
    c->probes.pending = pending_in_use(c);
}

/* A response from the next level. Kept out of cache_accept, so that a
 * request's arrival does not pay for the fill path's register saves. */
__attribute__((noinline)) static simtx_accept_result accept_response(cache *c, const simtx_msg *msg, uint64_t now)
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

simtx_accept_result cache_accept(cache *c, unsigned port, const simtx_msg *msg, uint64_t now)
{
    if (port != CACHE_UPSTREAM_PORT) return accept_response(c, msg, now);
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

/* Copies bytes [offset, offset + count) of a line that lie in its valid
 * sectors from bytes into the line (to_line) or from the line into bytes. */
static void copy_valid_bytes(const cache *c, unsigned line_index, unsigned offset, unsigned count, uint8_t *bytes, bool to_line)
{
    uint8_t *line = line_data(c, line_index);
    uint32_t sectors = sector_mask(c, offset, count) & c->lines[line_index].valid;
    for (; sectors; sectors &= sectors - 1) {
        unsigned start = (unsigned)__builtin_ctz(sectors) * c->sector_size, end = start + c->sector_size;
        if (start < offset) start = offset;
        if (end > offset + count) end = offset + count;
        if (to_line) memcpy(line + start, bytes + (start - offset), end - start);
        else memcpy(bytes + (start - offset), line + start, end - start);
    }
}

size_t cache_debug_access(cache *c, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    *forward_port = (int)CACHE_DOWNSTREAM_PORT;
    if (is_write) {
        /* Keep the cached copy equal to what the next level will hold. */
        for (size_t done = 0; done < size;) {
            uint64_t at = address + done;
            unsigned offset = offset_in_line(c, at);
            size_t chunk = c->config.line_size - offset;
            if (chunk > size - done) chunk = size - done;
            int index = find_line(c, line_of(c, at));
            if (index >= 0) copy_valid_bytes(c, (unsigned)index, offset, (unsigned)chunk, data + done, true);
            done += chunk;
        }
        return 0;
    }
    if (!c->config.write_back) return 0; /* never newer than the next level */
    /* Served here only when every byte is cached; otherwise the next level
     * answers and cache_debug_overlay puts the newer bytes on top. */
    for (size_t done = 0; done < size;) {
        uint64_t at = address + done;
        unsigned offset = offset_in_line(c, at);
        size_t chunk = c->config.line_size - offset;
        if (chunk > size - done) chunk = size - done;
        int index = find_line(c, line_of(c, at));
        if (index < 0) return 0;
        uint32_t wanted = sector_mask(c, offset, (unsigned)chunk);
        if (wanted & ~c->lines[index].valid) return 0;
        done += chunk;
    }
    cache_debug_overlay(c, address, data, size);
    return size;
}

void cache_debug_overlay(const cache *c, uint64_t address, uint8_t *data, size_t size)
{
    for (size_t done = 0; done < size;) {
        uint64_t at = address + done;
        unsigned offset = offset_in_line(c, at);
        size_t chunk = c->config.line_size - offset;
        if (chunk > size - done) chunk = size - done;
        int index = find_line(c, line_of(c, at));
        if (index >= 0) copy_valid_bytes(c, (unsigned)index, offset, (unsigned)chunk, data + done, false);
        done += chunk;
    }
}

void cache_finish(cache *c, uint64_t now)
{
    simtx_time_average_close(&c->stats.mshr_occupancy, now);
    uint64_t lookups = c->stats.hits + c->stats.misses + c->stats.sector_misses + c->stats.hit_reserved;
    c->stats.hit_rate = lookups ? (double)c->stats.hits / (double)lookups : 0.0;
}

void cache_monitor_bound(cache *c) { c->monitored = true; }

const cache_stats *cache_get_stats(const cache *c) { return &c->stats; }

bool cache_line_state(const cache *c, uint64_t address, uint32_t *valid_sectors, uint32_t *dirty_sectors)
{
    int index = find_line(c, line_of(c, address));
    if (index < 0) return false;
    if (valid_sectors) *valid_sectors = c->lines[index].valid;
    if (dirty_sectors) *dirty_sectors = c->lines[index].dirty;
    return true;
}

unsigned cache_mshrs_in_use(const cache *c) { return c->mshrs_used; }

bool cache_idle(const cache *c)
{
    return msg_queue_empty(&c->input) && msg_queue_empty(&c->misses) && msg_queue_empty(&c->responses) &&
           !c->mshrs_used && !pending_in_use(c);
}

/* ---- creation ---- */

static bool check_config(const cache_config *k, char *error, size_t error_size)
{
    if (!k->size) return snprintf(error, error_size, "parameter 'size' must be positive"), false;
    if (!k->line_size || k->line_size > SIMTX_MSG_MAX_DATA)
        return snprintf(error, error_size, "parameter 'line_size' must be 1..%d bytes (one message carries a line)", SIMTX_MSG_MAX_DATA), false;
    if (!k->associativity) return snprintf(error, error_size, "parameter 'associativity' must be positive"), false;
    uint64_t set_bytes = (uint64_t)k->line_size * k->associativity;
    if (k->size % set_bytes)
        return snprintf(error, error_size, "parameter 'size' (%" PRIu64 ") must be a multiple of line_size x associativity (%" PRIu64 ")",
                        k->size, set_bytes), false;
    if (!k->sectors || k->sectors > CACHE_MAX_SECTORS || k->line_size % k->sectors)
        return snprintf(error, error_size, "parameter 'sectors' (%u) must divide line_size (%u) and be 1..%u", k->sectors, k->line_size,
                        CACHE_MAX_SECTORS), false;
    if (!k->mshr_entries) return snprintf(error, error_size, "parameter 'mshr_entries' must be positive"), false;
    if (!k->mshr_max_merge) return snprintf(error, error_size, "parameter 'mshr_max_merge' must be positive"), false;
    if (k->response_queue_depth < k->mshr_max_merge)
        return snprintf(error, error_size, "parameter 'response_queue_depth' (%u) must hold the responses of one MSHR (mshr_max_merge = %u)",
                        k->response_queue_depth, k->mshr_max_merge), false;
    if (k->miss_queue_depth < 2)
        return snprintf(error, error_size, "parameter 'miss_queue_depth' must be at least 2 (a writeback and a fill)"), false;
    if (!k->input_queue_depth) return snprintf(error, error_size, "parameter 'input_queue_depth' must be positive"), false;
    if (!k->pending_entries) return snprintf(error, error_size, "parameter 'pending_entries' must be positive"), false;
    if (k->execute_atomics && !k->write_back)
        return snprintf(error, error_size, "parameter 'atomics': executing atomics needs a write-back cache"), false;
    if (k->partition_count > 1 && k->partition_interleave % k->line_size)
        return snprintf(error, error_size, "parameter 'partition_interleave' (%" PRIu64 ") must be a multiple of line_size (%u)",
                        k->partition_interleave, k->line_size), false;
    return true;
}

cache *cache_create(const cache_config *config, const simtx_env *env, char *error, size_t error_size)
{
    if (!check_config(config, error, error_size)) return NULL;
    cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->config = *config;
    c->env = *env;
    c->sets = (unsigned)(config->size / ((uint64_t)config->line_size * config->associativity));
    c->sector_size = config->line_size / config->sectors;
    if (!(config->line_size & (config->line_size - 1))) c->line_shift = (unsigned)__builtin_ctz(config->line_size);
    if (config->partition_count > 1 && config->partition_interleave)
        c->lines_per_chunk = config->partition_interleave / config->line_size;
    c->sets_power_of_two = !(c->sets & (c->sets - 1));
    size_t line_count = (size_t)c->sets * config->associativity;
    c->lines = calloc(line_count, sizeof *c->lines);
    c->tags = malloc(line_count * sizeof *c->tags);
    c->victim_ranks = calloc(line_count, sizeof *c->victim_ranks);
    c->data = calloc(line_count, config->line_size);
    c->mshrs = calloc(config->mshr_entries, sizeof *c->mshrs);
    c->free_mshrs = calloc((config->mshr_entries + 63) / 64, sizeof *c->free_mshrs);
    c->pending = calloc(config->pending_entries, sizeof *c->pending);
    c->free_pending = calloc(config->pending_entries, sizeof *c->free_pending);
    bool ok = c->lines && c->tags && c->victim_ranks && c->data && c->mshrs && c->free_mshrs && c->pending && c->free_pending &&
              msg_queue_init(&c->input, (size_t)config->input_queue_depth + config->access_latency) && msg_queue_init(&c->misses, config->miss_queue_depth) &&
              msg_queue_init(&c->responses, config->response_queue_depth);
    for (unsigned i = 0; ok && i < config->mshr_entries; i++) {
        c->mshrs[i].targets = calloc(config->mshr_max_merge, sizeof *c->mshrs[i].targets);
        ok = c->mshrs[i].targets != NULL;
    }
    if (!ok) {
        snprintf(error, error_size, "out of memory for a %" PRIu64 "-byte cache", config->size);
        cache_destroy(c);
        return NULL;
    }
    for (size_t i = 0; i < line_count; i++) {
        c->lines[i].mshr = -1;
        c->tags[i] = NO_LINE;
    }
    for (unsigned i = 0; i < config->mshr_entries; i++) c->free_mshrs[i / 64] |= UINT64_C(1) << (i % 64);
    for (unsigned i = 0; i < config->pending_entries; i++) c->free_pending[i] = config->pending_entries - 1 - i;
    c->free_pending_count = config->pending_entries;

    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "accesses", &c->stats.accesses, "requests", "requests accepted from upstream");
    simtx_observe_counter(o, "reads", &c->stats.reads, "requests", "read requests accepted");
    simtx_observe_counter(o, "writes", &c->stats.writes, "requests", "write requests accepted");
    simtx_observe_counter(o, "hits", &c->stats.hits, "requests", "reads, writes and atomics served by the cached line");
    simtx_observe_counter(o, "misses", &c->stats.misses, "requests", "accesses that allocated a new line");
    simtx_observe_counter(o, "sector_misses", &c->stats.sector_misses, "requests", "accesses to a present line lacking a sector");
    simtx_observe_counter(o, "hit_reserved", &c->stats.hit_reserved, "requests", "accesses merged into an MSHR already filling the line");
    simtx_observe_counter(o, "reservation_fails_mshr", &c->stats.reservation_fails_mshr, "lookups", "lookups stalled: every MSHR in use");
    simtx_observe_counter(o, "reservation_fails_merge", &c->stats.reservation_fails_merge, "lookups", "lookups stalled: the line's MSHR holds mshr_max_merge accesses");
    simtx_observe_counter(o, "reservation_fails_set", &c->stats.reservation_fails_set, "lookups", "lookups stalled: every way of the set is waiting for a fill");
    simtx_observe_counter(o, "stalls_queue", &c->stats.stalls_queue, "lookups", "lookups stalled: miss, response or pending queue full");
    simtx_observe_counter(o, "fills", &c->stats.fills, "responses", "fill responses received");
    simtx_observe_counter(o, "fill_bytes", &c->stats.fill_bytes, "bytes", "bytes fetched from the next level");
    simtx_observe_counter(o, "evictions", &c->stats.evictions, "lines", "valid lines replaced");
    simtx_observe_counter(o, "writebacks", &c->stats.writebacks, "messages", "dirty data written to the next level (evictions, cleans, flushes)");
    simtx_observe_counter(o, "writeback_bytes", &c->stats.writeback_bytes, "bytes", "dirty bytes written back");
    simtx_observe_counter(o, "write_evictions", &c->stats.write_evictions, "lines", "lines dropped by a write hit (write-evict)");
    simtx_observe_counter(o, "forwarded", &c->stats.forwarded, "requests", "requests passed on (write-through, uncached, atomics...)");
    simtx_observe_counter(o, "atomics", &c->stats.atomics, "requests", "atomics executed on a cached line (atomics = execute)");
    simtx_observe_counter(o, "cleans", &c->stats.cleans, "requests", "CLEAN_LINE requests handled");
    simtx_observe_counter(o, "flushes", &c->stats.flushes, "requests", "FLUSH_LINE requests handled");
    simtx_observe_counter(o, "fences", &c->stats.fences, "requests", "FENCE requests answered");
    simtx_observe_counter(o, "invalidations", &c->stats.invalidations, "lines", "lines dropped by invalidating fences (kernel boundaries)");
    simtx_observe_counter(o, "error_responses", &c->stats.error_responses, "responses", "responses with an error status");
    simtx_observe_average(o, "mshr_occupancy_mean", &c->stats.mshr_occupancy.average, "entries", "MSHRs in use, averaged over time");
    simtx_observe_real(o, "hit_rate", &c->stats.hit_rate, "", "hits / (hits + misses + sector misses + hit_reserved)");
    simtx_observe_probe(o, "mshr_occupancy", &c->probes.mshr_occupancy, 16, "MSHRs in use");
    simtx_observe_probe(o, "input_queue", &c->probes.input_queue, 16, "requests waiting for the tag lookup");
    simtx_observe_probe(o, "miss_queue", &c->probes.miss_queue, 16, "messages waiting to go to the next level");
    simtx_observe_probe(o, "response_queue", &c->probes.response_queue, 16, "responses waiting to go back");
    simtx_observe_probe(o, "pending", &c->probes.pending, 16, "forwarded requests awaiting the next level");
    return c;
}

void cache_destroy(cache *c)
{
    if (!c) return;
    if (c->mshrs)
        for (unsigned i = 0; i < c->config.mshr_entries; i++) free(c->mshrs[i].targets);
    free(c->mshrs);
    free(c->free_mshrs);
    free(c->lines);
    free(c->tags);
    free(c->victim_ranks);
    free(c->data);
    free(c->pending);
    free(c->free_pending);
    msg_queue_release(&c->input);
    msg_queue_release(&c->misses);
    msg_queue_release(&c->responses);
    free(c);
}
