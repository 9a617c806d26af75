#include "tm_traffic.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse_memory.h"
#include "tm_oracle.h"
#include "tm_lazy.h"
#include "tm_lazy_walker.h"

#define PARAM(field) offsetof(tm_traffic_params, field)
#define MAX_SET 16

static const simtx_param_spec tm_traffic_param_specs[] = {
    {"agents", SIMTX_PARAM_INT, "16", "transactions", 1, 4096, NULL, "transactions in flight at once", PARAM(agents)},
    {"transactions", SIMTX_PARAM_INT, "20", "transactions", 1, 1 << 20, NULL, "commits each agent makes", PARAM(transactions)},
    {"pool_words", SIMTX_PARAM_INT, "64", "words", 1, 1 << 20, NULL, "words the transactions share (fewer: more conflicts)", PARAM(pool_words)},
    {"address_base", SIMTX_PARAM_INT, "0x180000", "bytes", 0, 9.2e18, NULL, "where the pool starts, a multiple of interleave x partitions; word i lies in partition i mod partitions", PARAM(address_base)},
    {"partitions", SIMTX_PARAM_INT, "6", "", 1, 64, NULL, "memory partitions, each with a commit unit", PARAM(partitions)},
    {"interleave", SIMTX_PARAM_INT, "256", "bytes", 4, 1 << 30, NULL, "bytes per partition chunk (the crossbar's)", PARAM(interleave)},
    {"max_reads", SIMTX_PARAM_INT, "4", "words", 1, MAX_SET, NULL, "read set: 1 to max_reads distinct words", PARAM(max_reads)},
    {"max_writes", SIMTX_PARAM_INT, "2", "words", 0, MAX_SET, NULL, "write set: up to max_writes words (read words + 1, or a fresh word)", PARAM(max_writes)},
    {"think_cycles", SIMTX_PARAM_INT, "20", "cycles", 0, 1 << 20, NULL, "compute time between the loads and the commit: 0 to think_cycles", PARAM(think_cycles)},
    {"read_only_percent", SIMTX_PARAM_INT, "20", "%", 0, 100, NULL, "transactions that write nothing", PARAM(read_only_percent)},
    {"temporal_conflict_detection", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "read-only transactions commit at the core after last-written-time queries (KILO TM's TCD) when they can", PARAM(temporal_conflict_detection)},
    {"warp_lanes", SIMTX_PARAM_INT, "0", "lanes", 0, 16, NULL, "0: KILO TM per-transaction messages; n: agents form warps of n lanes that commit together with Warp TM's coalesced messages (agents a multiple of n)", PARAM(warp_lanes)},
    {"core_id", SIMTX_PARAM_INT, "0", "", 0, 1 << 20, NULL, "msg.core of every message", PARAM(core_id)},
    {"check", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "check the history with the serializability oracle at the end (a violation fails the run)", PARAM(check)},
};

static const simtx_param_table tm_traffic_param_table = {
    tm_traffic_param_specs, sizeof tm_traffic_param_specs / sizeof tm_traffic_param_specs[0], sizeof(tm_traffic_params)};

static const simtx_socket_spec tm_traffic_sockets[] = {
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "loads, commit protocol messages; to an L1 or the crossbar", false},
};

enum { PHASE_INIT, PHASE_RUN, PHASE_READBACK, PHASE_DONE };
enum {
    AGENT_LOADING, AGENT_THINKING, AGENT_WAIT_CID, AGENT_WAIT_OUTCOMES, AGENT_WAIT_ACKS, AGENT_FINISHED,
    AGENT_WAIT_CLOCK, AGENT_WAIT_LWT /* temporal conflict detection */
};
enum {
    KIND_INIT = 1, KIND_LOAD, KIND_CID, KIND_ACK, KIND_OUTCOME, KIND_DECISION, KIND_READBACK, KIND_CLOCK, KIND_PREQUERY,
    KIND_POSTQUERY, KIND_WARP_CID, KIND_WARP_OUTCOME, KIND_WARP_DECISION
};
enum { WARP_EXECUTING, WARP_COMMITTING, WARP_FINISHED };

/* Warp TM: the lanes (agents first .. first + warp_lanes - 1) commit together. */
typedef struct warp_state {
    int state;
    uint64_t active; /* lanes still to commit this round, by lane */
    uint32_t first_cid;
    unsigned outcomes_pending, acks_pending;
    uint64_t pass_mask; /* bit k: the k-th active lane passed everywhere */
    uint64_t involved;  /* partitions with entries */
    uint64_t start_cycle;
} warp_state;

typedef struct agent {
    int state;
    uint64_t ready_cycle;
    tm_entry reads[MAX_SET], writes[MAX_SET];
    unsigned n_reads, n_writes, loads_pending, outcomes_pending, acks_pending, committed;
    uint32_t cid;
    uint64_t involved;
    bool all_pass;
    bool read_only;
    uint32_t start_time;     /* TCD: the clock at the start (the next commit ID then) */
    unsigned queries_pending;
    bool queries_passed;
} agent;

typedef struct commit_record {
    uint32_t cid;
    bool at_core; /* a read-only transaction committed by TCD: serialized just before ID cid */
    unsigned n_reads, n_writes;
    tm_oracle_access reads[MAX_SET], writes[MAX_SET];
} commit_record;

typedef struct tm_traffic {
    tm_traffic_params params;
    simtx_env env;
    int phase;
    agent *agents;
    warp_state *warps; /* agents / warp_lanes of them, when warp_lanes > 0 */
    unsigned finished_agents;
    uint64_t rng;
    simtx_msg *out; /* ring of messages waiting for the port */
    size_t out_head, out_length, out_capacity;
    bool port_blocked;
    uint64_t outstanding; /* INIT / READBACK requests in flight */
    size_t readback_next;
    sparse_memory *initial, *final;
    commit_record *history;
    size_t history_count, history_capacity;
    char error[320];
    struct {
        uint64_t commits, aborts, loads, cid_requests, log_messages, messages, oracle_checked, tcd_commits, tcd_failures;
        simtx_histogram attempt_latency;
    } stats;
    struct {
        uint64_t in_flight, committed;
    } probes;
} tm_traffic;

static uint64_t next_random(tm_traffic *t)
{
    uint64_t x = t->rng;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return t->rng = x;
}

static uint64_t make_id(unsigned agent_index, unsigned kind, uint32_t low)
{
    return ((uint64_t)agent_index << 40) | ((uint64_t)kind << 32) | low;
}

/* Pool word i: in partition i mod partitions, consecutive words of a
 * partition in its chunks. */
static uint64_t pool_address(const tm_traffic *t, uint64_t i)
{
    uint64_t p = (uint64_t)t->params.partitions, chunk_words = (uint64_t)t->params.interleave / 4;
    uint64_t within = i / p;
    return (uint64_t)t->params.address_base + ((within / chunk_words) * p + i % p) * (uint64_t)t->params.interleave +
           (within % chunk_words) * 4;
}

static void *tm_traffic_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const tm_traffic_params *p = params;
    if (p->interleave % 4 || p->address_base % 4) {
        snprintf(error, error_size, "%s must be a multiple of 4 bytes", p->interleave % 4 ? "interleave" : "address_base");
        return NULL;
    }
    if (p->address_base % (p->interleave * p->partitions)) {
        snprintf(error, error_size,
                 "address_base 0x%llx must start partition 0's chunk: a multiple of interleave x partitions (%lld)",
                 (unsigned long long)p->address_base, (long long)(p->interleave * p->partitions));
        return NULL;
    }
    if (p->max_reads > p->pool_words) {
        snprintf(error, error_size, "max_reads %lld exceeds pool_words %lld", (long long)p->max_reads, (long long)p->pool_words);
        return NULL;
    }
    tm_traffic *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->params = *p;
    t->env = *env;
    t->rng = env->seed * UINT64_C(0x9E3779B97F4A7C15) | 1;
    t->agents = calloc((size_t)p->agents, sizeof *t->agents);
    if (p->warp_lanes && p->agents % p->warp_lanes) {
        snprintf(error, error_size, "agents %lld must be a multiple of warp_lanes %lld", (long long)p->agents,
                 (long long)p->warp_lanes);
        free(t->agents);
        free(t);
        return NULL;
    }
    if (p->warp_lanes) t->warps = calloc((size_t)(p->agents / p->warp_lanes), sizeof *t->warps);
    t->out_capacity = (size_t)p->agents * (size_t)(p->partitions * 4 + 2 * MAX_SET) + (size_t)p->pool_words + 16;
    t->out = calloc(t->out_capacity, sizeof *t->out);
    t->initial = sparse_memory_create();
    t->final = sparse_memory_create();
    if (!t->agents || !t->out || !t->initial || !t->final) {
        snprintf(error, error_size, "out of memory for %lld agents", (long long)p->agents);
        tm_traffic_block_info.destroy(t);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "tm_n_commits", &t->stats.commits, "transactions", "transactions committed");
    simtx_observe_counter(o, "tm_n_aborts", &t->stats.aborts, "attempts", "commit attempts aborted (then retried)");
    simtx_observe_counter(o, "loads", &t->stats.loads, "requests", "transactional loads");
    simtx_observe_counter(o, "cid_requests", &t->stats.cid_requests, "requests", "commit-ID requests");
    simtx_observe_counter(o, "log_messages", &t->stats.log_messages, "messages", "read/write-log messages sent");
    simtx_observe_counter(o, "messages", &t->stats.messages, "messages", "requests sent");
    simtx_observe_counter(o, "tm_n_tcd_commits", &t->stats.tcd_commits, "transactions", "read-only transactions committed at the core by temporal conflict detection");
    simtx_observe_counter(o, "tm_n_tcd_failures", &t->stats.tcd_failures, "transactions", "read-only transactions whose temporal check failed (then committed through the commit units)");
    simtx_observe_counter(o, "oracle_checked", &t->stats.oracle_checked, "transactions", "committed transactions the oracle replayed (0 until the end)");
    simtx_observe_histogram(o, "attempt_latency", &t->stats.attempt_latency, "cycles", "commit-ID request to last write-back acknowledgement");
    simtx_observe_level_probe(o, "in_flight", &t->probes.in_flight, 16, 0, "agents between their commit-ID request and their acknowledgements");
    simtx_observe_probe(o, "committed", &t->probes.committed, 32, "transactions committed");
    return t;
}

static void tm_traffic_destroy(void *core)
{
    tm_traffic *t = core;
    if (!t) return;
    free(t->agents);
    free(t->warps);
    free(t->out);
    free(t->history);
    if (t->initial) sparse_memory_destroy(t->initial);
    if (t->final) sparse_memory_destroy(t->final);
    free(t);
}

static void push(tm_traffic *t, simtx_msg *msg)
{
    if (t->out_length == t->out_capacity) {
        t->env.fail(t->env.context, "tm_traffic: output queue overflow (internal sizing error)");
        return;
    }
    msg->core = (int32_t)t->params.core_id;
    t->out[(t->out_head + t->out_length++) % t->out_capacity] = *msg;
    t->stats.messages++;
}

static bool contains(const tm_entry *e, unsigned n, uint32_t address)
{
    for (unsigned i = 0; i < n; i++)
        if (e[i].address == address) return true;
    return false;
}

static void issue_load(tm_traffic *t, unsigned index, unsigned i)
{
    simtx_msg load;
    simtx_msg_init(&load, SIMTX_OP_READ, t->agents[index].reads[i].address, 4);
    load.id = make_id(index, KIND_LOAD, i);
    push(t, &load);
    t->stats.loads++;
}

static void lwt_query(tm_traffic *t, unsigned index, unsigned i, unsigned kind)
{
    simtx_msg q;
    simtx_msg_init(&q, SIMTX_OP_TM_LWT_QUERY, t->agents[index].reads[i].address, 0);
    q.aux = t->agents[index].start_time;
    q.id = make_id(index, kind, i);
    push(t, &q);
}

/* A new attempt: choose the read set and issue the loads. A read-only
 * transaction with temporal conflict detection first reads the clock, then
 * queries each word's block before loading it. */
static void start_attempt(tm_traffic *t, unsigned index)
{
    agent *a = &t->agents[index];
    a->n_reads = 1 + (unsigned)(next_random(t) % (uint64_t)t->params.max_reads);
    for (unsigned i = 0; i < a->n_reads; i++) {
        uint32_t address;
        do address = (uint32_t)pool_address(t, next_random(t) % (uint64_t)t->params.pool_words);
        while (contains(a->reads, i, address));
        a->reads[i].address = address;
    }
    a->read_only = next_random(t) % 100 < (uint64_t)t->params.read_only_percent;
    a->loads_pending = a->n_reads;
    if (a->read_only && t->params.temporal_conflict_detection && !t->params.warp_lanes) {
        simtx_msg clock;
        simtx_msg_init(&clock, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
        clock.aux = 0; /* read the clock, allocate nothing */
        clock.id = make_id(index, KIND_CLOCK, 0);
        push(t, &clock);
        a->state = AGENT_WAIT_CLOCK;
        return;
    }
    for (unsigned i = 0; i < a->n_reads; i++) issue_load(t, index, i);
    a->state = AGENT_LOADING;
}

/* Loads are back: the write set, then the compute time. */
static void plan_writes(tm_traffic *t, agent *a, uint64_t now)
{
    a->n_writes = 0;
    bool read_only = a->read_only;
    for (unsigned i = 0; i < a->n_reads && !read_only && a->n_writes < (unsigned)t->params.max_writes; i++)
        if (next_random(t) % 2) a->writes[a->n_writes++] = (tm_entry){a->reads[i].address, a->reads[i].value + 1};
    if (!read_only && a->n_writes < (unsigned)t->params.max_writes && next_random(t) % 3 == 0) {
        uint32_t address = (uint32_t)pool_address(t, next_random(t) % (uint64_t)t->params.pool_words);
        if (!contains(a->writes, a->n_writes, address) && !contains(a->reads, a->n_reads, address))
            a->writes[a->n_writes++] = (tm_entry){address, (uint32_t)next_random(t)};
    }
    a->ready_cycle = now + next_random(t) % ((uint64_t)t->params.think_cycles + 1);
    a->state = AGENT_THINKING;
}

/* The walker's messages of one agent (KILO TM) or one warp (Warp TM),
 * tagged with the agent (or the warp's first agent) and queued. */
typedef struct walk_context {
    tm_traffic *t;
    unsigned agent; /* make_id's index */
    int warp;       /* msg.warp */
    bool coalesced;
} walk_context;

static void walk_emit(void *context, simtx_msg *msg, const tm_walk_event *event)
{
    walk_context *w = context;
    unsigned kind = KIND_ACK;
    if (event->kind == TM_WALK_DONE) kind = w->coalesced ? KIND_WARP_OUTCOME : KIND_OUTCOME;
    else if (event->kind == TM_WALK_DECISION) kind = w->coalesced ? KIND_WARP_DECISION : KIND_DECISION;
    msg->id = make_id(w->agent, kind, event->partition);
    msg->warp = w->warp;
    push(w->t, msg);
    if (event->kind == TM_WALK_LOG) w->t->stats.log_messages++;
}

static tm_walker walker_of(tm_traffic *t, walk_context *context)
{
    return (tm_walker){(unsigned)t->params.partitions, (uint64_t)t->params.interleave, walk_emit, context};
}

static tm_walk_tx walk_tx_of(const agent *a)
{
    return (tm_walk_tx){a->reads, a->writes, a->n_reads, a->n_writes, a->cid};
}

static void send_logs(tm_traffic *t, unsigned index)
{
    agent *a = &t->agents[index];
    walk_context context = {t, index, (int)index, false};
    tm_walker walker = walker_of(t, &context);
    tm_walk_tx tx = walk_tx_of(a);
    tm_walk_logs_per_tx(&walker, &tx, 1, &a->involved);
    a->outcomes_pending = (unsigned)__builtin_popcountll(a->involved);
    a->all_pass = true;
    a->state = AGENT_WAIT_OUTCOMES;
}

static void record_commit(tm_traffic *t, const agent *a)
{
    if (!t->params.check) return;
    if (t->history_count == t->history_capacity) {
        size_t capacity = t->history_capacity ? t->history_capacity * 2 : 256;
        commit_record *grown = realloc(t->history, capacity * sizeof *grown);
        if (!grown) {
            t->env.fail(t->env.context, "tm_traffic: out of memory recording the history");
            return;
        }
        t->history = grown;
        t->history_capacity = capacity;
    }
    commit_record *r = &t->history[t->history_count++];
    r->cid = a->cid;
    r->at_core = false;
    r->n_reads = a->n_reads;
    r->n_writes = a->n_writes;
    for (unsigned i = 0; i < a->n_reads; i++) r->reads[i] = (tm_oracle_access){a->reads[i].address, a->reads[i].value, 4};
    for (unsigned i = 0; i < a->n_writes; i++) r->writes[i] = (tm_oracle_access){a->writes[i].address, a->writes[i].value, 4};
}

static int by_cid(const void *a, const void *b)
{
    const commit_record *x = a, *y = b;
    if (x->cid != y->cid) return x->cid < y->cid ? -1 : 1;
    return (int)y->at_core - (int)x->at_core; /* a TCD commit at time T comes just before ID T */
}

static bool read_image(void *context, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(context, address, data, size);
    return true;
}

static void run_oracle(tm_traffic *t)
{
    qsort(t->history, t->history_count, sizeof *t->history, by_cid);
    tm_oracle *oracle = tm_oracle_create(read_image, t->initial);
    if (!oracle) {
        t->env.fail(t->env.context, "tm_traffic: out of memory for the oracle");
        return;
    }
    for (size_t i = 0; i < t->history_count; i++)
        tm_oracle_commit(oracle, t->history[i].cid, t->history[i].reads, t->history[i].n_reads, t->history[i].writes,
                         t->history[i].n_writes);
    t->stats.oracle_checked = tm_oracle_commit_count(oracle);
    const char *error = tm_oracle_check_final(oracle, read_image, t->final);
    if (error) {
        snprintf(t->error, sizeof t->error, "serializability oracle: %s", error); /* the shim names the instance */
        t->env.fail(t->env.context, t->error);
    }
    tm_oracle_destroy(oracle);
}

static void warp_response(tm_traffic *t, unsigned kind, unsigned first, const simtx_msg *msg, uint64_t now);

static void response(tm_traffic *t, const simtx_msg *msg, uint64_t now)
{
    unsigned index = (unsigned)(msg->id >> 40), kind = (unsigned)((msg->id >> 32) & 0xFF);
    uint32_t low = (uint32_t)msg->id;
    if (msg->status != SIMTX_STATUS_OK) {
        snprintf(t->error, sizeof t->error, "tm_traffic: %s at 0x%" PRIx64 " answered with status %u",
                 simtx_op_name((simtx_op)msg->op), msg->address, (unsigned)msg->status);
        t->env.fail(t->env.context, t->error);
        return;
    }
    if (kind == KIND_INIT || kind == KIND_READBACK) {
        if (kind == KIND_READBACK) sparse_memory_write(t->final, msg->address, msg->data, 4);
        t->outstanding--;
        return;
    }
    if (index >= (unsigned)t->params.agents) return;
    if (kind == KIND_WARP_CID || kind == KIND_WARP_OUTCOME || kind == KIND_WARP_DECISION) {
        warp_response(t, kind, index, msg, now);
        return;
    }
    agent *a = &t->agents[index];
    switch (kind) {
    case KIND_LOAD:
        memcpy(&a->reads[low].value, msg->data, 4);
        if (--a->loads_pending == 0) plan_writes(t, a, now);
        break;
    case KIND_CID:
        a->cid = (uint32_t)msg->aux;
        send_logs(t, index);
        break;
    case KIND_CLOCK:
        a->start_time = (uint32_t)msg->aux;
        for (unsigned i = 0; i < a->n_reads; i++) lwt_query(t, index, i, KIND_PREQUERY);
        a->state = AGENT_LOADING;
        break;
    case KIND_PREQUERY: /* every ID below the start time has retired there: load */
        issue_load(t, index, low);
        break;
    case KIND_POSTQUERY:
        if (msg->aux >= a->start_time) a->queries_passed = false;
        if (--a->queries_pending) break;
        if (a->queries_passed) {
            t->stats.tcd_commits++;
            t->stats.commits++;
            a->cid = a->start_time;
            record_commit(t, a);
            t->history[t->history_count - 1].at_core = true;
            if (++a->committed == (unsigned)t->params.transactions) {
                a->state = AGENT_FINISHED;
                t->finished_agents++;
            } else {
                start_attempt(t, index);
            }
        } else {
            /* Something newer was written: validate at the commit units instead. */
            t->stats.tcd_failures++;
            simtx_msg req;
            simtx_msg_init(&req, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
            req.aux = 1;
            req.id = make_id(index, KIND_CID, 0);
            push(t, &req);
            t->stats.cid_requests++;
            a->state = AGENT_WAIT_CID;
        }
        break;
    case KIND_OUTCOME:
        a->all_pass &= msg->aux == TM_OUTCOME_PASS;
        if (--a->outcomes_pending) break;
        {
            walk_context context = {t, index, (int)index, false};
            tm_walker walker = walker_of(t, &context);
            tm_walk_decision(&walker, 0, a->cid, a->all_pass, a->involved);
        }
        a->acks_pending = (unsigned)__builtin_popcountll(a->involved);
        a->state = AGENT_WAIT_ACKS;
        break;
    case KIND_DECISION:
        if (--a->acks_pending) break;
        simtx_histogram_add(&t->stats.attempt_latency, now - a->ready_cycle);
        if (a->all_pass) {
            t->stats.commits++;
            record_commit(t, a);
            if (++a->committed == (unsigned)t->params.transactions) {
                a->state = AGENT_FINISHED;
                t->finished_agents++;
                break;
            }
        } else {
            t->stats.aborts++;
        }
        start_attempt(t, index);
        break;
    default: break; /* log and skip acknowledgements */
    }
}

/* ---- Warp TM ---- */

static unsigned warp_count(const tm_traffic *t) { return (unsigned)(t->params.agents / t->params.warp_lanes); }

/* The next attempt of every active lane. */
static void warp_start(tm_traffic *t, unsigned w)
{
    warp_state *ws = &t->warps[w];
    for (unsigned k = 0; k < (unsigned)t->params.warp_lanes; k++)
        if ((ws->active >> k) & 1) start_attempt(t, w * (unsigned)t->params.warp_lanes + k);
    ws->state = WARP_EXECUTING;
}

/* Warp TM's coalesced log transfer (tm_lazy_walker.h): per partition the
 * lanes' entries share messages, then one coalesced TM_LOG_DONE (records of
 * 0 and 0 for lanes without entries there), or one TM_SKIP when no lane
 * has entries there. */
static void warp_send_logs(tm_traffic *t, unsigned w)
{
    warp_state *ws = &t->warps[w];
    unsigned lanes = (unsigned)t->params.warp_lanes, first = w * lanes;
    tm_walk_tx txs[TM_MAX_ENTRIES_PER_MSG];
    uint32_t count = 0;
    for (unsigned k = 0; k < lanes; k++)
        if ((ws->active >> k) & 1) txs[count++] = walk_tx_of(&t->agents[first + k]);
    walk_context context = {t, first, (int)w, true};
    tm_walker walker = walker_of(t, &context);
    ws->involved = tm_walk_logs_coalesced(&walker, txs, count, NULL);
    ws->outcomes_pending = (unsigned)__builtin_popcountll(ws->involved);
    ws->pass_mask = UINT64_MAX;
}

static void warp_response(tm_traffic *t, unsigned kind, unsigned first, const simtx_msg *msg, uint64_t now)
{
    unsigned lanes = (unsigned)t->params.warp_lanes, w = first / lanes;
    warp_state *ws = &t->warps[w];
    unsigned count = (unsigned)__builtin_popcountll(ws->active);
    if (kind == KIND_WARP_CID) {
        ws->first_cid = (uint32_t)msg->aux;
        unsigned rank = 0;
        for (unsigned k = 0; k < lanes; k++)
            if ((ws->active >> k) & 1) t->agents[first + k].cid = ws->first_cid + rank++;
        warp_send_logs(t, w);
        return;
    }
    if (kind == KIND_WARP_OUTCOME) {
        ws->pass_mask &= msg->aux;
        if (--ws->outcomes_pending) return;
        ws->pass_mask &= count == 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
        walk_context context = {t, first, (int)w, true};
        tm_walker walker = walker_of(t, &context);
        tm_walk_decisions_coalesced(&walker, ws->first_cid, count, ws->pass_mask, ws->involved);
        ws->acks_pending = (unsigned)__builtin_popcountll(ws->involved);
        if (ws->acks_pending) return;
    } else if (--ws->acks_pending) {
        return;
    }
    /* Every acknowledgement is in: lanes that passed committed. */
    simtx_histogram_add(&t->stats.attempt_latency, now - ws->start_cycle);
    unsigned rank = 0;
    for (unsigned k = 0; k < lanes; k++) {
        if (!((ws->active >> k) & 1)) continue;
        agent *a = &t->agents[first + k];
        if ((ws->pass_mask >> rank++) & 1) {
            t->stats.commits++;
            record_commit(t, a);
            if (++a->committed == (unsigned)t->params.transactions) {
                a->state = AGENT_FINISHED;
                t->finished_agents++;
                ws->active &= ~(UINT64_C(1) << k);
            }
        } else {
            t->stats.aborts++;
        }
    }
    if (!ws->active) ws->state = WARP_FINISHED;
    else warp_start(t, w);
}

/* A warp commits once all its active lanes have loaded and thought. */
static uint64_t warp_cycle(tm_traffic *t, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    unsigned lanes = (unsigned)t->params.warp_lanes;
    for (unsigned w = 0; w < warp_count(t); w++) {
        warp_state *ws = &t->warps[w];
        if (ws->state != WARP_EXECUTING) continue;
        uint64_t ready = 0;
        bool all_thinking = true;
        for (unsigned k = 0; k < lanes; k++) {
            if (!((ws->active >> k) & 1)) continue;
            const agent *a = &t->agents[w * lanes + k];
            if (a->state != AGENT_THINKING) all_thinking = false;
            else if (a->ready_cycle > ready) ready = a->ready_cycle;
        }
        if (!all_thinking) continue;
        if (now < ready) {
            if (ready < next) next = ready;
            continue;
        }
        for (unsigned k = 0; k < lanes; k++)
            if ((ws->active >> k) & 1) t->agents[w * lanes + k].state = AGENT_WAIT_CID;
        simtx_msg req;
        simtx_msg_init(&req, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
        req.aux = (uint64_t)__builtin_popcountll(ws->active);
        req.lane_mask = ws->active;
        req.warp = (int)w;
        req.id = make_id(w * lanes, KIND_WARP_CID, 0);
        push(t, &req);
        t->stats.cid_requests++;
        ws->state = WARP_COMMITTING;
        ws->start_cycle = now;
    }
    return next;
}

static simtx_accept_result tm_traffic_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    (void)port;
    response(core, msg, now);
    return SIMTX_ACCEPTED;
}

static uint64_t tm_traffic_cycle(void *core, uint64_t now)
{
    tm_traffic *t = core;
    uint64_t next = SIMTX_NEVER;
    switch (t->phase) {
    case PHASE_INIT:
        if (t->readback_next == 0) {
            /* Seed the pool with plain writes (the initial image). */
            for (uint64_t i = 0; i < (uint64_t)t->params.pool_words; i++) {
                uint32_t value = (uint32_t)(next_random(t) % 1000);
                simtx_msg w;
                simtx_msg_init(&w, SIMTX_OP_WRITE, pool_address(t, i), 4);
                memcpy(w.data, &value, 4);
                w.id = make_id(0, KIND_INIT, (uint32_t)i);
                push(t, &w);
                sparse_memory_write(t->initial, w.address, &value, 4);
            }
            t->outstanding = (uint64_t)t->params.pool_words;
            t->readback_next = 1;
        }
        if (!t->outstanding) {
            t->phase = PHASE_RUN;
            if (t->params.warp_lanes) {
                for (unsigned w = 0; w < warp_count(t); w++) {
                    t->warps[w].active = (UINT64_C(1) << t->params.warp_lanes) - 1;
                    warp_start(t, w);
                }
            } else {
                for (unsigned i = 0; i < (unsigned)t->params.agents; i++) start_attempt(t, i);
            }
        }
        break;
    case PHASE_RUN:
        if (t->params.warp_lanes) next = warp_cycle(t, now);
        for (unsigned i = 0; i < (unsigned)t->params.agents && !t->params.warp_lanes; i++) {
            agent *a = &t->agents[i];
            if (a->state == AGENT_THINKING) {
                if (now >= a->ready_cycle && a->read_only && t->params.temporal_conflict_detection) {
                    for (unsigned r = 0; r < a->n_reads; r++) lwt_query(t, i, r, KIND_POSTQUERY);
                    a->queries_pending = a->n_reads;
                    a->queries_passed = true;
                    a->state = AGENT_WAIT_LWT;
                    a->ready_cycle = now;
                } else if (now >= a->ready_cycle) {
                    simtx_msg req;
                    simtx_msg_init(&req, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
                    req.aux = 1;
                    req.id = make_id(i, KIND_CID, 0);
                    push(t, &req);
                    t->stats.cid_requests++;
                    a->state = AGENT_WAIT_CID;
                    a->ready_cycle = now; /* attempt start */
                } else if (a->ready_cycle < next) {
                    next = a->ready_cycle;
                }
            }
        }
        if (t->finished_agents == (unsigned)t->params.agents) {
            t->phase = PHASE_READBACK;
            for (uint64_t i = 0; i < (uint64_t)t->params.pool_words; i++) {
                simtx_msg r;
                simtx_msg_init(&r, SIMTX_OP_READ, pool_address(t, i), 4);
                r.id = make_id(0, KIND_READBACK, (uint32_t)i);
                push(t, &r);
            }
            t->outstanding = (uint64_t)t->params.pool_words;
        }
        break;
    case PHASE_READBACK:
        if (!t->outstanding) {
            if (t->params.check) run_oracle(t);
            t->phase = PHASE_DONE;
        }
        break;
    default: break;
    }
    while (!t->port_blocked && t->out_length) {
        if (!t->env.send(t->env.context, 0, &t->out[t->out_head])) {
            t->port_blocked = true;
            break;
        }
        t->out_head = (t->out_head + 1) % t->out_capacity;
        t->out_length--;
    }
    unsigned in_flight = 0;
    for (unsigned i = 0; i < (unsigned)t->params.agents; i++)
        in_flight += t->agents[i].state >= AGENT_WAIT_CID && t->agents[i].state <= AGENT_WAIT_ACKS;
    t->probes.in_flight = in_flight;
    t->probes.committed = t->stats.commits;
    if (t->phase == PHASE_DONE) return SIMTX_NEVER;
    if (!t->port_blocked && t->out_length) return now + 1;
    if (t->phase == PHASE_INIT && !t->outstanding) return now + 1;
    if (t->phase == PHASE_RUN && t->finished_agents == (unsigned)t->params.agents) return now + 1;
    if (t->phase == PHASE_READBACK && !t->outstanding) return now + 1;
    return next == SIMTX_NEVER ? SIMTX_NEVER : (next > now ? next : now + 1);
}

static void tm_traffic_port_free(void *core, unsigned port)
{
    (void)port;
    ((tm_traffic *)core)->port_blocked = false;
}

static bool tm_traffic_finished(void *core) { return ((tm_traffic *)core)->phase == PHASE_DONE; }

static double tm_traffic_progress(void *core)
{
    const tm_traffic *t = core;
    return (double)t->stats.commits / (double)(t->params.agents * t->params.transactions);
}

const simtx_block_info tm_traffic_block_info = {
    .name = "tm_traffic",
    .summary = "transactional-memory traffic: agents load, think and commit through the commit units (KILO TM protocol), checked by the serializability oracle",
    .params = &tm_traffic_param_table,
    .sockets = tm_traffic_sockets,
    .socket_count = 1,
    .create = tm_traffic_create,
    .destroy = tm_traffic_destroy,
    .accept = tm_traffic_accept,
    .cycle = tm_traffic_cycle,
    .port_free = tm_traffic_port_free,
    .progress = tm_traffic_progress,
    .finished = tm_traffic_finished,
};
