/* Randomized multi-partition test of the commit units, all in C: agents
 * playing SIMT-core transactions (read words, compute, write) commit
 * through 2-6 commit units over the protocol of tm_lazy.h (commit-ID
 * request, logs or skips to every partition, outcomes, decision,
 * acknowledgements), retrying on abort. The serializability oracle replays
 * the committed transactions in commit-ID order against the final memory.
 * With the test-only broken validation the oracle must report a violation. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tm_harness.h"
#include "tm_oracle.h"

#define MAX_READS 6
#define MAX_WRITES 4
#define MAX_CIDS 65536

enum { KIND_CID = 1, KIND_ACK, KIND_OUTCOME, KIND_DECISION };
enum { AGENT_EXECUTING, AGENT_WAIT_CID, AGENT_WAIT_OUTCOMES, AGENT_WAIT_ACKS, AGENT_FINISHED };

typedef struct agent {
    int state;
    uint64_t ready_cycle;
    tm_entry reads[MAX_READS], writes[MAX_WRITES];
    unsigned n_reads, n_writes;
    uint32_t cid;
    unsigned involved, outcomes_pending, acks_pending;
    bool all_pass;
    unsigned committed, target;
    uint64_t seq;
} agent;

typedef struct record {
    uint8_t state; /* 0 unknown, 1 committed, 2 aborted */
    tm_oracle_access reads[MAX_READS], writes[MAX_WRITES];
    unsigned n_reads, n_writes;
} record;

typedef struct scenario {
    const char *name;
    unsigned partitions, agents, transactions_per_agent, pool_words;
    const char *const *settings;
    uint64_t seed;
} scenario;

typedef struct run_result {
    bool finished;
    const char *unit_failure;
    char oracle_error[256];
    uint64_t commits, aborts, lwh_overflows, refusals;
} run_result;

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *state = x;
}

static uint64_t make_id(unsigned agent_index, unsigned kind, uint64_t seq)
{
    return ((uint64_t)agent_index << 40) | ((uint64_t)kind << 32) | (seq & 0xFFFFFFFF);
}

/* Word i of the pool, spread over the partitions (256-byte interleave). */
static uint32_t pool_address(unsigned i, unsigned partitions)
{
    return (uint32_t)((i % partitions) * 256 + ((i / partitions) % 64) * 4 + (i / partitions / 64) * 256 * partitions);
}

static bool contains(const tm_entry *e, unsigned n, uint32_t address)
{
    for (unsigned i = 0; i < n; i++)
        if (e[i].address == address) return true;
    return false;
}

/* A transaction body: read 1..MAX_READS words now, write some of them + 1
 * and perhaps another word; commit after a random compute time. */
static void execute(tm_system *sys, agent *a, const scenario *s, uint64_t *rng)
{
    a->n_reads = 1 + (unsigned)(next_random(rng) % MAX_READS);
    a->n_writes = 0;
    for (unsigned i = 0; i < a->n_reads; i++) {
        uint32_t address;
        do address = pool_address((unsigned)(next_random(rng) % s->pool_words), s->partitions);
        while (contains(a->reads, i, address));
        a->reads[i] = (tm_entry){address, tm_system_read_word(sys, address)};
    }
    bool read_only = next_random(rng) % 5 == 0;
    for (unsigned i = 0; i < a->n_reads && !read_only && a->n_writes < MAX_WRITES; i++)
        if (next_random(rng) % 2) a->writes[a->n_writes++] = (tm_entry){a->reads[i].address, a->reads[i].value + 1};
    if (!read_only && a->n_writes < MAX_WRITES && next_random(rng) % 3 == 0) {
        uint32_t address = pool_address((unsigned)(next_random(rng) % s->pool_words), s->partitions);
        if (!contains(a->writes, a->n_writes, address) && !contains(a->reads, a->n_reads, address))
            a->writes[a->n_writes++] = (tm_entry){address, (uint32_t)next_random(rng)};
    }
    a->ready_cycle = sys->now + next_random(rng) % 40;
    a->state = AGENT_EXECUTING;
}

static void send_logs(tm_system *sys, agent *a, unsigned index, uint64_t *rng)
{
    a->involved = 0;
    for (unsigned p = 0; p < sys->partitions; p++) {
        unsigned reads = 0, writes = 0;
        simtx_msg msgs[2];
        tm_log_init(&msgs[0], SIMTX_OP_TM_READ_LOG, a->cid, (int)index, 0);
        tm_log_init(&msgs[1], SIMTX_OP_TM_WRITE_LOG, a->cid, (int)index, 0);
        for (unsigned i = 0; i < a->n_reads; i++)
            if (tm_partition_of(a->reads[i].address, sys->interleave, sys->partitions) == p)
                reads += (unsigned)tm_log_append(&msgs[0], a->cid, a->reads[i].address, a->reads[i].value);
        for (unsigned i = 0; i < a->n_writes; i++)
            if (tm_partition_of(a->writes[i].address, sys->interleave, sys->partitions) == p)
                writes += (unsigned)tm_log_append(&msgs[1], a->cid, a->writes[i].address, a->writes[i].value);
        uint64_t here = tm_partition_address(p, sys->interleave);
        if (!reads && !writes) {
            simtx_msg skip = tm_make(SIMTX_OP_TM_SKIP, here, a->cid, 1, make_id(index, KIND_ACK, a->seq++));
            tm_system_send(sys, &skip);
            continue;
        }
        a->involved |= 1u << p;
        simtx_msg done = tm_make(SIMTX_OP_TM_LOG_DONE, here, a->cid, reads | (uint64_t)writes << 32,
                                 make_id(index, KIND_OUTCOME, a->seq++));
        bool done_first = next_random(rng) % 4 == 0; /* the network may reorder: counts cover it */
        if (done_first) tm_system_send(sys, &done);
        for (unsigned k = 0; k < 2; k++)
            if (msgs[k].size) {
                msgs[k].id = make_id(index, KIND_ACK, a->seq++);
                tm_system_send(sys, &msgs[k]);
            }
        if (!done_first) tm_system_send(sys, &done);
    }
    a->outcomes_pending = (unsigned)__builtin_popcount(a->involved);
    a->all_pass = true;
    a->state = AGENT_WAIT_OUTCOMES;
}

static bool read_memory(void *context, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(context, address, data, size);
    return true;
}

/* A system of s->partitions commit units with the word pool filled from
 * the scenario's seed; returns a copy of the initial memory for the oracle. */
static sparse_memory *start_system(tm_system *sys, const scenario *s, uint64_t *rng)
{
    tm_system_init(sys, s->partitions, 20, s->settings);
    sparse_memory *initial = sparse_memory_create();
    *rng = s->seed * 0x9E3779B97F4A7C15ull | 1;
    for (unsigned i = 0; i < s->pool_words; i++) {
        uint32_t v = (uint32_t)(next_random(rng) % 1000);
        tm_system_write_word(sys, pool_address(i, s->partitions), v);
        sparse_memory_write(initial, pool_address(i, s->partitions), &v, 4);
    }
    return initial;
}

/* Records a finished attempt of a transaction (its reads and writes). */
static void record_attempt(record *r, const agent *a, bool committed)
{
    r->state = committed ? 1 : 2;
    r->n_reads = a->n_reads;
    r->n_writes = a->n_writes;
    for (unsigned k = 0; k < a->n_reads; k++) r->reads[k] = (tm_oracle_access){a->reads[k].address, a->reads[k].value, 4};
    for (unsigned k = 0; k < a->n_writes; k++) r->writes[k] = (tm_oracle_access){a->writes[k].address, a->writes[k].value, 4};
}

/* Replays the committed transactions in commit-ID order and checks the final
 * memory; an error goes to result->oracle_error. The caller destroys the
 * oracle. */
static tm_oracle *replay_history(const record *history, sparse_memory *initial, tm_system *sys, run_result *result)
{
    tm_oracle *oracle = tm_oracle_create(read_memory, initial);
    for (uint32_t cid = 1; cid < MAX_CIDS; cid++)
        if (history[cid].state == 1)
            tm_oracle_commit(oracle, cid, history[cid].reads, history[cid].n_reads, history[cid].writes, history[cid].n_writes);
    const char *error = tm_oracle_check_final(oracle, read_memory, sys->memory);
    if (error) snprintf(result->oracle_error, sizeof result->oracle_error, "%s", error);
    return oracle;
}

static void run(const scenario *s, run_result *result)
{
    memset(result, 0, sizeof *result);
    tm_system sys;
    uint64_t rng;
    sparse_memory *initial = start_system(&sys, s, &rng);
    agent *agents = calloc(s->agents, sizeof *agents);
    record *history = calloc(MAX_CIDS, sizeof *history);
    for (unsigned i = 0; i < s->agents; i++) {
        agents[i].target = s->transactions_per_agent;
        execute(&sys, &agents[i], s, &rng);
    }
    size_t handled = 0;
    unsigned finished = 0;
    while (finished < s->agents && sys.now < 2000000 && !tm_system_failure(&sys)) {
        for (unsigned i = 0; i < s->agents; i++) {
            agent *a = &agents[i];
            if (a->state == AGENT_EXECUTING && sys.now >= a->ready_cycle) {
                simtx_msg req = tm_make(SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0, 1, make_id(i, KIND_CID, a->seq++));
                tm_system_send(&sys, &req);
                a->state = AGENT_WAIT_CID;
            }
        }
        tm_system_step(&sys);
        for (; handled < sys.responses.count; handled++) {
            const simtx_msg *m = &sys.responses.items[handled].msg;
            unsigned index = (unsigned)(m->id >> 40), kind = (unsigned)((m->id >> 32) & 0xFF);
            agent *a = &agents[index];
            if (kind == KIND_CID) {
                a->cid = (uint32_t)m->aux;
                if (a->cid >= MAX_CIDS) abort();
                send_logs(&sys, a, index, &rng);
            } else if (kind == KIND_OUTCOME) {
                a->all_pass &= m->aux == TM_OUTCOME_PASS;
                if (--a->outcomes_pending == 0) {
                    for (unsigned p = 0; p < sys.partitions; p++)
                        if (a->involved >> p & 1) {
                            simtx_msg d = tm_make(SIMTX_OP_TM_DECISION, tm_partition_address(p, sys.interleave), a->cid,
                                                  a->all_pass ? TM_DECISION_COMMIT : TM_DECISION_ABORT,
                                                  make_id(index, KIND_DECISION, a->seq++));
                            tm_system_send(&sys, &d);
                        }
                    a->acks_pending = (unsigned)__builtin_popcount(a->involved);
                    a->state = AGENT_WAIT_ACKS;
                }
            } else if (kind == KIND_DECISION) {
                if (--a->acks_pending) continue;
                record_attempt(&history[a->cid], a, a->all_pass);
                if (a->all_pass) result->commits++;
                else result->aborts++;
                if (a->all_pass && ++a->committed == a->target) {
                    a->state = AGENT_FINISHED;
                    finished++;
                } else {
                    execute(&sys, a, s, &rng); /* a retry re-executes with fresh reads */
                }
            }
        }
    }
    tm_system_run(&sys, 1000);
    result->finished = finished == s->agents;
    result->unit_failure = tm_system_failure(&sys);
    if (result->unit_failure) fprintf(stderr, "%s: %s\n", s->name, result->unit_failure);
    for (unsigned p = 0; p < s->partitions; p++) {
        const simtx_stat_entry *e;
        char name[64];
        snprintf(name, sizeof name, "cu%u.lwh_overflows", p);
        if ((e = simtx_observer_find_stat(sys.observer, name))) result->lwh_overflows += *(const uint64_t *)e->value;
        result->refusals += sys.nodes[p].refusals;
        /* Every ID handed out retired everywhere. */
        if (result->finished) CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[p].unit), commit_unit_retire_cid(sys.nodes[0].unit));
    }

    tm_oracle *oracle = replay_history(history, initial, &sys, result);
    const char *error = result->oracle_error[0] ? result->oracle_error : NULL;
    CHECK_EQUAL(tm_oracle_commit_count(oracle), result->commits);
    printf("%-28s %2u partitions: %5" PRIu64 " commits %5" PRIu64 " aborts, %" PRIu64 " cycles, lwh overflows %" PRIu64
           ", refusals %" PRIu64 "%s%s\n",
           s->name, s->partitions, result->commits, result->aborts, sys.now, result->lwh_overflows, result->refusals,
           error ? "; oracle: " : "", error ? error : "");
    tm_oracle_destroy(oracle);
    sparse_memory_destroy(initial);
    free(agents);
    free(history);
    tm_system_release(&sys);
}

static void correct_units_are_serializable(void)
{
    static const char *const small_lwh[] = {"lwh_entries=8", "lwh_ways=2", NULL};
    static const char *const ideal[] = {"validation=ideal", NULL};
    static const char *const tight[] = {"input_queue_depth=2", "output_queue_depth=2", "window=64", NULL};
    static const char *const wide[] = {"words_per_cycle=4", "hazard_words_per_cycle=4", NULL};
    const scenario scenarios[] = {
        {"kilotm 2 partitions", 2, 16, 30, 24, NULL, 1},
        {"kilotm 3 partitions", 3, 24, 25, 48, NULL, 2},
        {"kilotm 6 partitions hot", 6, 32, 20, 12, NULL, 3},
        {"small last-writer history", 4, 24, 25, 64, small_lwh, 4},
        {"ideal", 6, 24, 25, 24, ideal, 5},
        {"tight queues and window", 5, 32, 20, 40, tight, 6},
        {"4 words per cycle", 3, 16, 25, 16, wide, 7},
    };
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        run_result r;
        run(&scenarios[i], &r);
        CHECK(r.finished);
        CHECK(r.unit_failure == NULL);
        CHECK_STRING(r.oracle_error, "");
        CHECK_EQUAL(r.commits, scenarios[i].agents * scenarios[i].transactions_per_agent);
        CHECK(r.aborts > 0); /* contention was real, so validation was exercised */
        if (scenarios[i].settings == small_lwh) CHECK(r.lwh_overflows > 0);
        if (scenarios[i].settings == tight) CHECK(r.refusals > 0);
    }
}

/* The same traffic with validation ignoring changed values: lost updates
 * commit and the oracle says which transaction read what. */
static void broken_validation_is_caught(void)
{
    static const char *const broken[] = {"skip_validation_check=true", NULL};
    static const char *const broken_ideal[] = {"skip_validation_check=true", "validation=ideal", NULL};
    const scenario scenarios[] = {
        {"broken validation", 3, 24, 20, 12, broken, 8},
        {"broken ideal validation", 6, 24, 20, 12, broken_ideal, 9},
    };
    for (size_t i = 0; i < 2; i++) {
        run_result r;
        run(&scenarios[i], &r);
        CHECK(r.finished);
        CHECK(r.oracle_error[0] != '\0');
        CHECK_CONTAINS(r.oracle_error, "transaction");
        CHECK_CONTAINS(r.oracle_error, "serial replay");
    }
}

/* ---- Warp TM: warps of lanes committing together with coalesced messages ---- */

#define MAX_LANES 16

typedef struct warp {
    agent lanes[MAX_LANES]; /* each lane's transaction body and ID */
    unsigned lane_count, active[MAX_LANES], active_count;
    int state;
    uint64_t ready_cycle, seq;
    uint32_t first_cid;
    unsigned outcomes_pending, acks_pending;
    uint64_t pass_mask, involved;
    unsigned rounds_left;
} warp;

static void warp_execute(tm_system *sys, warp *w, const scenario *s, uint64_t *rng)
{
    uint64_t ready = 0;
    for (unsigned k = 0; k < w->active_count; k++) {
        execute(sys, &w->lanes[w->active[k]], s, rng);
        if (w->lanes[w->active[k]].ready_cycle > ready) ready = w->lanes[w->active[k]].ready_cycle;
    }
    w->ready_cycle = ready; /* lanes run in lock step: the slowest decides */
    w->state = AGENT_EXECUTING;
}

static void warp_start_round(tm_system *sys, warp *w, const scenario *s, uint64_t *rng)
{
    w->active_count = w->lane_count;
    for (unsigned k = 0; k < w->lane_count; k++) w->active[k] = k;
    warp_execute(sys, w, s, rng);
}

/* Coalesced logs, one coalesced TM_LOG_DONE per partition (skip records for
 * lanes without entries there). */
static void warp_send_logs(tm_system *sys, warp *w, unsigned index)
{
    w->involved = 0;
    for (unsigned p = 0; p < sys->partitions; p++) {
        uint64_t here = tm_partition_address(p, sys->interleave);
        simtx_msg done;
        tm_done_init(&done, here, w->first_cid);
        done.id = make_id(index, KIND_OUTCOME, w->seq++);
        for (unsigned op = 0; op < 2; op++) {
            simtx_msg log;
            tm_log_init(&log, op ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG, w->first_cid, (int)index, 0);
            for (unsigned k = 0; k < w->active_count; k++) {
                agent *lane = &w->lanes[w->active[k]];
                const tm_entry *entries = op ? lane->writes : lane->reads;
                unsigned n = op ? lane->n_writes : lane->n_reads;
                for (unsigned i = 0; i < n; i++) {
                    if (tm_partition_of(entries[i].address, sys->interleave, sys->partitions) != p) continue;
                    if (!tm_log_append(&log, lane->cid, entries[i].address, entries[i].value)) {
                        log.id = make_id(index, KIND_ACK, w->seq++);
                        tm_system_send(sys, &log);
                        tm_log_init(&log, (simtx_op)log.op, w->first_cid, (int)index, 0);
                        tm_log_append(&log, lane->cid, entries[i].address, entries[i].value);
                    }
                }
            }
            if (log.size) {
                log.id = make_id(index, KIND_ACK, w->seq++);
                tm_system_send(sys, &log);
            }
        }
        for (unsigned k = 0; k < w->active_count; k++) {
            agent *lane = &w->lanes[w->active[k]];
            unsigned reads = 0, writes = 0;
            for (unsigned i = 0; i < lane->n_reads; i++)
                reads += tm_partition_of(lane->reads[i].address, sys->interleave, sys->partitions) == p;
            for (unsigned i = 0; i < lane->n_writes; i++)
                writes += tm_partition_of(lane->writes[i].address, sys->interleave, sys->partitions) == p;
            tm_done_append(&done, reads, writes);
            if (reads || writes) w->involved |= 1u << p;
        }
        tm_system_send(sys, &done);
    }
    w->outcomes_pending = sys->partitions;
    w->pass_mask = UINT64_MAX;
    w->state = AGENT_WAIT_OUTCOMES;
}

static void run_warps(const scenario *s, unsigned lanes, run_result *result)
{
    memset(result, 0, sizeof *result);
    tm_system sys;
    uint64_t rng;
    sparse_memory *initial = start_system(&sys, s, &rng);
    warp *warps = calloc(s->agents, sizeof *warps);
    record *history = calloc(MAX_CIDS, sizeof *history);
    for (unsigned i = 0; i < s->agents; i++) {
        warps[i].lane_count = lanes;
        warps[i].rounds_left = s->transactions_per_agent;
        warp_start_round(&sys, &warps[i], s, &rng);
    }
    size_t handled = 0;
    unsigned finished = 0;
    while (finished < s->agents && sys.now < 2000000 && !tm_system_failure(&sys)) {
        for (unsigned i = 0; i < s->agents; i++) {
            warp *w = &warps[i];
            if (w->state == AGENT_EXECUTING && sys.now >= w->ready_cycle) {
                simtx_msg req = tm_make(SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0, w->active_count,
                                        make_id(i, KIND_CID, w->seq++));
                tm_system_send(&sys, &req);
                w->state = AGENT_WAIT_CID;
            }
        }
        tm_system_step(&sys);
        for (; handled < sys.responses.count; handled++) {
            const simtx_msg *m = &sys.responses.items[handled].msg;
            unsigned index = (unsigned)(m->id >> 40), kind = (unsigned)((m->id >> 32) & 0xFF);
            warp *w = &warps[index];
            if (kind == KIND_CID) {
                w->first_cid = (uint32_t)m->aux;
                if (w->first_cid + w->active_count >= MAX_CIDS) abort();
                for (unsigned k = 0; k < w->active_count; k++) w->lanes[w->active[k]].cid = w->first_cid + k;
                warp_send_logs(&sys, w, index);
            } else if (kind == KIND_OUTCOME) {
                w->pass_mask &= m->aux;
                if (--w->outcomes_pending) continue;
                uint64_t commit = w->pass_mask & ((UINT64_C(1) << w->active_count) - 1);
                w->acks_pending = 0;
                for (unsigned p = 0; p < sys.partitions; p++)
                    if (w->involved >> p & 1) {
                        simtx_msg d;
                        tm_decision_init(&d, tm_partition_address(p, sys.interleave), w->first_cid, w->active_count, commit);
                        d.id = make_id(index, KIND_DECISION, w->seq++);
                        tm_system_send(&sys, &d);
                        w->acks_pending++;
                    }
                w->pass_mask = commit;
                w->state = AGENT_WAIT_ACKS;
                if (!w->acks_pending) abort(); /* every lane reads something */
            } else if (kind == KIND_DECISION) {
                if (--w->acks_pending) continue;
                unsigned still = 0;
                for (unsigned k = 0; k < w->active_count; k++) {
                    agent *lane = &w->lanes[w->active[k]];
                    bool committed = (w->pass_mask >> k) & 1;
                    record_attempt(&history[lane->cid], lane, committed);
                    if (committed) result->commits++;
                    else {
                        result->aborts++;
                        w->active[still++] = w->active[k]; /* the retry mask */
                    }
                }
                w->active_count = still;
                if (still) warp_execute(&sys, w, s, &rng);
                else if (--w->rounds_left) warp_start_round(&sys, w, s, &rng);
                else {
                    w->state = AGENT_FINISHED;
                    finished++;
                }
            }
        }
    }
    tm_system_run(&sys, 1000);
    result->finished = finished == s->agents;
    result->unit_failure = tm_system_failure(&sys);
    if (result->unit_failure) fprintf(stderr, "%s: %s\n", s->name, result->unit_failure);
    tm_oracle *oracle = replay_history(history, initial, &sys, result);
    const char *error = result->oracle_error[0] ? result->oracle_error : NULL;
    printf("%-28s %2u partitions: %5" PRIu64 " commits %5" PRIu64 " aborts, %" PRIu64 " cycles%s%s\n", s->name,
           s->partitions, result->commits, result->aborts, sys.now, error ? "; oracle: " : "", error ? error : "");
    tm_oracle_destroy(oracle);
    sparse_memory_destroy(initial);
    free(warps);
    free(history);
    tm_system_release(&sys);
}

static void warps_are_serializable(void)
{
    static const char *const ideal[] = {"validation=ideal", NULL};
    static const char *const broken[] = {"skip_validation_check=true", NULL};
    const scenario scenarios[] = {
        {"warptm 8 warps x 8 lanes", 6, 8, 6, 48, NULL, 11},
        {"warptm 4 warps x 16 lanes", 3, 4, 5, 32, NULL, 12},
        {"warptm ideal", 4, 8, 6, 32, ideal, 13},
        {"warptm broken validation", 4, 8, 6, 16, broken, 14},
    };
    const unsigned lanes[] = {8, 16, 8, 8};
    for (size_t i = 0; i < 4; i++) {
        run_result r;
        run_warps(&scenarios[i], lanes[i], &r);
        CHECK(r.finished);
        CHECK(r.unit_failure == NULL);
        CHECK_EQUAL(r.commits, scenarios[i].agents * scenarios[i].transactions_per_agent * lanes[i]);
        CHECK(r.aborts > 0);
        if (scenarios[i].settings == broken) CHECK_CONTAINS(r.oracle_error, "serial replay");
        else CHECK_STRING(r.oracle_error, "");
    }
}

int main(void)
{
    correct_units_are_serializable();
    broken_validation_is_caught();
    warps_are_serializable();
    return simtx_test_summary();
}
