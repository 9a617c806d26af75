/* ldst_unit: the block. Reassembles the core's ldst.h requests from their
 * beats, checks every lane, coalesces the lanes into mem.h requests to the
 * L1 (one per touched segment; atomics and lr one per lane), gathers the
 * responses into the lanes' values and answers the request's beats once its
 * last mem.h response is back. Messages of the lazy TM protocol pass
 * through unchanged in both directions. */
#include "ldst_unit.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldst.h"
#include "ldst_coalesce.h"
#include "mem.h"
#include "msg_queue.h"
#include "simtx_assert.h"

#define PARAM(field) offsetof(ldst_unit_params, field)

static const simtx_param_spec ldst_unit_param_specs[] = {
    {"segment_size", SIMTX_PARAM_INT, "128", "bytes", 4, SIMTX_MSG_MAX_DATA, NULL,
     "coalescing segment: a request's lanes become one memory request per touched segment (and the line a clwb cleans)", PARAM(segment_size)},
    {"sector_size", SIMTX_PARAM_INT, "32", "bytes", 4, SIMTX_MSG_MAX_DATA, NULL, "a memory request covers the touched sectors of its segment",
     PARAM(sector_size)},
    {"request_queue", SIMTX_PARAM_INT, "128", "requests", 1, 1 << 16, NULL,
     "memory requests waiting for the memory socket (at least one per lane of a request)", PARAM(request_queue)},
    /* The core's pending table (max_pending_memory) bounds its requests in
     * flight; a smaller table here throttles the core, a larger one is idle. */
    {"max_in_flight", SIMTX_PARAM_INT, "64", "requests", 1, 4096, NULL,
     "ldst.h requests held from their first beat to their last response; a full unit refuses new ones", PARAM(max_in_flight)},
    {"global_base", SIMTX_PARAM_INT, "0x10000000", "", 0, UINT32_MAX, NULL, "first address of the global window", PARAM(global_base)},
    {"global_size", SIMTX_PARAM_INT, "0x70000000", "bytes", 0, UINT32_MAX, NULL, "bytes of the global window", PARAM(global_size)},
    {"persistent_base", SIMTX_PARAM_INT, "0xa0000000", "", 0, UINT32_MAX, NULL, "first address of the persistent window",
     PARAM(persistent_base)},
    {"persistent_size", SIMTX_PARAM_INT, "0x20000000", "bytes", 0, UINT32_MAX, NULL, "bytes of the persistent window",
     PARAM(persistent_size)},
};

static const simtx_param_table ldst_unit_param_table = {
    ldst_unit_param_specs, sizeof ldst_unit_param_specs / sizeof ldst_unit_param_specs[0], sizeof(ldst_unit_params)};

enum { CORE_PORT = 0, MEMORY_PORT = 1 };

static const simtx_socket_spec ldst_unit_sockets[] = {
    {"core", SIMTX_SOCKET_TARGET, NULL, "ldst.h requests from the SIMT core (and its lazy TM protocol, passed through), responses back", false},
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "mem.h requests (and the passed-through TM protocol) to the L1, responses in", false},
};

/* A request from its first beat to its last response. The fields a
 * memory response reads first lead; the store data and expected values
 * are consumed at issue and live in the unit's staging buffers instead. */
typedef struct ldst_entry {
    bool in_use;
    bool word_run;       /* 4-byte plain access, lanes consecutive, lane l's word after lane l-1's: one copy per segment */
    bool malformed;      /* a beat that does not fit the request's layout */
    uint8_t beat_count;
    uint8_t fault, fault_lane, fault_status; /* the first memory error (LDST_FAULT_MEMORY) */
    uint8_t level;       /* the farthest simtx_level its mem.h responses name (mem.h LEVELS) */
    uint32_t beats_seen; /* bit 3 g + beat kind */
    uint32_t remaining;  /* mem.h responses still expected */
    uint32_t stamp;      /* the lowest aux of its READ responses: a transactional load's read stamp (ldst.h) */
    uint64_t sequence;   /* arrival order: a fence completes after every earlier request */
    uint64_t arrival;    /* the cycle its first beat arrived (a persist request's wait) */
    simtx_msg head;      /* the first beat's fields (data unused) */
    uint64_t beat_aux[LDST_MAX_BEATS];
    void *beat_handle[LDST_MAX_BEATS];
    uint32_t beat_size[LDST_MAX_BEATS];
    uint32_t addresses[LDST_MAX_LANES];
    uint32_t results[LDST_MAX_LANES]; /* the lanes' values of rd (sc: the expected values until the responses) */
} ldst_entry;

typedef struct ldst_unit {
    ldst_unit_params params;
    simtx_env env;
    unsigned pass_families; /* op families that cross the unit unchanged (simtx_core_path_families) */
    ldst_entry *entries;
    uint32_t *free_entries, free_count;
    int64_t staging;        /* the entry being reassembled; -1: none */
    uint32_t staged_data[LDST_MAX_LANES], staged_expected[LDST_MAX_LANES]; /* its DATA and EXPECTED slots */
    msg_queue requests;     /* mem.h requests, each ready from its issue cycle */
    msg_queue tm_requests;  /* TM messages the memory socket could not take at once */
    msg_queue responses;    /* to the core: ldst.h responses and TM responses */
    bool memory_blocked, core_blocked;
    bool refused[2];        /* per port: an arrival was refused, which the shim offers again after a tick */
    uint64_t next_issue;    /* the cycle the next request's first mem.h request may leave */
    uint64_t sequence;
    uint32_t fences_waiting;
    simtx_msg scratch;      /* written instead of a queue slot that cannot be missing */
    struct {
        uint64_t loads, stores, atomics, lr, sc, sc_failures, fences, clean_lines, lane_accesses, memory_requests;
        uint64_t tm_messages, address_errors, command_errors, memory_errors, refused;
        uint64_t non_temporal_stores;
        simtx_histogram requests_per_access, persist_request_cycles;
        simtx_histogram load_to_use[SIMTX_LEVEL_COUNT]; /* by the farthest level that served the load */
    } stats;
    struct {
        uint64_t in_flight;
    } probes;
} ldst_unit;

static void ldst_unit_destroy(void *core);

static void *ldst_unit_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const ldst_unit_params *p = params;
    if (p->sector_size > p->segment_size || p->segment_size % p->sector_size || (p->segment_size & (p->segment_size - 1))) {
        snprintf(error, error_size, "parameter 'segment_size' (%lld) must be a power of two and a multiple of 'sector_size' (%lld)",
                 (long long)p->segment_size, (long long)p->sector_size);
        return NULL;
    }
    ldst_unit *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->params = *p;
    u->env = *env;
    u->pass_families = simtx_core_path_families();
    u->staging = -1;
    size_t held = (size_t)p->max_in_flight;
    u->entries = calloc(held, sizeof *u->entries);
    u->free_entries = calloc(held, sizeof *u->free_entries);
    /* Responses: every held request's beats, and TM responses beside them. */
    if (!u->entries || !u->free_entries || !msg_queue_init(&u->requests, (size_t)p->request_queue) ||
        !msg_queue_init(&u->tm_requests, 64) || !msg_queue_init(&u->responses, held * LDST_MAX_BEATS + 64)) {
        snprintf(error, error_size, "out of memory for max_in_flight %lld", (long long)p->max_in_flight);
        ldst_unit_destroy(u);
        return NULL;
    }
    for (uint32_t i = 0; i < (uint32_t)held; i++) u->free_entries[i] = (uint32_t)held - 1 - i;
    u->free_count = (uint32_t)held;
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "loads", &u->stats.loads, "requests", "load requests (lr not included)");
    simtx_observe_counter(o, "stores", &u->stats.stores, "requests", "store requests");
    simtx_observe_counter(o, "atomics", &u->stats.atomics, "requests", "atomic requests (sc not included)");
    simtx_observe_counter(o, "lr", &u->stats.lr, "requests", "lr.w requests");
    simtx_observe_counter(o, "sc", &u->stats.sc, "requests", "sc.w requests");
    simtx_observe_counter(o, "sc_failures", &u->stats.sc_failures, "lanes", "sc.w lanes that found another value and did not store");
    simtx_observe_counter(o, "fences", &u->stats.fences, "requests", "fences answered");
    simtx_observe_counter(o, "clean_lines", &u->stats.clean_lines, "requests", "clwb requests (one memory request per touched line)");
    simtx_observe_counter(o, "non_temporal_stores", &u->stats.non_temporal_stores, "requests",
                          "non-temporal store requests (included in stores)");
    simtx_observe_histogram(o, "persist_request_cycles", &u->stats.persist_request_cycles, "cycles",
                            "per clwb or non-temporal store request: first beat to completion (durable at the NVM controller); "
                            "its mean is the AGPM paper's cycles waited per PM request (CWPPR)");
    /* Load-to-use by level: one histogram per simtx_level (NONE: no block named one). */
    static const char *const level_names[SIMTX_LEVEL_COUNT][2] = {
        {"load_to_use_unattributed", "per load request no block of the memory side attributed to a level (mem.h LEVELS): first beat to its values"},
        {"load_to_use_l1", "per load request all of whose data came from L1 hits: first beat to its values (the load-to-use latency)"},
        {"load_to_use_l2", "per load request whose farthest data came from L2 hits: first beat to its values (the load-to-use latency)"},
        {"load_to_use_dram", "per load request some of whose data came from a DRAM controller: first beat to its values (the load-to-use latency)"},
        {"load_to_use_nvm", "per load request some of whose data came from an NVM controller: first beat to its values (the load-to-use latency)"},
        {"load_to_use_memory", "per load request some of whose data came from a fixed-latency memory: first beat to its values (the load-to-use latency)"},
    };
    for (unsigned level = 0; level < SIMTX_LEVEL_COUNT; level++)
        simtx_observe_histogram(o, level_names[level][0], &u->stats.load_to_use[level], "cycles", level_names[level][1]);
    simtx_observe_counter(o, "lane_accesses", &u->stats.lane_accesses, "lanes", "active lanes of the requests performed");
    simtx_observe_counter(o, "memory_requests", &u->stats.memory_requests, "requests", "requests sent to the memory side after coalescing");
    simtx_observe_histogram(o, "requests_per_access", &u->stats.requests_per_access, "requests",
                            "memory requests per load, store or atomic request (coalescing)");
    simtx_observe_counter(o, "tm_messages", &u->stats.tm_messages, "messages", "lazy TM protocol requests passed through to the memory socket");
    simtx_observe_counter(o, "address_errors", &u->stats.address_errors, "requests", "requests with a lane outside the windows or misaligned");
    simtx_observe_counter(o, "command_errors", &u->stats.command_errors, "requests", "requests with an op, size or beat layout the unit does not serve");
    simtx_observe_counter(o, "memory_errors", &u->stats.memory_errors, "requests", "requests the memory side answered with an error");
    simtx_observe_counter(o, "refused", &u->stats.refused, "messages", "arrivals refused for want of room: first beats, TM messages, memory responses");
    simtx_observe_energy(o, "request", &u->stats.memory_requests, "a coalesced request sent to the memory side (coalescer, MSHR-free queueing)");
    simtx_observe_energy(o, "lane", &u->stats.lane_accesses, "an active lane's address through the coalescer");
    simtx_observe_level_probe(o, "in_flight", &u->probes.in_flight, 16, 0, "requests held");
    return u;
}

static void ldst_unit_destroy(void *core)
{
    ldst_unit *u = core;
    if (!u) return;
    msg_queue_release(&u->requests);
    msg_queue_release(&u->tm_requests);
    msg_queue_release(&u->responses);
    free(u->entries);
    free(u->free_entries);
    free(u);
}

static void fail(ldst_unit *u, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void fail(ldst_unit *u, const char *format, ...)
{
    char message[400];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    u->env.fail(u->env.context, message);
}

/* An op of a protocol that crosses the core's memory path (the lazy TM one): passed on unchanged. */
static bool passes(const ldst_unit *u, const simtx_msg *msg) { return (u->pass_families >> simtx_op_info_of(msg->op)->family) & 1u; }

/* A message to the core: straight out when nothing waits before it. */
static void to_core(ldst_unit *u, const simtx_msg *msg, uint64_t ready, uint64_t now)
{
    if (ready <= now && !u->core_blocked && msg_queue_empty(&u->responses)) {
        if (u->env.send(u->env.context, CORE_PORT, msg)) return;
        u->core_blocked = true;
    }
    if (!msg_queue_push(&u->responses, msg, ready)) fail(u, "internal error: response queue full");
}

/* Sends TM messages, then mem.h requests that are due, while the memory
 * socket takes them. */
static void send_requests(ldst_unit *u, uint64_t now)
{
    while (!u->memory_blocked && !msg_queue_empty(&u->tm_requests)) {
        if (!u->env.send(u->env.context, MEMORY_PORT, msg_queue_front(&u->tm_requests))) {
            u->memory_blocked = true;
            return;
        }
        msg_queue_pop(&u->tm_requests);
    }
    while (!u->memory_blocked && !msg_queue_empty(&u->requests) && msg_queue_front_ready(&u->requests) <= now) {
        if (!u->env.send(u->env.context, MEMORY_PORT, msg_queue_front(&u->requests))) {
            u->memory_blocked = true;
            return;
        }
        msg_queue_pop(&u->requests);
    }
}

static void send_responses(ldst_unit *u, uint64_t now)
{
    while (!u->core_blocked && !msg_queue_empty(&u->responses) && msg_queue_front_ready(&u->responses) <= now) {
        if (!u->env.send(u->env.context, CORE_PORT, msg_queue_front(&u->responses))) {
            u->core_blocked = true;
            return;
        }
        msg_queue_pop(&u->responses);
    }
}

/* The cycle the unit next has work for (SIMTX_NEVER: none until an arrival
 * or a port_free). */
static uint64_t next_cycle(const ldst_unit *u, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    if (!u->memory_blocked && !msg_queue_empty(&u->tm_requests)) next = now + 1;
    if (!u->memory_blocked && !msg_queue_empty(&u->requests) && msg_queue_front_ready(&u->requests) < next)
        next = msg_queue_front_ready(&u->requests);
    if (!u->core_blocked && !msg_queue_empty(&u->responses) && msg_queue_front_ready(&u->responses) < next)
        next = msg_queue_front_ready(&u->responses);
    return next > now ? next : now + 1;
}

/* The accept result: a tick when queued work or a refused arrival waits for one. */
static simtx_accept_result accepted(ldst_unit *u, uint64_t now)
{
    if (u->refused[CORE_PORT] || u->refused[MEMORY_PORT] || next_cycle(u, now) != SIMTX_NEVER) return SIMTX_ACCEPTED;
    return SIMTX_ACCEPTED_NO_TICK;
}

static void release_entry(ldst_unit *u, ldst_entry *e)
{
    e->in_use = false;
    u->free_entries[u->free_count++] = (uint32_t)(e - u->entries);
    u->probes.in_flight = (uint64_t)u->params.max_in_flight - u->free_count;
}

/* Answers every beat of the entry in beat order, ready at `ready`, and frees it. */
static void respond(ldst_unit *u, ldst_entry *e, ldst_fault fault, unsigned fault_lane, uint64_t ready, uint64_t now)
{
    bool values = fault == LDST_FAULT_NONE && e->head.op != SIMTX_OP_WRITE && e->head.op != SIMTX_OP_FENCE &&
                  e->head.op != SIMTX_OP_CLEAN_LINE;
    if (fault == LDST_FAULT_NONE && (e->head.op == SIMTX_OP_CLEAN_LINE || (e->head.flags & SIMTX_FLAG_NON_TEMPORAL)))
        simtx_histogram_add(&u->stats.persist_request_cycles, ready - e->arrival);
    /* A plain load's load-to-use latency, at the level that served its
     * farthest segment (its values are usable once the last arrived). */
    if (fault == LDST_FAULT_NONE && e->head.op == SIMTX_OP_READ && ldst_kind_of(&e->head) == LDST_KIND_PLAIN)
        simtx_histogram_add(&u->stats.load_to_use[e->level < SIMTX_LEVEL_COUNT ? e->level : SIMTX_LEVEL_NONE], ready - e->arrival);
    simtx_msg response;
    simtx_msg_copy_header(&response, &e->head);
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    for (unsigned b = 0; b < e->beat_count; b++) {
        response.aux = (e->beat_aux[b] & UINT64_C(0xffffffff) & ~LDST_LAST) | (b + 1 == e->beat_count ? LDST_LAST : 0);
        response.handle = e->beat_handle[b];
        response.size = 0;
        response.status = SIMTX_STATUS_OK;
        if (fault != LDST_FAULT_NONE) {
            ldst_set_fault(&response, fault, fault_lane);
            if (fault == LDST_FAULT_MEMORY) response.status = e->fault_status;
        } else if (values && ldst_beat_of(&response) == LDST_BEAT_ADDRESSES) {
            /* The group's slots; those of inactive lanes are ignored. */
            response.size = e->beat_size[b];
            memcpy(response.data, &e->results[LDST_LANES_PER_BEAT * ldst_group(&response)], response.size);
        }
        if (values && (e->head.flags & SIMTX_FLAG_TRANSACTIONAL)) ldst_set_stamp(&response, e->stamp);
        to_core(u, &response, ready, now);
    }
    release_entry(u, e);
}

/* Answers the fences whose earlier requests have all completed. */
static void complete_fences(ldst_unit *u, uint64_t now)
{
    for (uint32_t i = 0; u->fences_waiting && i < (uint32_t)u->params.max_in_flight; i++) {
        ldst_entry *f = &u->entries[i];
        if (!f->in_use || f->head.op != SIMTX_OP_FENCE || f->remaining || (int64_t)i == u->staging) continue;
        bool older = false;
        for (uint32_t j = 0; j < (uint32_t)u->params.max_in_flight && !older; j++)
            older = u->entries[j].in_use && u->entries[j].sequence < f->sequence && (int64_t)j != u->staging;
        if (older) continue;
        u->fences_waiting--;
        u->stats.fences++;
        respond(u, f, LDST_FAULT_NONE, 0, now, now);
    }
}

/* Whether the request's op, kind and size are served, and its beats the
 * ones its op takes. */
static ldst_fault check_op(const ldst_entry *e)
{
    const simtx_msg *head = &e->head;
    ldst_kind kind = ldst_kind_of(head);
    unsigned size = ldst_access_size(head);
    bool plain_size = size == 1 || size == 2 || size == 4;
    if (e->malformed) return LDST_FAULT_UNSUPPORTED;
    if (ldst_is_run(head) && (kind != LDST_KIND_PLAIN || (head->op != SIMTX_OP_READ && head->op != SIMTX_OP_WRITE)))
        return LDST_FAULT_UNSUPPORTED;
    switch (head->op) {
    case SIMTX_OP_READ:
        if (!(kind == LDST_KIND_PLAIN ? plain_size : kind == LDST_KIND_LR && size == 4)) return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_WRITE:
    case SIMTX_OP_CLEAN_LINE:
        if (kind != LDST_KIND_PLAIN || !plain_size) return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_ATOMIC:
        if (size != 4 || head->atomic_op >= SIMTX_ATOMIC_COUNT) return LDST_FAULT_UNSUPPORTED;
        if (kind != LDST_KIND_PLAIN && !(kind == LDST_KIND_SC && head->atomic_op == SIMTX_ATOMIC_CAS)) return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_FENCE: return e->beat_count == 1 ? LDST_FAULT_NONE : LDST_FAULT_UNSUPPORTED;
    default: return LDST_FAULT_UNSUPPORTED;
    }
    uint32_t wanted = 0, kinds = ldst_group_beats(head);
    for (unsigned g = 0; g < LDST_MAX_GROUPS; g++)
        if (ldst_group_lanes(head->lane_mask, g)) wanted |= kinds << (3 * g);
    return wanted && wanted == e->beats_seen ? LDST_FAULT_NONE : LDST_FAULT_UNSUPPORTED;
}

static bool in_window(uint32_t address, unsigned size, int64_t base, int64_t window)
{
    uint64_t offset = (uint64_t)address - (uint64_t)base;
    return (int64_t)address >= base && offset + size <= (uint64_t)window;
}

/* What one pass over a request's lanes finds: the lowest and highest
 * address, their OR (aligned only if every address is) and whether the
 * lanes are consecutive with each address 4 after the previous lane's. */
typedef struct lane_scan {
    uint32_t lowest, highest, bits;
    bool word_run;
} lane_scan;

/* Lanes in a mask of consecutive lanes (not empty). */
static inline unsigned lane_span(uint64_t lanes) { return 64u - (unsigned)__builtin_clzll(lanes) - (unsigned)__builtin_ctzll(lanes); }

static lane_scan scan_lanes(const ldst_entry *e)
{
    uint64_t lanes = e->head.lane_mask;
    unsigned first = (unsigned)__builtin_ctzll(lanes);
    uint32_t low = UINT32_MAX, high = 0, bits = 0, off_run = 1;
    const uint32_t *a = &e->addresses[first];
    uint32_t count = lane_span(lanes);
    if (!((lanes >> first) & ((lanes >> first) + 1))) { /* consecutive lanes: a plain loop (vectorised) */
        /* The usual run of words first, which gives the lowest and highest
         * address without comparing (SSE2 has no unsigned vector minimum). */
        uint32_t base = a[0];
        off_run = 0;
        for (uint32_t i = 0; i < count; i++) {
            bits |= a[i];
            off_run |= a[i] ^ (base + 4 * i);
        }
        uint32_t last = base + 4 * (count - 1);
        if (!off_run && last >= base) {
            low = base;
            high = last;
        } else {
            off_run |= 1;
            for (uint32_t i = 0; i < count; i++) {
                low = a[i] < low ? a[i] : low;
                high = a[i] > high ? a[i] : high;
            }
        }
    } else {
        for (uint64_t m = lanes; m; m &= m - 1) {
            uint32_t address = e->addresses[__builtin_ctzll(m)];
            low = address < low ? address : low;
            high = address > high ? address : high;
            bits |= address;
        }
    }
    return (lane_scan){low, high, bits, !off_run && ldst_access_size(&e->head) == 4 && ldst_kind_of(&e->head) == LDST_KIND_PLAIN};
}

/* What scan_lanes would find in a run's addresses (a wrapping run, which
 * the core never sends, fails the window check). Only the first lane's
 * address is filed: a word run needs no other (word_run_address), and
 * fill_run files the rest where a path reads each lane's. */
static lane_scan run_lanes(ldst_entry *e)
{
    uint64_t lanes = e->head.lane_mask;
    unsigned first = (unsigned)__builtin_ctzll(lanes), last = 63u - (unsigned)__builtin_clzll(lanes);
    uint32_t base = (uint32_t)e->head.address;
    e->addresses[first] = base + 4 * first;
    bool consecutive = !((lanes >> first) & ((lanes >> first) + 1));
    return (lane_scan){base + 4 * first, base + 4 * last, base,
                       consecutive && ldst_access_size(&e->head) == 4 && base + 4 * last >= base + 4 * first};
}

/* Out of line: the paths that need it are the rare ones, and inlined it
 * kept the segment's push out of line in the common one. Loops of a known
 * count: vectorised. */
static __attribute__((noinline)) void fill_run(ldst_entry *e)
{
    uint32_t base = (uint32_t)e->head.address;
    if (e->head.lane_mask >> LDST_LANES_PER_BEAT)
        for (unsigned lane = 0; lane < LDST_MAX_LANES; lane++) e->addresses[lane] = base + 4 * lane;
    else
        for (unsigned lane = 0; lane < LDST_LANES_PER_BEAT; lane++) e->addresses[lane] = base + 4 * lane;
}

/* A lane's address in a word run, from the request's first lane's. */
static inline uint32_t word_run_address(const ldst_entry *e, unsigned lane)
{
    unsigned first = (unsigned)__builtin_ctzll(e->head.lane_mask);
    return e->addresses[first] + 4 * (lane - first);
}

/* Checks every lane's window and alignment; *lane gets the lowest bad one.
 * Windows are intervals: when the lowest address and the highest access's
 * last byte lie in one, and the addresses ORed are aligned, every lane
 * passes without a look at each. */
static ldst_fault check_lanes(const ldst_unit *u, ldst_entry *e, const lane_scan *scan, unsigned *lane)
{
    unsigned size = ldst_access_size(&e->head);
    const ldst_unit_params *p = &u->params;
    uint32_t span = scan->highest - scan->lowest + size;
    if (!(scan->bits & (size - 1)) &&
        (in_window(scan->lowest, span, p->global_base, p->global_size) || in_window(scan->lowest, span, p->persistent_base, p->persistent_size)))
        return LDST_FAULT_NONE;
    if (ldst_is_run(&e->head)) fill_run(e);
    for (uint64_t m = e->head.lane_mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        uint32_t address = e->addresses[l];
        *lane = l;
        if (!in_window(address, size, p->global_base, p->global_size) && !in_window(address, size, p->persistent_base, p->persistent_size))
            return LDST_FAULT_RANGE;
        if (address & (size - 1)) return LDST_FAULT_MISALIGNED;
    }
    return LDST_FAULT_NONE;
}

static simtx_msg *push_request(ldst_unit *u, ldst_entry *e, simtx_op op, uint32_t address, uint32_t size, uint64_t lanes, uint64_t ready)
{
    simtx_msg *msg = msg_queue_push_slot(&u->requests, ready);
    if (!msg) { /* room for a lane each was checked at the first beat */
        fail(u, "internal error: request queue full");
        msg = &u->scratch;
    }
    simtx_msg_init(msg, op, address, size);
    msg->lane_mask = lanes;
    msg->core = e->head.core;
    msg->warp = e->head.warp;
    msg->cta = e->head.cta;
    msg->flags = e->head.flags; /* transactional, non-temporal, persistent, snapshot: the memory side's to act on */
    msg->transaction_id = e->head.transaction_id;
    msg->aux = (uint64_t)ldst_tag(&e->head) << 32; /* ldst.h: the request's tag, in the mem.h aux's upper half */
    msg->id = (uint64_t)(e - u->entries);
    return msg;
}

/* A segment's read or write: the touched sectors, a store's lanes' bytes enabled. */
static void push_segment(ldst_unit *u, ldst_entry *e, const ldst_segment *s, uint64_t ready)
{
    uint32_t sector = (uint32_t)u->params.sector_size;
    uint32_t first = s->first / sector * sector, last = (s->end + sector - 1) / sector * sector;
    bool store = e->head.op == SIMTX_OP_WRITE;
    simtx_msg *msg = push_request(u, e, store ? SIMTX_OP_WRITE : SIMTX_OP_READ, s->base + first, last - first, s->lanes, ready);
    if (!store) return;
    unsigned size = ldst_access_size(&e->head);
    msg->byte_enable[0] = msg->byte_enable[1] = 0;
    memset(msg->data, 0, msg->size);
    if (e->word_run) { /* the segment's lanes are one run of words: one copy */
        unsigned lane = (unsigned)__builtin_ctzll(s->lanes), bytes = 4u * lane_span(s->lanes);
        uint32_t o = word_run_address(e, lane) - (uint32_t)msg->address;
        memcpy(msg->data + o, &u->staged_data[lane], bytes);
        simtx_msg_enable_bytes(msg, o, bytes);
        return;
    }
    for (uint64_t m = s->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint32_t o = e->addresses[lane] - (uint32_t)msg->address;
        simtx_assert(u->env.instance_name, o + size <= msg->size); /* the coalescer kept the lane in its segment */
        memcpy(msg->data + o, &u->staged_data[lane], size);
        msg->byte_enable[o >> 6] |= ((UINT64_C(1) << size) - 1) << (o & 63); /* aligned: within one enable word */
    }
}

/* Makes the entry's mem.h requests, one per cycle from the unit's next
 * free issue cycle; returns how many. */
static uint32_t issue(ldst_unit *u, ldst_entry *e, const lane_scan *scan, uint64_t now)
{
    const simtx_msg *head = &e->head;
    uint64_t lanes = head->lane_mask;
    uint64_t start = now > u->next_issue ? now : u->next_issue;
    uint32_t count = 0;
    if (head->op == SIMTX_OP_FENCE) {
        simtx_msg *fence = push_request(u, e, SIMTX_OP_FENCE, 0, 0, 0, start);
        if (ldst_kind_of(head) == LDST_KIND_INVALIDATE) fence->aux |= MEM_FENCE_INVALIDATE; /* the tag stays (ldst.h) */
        count = 1;
    } else if (head->op == SIMTX_OP_ATOMIC || ldst_kind_of(head) == LDST_KIND_LR) {
        /* One request per lane, in ascending lane order: lanes naming one
         * word are applied in that order. */
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            bool lr = head->op == SIMTX_OP_READ;
            simtx_msg *msg = push_request(u, e, lr ? SIMTX_OP_READ : SIMTX_OP_ATOMIC, e->addresses[lane], 4, UINT64_C(1) << lane, start + count);
            if (!lr) {
                msg->atomic_op = head->atomic_op;
                memcpy(msg->data, &u->staged_data[lane], 4);
                if (head->atomic_op == SIMTX_ATOMIC_CAS) msg->aux = e->results[lane] = u->staged_expected[lane];
            }
            count++;
        }
    } else {
        unsigned size = head->op == SIMTX_OP_CLEAN_LINE ? 1u : ldst_access_size(head);
        uint32_t segment_size = (uint32_t)u->params.segment_size, segment_mask = ~(segment_size - 1);
        ldst_segment segments[LDST_MAX_LANES];
        uint32_t lowest = scan->lowest, highest = scan->highest;
        e->word_run = scan->word_run && head->op != SIMTX_OP_CLEAN_LINE;
        bool one_segment = (lowest & segment_mask) == (highest & segment_mask);
        if (ldst_is_run(head) && !(one_segment && e->word_run)) fill_run(e); /* the paths below read each lane's address */
        if (one_segment) { /* the usual coalesced access */
            uint32_t base = lowest & segment_mask;
            segments[0] = (ldst_segment){base, lowest - base, highest + size - base, lanes};
            count = 1;
        } else {
            count = ldst_coalesce(e->addresses, lanes, size, segment_size, segments);
        }
        for (uint32_t s = 0; s < count; s++) {
            if (head->op == SIMTX_OP_CLEAN_LINE) push_request(u, e, SIMTX_OP_CLEAN_LINE, segments[s].base, 0, segments[s].lanes, start + s);
            else push_segment(u, e, &segments[s], start + s);
        }
        /* Outside transactions transaction_id carries the access's
         * coalescing degree (mem.h), for blocks that act on it. */
        if (head->op == SIMTX_OP_WRITE && !(head->flags & SIMTX_FLAG_TRANSACTIONAL))
            for (uint32_t s = 0; s < count; s++) u->requests.messages[msg_queue_slot(&u->requests, u->requests.length - count + s)].transaction_id = count;
    }
    u->next_issue = start + count;
    u->stats.memory_requests += count;
    return count;
}

static void count_request(ldst_unit *u, const ldst_entry *e, uint32_t requests)
{
    const simtx_msg *head = &e->head;
    ldst_kind kind = ldst_kind_of(head);
    u->stats.lane_accesses += (uint64_t)__builtin_popcountll(head->lane_mask);
    switch (head->op) {
    case SIMTX_OP_READ:
        if (kind == LDST_KIND_LR) u->stats.lr++;
        else u->stats.loads++;
        break;
    case SIMTX_OP_WRITE:
        u->stats.stores++;
        u->stats.non_temporal_stores += (head->flags & SIMTX_FLAG_NON_TEMPORAL) != 0;
        break;
    case SIMTX_OP_ATOMIC:
        if (kind == LDST_KIND_SC) u->stats.sc++;
        else u->stats.atomics++;
        break;
    case SIMTX_OP_CLEAN_LINE: u->stats.clean_lines++; return;
    default: return;
    }
    simtx_histogram_add(&u->stats.requests_per_access, requests);
}

/* The staged request is complete: checks it and issues its mem.h requests,
 * or answers its fault (the cycle after, never inside the core's send). */
static void serve(ldst_unit *u, ldst_entry *e, uint64_t now)
{
    unsigned lane = e->head.lane_mask ? (unsigned)__builtin_ctzll(e->head.lane_mask) : 0;
    ldst_fault fault = check_op(e);
    lane_scan scan = {0, 0, 0, false};
    if (fault == LDST_FAULT_NONE && e->head.op != SIMTX_OP_FENCE) {
        scan = ldst_is_run(&e->head) ? run_lanes(e) : scan_lanes(e);
        fault = check_lanes(u, e, &scan, &lane);
    }
    if (fault != LDST_FAULT_NONE) {
        if (fault == LDST_FAULT_UNSUPPORTED) u->stats.command_errors++;
        else u->stats.address_errors++;
        respond(u, e, fault, lane, now + 1, now);
        return;
    }
    e->word_run = false;
    e->remaining = issue(u, e, &scan, now);
    count_request(u, e, e->remaining);
    if (e->head.op == SIMTX_OP_FENCE) u->fences_waiting++;
    send_requests(u, now);
}

/* A run of words inside one segment that is a whole request in one beat
 * (a coalesced kernel's usual load or store) goes from its beat straight to
 * its mem.h request, through a short path that keeps the host's
 * instruction cache: the general staging, checks and coalescer dispatch
 * touch several times its code. False: any other beat, for the general
 * path. The entry is the beat's, fresh. */
static bool serve_single_run(ldst_unit *u, ldst_entry *e, const simtx_msg *msg, uint64_t now)
{
    uint64_t lanes = msg->lane_mask;
    const uint64_t layout = LDST_LAST | LDST_RUN | UINT64_C(0xff) << 8 | UINT64_C(3) << 16 | UINT64_C(15) << 20 | UINT64_C(15) << 28;
    uint64_t wanted = LDST_LAST | LDST_RUN | 4u << 8 | (uint64_t)(msg->op == SIMTX_OP_READ ? LDST_BEAT_ADDRESSES : LDST_BEAT_DATA) << 16;
    if ((msg->op != SIMTX_OP_READ && msg->op != SIMTX_OP_WRITE) || (msg->aux & layout) != wanted || !lanes || lanes >> 32)
        return false; /* group 0, 4-byte plain access */
    unsigned first = (unsigned)__builtin_ctzll(lanes), last = 63u - (unsigned)__builtin_clzll(lanes);
    uint32_t low = (uint32_t)msg->address + 4 * first, high = (uint32_t)msg->address + 4 * last;
    uint32_t segment_mask = ~((uint32_t)u->params.segment_size - 1);
    const ldst_unit_params *p = &u->params;
    if (((lanes >> first) & ((lanes >> first) + 1)) || msg->size < 4 * (last + 1) || msg->size > LDST_BEAT_BYTES || (low & 3u) ||
        high < low || (low & segment_mask) != (high & segment_mask) ||
        !(in_window(low, high - low + 4, p->global_base, p->global_size) || in_window(low, high - low + 4, p->persistent_base, p->persistent_size)))
        return false;
    e->beat_count = 1;
    e->beat_aux[0] = msg->aux;
    e->beat_handle[0] = msg->handle;
    e->beat_size[0] = msg->size;
    e->addresses[first] = low;
    e->word_run = true;
    if (msg->op == SIMTX_OP_WRITE) memcpy(u->staged_data, msg->data, LDST_BEAT_BYTES);
    uint64_t start = now > u->next_issue ? now : u->next_issue;
    uint32_t base = low & segment_mask;
    ldst_segment segment = {base, low - base, high + 4 - base, lanes};
    push_segment(u, e, &segment, start);
    u->next_issue = start + 1;
    u->stats.memory_requests++;
    e->remaining = 1;
    count_request(u, e, 1);
    send_requests(u, now);
    return true;
}

/* Files a beat's fields and slots into the staged request. */
static void stage_beat(ldst_unit *u, ldst_entry *e, const simtx_msg *msg)
{
    unsigned group = ldst_group(msg), kind = ldst_beat_of(msg);
    bool room = e->beat_count < LDST_MAX_BEATS;
    /* Past the most beats a request takes, the last one's record keeps the
     * latest beat, so that the completion is answered. */
    unsigned b = room ? e->beat_count++ : LDST_MAX_BEATS - 1;
    e->beat_aux[b] = msg->aux;
    e->beat_size[b] = msg->size;
    e->beat_handle[b] = msg->handle;
    const simtx_msg *head = &e->head;
    const uint64_t request_fields = UINT64_C(0xfffffffff200ffff); /* rd, size, run, kind, window */
    bool lanes_op = msg->op != SIMTX_OP_FENCE;
    bool fits = room && msg->op == head->op && msg->atomic_op == head->atomic_op && msg->id == head->id &&
                msg->lane_mask == head->lane_mask && (msg->aux & request_fields) == (head->aux & request_fields) &&
                (!lanes_op || (group < LDST_MAX_GROUPS && (ldst_group_beats(msg) >> kind & 1) && ldst_group_lanes(msg->lane_mask, group) &&
                               msg->size >= ldst_beat_size(msg->lane_mask, group) && msg->size <= LDST_BEAT_BYTES)) &&
                !(e->beats_seen >> (3 * group + kind) & 1);
    if (!fits) {
        e->malformed = true;
        return;
    }
    e->beats_seen |= 1u << (3 * group + kind);
    if (!lanes_op || (kind == LDST_BEAT_ADDRESSES && ldst_is_run(msg))) return; /* a run's addresses: at serve */
    uint32_t *slots = kind == LDST_BEAT_ADDRESSES ? e->addresses : kind == LDST_BEAT_DATA ? u->staged_data : u->staged_expected;
    slots += LDST_LANES_PER_BEAT * group;
    uint32_t lanes = ldst_group_lanes(msg->lane_mask, group);
    if (lanes == UINT32_MAX) memcpy(slots, msg->data, LDST_BEAT_BYTES); /* the usual full warp */
    else
        for (uint32_t m = lanes; m; m &= m - 1) slots[__builtin_ctz(m)] = ldst_slot(msg, (unsigned)__builtin_ctz(m));
}

/* The little-endian value of `size` (1, 2 or 4) bytes. */
static inline uint32_t read_bytes(const uint8_t *bytes, unsigned size)
{
    uint32_t value = 0;
    if (size == 4) memcpy(&value, bytes, 4);
    else if (size == 2) memcpy(&value, bytes, 2);
    else value = bytes[0];
    return value;
}

/* A mem.h response: its lanes' values into the entry; the last completes it. */
static void memory_response(ldst_unit *u, const simtx_msg *msg, uint64_t now)
{
    ldst_entry *e = &u->entries[msg->id];
    const simtx_msg *head = &e->head;
    uint64_t lanes = msg->lane_mask & head->lane_mask;
    if (msg->status != SIMTX_STATUS_OK) {
        unsigned lane = lanes ? (unsigned)__builtin_ctzll(lanes) : 0;
        if (e->fault == LDST_FAULT_NONE || lane < e->fault_lane) {
            e->fault = LDST_FAULT_MEMORY;
            e->fault_lane = (uint8_t)lane;
            e->fault_status = msg->status;
        }
    } else if (head->op == SIMTX_OP_READ) {
        uint32_t base = (uint32_t)msg->address;
        if (msg->served_by > e->level) e->level = msg->served_by;
        if ((uint32_t)msg->aux < e->stamp) e->stamp = (uint32_t)msg->aux;
        if (e->word_run) {
            if (lanes) {
                unsigned lane = (unsigned)__builtin_ctzll(lanes);
                memcpy(&e->results[lane], msg->data + (word_run_address(e, lane) - base), 4u * lane_span(lanes));
            }
        } else {
            unsigned size = ldst_access_size(head);
            for (uint64_t m = lanes; m; m &= m - 1) {
                unsigned lane = (unsigned)__builtin_ctzll(m);
                e->results[lane] = read_bytes(msg->data + (e->addresses[lane] - base), size);
            }
        }
    } else if (head->op == SIMTX_OP_ATOMIC && lanes) {
        unsigned lane = (unsigned)__builtin_ctzll(lanes);
        uint32_t old = read_bytes(msg->data, 4);
        if (ldst_kind_of(head) == LDST_KIND_SC) {
            bool stored = old == e->results[lane]; /* the expected value, kept there at issue */
            e->results[lane] = stored ? 0u : 1u;
            u->stats.sc_failures += !stored;
        } else {
            e->results[lane] = old;
        }
    }
    if (--e->remaining) return;
    if (head->op == SIMTX_OP_FENCE) {
        complete_fences(u, now);
        return;
    }
    if (e->fault != LDST_FAULT_NONE) u->stats.memory_errors++;
    respond(u, e, (ldst_fault)e->fault, e->fault_lane, now, now);
    if (u->fences_waiting) complete_fences(u, now);
}

static simtx_accept_result refuse(ldst_unit *u, unsigned port)
{
    u->stats.refused++;
    u->refused[port] = true;
    return SIMTX_BUSY;
}

static simtx_accept_result ldst_unit_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    ldst_unit *u = core;
    if (port == MEMORY_PORT) {
        if (!msg->is_response) {
            fail(u, "unexpected request on the memory socket (op %s)", simtx_op_name((simtx_op)msg->op));
            return SIMTX_ACCEPTED;
        }
        /* Room for every beat's response first (only a blocked core fills it). */
        if (u->responses.capacity - u->responses.length < LDST_MAX_BEATS) return refuse(u, port);
        u->refused[port] = false;
        if (passes(u, msg)) {
            to_core(u, msg, now, now);
        } else if (msg->id >= (uint64_t)u->params.max_in_flight || !u->entries[msg->id].in_use || !u->entries[msg->id].remaining) {
            fail(u, "unexpected response on the memory socket (id %" PRIu64 ")", msg->id);
        } else {
            memory_response(u, msg, now);
        }
        return accepted(u, now);
    }
    if (msg->is_response) {
        fail(u, "unexpected response on the core socket");
        return SIMTX_ACCEPTED;
    }
    u->refused[port] = false; /* the port's held arrival, if any, is this one */
    if (passes(u, msg)) { /* e.g. the lazy TM protocol: on to the memory side unchanged, in order */
        if (!u->memory_blocked && msg_queue_empty(&u->tm_requests)) {
            if (u->env.send(u->env.context, MEMORY_PORT, msg)) {
                u->stats.tm_messages++;
                return accepted(u, now);
            }
            u->memory_blocked = true;
        }
        if (!msg_queue_push(&u->tm_requests, msg, now)) return refuse(u, port);
        u->stats.tm_messages++;
        return accepted(u, now);
    }
    if (u->staging < 0 && simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) { /* tx.h is a tm_unit's (none in line) */
        simtx_msg response;
        simtx_msg_copy_header(&response, msg);
        simtx_msg_make_response(&response, SIMTX_STATUS_COMMAND_ERROR);
        response.size = 0;
        u->stats.command_errors++;
        to_core(u, &response, now + 1, now);
        return accepted(u, now);
    }
    if (u->staging < 0) { /* a request's first beat: room for all of it, or none */
        /* Room for a memory request per lane. The lanes' span holds them
         * all and needs no popcount call (a library call on baseline
         * x86-64); the count decides only when the span does not fit. */
        size_t room = u->requests.capacity - u->requests.length;
        unsigned needed = msg->lane_mask ? lane_span(msg->lane_mask) : 1;
        if (needed > room) needed = msg->lane_mask ? (unsigned)__builtin_popcountll(msg->lane_mask) : 1;
        if (needed > u->requests.capacity) {
            fail(u, "a request of %u lanes needs more than parameter 'request_queue' (%zu requests)", needed, u->requests.capacity);
            return SIMTX_ACCEPTED;
        }
        if (!u->free_count || room < needed) return refuse(u, port);
        uint32_t index = u->free_entries[--u->free_count];
        u->probes.in_flight = (uint64_t)u->params.max_in_flight - u->free_count;
        ldst_entry *e = &u->entries[index];
        e->in_use = true;
        e->malformed = false;
        e->beat_count = 0;
        e->beats_seen = 0;
        e->remaining = 0;
        e->stamp = UINT32_MAX;
        e->fault = LDST_FAULT_NONE;
        e->fault_lane = 0;
        e->level = SIMTX_LEVEL_NONE;
        e->sequence = u->sequence++;
        e->arrival = now;
        simtx_msg_copy_header(&e->head, msg);
        u->staging = index;
    }
    ldst_entry *e = &u->entries[u->staging];
    if (!e->beat_count && serve_single_run(u, e, msg, now)) {
        u->staging = -1;
        return accepted(u, now);
    }
    stage_beat(u, e, msg);
    if (!ldst_is_last(msg)) return SIMTX_ACCEPTED_NO_TICK;
    u->staging = -1;
    serve(u, e, now);
    return accepted(u, now);
}

static uint64_t ldst_unit_cycle(void *core, uint64_t now)
{
    ldst_unit *u = core;
    send_requests(u, now);
    send_responses(u, now);
    return next_cycle(u, now);
}

static void ldst_unit_port_free(void *core, unsigned port)
{
    ldst_unit *u = core;
    if (port == MEMORY_PORT) u->memory_blocked = false;
    else u->core_blocked = false;
}

/* Host accesses pass on to the memory side. */
static size_t ldst_unit_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = MEMORY_PORT;
    return 0;
}

const simtx_block_info ldst_unit_block_info = {
    .name = "ldst_unit",
    .summary = "a SIMT core's LD/ST unit for global and persistent memory: lane checks, coalescing into segments, atomics, "
               "lr/sc, fences, clwb; passes the lazy TM protocol through",
    .params = &ldst_unit_param_table,
    .sockets = ldst_unit_sockets,
    .socket_count = 2,
    .create = ldst_unit_create,
    .destroy = ldst_unit_destroy,
    .accept = ldst_unit_accept,
    .cycle = ldst_unit_cycle,
    .port_free = ldst_unit_port_free,
    .debug_access = ldst_unit_debug_access,
};
