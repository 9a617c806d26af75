/* agpm_selector: see agpm_selector.h and README.md. */
#include "agpm_selector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agpm_policy.h"
#include "mem.h"
#include "msg_queue.h"

#define PARAM(field) offsetof(agpm_selector_params, field)

enum { PORT_UP, PORT_DOWN, PORT_DECISION, PORT_REPORT };
/* The route entry marking a CLEAN_LINE the selector made itself. */
#define OWN_ROUTE 0xA5u
/* Lines a warp's dropped-clwb list remembers (the lines of one store). */
#define DROP_LINES 32u
#define DROP_WARPS 64u
/* Reports waiting for the next cycle(): an arrival makes at most one per
 * word it names, plus one. */
#define REPORTS 128u
#define REPORTS_PER_ARRIVAL (SIMTX_MSG_MAX_DATA / 4u + 1u)

static const simtx_param_spec selector_param_specs[] = {
    {"policy", SIMTX_PARAM_ENUM, "agpm", "", 0, 0, "nt|clwb|agpm|themis|pmem_spec|bucl",
     "how a log update's path is chosen (one file each: agpm_policy_<name>.c)", PARAM(policy)},
    {"initial_path", SIMTX_PARAM_ENUM, "nt", "", 0, 0, "nt|temporal",
     "agpm, themis: the path before the tracker's first decision (not in the paper)", PARAM(initial_path)},
    {"core", SIMTX_PARAM_INT, "0", "", 0, 1023, NULL, "the SM it serves, named in its reports", PARAM(core)},
    {"in_flight", SIMTX_PARAM_INT, "64", "requests", 1, 4096, NULL,
     "log updates between arrival and durable acknowledgement; a full table refuses the next (not in the paper)", PARAM(in_flight)},
    {"queue_depth", SIMTX_PARAM_INT, "8", "messages", 1, 4096, NULL, "messages waiting to leave, each direction (towards the L1, one more place per in_flight entry for its added clean)", PARAM(queue_depth)},
    {"bucl_degree", SIMTX_PARAM_INT, "2", "requests", 1, 64, NULL,
     "bucl: a log update goes non-temporal when its access made more requests than this (not in the paper; Fig. 4's [1, 2] is coalesced)",
     PARAM(bucl_degree)},
    {"persistent_base", SIMTX_PARAM_INT, "0xa0000000", "", 0, 1e18, NULL, "the persistent window (pmem_spec's data writes)", PARAM(persistent_base)},
    {"persistent_size", SIMTX_PARAM_INT, "0x20000000", "bytes", 0, 1e18, NULL, "the persistent window's size", PARAM(persistent_size)},
    {"entry_window", SIMTX_PARAM_INT, "1000", "cycles", 0, 1e9, NULL,
     "how long an acknowledged entry's first word (PM_LOG_NAMES) waits for a further write of its warp to its line to share its clean (not in the paper)",
     PARAM(entry_window)},
    {"line_size", SIMTX_PARAM_INT, "128", "bytes", 16, 4096, NULL, "the line an added CLEAN_LINE names (the L1's, a power of two)", PARAM(line_size)},
};

static const simtx_param_table selector_param_table = {
    selector_param_specs, sizeof selector_param_specs / sizeof selector_param_specs[0], sizeof(agpm_selector_params)};

static const simtx_socket_spec selector_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "mem.h requests from the ldst_unit (after coalescing), responses back", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "requests to the L1, log updates rewritten to their path", false},
    {"decision", SIMTX_SOCKET_TARGET, NULL, "AGPM_DECISION from the tracker (models/protocols/agpm.h)", true},
    {"report", SIMTX_SOCKET_MONITOR, NULL, "AGPM_LOG, AGPM_DONE and AGPM_KERNEL to the tracker (agpm.h); may stay unbound", false},
};

/* A temporal log update's write is acknowledged (HELD_WRITE ends) while
 * another write of its warp to its line is still unacknowledged, or it is
 * an entry's first word (PM_LOG_NAMES: the entry's value word follows):
 * it waits (HELD_MERGED) for the line's next clean, which will cover its
 * bytes too; the write acknowledged last makes the line's one clean
 * (HELD_CLEAN), and every update merged into it then waits for that clean
 * (HELD_JOINED). So a warp's log stores to one line before its sfence cost
 * one clean, as the kernel's own store, store, clwb does. A first word
 * whose line sees no further write within entry_window cycles, or while
 * the table is full, is cleaned on its own. */
typedef enum { HELD_FREE, HELD_NON_TEMPORAL, HELD_WRITE, HELD_CLEAN, HELD_MERGED, HELD_JOINED } held_stage;
static const char *const path_names[] = {"nt", "temporal"};

typedef struct held_log {
    simtx_msg msg; /* the write as it arrived; in HELD_CLEAN, its response */
    uint64_t arrival;
    held_stage stage;
    uint8_t flags; /* as the ldst_unit sent it: restored in the answer */
    unsigned clean_slot; /* HELD_JOINED: the entry whose clean covers it */
    int32_t warp;        /* the write's warp and line, kept past its answer */
    uint64_t line;
    uint64_t deadline;   /* HELD_MERGED as an entry's first word: cleaned alone from then */
} held_log;

typedef struct agpm_selector {
    agpm_selector_params params;
    simtx_env env;
    const agpm_policy *policy;
    void *policy_state;
    msg_queue down, up; /* waiting to leave */
    msg_queue reports;  /* to the tracker, sent in the next cycle() (never from inside accept) */
    bool down_blocked, up_blocked, report_bound;
    held_log *held;
    unsigned *free_slots, free_count;
    unsigned open_count; /* HELD_MERGED first words with a deadline */
    uint64_t drop_lines[DROP_WARPS][DROP_LINES];
    uint8_t drop_count[DROP_WARPS];
    int last_path; /* of the previous log update, -1 before the first */
    struct {
        uint64_t id, tag, block;
        bool valid;
    } last_named; /* the previous tracked report's access and block */
    struct {
        uint64_t logs_non_temporal, logs_temporal, path_changes, cleans_added, cleans_merged, cleans_dropped, data_non_temporal;
        uint64_t log_bytes_non_temporal, log_bytes_temporal, decisions, in_flight_stalls, kernels;
        simtx_histogram log_wait_non_temporal, log_wait_temporal;
    } stats;
    struct {
        uint64_t path, in_flight;
    } probes;
} agpm_selector;

static const agpm_policy *const policies[] = {&agpm_policy_nt, &agpm_policy_clwb, &agpm_policy_agpm, &agpm_policy_themis,
                                               &agpm_policy_pmem_spec, &agpm_policy_bucl};

static void selector_destroy(void *core)
{
    agpm_selector *s = core;
    if (!s) return;
    free(s->policy_state);
    free(s->held);
    free(s->free_slots);
    msg_queue_release(&s->down);
    msg_queue_release(&s->up);
    msg_queue_release(&s->reports);
    free(s);
}

static void observe(agpm_selector *s, simtx_observer *o)
{
    simtx_observe_counter(o, "logs_non_temporal", &s->stats.logs_non_temporal, "requests", "log updates sent non-temporal");
    simtx_observe_counter(o, "logs_temporal", &s->stats.logs_temporal, "requests", "log updates sent temporal (then a clean of the line)");
    simtx_observe_counter(o, "log_bytes_non_temporal", &s->stats.log_bytes_non_temporal, "bytes", "bytes of log updates sent non-temporal (L1 -> L2, Fig. 5's s2m)");
    simtx_observe_counter(o, "log_bytes_temporal", &s->stats.log_bytes_temporal, "bytes", "bytes of log updates sent temporal");
    simtx_observe_counter(o, "path_changes", &s->stats.path_changes, "changes", "log updates taking another path than the previous one");
    simtx_observe_counter(o, "cleans_added", &s->stats.cleans_added, "requests", "CLEAN_LINEs added after a temporal log update (NT -> T)");
    simtx_observe_counter(o, "cleans_merged", &s->stats.cleans_merged, "requests",
                          "temporal log updates made durable by a later one's clean of the same line (same warp): no clean of their own");
    simtx_observe_counter(o, "cleans_dropped", &s->stats.cleans_dropped, "requests", "clwbs answered at once after a write sent non-temporal (T -> NT)");
    simtx_observe_counter(o, "data_non_temporal", &s->stats.data_non_temporal, "requests", "persistent writes other than log updates sent non-temporal (pmem_spec)");
    simtx_observe_counter(o, "decisions", &s->stats.decisions, "messages", "AGPM_DECISIONs received");
    simtx_observe_counter(o, "kernels", &s->stats.kernels, "launches", "launch boundaries reported (invalidating fences)");
    simtx_observe_counter(o, "in_flight_stalls", &s->stats.in_flight_stalls, "refusals", "log updates refused: every in_flight entry taken");
    simtx_observe_histogram(o, "log_wait_non_temporal", &s->stats.log_wait_non_temporal, "cycles", "arrival to durable acknowledgement, non-temporal log updates");
    simtx_observe_histogram(o, "log_wait_temporal", &s->stats.log_wait_temporal, "cycles", "arrival to the added clean's acknowledgement, temporal log updates");
    simtx_observe_enum_probe(o, "path", &s->probes.path, 1, path_names, 2, "the path of the latest log update");
    simtx_observe_level_probe(o, "in_flight", &s->probes.in_flight, 13, (uint64_t)s->params.in_flight, "log updates waiting for their acknowledgement");
}

static void *selector_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const agpm_selector_params *p = params;
    if (p->line_size & (p->line_size - 1)) {
        snprintf(error, error_size, "'line_size' (%lld) must be a power of two", (long long)p->line_size);
        return NULL;
    }
    agpm_selector *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->params = *p;
    s->env = *env;
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (!strcmp(policies[i]->name, p->policy)) s->policy = policies[i];
    s->policy_state = s->policy ? s->policy->create(p) : NULL;
    s->held = calloc((size_t)p->in_flight, sizeof *s->held);
    s->free_slots = calloc((size_t)p->in_flight, sizeof *s->free_slots);
    /* Requests fill `down` up to queue_depth; past it, one place per
     * in_flight entry is kept for the clean its temporal write may add, so
     * taking the write's answer never waits for request room (mem.h,
     * BACKPRESSURE: a response never waits for a request resource). */
    /* `up` and `reports` also keep one place per in_flight entry past
     * their usual room: a clean's answer finishes every update merged into
     * it at once. */
    bool queues = msg_queue_init(&s->down, (size_t)(p->queue_depth + p->in_flight)) &&
                  msg_queue_init(&s->up, (size_t)(p->queue_depth + p->in_flight)) &&
                  msg_queue_init(&s->reports, REPORTS + (size_t)p->in_flight);
    if (!s->policy_state || !s->held || !s->free_slots || !queues) {
        snprintf(error, error_size, "out of memory for in_flight %lld", (long long)p->in_flight);
        selector_destroy(s);
        return NULL;
    }
    for (unsigned i = 0; i < (unsigned)p->in_flight; i++) s->free_slots[s->free_count++] = (unsigned)p->in_flight - 1 - i;
    s->last_path = -1;
    observe(s, env->observer);
    return s;
}

static const char *selector_socket_needed(const void *params, size_t socket)
{
    const agpm_selector_params *p = params;
    if (socket != PORT_DECISION) return NULL;
    bool tracker = !strcmp(p->policy, "agpm") || !strcmp(p->policy, "themis");
    return tracker ? "policy agpm and themis follow the tracker's decisions: bind `decision`" : NULL;
}

/* A log write naming the data it logs: one report per block its words
 * name (consecutive words naming one block share it), the named words'
 * bytes enabled; the first report counts the log update. */
static void report_named(agpm_selector *s, simtx_msg *m, const simtx_msg *write)
{
    bool open = false;
    for (unsigned i = 0; i + 4 <= write->size && i + 4 <= SIMTX_MSG_MAX_DATA; i += 4) {
        if (!simtx_msg_byte_enabled(write, i)) continue;
        uint32_t named;
        memcpy(&named, &write->data[i], 4);
        uint64_t block = named / AGPM_BLOCK_BYTES * AGPM_BLOCK_BYTES;
        unsigned offset = (unsigned)(named - block);
        if (open && block != m->address) {
            msg_queue_push(&s->reports, m, 0);
            m->aux &= ~AGPM_LOG_COUNTED;
            open = false;
        }
        if (!open) {
            m->address = block;
            m->aux |= AGPM_LOG_TRACKED;
            /* The coalescer split the access: the same log update goes on. */
            bool same = s->last_named.valid && s->last_named.id == write->id && s->last_named.tag == write->aux >> 32 &&
                        s->last_named.block == block;
            m->aux = same ? m->aux | AGPM_LOG_SAME_ACCESS : m->aux & ~AGPM_LOG_SAME_ACCESS;
            s->last_named.id = write->id;
            s->last_named.tag = write->aux >> 32;
            s->last_named.block = block;
            s->last_named.valid = true;
            m->byte_enable[0] = m->byte_enable[1] = 0;
            open = true;
        }
        for (unsigned b = offset; b < offset + 4 && b < AGPM_BLOCK_BYTES; b++) m->byte_enable[b >> 6] |= UINT64_C(1) << (b & 63);
    }
    if (open || (m->aux & AGPM_LOG_COUNTED)) msg_queue_push(&s->reports, m, 0);
}

static void report(agpm_selector *s, simtx_op op, const simtx_msg *cause, uint64_t aux)
{
    if (!s->report_bound) return;
    simtx_msg m;
    simtx_msg_init(&m, op, 0, 0);
    m.core = (int32_t)s->params.core;
    m.aux = aux;
    if (cause) {
        m.warp = cause->warp;
        m.cta = cause->cta;
    }
    if (op == SIMTX_OP_AGPM_LOG) {
        m.address = cause->address / AGPM_BLOCK_BYTES * AGPM_BLOCK_BYTES;
        m.size = AGPM_BLOCK_BYTES;
        m.aux |= AGPM_LOG_COUNTED;
        if (cause->flags & SIMTX_FLAG_PM_LOG_NAMES) {
            report_named(s, &m, cause);
            return;
        }
    }
    msg_queue_push(&s->reports, &m, 0); /* room checked on arrival */
}

/* Room before the usual limits (the places past them are kept for merged
 * updates' answers and reports, create). */
static bool up_room(const agpm_selector *s) { return s->up.length < (size_t)s->params.queue_depth; }
static bool report_room(const agpm_selector *s) { return s->reports.length + REPORTS_PER_ARRIVAL <= REPORTS; }

static unsigned warp_slot(const simtx_msg *msg) { return (unsigned)msg->warp % DROP_WARPS; }
static uint64_t line_of(const agpm_selector *s, uint64_t address) { return address & ~((uint64_t)s->params.line_size - 1); }

static void remember_drop(agpm_selector *s, const simtx_msg *write)
{
    unsigned w = warp_slot(write);
    uint64_t line = line_of(s, write->address);
    for (unsigned i = 0; i < s->drop_count[w]; i++)
        if (s->drop_lines[w][i] == line) return;
    if (s->drop_count[w] == DROP_LINES) { /* forget the oldest: its clwb then goes on (slower, still safe) */
        memmove(&s->drop_lines[w][0], &s->drop_lines[w][1], (DROP_LINES - 1) * sizeof(uint64_t));
        s->drop_count[w]--;
    }
    s->drop_lines[w][s->drop_count[w]++] = line;
}

static bool take_drop(agpm_selector *s, const simtx_msg *clean)
{
    unsigned w = warp_slot(clean);
    uint64_t line = line_of(s, clean->address);
    for (unsigned i = 0; i < s->drop_count[w]; i++)
        if (s->drop_lines[w][i] == line) {
            s->drop_lines[w][i] = s->drop_lines[w][--s->drop_count[w]];
            return true;
        }
    return false;
}

/* Whether another entry in stage holds a log update of h's warp and line. */
static bool line_pending(const agpm_selector *s, const held_log *h, held_stage stage)
{
    for (unsigned i = 0; i < (unsigned)s->params.in_flight; i++) {
        const held_log *o = &s->held[i];
        if (o != h && o->stage == stage && o->warp == h->warp && o->line == h->line) return true;
    }
    return false;
}

/* The line's one clean, for the entry at slot (its answer kept in msg) and
 * every update of its warp and line merged before; its place past
 * queue_depth was kept when its write was taken (create). */
static void issue_clean(agpm_selector *s, unsigned slot, uint64_t now)
{
    held_log *h = &s->held[slot];
    for (unsigned i = 0; i < (unsigned)s->params.in_flight; i++) {
        held_log *o = &s->held[i];
        if (o->stage != HELD_MERGED || o->warp != h->warp || o->line != h->line || i == slot) continue;
        if (o->deadline != SIMTX_NEVER) s->open_count--;
        o->deadline = SIMTX_NEVER;
        o->stage = HELD_JOINED;
        o->clean_slot = slot;
        s->stats.cleans_merged++;
    }
    if (h->deadline != SIMTX_NEVER) s->open_count--;
    h->deadline = SIMTX_NEVER;
    simtx_msg *clean = msg_queue_push_slot(&s->down, now);
    if (!clean) {
        s->env.fail(s->env.context, "internal error: no place kept for a temporal log update's clean");
        return;
    }
    simtx_msg_init(clean, SIMTX_OP_CLEAN_LINE, h->line, 0);
    clean->core = h->msg.core;
    clean->warp = h->msg.warp;
    clean->cta = h->msg.cta;
    clean->lane_mask = h->msg.lane_mask;
    clean->flags = SIMTX_FLAG_PM_LOG;
    clean->id = (uint64_t)slot;
    clean->route[0] = OWN_ROUTE;
    clean->route_depth = 1;
    h->stage = HELD_CLEAN;
    s->stats.cleans_added++;
}

/* Cleans the entries' first words waiting for their value word whose
 * window has passed (all of them when the table is full), unless a write
 * of their line is on its way (its acknowledgement makes the clean).
 * Returns the earliest deadline still waiting. */
static uint64_t release_open(agpm_selector *s, uint64_t now, bool all)
{
    uint64_t next = SIMTX_NEVER;
    for (unsigned i = 0; s->open_count && i < (unsigned)s->params.in_flight; i++) {
        held_log *h = &s->held[i];
        if (h->stage != HELD_MERGED || h->deadline == SIMTX_NEVER || line_pending(s, h, HELD_WRITE)) continue;
        if (all || h->deadline <= now) issue_clean(s, i, now);
        else if (h->deadline < next) next = h->deadline;
    }
    return next;
}

/* Whether an entry will free itself (an acknowledgement or a clean on its
 * way); if not, a full table holds only updates waiting for more of their
 * lines, which a refused write may be. */
static bool table_moving(const agpm_selector *s)
{
    for (unsigned i = 0; i < (unsigned)s->params.in_flight; i++)
        if (s->held[i].stage != HELD_MERGED) return true;
    return false;
}

static simtx_accept_result log_update(agpm_selector *s, const simtx_msg *msg, uint64_t now)
{
    if (!s->free_count) {
        s->stats.in_flight_stalls++;
        if (!table_moving(s)) release_open(s, now, true); /* the next write of their lines may be this one */
        return SIMTX_BUSY;
    }
    agpm_path path = s->policy->log_path(s->policy_state, msg);
    unsigned slot = s->free_slots[--s->free_count];
    held_log *h = &s->held[slot];
    h->msg = *msg;
    h->flags = msg->flags;
    h->arrival = now;
    h->warp = msg->warp;
    h->line = line_of(s, msg->address);
    h->deadline = SIMTX_NEVER;
    h->stage = path == AGPM_PATH_TEMPORAL ? HELD_WRITE : HELD_NON_TEMPORAL;
    simtx_msg *out = msg_queue_push_slot(&s->down, now);
    *out = *msg;
    uint64_t bytes = 0;
    for (unsigned i = 0; i < msg->size; i++) bytes += simtx_msg_byte_enabled(msg, i);
    if (path == AGPM_PATH_TEMPORAL) {
        out->flags &= (uint8_t)~SIMTX_FLAG_NON_TEMPORAL;
        s->stats.logs_temporal++;
        s->stats.log_bytes_temporal += bytes;
    } else {
        out->flags |= SIMTX_FLAG_NON_TEMPORAL;
        s->stats.logs_non_temporal++;
        s->stats.log_bytes_non_temporal += bytes;
    }
    s->stats.path_changes += s->last_path >= 0 && s->last_path != (int)path;
    s->last_path = (int)path;
    s->probes.path = path;
    s->probes.in_flight = (uint64_t)s->params.in_flight - s->free_count;
    report(s, SIMTX_OP_AGPM_LOG, msg, path);
    return SIMTX_ACCEPTED;
}

static simtx_accept_result request(agpm_selector *s, const simtx_msg *msg, uint64_t now)
{
    if (s->down.length >= (size_t)s->params.queue_depth || !report_room(s)) return SIMTX_BUSY;
    if (msg->op == SIMTX_OP_WRITE && (msg->flags & SIMTX_FLAG_PM_LOG)) return log_update(s, msg, now);
    if (msg->op == SIMTX_OP_CLEAN_LINE && s->drop_count[warp_slot(msg)] && take_drop(s, msg)) {
        if (!up_room(s)) {
            remember_drop(s, msg);
            return SIMTX_BUSY;
        }
        simtx_msg *answer = msg_queue_push_slot(&s->up, now);
        *answer = *msg;
        simtx_msg_make_response(answer, SIMTX_STATUS_OK);
        s->stats.cleans_dropped++;
        return SIMTX_ACCEPTED;
    }
    /* A cached write or an atomic after the non-temporal one leaves the
     * line dirty again: the warp's clwb of it must go on. */
    if (s->drop_count[warp_slot(msg)] && (msg->op == SIMTX_OP_ATOMIC || (msg->op == SIMTX_OP_WRITE && !(msg->flags & SIMTX_FLAG_NON_TEMPORAL))))
        take_drop(s, msg);
    simtx_msg *out = msg_queue_push_slot(&s->down, now);
    *out = *msg;
    if (msg->op == SIMTX_OP_WRITE && s->policy->data_non_temporal && !(msg->flags & SIMTX_FLAG_NON_TEMPORAL) &&
        s->policy->data_non_temporal(s->policy_state, msg)) {
        out->flags |= SIMTX_FLAG_NON_TEMPORAL;
        s->stats.data_non_temporal++;
        remember_drop(s, msg);
    }
    if (msg->op == SIMTX_OP_FENCE && (msg->aux & MEM_FENCE_INVALIDATE)) { /* a launch boundary (ldst.h) */
        s->stats.kernels++;
        report(s, SIMTX_OP_AGPM_KERNEL, msg, msg->aux >> 32); /* the launch's shared memory per CTA (mem.h) */
    }
    return SIMTX_ACCEPTED;
}

static void finish_log(agpm_selector *s, unsigned slot, const simtx_msg *answer, uint64_t now)
{
    held_log *h = &s->held[slot];
    uint64_t waited = now - h->arrival;
    simtx_histogram_add(h->stage == HELD_NON_TEMPORAL ? &s->stats.log_wait_non_temporal : &s->stats.log_wait_temporal, waited);
    simtx_msg *up = msg_queue_push_slot(&s->up, now);
    *up = *answer;
    up->flags = h->flags;
    h->stage = HELD_FREE;
    s->free_slots[s->free_count++] = slot;
    s->probes.in_flight = (uint64_t)s->params.in_flight - s->free_count;
    report(s, SIMTX_OP_AGPM_DONE, &h->msg, waited);
}

static int find_held(const agpm_selector *s, const simtx_msg *response)
{
    for (unsigned i = 0; i < (unsigned)s->params.in_flight; i++) {
        const held_log *h = &s->held[i];
        if ((h->stage == HELD_NON_TEMPORAL || h->stage == HELD_WRITE) && h->msg.id == response->id && h->msg.address == response->address)
            return (int)i;
    }
    return -1;
}

static simtx_accept_result response(agpm_selector *s, const simtx_msg *msg, uint64_t now)
{
    if (!up_room(s) || !report_room(s)) return SIMTX_BUSY;
    if (msg->route_depth && msg->route[msg->route_depth - 1] == OWN_ROUTE) { /* an added clean answered */
        unsigned slot = (unsigned)msg->id;
        if (slot >= (unsigned)s->params.in_flight || s->held[slot].stage != HELD_CLEAN) {
            s->env.fail(s->env.context, "a clean answer matches no log update waiting for it");
            return SIMTX_ACCEPTED;
        }
        for (unsigned i = 0; i < (unsigned)s->params.in_flight; i++)
            if (s->held[i].stage == HELD_JOINED && s->held[i].clean_slot == slot) {
                simtx_msg joined = s->held[i].msg;
                finish_log(s, i, &joined, now);
            }
        simtx_msg answer = s->held[slot].msg; /* the write's own answer, kept */
        finish_log(s, slot, &answer, now);
        return SIMTX_ACCEPTED;
    }
    int slot = (msg->flags & SIMTX_FLAG_PM_LOG) ? find_held(s, msg) : -1;
    if (slot < 0) {
        msg_queue_push(&s->up, msg, now);
        return SIMTX_ACCEPTED;
    }
    held_log *h = &s->held[slot];
    if (h->stage == HELD_NON_TEMPORAL) {
        finish_log(s, (unsigned)slot, msg, now);
        return SIMTX_ACCEPTED;
    }
    h->msg = *msg; /* the write's answer, sent once the clean is answered */
    if (line_pending(s, h, HELD_WRITE)) { /* a later write of the line makes its clean */
        h->stage = HELD_MERGED;
        return SIMTX_ACCEPTED;
    }
    if ((h->flags & SIMTX_FLAG_PM_LOG_NAMES) && s->params.entry_window > 0) { /* the entry's value word follows */
        h->stage = HELD_MERGED;
        h->deadline = now + (uint64_t)s->params.entry_window;
        s->open_count++;
        return SIMTX_ACCEPTED;
    }
    issue_clean(s, (unsigned)slot, now);
    return SIMTX_ACCEPTED;
}

static simtx_accept_result selector_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    agpm_selector *s = core;
    switch (port) {
    case PORT_UP:
        if (msg->is_response) break;
        return request(s, msg, now);
    case PORT_DOWN:
        if (!msg->is_response) break;
        return response(s, msg, now);
    case PORT_DECISION:
        if (msg->op != SIMTX_OP_AGPM_DECISION) break;
        s->stats.decisions++;
        if (s->policy->decide) s->policy->decide(s->policy_state, msg);
        return SIMTX_ACCEPTED_NO_TICK;
    default: break;
    }
    char text[160];
    snprintf(text, sizeof text, "unexpected %s %s on socket %u", simtx_op_name((simtx_op)msg->op), msg->is_response ? "response" : "request", port);
    s->env.fail(s->env.context, text);
    return SIMTX_ACCEPTED;
}

static bool drain(agpm_selector *s, msg_queue *q, unsigned port, bool *blocked)
{
    while (!*blocked && !msg_queue_empty(q)) {
        simtx_msg *m = msg_queue_front(q);
        if (!s->env.send(s->env.context, port, m)) {
            *blocked = true;
            break;
        }
        msg_queue_pop(q);
    }
    return !msg_queue_empty(q) && !*blocked;
}

static uint64_t selector_cycle(void *core, uint64_t now)
{
    agpm_selector *s = core;
    for (; !msg_queue_empty(&s->reports); msg_queue_pop(&s->reports)) {
        const simtx_msg *m = msg_queue_front(&s->reports);
        if (!s->env.send(s->env.context, PORT_REPORT, m)) {
            char text[128];
            snprintf(text, sizeof text, "the tracker refused a %s report (agpm.h: reports must always be taken)", simtx_op_name((simtx_op)m->op));
            s->env.fail(s->env.context, text);
        }
    }
    uint64_t next = s->open_count ? release_open(s, now, false) : SIMTX_NEVER;
    bool more = drain(s, &s->down, PORT_DOWN, &s->down_blocked);
    more |= drain(s, &s->up, PORT_UP, &s->up_blocked);
    return more ? now + 1 : next;
}

static void selector_port_free(void *core, unsigned port)
{
    agpm_selector *s = core;
    if (port == PORT_DOWN) s->down_blocked = false;
    if (port == PORT_UP) s->up_blocked = false;
}

static void selector_monitor_bound(void *core, unsigned port)
{
    if (port == PORT_REPORT) ((agpm_selector *)core)->report_bound = true;
}

static void selector_describe_pending(void *core, char *text, size_t size)
{
    agpm_selector *s = core;
    snprintf(text, size, "%zu requests and %zu responses waiting to leave%s%s, %u log updates in flight", s->down.length,
             s->up.length, s->down_blocked ? " (L1 busy)" : "", s->up_blocked ? " (ldst_unit busy)" : "",
             (unsigned)s->params.in_flight - s->free_count);
}

/* Zero-time accesses pass through to the L1. */
static size_t selector_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = PORT_DOWN;
    return 0;
}

const simtx_block_info agpm_selector_block_info = {
    .name = "agpm_selector",
    .summary = "per-SM path selector between the ldst_unit and the L1: a log update non-temporal or store + clean by a policy slot (AGPM)",
    .params = &selector_param_table,
    .sockets = selector_sockets,
    .socket_count = sizeof selector_sockets / sizeof selector_sockets[0],
    .create = selector_create,
    .destroy = selector_destroy,
    .accept = selector_accept,
    .cycle = selector_cycle,
    .port_free = selector_port_free,
    .monitor_bound = selector_monitor_bound,
    .describe_pending = selector_describe_pending,
    .debug_access = selector_debug_access,
    .socket_needed = selector_socket_needed,
};
