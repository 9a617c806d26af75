/* lds: the block. Reassembles ldst.h requests from their beats, checks them,
 * has the access policy perform them at arrival (requests are served in
 * arrival order, so performing early changes nothing another request can
 * see) and answers them when the banks' timing says they complete. */
#include "lds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldst.h"
#include "lds_policy.h"
#include "msg_queue.h"
#include "simtx_array.h"

#define PARAM(field) offsetof(lds_params, field)

static const simtx_param_spec lds_param_specs[] = {
    {"size", SIMTX_PARAM_INT, "48KiB", "bytes", 4, 1 << 26, NULL, "shared memory, split by the core among its resident CTAs", PARAM(size)},
    {"banks", SIMTX_PARAM_INT, "32", "banks", 1, 1024, NULL, "banks accessed in parallel; consecutive bank words go to consecutive banks", PARAM(banks)},
    {"bank_width", SIMTX_PARAM_INT, "4", "bytes", 1, 1024, NULL, "bytes of one bank word (a power of two)", PARAM(bank_width)},
    {"latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL, "start of a conflict-free access to its response", PARAM(latency)},
    /* Room for a request per cycle over the latency: a smaller queue throttles
     * conflict-free streams, a larger one only holds more responses. */
    {"queue_depth", SIMTX_PARAM_INT, "32", "requests", 1, 4096, NULL,
     "requests held from their first beat to their last response; a full LDS refuses new ones", PARAM(queue_depth)},
    {"policy", SIMTX_PARAM_ENUM, "plain", "", 0, 0, "plain|localtm",
     "how an access acts on the storage: plain, or localtm (GPU-LocalTM: transactions in the LDS, lds_localtm.c)", PARAM(policy)},
    /* The localtm policy's (section 4.2's costs; the paper's defaults). */
    {"perfect", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "localtm: Perfect GPU-LocalTM, the same behaviour with no added cycle", PARAM(perfect)},
    {"broken_filters", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL,
     "localtm: a deliberately wrong design for the oracles, whose filters ignore other wavefronts", PARAM(broken_filters)},
    {"filter_bits", SIMTX_PARAM_INT, "8", "bits", 8, 32, NULL, "localtm: bits of a work-item's signature per bank (8, 16 or 32); bit = (word / banks) % filter_bits",
     PARAM(filter_bits)},
    {"filter_hash", SIMTX_PARAM_ENUM, "row", "", 0, 0, "row|word",
     "localtm: a word's filter bit: row = (word / banks) % filter_bits (section 3.3's worked example), word = word % filter_bits (its \"address % 8\" read literally: in a bank of 32 words every word takes one bit)",
     PARAM(filter_hash)},
    {"conflict_resolution", SIMTX_PARAM_ENUM, "serial_wins", "", 0, 0, "serial_wins|requester_loses",
     "localtm: who loses a conflict: the requester, except that a serialised work-item (wavefront- or work-group-serial) finding only TX-mode work-items of other wavefronts in the filters wins and aborts them (serial_wins); or always the requester (requester_loses)",
     PARAM(conflict_resolution)},
    {"max_work_items", SIMTX_PARAM_INT, "256", "work-items", 1, 256, NULL, "localtm: work-items per work-group (an owner is one byte)", PARAM(max_work_items)},
    {"max_wavefronts", SIMTX_PARAM_INT, "48", "warps", 1, 1024, NULL, "localtm: the core's warp slots (TCM, TCM OLD and mode each; probed)", PARAM(max_wavefronts)},
    {"filter_cycles", SIMTX_PARAM_INT, "1", "cycles", 0, 1000, NULL, "localtm: a transactional request's filter evaluation (once for its lanes), before the shadow work", PARAM(filter_cycles)},
    {"new_cycles", SIMTX_PARAM_INT, "2", "cycles", 0, 1000, NULL, "localtm: a new access's backup and owner", PARAM(new_cycles)},
    {"own_cycles", SIMTX_PARAM_INT, "1", "cycles", 0, 1000, NULL, "localtm: a second access's owner check", PARAM(own_cycles)},
    {"false_own_cycles", SIMTX_PARAM_INT, "2", "cycles", 0, 1000, NULL, "localtm: an own filter false positive (owner check, then as new)", PARAM(false_own_cycles)},
    {"begin_cycles", SIMTX_PARAM_INT, "1", "cycles", 0, 1000, NULL, "localtm: TX_BEGIN (EXEC, TCM, register backup), plus a work-group serialisation's clearing", PARAM(begin_cycles)},
    {"commit_cycles", SIMTX_PARAM_INT, "1", "cycles", 0, 1000, NULL, "localtm: TX_COMMIT's filter clearing, plus the committers' entries in the slowest bank", PARAM(commit_cycles)},
};

static const simtx_param_table lds_param_table = {lds_param_specs, sizeof lds_param_specs / sizeof lds_param_specs[0],
                                                  sizeof(lds_params)};

static const simtx_socket_spec lds_sockets[] = {
    {"core", SIMTX_SOCKET_TARGET, NULL, "ldst.h requests and, under a policy that serves them, tx.h events from the SIMT core, responses back", false},
    {"tx_events", SIMTX_SOCKET_INITIATOR, NULL, "unsolicited tx.h events to the core (TX_ABORT, tx.h 6); needed by the localtm policy", true},
};

enum { CORE_PORT = 0, EVENTS_PORT = 1 };

static const lds_policy *const lds_policies[] = {&lds_plain_policy, &lds_localtm_policy};

/* A request being reassembled: its beats (kept whole, for their responses)
 * and the lanes' slots. */
typedef struct lds_staging {
    bool open;
    bool verdict;         /* a transactional request's VERDICT beat came first (tx.h 2) */
    simtx_msg verdict_beat;
    unsigned beat_count;
    uint32_t beats_seen;  /* bit 3 g + kind */
    ldst_fault malformed; /* a beat that does not fit the request's layout */
    simtx_msg beats[LDST_MAX_BEATS];
    lds_request request;
} lds_staging;

typedef struct lds {
    lds_params params;
    simtx_env env;
    const lds_policy *policy;
    void *policy_state;
    lds_geometry geometry;
    uint8_t *storage;
    lds_staging staging;
    msg_queue responses; /* in completion order */
    uint64_t banks_free_cycle, last_ready;
    uint32_t held;       /* requests from first beat to last response */
    bool port_blocked;
    uint64_t now;         /* of the event a policy's upcall comes from */
    simtx_msg *held_begins; /* [max_wavefronts]: TX_BEGINs the policy holds (op 0: none) */
    msg_queue events;     /* TX_ABORTs for the tx_events socket */
    bool events_blocked;
    struct { /* commit records (lds.h) */
        bool on;
        lds_commit_record *records;
        uint32_t *words;
        size_t count, capacity, word_count, word_capacity;
    } history;
    struct {
        uint64_t requests, loads, stores, atomics, lr, sc, sc_failures, clears, fences, lane_accesses;
        uint64_t bank_conflict_cycles, address_errors, command_errors, refused;
        simtx_histogram conflict_degree;
        simtx_histogram load_to_use; /* plain loads: last beat to values */
    } stats;
    struct {
        uint64_t held, conflict_degree;
    } probes;
} lds;

static void lds_destroy(void *core);
static void policy_release(void *context, int32_t warp, const lds_tx_event *answer);
static void policy_abort(void *context, int32_t warp, int32_t cta, uint64_t lanes, uint32_t attempt);
static bool policy_recording(void *context);
static void policy_record(void *context, uint32_t instance, const uint32_t *words, uint32_t reads, uint32_t writes);

static const lds_policy *find_policy(const char *name)
{
    for (size_t i = 0; i < sizeof lds_policies / sizeof lds_policies[0]; i++)
        if (strcmp(lds_policies[i]->name, name) == 0) return lds_policies[i];
    return NULL;
}

static void *lds_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const lds_params *p = params;
    if (p->bank_width & (p->bank_width - 1)) {
        snprintf(error, error_size, "bank_width %lld is not a power of two", (long long)p->bank_width);
        return NULL;
    }
    const lds_policy *policy = find_policy(p->policy);
    if (!policy) {
        snprintf(error, error_size, "policy '%s' is not known", p->policy);
        return NULL;
    }
    lds *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->params = *p;
    l->params.policy = NULL; /* owned by the caller's params struct */
    l->params.filter_hash = NULL;
    l->params.conflict_resolution = NULL;
    l->env = *env;
    l->policy = policy;
    l->geometry = (lds_geometry){(uint32_t)p->size, (uint32_t)p->banks, (uint32_t)p->bank_width};
    l->storage = calloc(1, (size_t)p->size);
    if (!l->storage || !msg_queue_init(&l->responses, (size_t)p->queue_depth * LDST_MAX_BEATS + (size_t)p->max_wavefronts) ||
        (policy->tx_event && (!(l->held_begins = calloc((size_t)p->max_wavefronts, sizeof *l->held_begins)) ||
                              !msg_queue_init(&l->events, 4 * (size_t)p->max_wavefronts)))) {
        snprintf(error, error_size, "out of memory for size %lld and queue_depth %lld", (long long)p->size,
                 (long long)p->queue_depth);
        lds_destroy(l);
        return NULL;
    }
    lds_policy_env policy_env = {l, env->observer, env->fail, policy_release, policy_abort, policy_recording, policy_record};
    if (policy->create && !policy->create(&l->policy_state, p, &l->geometry, &policy_env, error, error_size)) {
        lds_destroy(l);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "requests", &l->stats.requests, "requests", "load, store, atomic, lr and sc requests performed");
    simtx_observe_counter(o, "loads", &l->stats.loads, "requests", "load requests (lr not included)");
    simtx_observe_counter(o, "stores", &l->stats.stores, "requests", "store requests");
    simtx_observe_counter(o, "atomics", &l->stats.atomics, "requests", "atomic requests (sc not included)");
    simtx_observe_counter(o, "lr", &l->stats.lr, "requests", "lr.w requests");
    simtx_observe_counter(o, "sc", &l->stats.sc, "requests", "sc.w requests");
    simtx_observe_counter(o, "sc_failures", &l->stats.sc_failures, "lanes", "sc.w lanes that found another value and did not store");
    simtx_observe_counter(o, "clears", &l->stats.clears, "requests", "CTA regions zeroed at dispatch");
    simtx_observe_counter(o, "fences", &l->stats.fences, "requests", "fences answered");
    simtx_observe_counter(o, "lane_accesses", &l->stats.lane_accesses, "lanes", "active lanes of the requests performed");
    simtx_observe_counter(o, "bank_conflict_cycles", &l->stats.bank_conflict_cycles, "cycles",
                          "extra bank cycles serialising conflicts (degree - 1 per request)");
    simtx_observe_histogram(o, "conflict_degree", &l->stats.conflict_degree, "cycles",
                            "bank cycles per request: the most distinct words its lanes touch in one bank");
    simtx_observe_histogram(o, "load_to_use", &l->stats.load_to_use, "cycles",
                            "per load request (lr not included): its last beat to its values (the shared-memory load-to-use latency)");
    simtx_observe_counter(o, "address_errors", &l->stats.address_errors, "requests", "requests with a lane outside its window or misaligned");
    simtx_observe_counter(o, "command_errors", &l->stats.command_errors, "requests", "requests with an op, size or beat layout the LDS does not serve");
    simtx_observe_counter(o, "refused", &l->stats.refused, "beats", "first beats refused because queue_depth requests were held");
    simtx_observe_energy(o, "request", &l->stats.requests, "a request's crossbar and bank-conflict logic");
    simtx_observe_energy(o, "lane", &l->stats.lane_accesses, "an active lane's 32-bit bank access");
    simtx_observe_energy(o, "conflict_cycle", &l->stats.bank_conflict_cycles, "a replay cycle for a bank conflict");
    simtx_observe_level_probe(o, "held", &l->probes.held, 16, 0, "requests held");
    simtx_observe_probe(o, "conflict_degree", &l->probes.conflict_degree, 8, "bank cycles of the latest request");
    return l;
}

static void lds_destroy(void *core)
{
    lds *l = core;
    if (l->policy && l->policy->destroy) l->policy->destroy(l->policy_state);
    msg_queue_release(&l->responses);
    msg_queue_release(&l->events);
    free(l->held_begins);
    free(l->history.records);
    free(l->history.words);
    free(l->storage);
    free(l);
}

/* The lowest active lane (0 without lanes), named by a fault. */
static unsigned first_lane(uint64_t lanes) { return lanes ? (unsigned)__builtin_ctzll(lanes) : 0u; }

/* Whether the request's op, kind and size are served, and whether its beats
 * were the ones its op takes. */
static ldst_fault check_op(const lds_staging *s, const simtx_msg *head)
{
    const lds_request *r = &s->request;
    ldst_kind kind = ldst_kind_of(head);
    unsigned size = r->access_size;
    bool plain_size = size == 1 || size == 2 || size == 4;
    if (s->malformed != LDST_FAULT_NONE) return s->malformed;
    if (ldst_is_run(head)) return LDST_FAULT_UNSUPPORTED; /* runs are the ldst_unit's (ldst.h) */
    switch (head->op) {
    case SIMTX_OP_READ:
        if (!(kind == LDST_KIND_PLAIN ? plain_size : kind == LDST_KIND_LR && size == 4)) return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_WRITE:
        if (kind == LDST_KIND_CLEAR) return LDST_FAULT_NONE;
        if (kind != LDST_KIND_PLAIN || !plain_size) return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_ATOMIC:
        if (size != 4 || head->atomic_op >= SIMTX_ATOMIC_COUNT) return LDST_FAULT_UNSUPPORTED;
        if (kind != LDST_KIND_PLAIN && !(kind == LDST_KIND_SC && head->atomic_op == SIMTX_ATOMIC_CAS))
            return LDST_FAULT_UNSUPPORTED;
        break;
    case SIMTX_OP_FENCE: return LDST_FAULT_NONE;
    default: return LDST_FAULT_UNSUPPORTED;
    }
    /* Every group with an active lane sent each beat its op takes. */
    uint32_t wanted = 0, kinds = ldst_group_beats(head);
    for (unsigned g = 0; g < LDST_MAX_GROUPS; g++)
        if (ldst_group_lanes(r->lanes, g)) wanted |= kinds << (3 * g);
    return wanted && wanted == s->beats_seen ? LDST_FAULT_NONE : LDST_FAULT_UNSUPPORTED;
}

/* Checks the window and every lane; *lane gets the lowest bad one. */
static ldst_fault check_lanes(const lds *l, const lds_request *r, uint32_t window, unsigned *lane)
{
    if ((uint64_t)r->base + window > l->geometry.size) {
        *lane = first_lane(r->lanes);
        return LDST_FAULT_RANGE;
    }
    for (uint64_t m = r->lanes; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctzll(m);
        uint32_t offset = r->offsets[k];
        if ((uint64_t)offset + r->access_size > window) {
            *lane = k;
            return LDST_FAULT_RANGE;
        }
        if (offset & (r->access_size - 1u)) {
            *lane = k;
            return LDST_FAULT_MISALIGNED;
        }
    }
    return LDST_FAULT_NONE;
}

static void count_request(lds *l, const simtx_msg *head, const lds_request *r)
{
    ldst_kind kind = ldst_kind_of(head);
    l->stats.requests++;
    l->stats.lane_accesses += (uint64_t)__builtin_popcountll(r->lanes);
    if (head->op == SIMTX_OP_READ) {
        if (kind == LDST_KIND_LR) l->stats.lr++;
        else l->stats.loads++;
    } else if (head->op == SIMTX_OP_WRITE) {
        l->stats.stores++;
    } else if (kind == LDST_KIND_SC) {
        l->stats.sc++;
        for (uint64_t m = r->lanes; m; m &= m - 1) l->stats.sc_failures += r->results[__builtin_ctzll(m)] != 0;
    } else {
        l->stats.atomics++;
    }
}

/* Queues the responses of the staged request, ready at `ready`, in beat
 * order; the address beats carry the lanes' results when `values`. */
static void queue_responses(lds *l, uint64_t ready, ldst_fault fault, unsigned fault_lane, bool values)
{
    lds_staging *s = &l->staging;
    if (ready < l->last_ready) ready = l->last_ready; /* one FIFO: completions in request order */
    l->last_ready = ready;
    if (s->verdict) { /* tx.h 2: first; nothing paused, the lanes the access left in the conflict mask */
        simtx_msg *response = msg_queue_push_slot(&l->responses, ready);
        if (!response) {
            l->env.fail(l->env.context, "lds: internal error: response queue full");
            return;
        }
        simtx_msg_copy_header(response, &s->verdict_beat);
        simtx_msg_make_response(response, SIMTX_STATUS_OK);
        response->aux &= UINT64_C(0xffffffff);
        if (fault != LDST_FAULT_NONE) ldst_set_fault(response, fault, fault_lane);
        tx_set_verdict(response, 0, fault == LDST_FAULT_NONE ? s->request.aborted : 0);
        if (fault == LDST_FAULT_NONE && s->request.retry_at_commit) response->aux |= TX_VERDICT_RETRY_AT_COMMIT;
    }
    for (unsigned b = 0; b < s->beat_count; b++) {
        simtx_msg *response = msg_queue_push_slot(&l->responses, ready);
        if (!response) { /* held <= queue_depth requests of at most LDST_MAX_BEATS beats */
            l->env.fail(l->env.context, "lds: internal error: response queue full");
            return;
        }
        const simtx_msg *beat = &s->beats[b];
        simtx_msg_copy_header(response, beat);
        simtx_msg_make_response(response, SIMTX_STATUS_OK);
        response->aux &= UINT64_C(0xffffffff);
        if (fault != LDST_FAULT_NONE) ldst_set_fault(response, fault, fault_lane);
        response->aux = (response->aux & ~LDST_LAST) | (b + 1 == s->beat_count ? LDST_LAST : 0);
        if (values && fault == LDST_FAULT_NONE && ldst_beat_of(beat) == LDST_BEAT_ADDRESSES) {
            unsigned group = ldst_group(beat);
            const uint32_t *results = &s->request.results[LDST_LANES_PER_BEAT * group];
            memset(response->data, 0, beat->size);
            for (uint32_t m = ldst_group_lanes(s->request.lanes, group); m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                ldst_set_slot(response, i, results[i]);
            }
        } else {
            response->size = 0;
        }
    }
}

/* The staged request is complete (its LDST_LAST beat arrived at now):
 * checks it, performs it and queues its responses. */
static void serve(lds *l, uint64_t now)
{
    lds_staging *s = &l->staging;
    lds_request *r = &s->request;
    const simtx_msg *head = &s->beats[0];
    uint32_t window = ldst_window_size(head);
    r->window = window;
    r->aborted = 0;
    r->retry_at_commit = false;
    r->added_latency = 0;
    unsigned fault_lane = first_lane(r->lanes);
    ldst_fault fault = check_op(s, head);
    if (fault == LDST_FAULT_NONE && s->verdict && !l->policy->tx_event) fault = LDST_FAULT_UNSUPPORTED; /* no transactions here */
    if (fault == LDST_FAULT_NONE) {
        if (head->op == SIMTX_OP_FENCE) { /* every earlier request completes first (one FIFO) */
            l->stats.fences++;
            queue_responses(l, now + 1, fault, 0, false);
            return;
        }
        if (ldst_kind_of(head) == LDST_KIND_CLEAR) {
            r->lanes = 0; /* a range fault names lane 0 */
            fault = check_lanes(l, r, window, &fault_lane);
            if (fault == LDST_FAULT_NONE) {
                memset(l->storage + r->base, 0, window);
                if (l->policy->clear) l->policy->clear(l->policy_state, r->cta, r->base, window);
                l->stats.clears++;
                queue_responses(l, now + 1, fault, 0, false);
                return;
            }
        } else {
            fault = check_lanes(l, r, l->policy->access_window ? l->policy->access_window(l->policy_state, r) : window, &fault_lane);
        }
    }
    if (fault != LDST_FAULT_NONE) {
        if (fault == LDST_FAULT_UNSUPPORTED) l->stats.command_errors++;
        else l->stats.address_errors++;
        queue_responses(l, now + 1, fault, fault_lane, false);
        return;
    }
    l->now = now;
    unsigned degree = l->policy->perform(l->policy_state, &l->geometry, l->storage, r);
    if (!degree) degree = 1;
    uint64_t start = now > l->banks_free_cycle ? now : l->banks_free_cycle;
    l->banks_free_cycle = start + degree;
    uint64_t ready = start + (uint64_t)l->params.latency + degree - 1 + r->added_latency;
    count_request(l, head, r);
    l->stats.bank_conflict_cycles += degree - 1;
    simtx_histogram_add(&l->stats.conflict_degree, degree);
    l->probes.conflict_degree = degree;
    queue_responses(l, ready > now ? ready : now + 1, fault, 0, head->op != SIMTX_OP_WRITE);
    if (head->op == SIMTX_OP_READ && ldst_kind_of(head) == LDST_KIND_PLAIN) /* its values leave with the FIFO's last */
        simtx_histogram_add(&l->stats.load_to_use, l->last_ready - now);
}

/* Files a beat's slots into the staged request. */
static void stage_beat(lds_staging *s, const simtx_msg *msg)
{
    lds_request *r = &s->request;
    unsigned group = ldst_group(msg), kind = ldst_beat_of(msg);
    if (kind == LDST_BEAT_VERDICT) { /* tx.h 2: first, empty, not last, under a policy that serves transactions */
        if (s->beat_count || s->verdict || msg->size || ldst_is_last(msg) || !(msg->flags & SIMTX_FLAG_TRANSACTIONAL))
            s->malformed = LDST_FAULT_UNSUPPORTED;
        s->verdict = true;
        s->verdict_beat = *msg;
        return;
    }
    bool room = s->beat_count < LDST_MAX_BEATS;
    /* Kept whole for its response; past the most beats a request takes,
     * the last slot keeps the latest beat, so the completion is answered. */
    s->beats[room ? s->beat_count++ : LDST_MAX_BEATS - 1] = *msg;
    const simtx_msg *head = &s->beats[0];
    const uint64_t request_fields = UINT64_C(0xfffffffff200ffff); /* rd, size, run, kind, window */
    bool lanes_op = !(msg->op == SIMTX_OP_FENCE || ldst_kind_of(msg) == LDST_KIND_CLEAR);
    bool fits = room && msg->op == head->op && msg->atomic_op == head->atomic_op && msg->id == head->id &&
                msg->lane_mask == head->lane_mask && (msg->aux & request_fields) == (head->aux & request_fields) &&
                (!lanes_op || (group < LDST_MAX_GROUPS && (ldst_group_beats(msg) >> kind & 1) &&
                               ldst_group_lanes(msg->lane_mask, group) &&
                               msg->size >= ldst_beat_size(msg->lane_mask, group) && msg->size <= LDST_BEAT_BYTES)) &&
                !(s->beats_seen >> (3 * group + kind) & 1);
    if (!fits) {
        s->malformed = LDST_FAULT_UNSUPPORTED;
        return;
    }
    s->beats_seen |= 1u << (3 * group + kind);
    if (!lanes_op) return;
    uint32_t *slots = kind == LDST_BEAT_ADDRESSES ? r->offsets : kind == LDST_BEAT_DATA ? r->data : r->expected;
    slots += LDST_LANES_PER_BEAT * group;
    for (uint32_t m = ldst_group_lanes(msg->lane_mask, group); m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        slots[i] = ldst_slot(msg, i);
    }
}

/* A tx.h event's answer, ready after the policy's cycles (none: the next
 * cycle), in the one FIFO; the banks stay free for other requests. */
static void queue_tx_answer(lds *l, const simtx_msg *event, const lds_tx_event *e, simtx_status status, uint64_t now)
{
    uint64_t ready = now + 1 + (e ? e->cycles : 0); /* the event's latency; it holds no bank */
    if (ready < l->last_ready) ready = l->last_ready;
    l->last_ready = ready;
    simtx_msg *response = msg_queue_push_slot(&l->responses, ready);
    if (!response) {
        l->env.fail(l->env.context, "lds: internal error: response queue full");
        return;
    }
    simtx_msg_copy_header(response, event);
    simtx_msg_make_response(response, status);
    response->size = 0;
    l->held++;
    l->probes.held = l->held;
    if (status != SIMTX_STATUS_OK || !e) return;
    if (event->op == SIMTX_OP_TX_BEGIN) {
        response->flags |= SIMTX_FLAG_TX_PAUSE; /* every access asks for its verdict (tx.h 2) */
        if (e->consistent) response->aux |= TX_BEGIN_CONSISTENT;
        if (e->held) {
            response->size = 8;
            memcpy(response->data, &e->held, 8);
        }
    } else if (event->op == SIMTX_OP_TX_COMMIT) {
        response->size = sizeof e->outcome;
        memcpy(response->data, &e->outcome, sizeof e->outcome);
    }
}

/* A tx.h event: the policy's, or a command error when it serves none. */
static simtx_accept_result accept_tx(lds *l, const simtx_msg *msg, uint64_t now)
{
    bool served = l->policy->tx_event &&
                  (msg->op == SIMTX_OP_TX_BEGIN || msg->op == SIMTX_OP_TX_COMMIT || msg->op == SIMTX_OP_TX_ROLLBACK);
    if (!served || msg->is_response || l->staging.open) {
        l->stats.command_errors++;
        queue_tx_answer(l, msg, NULL, SIMTX_STATUS_COMMAND_ERROR, now);
        return SIMTX_ACCEPTED;
    }
    lds_tx_event e = {.op = msg->op, .warp = msg->warp, .cta = msg->cta, .lanes = msg->lane_mask, .aux = msg->aux,
                      .first_thread = msg->transaction_id};
    l->now = now;
    l->policy->tx_event(l->policy_state, l->storage, &e);
    if (e.hold) { /* answered by policy_release; not counted in held, so it blocks nothing */
        if (msg->warp >= 0 && msg->warp < (int32_t)l->params.max_wavefronts) l->held_begins[msg->warp] = *msg;
        return SIMTX_ACCEPTED;
    }
    queue_tx_answer(l, msg, &e, SIMTX_STATUS_OK, now);
    return SIMTX_ACCEPTED;
}

static void policy_release(void *context, int32_t warp, const lds_tx_event *answer)
{
    lds *l = context;
    simtx_msg *begin = &l->held_begins[warp];
    if (begin->op != SIMTX_OP_TX_BEGIN) {
        l->env.fail(l->env.context, "lds: internal error: the policy released a TX_BEGIN it did not hold");
        return;
    }
    queue_tx_answer(l, begin, answer, SIMTX_STATUS_OK, l->now);
    begin->op = 0;
}

static void policy_abort(void *context, int32_t warp, int32_t cta, uint64_t lanes, uint32_t attempt)
{
    lds *l = context;
    simtx_msg *abort = msg_queue_push_slot(&l->events, l->now + 1);
    if (!abort) {
        l->env.fail(l->env.context, "lds: internal error: the tx_events queue is full");
        return;
    }
    simtx_msg_init(abort, SIMTX_OP_TX_ABORT, 0, 0);
    abort->lane_mask = lanes;
    abort->aux = TX_ABORT_LOCAL_CONFLICT;
    abort->transaction_id = attempt;
    abort->warp = warp;
    abort->cta = cta;
    abort->id = SIMTX_OP_TX_ABORT;
}

static bool policy_recording(void *context) { return ((lds *)context)->history.on; }

static void policy_record(void *context, uint32_t instance, const uint32_t *words, uint32_t reads, uint32_t writes)
{
    lds *l = context;
    size_t n = 2 * ((size_t)reads + writes);
    lds_commit_record *records = simtx_array_reserve(l->history.records, &l->history.capacity, l->history.count + 1, sizeof *records, 256);
    uint32_t *kept = records ? simtx_array_reserve(l->history.words, &l->history.word_capacity, l->history.word_count + n + 1, sizeof *kept, 1024) : NULL;
    if (!records || !kept) {
        l->env.fail(l->env.context, "lds: out of memory for the commit records");
        return;
    }
    l->history.records = records;
    l->history.words = kept;
    records[l->history.count] = (lds_commit_record){instance, (uint32_t)l->history.count, reads, writes, l->history.word_count};
    memcpy(kept + l->history.word_count, words, n * sizeof *kept);
    l->history.count++;
    l->history.word_count += n;
}

bool lds_set_recording(void *core, bool on)
{
    lds *l = core;
    if (!l->policy->tx_event) return false;
    l->history.on = on;
    return true;
}

size_t lds_history(const void *core, const lds_commit_record **records, const uint32_t **words)
{
    const lds *l = core;
    *records = l->history.records;
    *words = l->history.words;
    return l->history.count;
}

void lds_clear_history(void *core)
{
    lds *l = core;
    l->history.count = l->history.word_count = 0;
}

static simtx_accept_result lds_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    lds *l = core;
    lds_staging *s = &l->staging;
    (void)port;
    if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) {
        if (l->held >= (uint32_t)l->params.queue_depth) {
            l->stats.refused++;
            return SIMTX_BUSY;
        }
        return accept_tx(l, msg, now);
    }
    if (!s->open) {
        if (l->held >= (uint32_t)l->params.queue_depth) {
            l->stats.refused++;
            return SIMTX_BUSY;
        }
        l->held++;
        l->probes.held = l->held;
        s->open = true;
        s->beat_count = 0;
        s->beats_seen = 0;
        s->verdict = false;
        s->malformed = LDST_FAULT_NONE;
        lds_request *r = &s->request;
        r->op = msg->op;
        r->atomic_op = msg->atomic_op;
        r->kind = (uint8_t)ldst_kind_of(msg);
        r->access_size = (uint8_t)ldst_access_size(msg);
        r->base = msg->address > UINT32_MAX ? UINT32_MAX : (uint32_t)msg->address;
        r->lanes = msg->lane_mask;
        r->warp = msg->warp;
        r->cta = msg->cta;
        r->flags = msg->flags;
    }
    stage_beat(s, msg);
    if (!ldst_is_last(msg)) return SIMTX_ACCEPTED_NO_TICK;
    bool was_idle = msg_queue_empty(&l->responses);
    serve(l, now);
    s->open = false;
    /* A tick is planned already for the earlier responses (or a port_free
     * will come); this one's is not earlier. */
    return was_idle ? SIMTX_ACCEPTED : SIMTX_ACCEPTED_NO_TICK;
}

static uint64_t lds_cycle(void *core, uint64_t now)
{
    lds *l = core;
    while (!l->port_blocked && !msg_queue_empty(&l->responses) && msg_queue_front_ready(&l->responses) <= now) {
        const simtx_msg *response = msg_queue_front(&l->responses);
        if (!l->env.send(l->env.context, 0, response)) {
            l->port_blocked = true;
            break;
        }
        if (simtx_op_info_of(response->op)->family == SIMTX_FAMILY_TX || ldst_is_last(response)) l->held--;
        msg_queue_pop(&l->responses);
    }
    l->probes.held = l->held;
    while (!l->events_blocked && !msg_queue_empty(&l->events) && msg_queue_front_ready(&l->events) <= now) {
        if (!l->env.send(l->env.context, EVENTS_PORT, msg_queue_front(&l->events))) {
            l->events_blocked = true;
            break;
        }
        msg_queue_pop(&l->events);
    }
    uint64_t next = SIMTX_NEVER;
    if (!l->port_blocked && !msg_queue_empty(&l->responses)) next = msg_queue_front_ready(&l->responses);
    if (!l->events_blocked && !msg_queue_empty(&l->events) && msg_queue_front_ready(&l->events) < next)
        next = msg_queue_front_ready(&l->events);
    if (next == SIMTX_NEVER) return next;
    return next > now ? next : now + 1;
}

static void lds_port_free(void *core, unsigned port)
{
    if (port == EVENTS_PORT) ((lds *)core)->events_blocked = false;
    else ((lds *)core)->port_blocked = false;
}

/* The localtm policy may abort other wavefronts' lanes (work-group
 * serialisation): the core must hear of it. */
static const char *lds_socket_needed(const void *params, size_t socket)
{
    const lds_params *p = params;
    if (socket == EVENTS_PORT && p->policy && strcmp(p->policy, "localtm") == 0)
        return "policy: localtm aborts other wavefronts' lanes (work-group serialisation): bind tx_events to the core's tx_events socket";
    return NULL;
}

/* Zero-time access to the LDS's bytes, offsets [0, size). */
static size_t lds_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    lds *l = core;
    *forward_port = -1;
    if (address >= l->geometry.size || size > l->geometry.size - address) return 0;
    if (is_write) memcpy(l->storage + address, data, size);
    else memcpy(data, l->storage + address, size);
    return size;
}

const simtx_block_info lds_block_info = {
    .name = "lds",
    .summary = "a SIMT core's shared memory (local data share): banks with bank-conflict timing, loads, stores, atomics, lr/sc, CTA clears",
    .params = &lds_param_table,
    .sockets = lds_sockets,
    .socket_count = sizeof lds_sockets / sizeof lds_sockets[0],
    .socket_needed = lds_socket_needed,
    .create = lds_create,
    .destroy = lds_destroy,
    .accept = lds_accept,
    .cycle = lds_cycle,
    .port_free = lds_port_free,
    .debug_access = lds_debug_access,
};
