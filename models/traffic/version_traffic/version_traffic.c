/* version_traffic.c: see version_traffic.h. One round: ACQUIRE (newest) at
 * every partition; `reads` snapshot reads of random words of the region
 * (and, for the closer, `writes` writes of the round's stamp); then the
 * closer CLOSEs at every partition; RELEASE at every partition. A word
 * holds the stamp (epoch << 24 | creation time) of the version it was
 * written for, so a snapshot read must return a stamp no newer than its
 * snapshot's. */
#include "version_traffic.h"

#include "partition_interleave.h"
#include "version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(version_traffic_params, field)

static const simtx_param_spec version_traffic_param_specs[] = {
    {"rounds", SIMTX_PARAM_INT, "10", "rounds", 0, 1e9, NULL, "acquire, access, (close,) release rounds", PARAM(rounds)},
    {"reads", SIMTX_PARAM_INT, "32", "reads", 0, 1e9, NULL, "snapshot reads per round", PARAM(reads)},
    {"writes", SIMTX_PARAM_INT, "32", "writes", 0, 1e9, NULL, "writes per round (the closer only)", PARAM(writes)},
    {"max_outstanding", SIMTX_PARAM_INT, "8", "requests", 1, 64, NULL, "accesses in flight", PARAM(max_outstanding)},
    {"start_cycle", SIMTX_PARAM_INT, "0", "cycles", 0, 9.2e18, NULL, "cycle of the first round", PARAM(start_cycle)},
    {"region_base", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "the versioned region (registered at the VIT slices)", PARAM(region_base)},
    {"region_size", SIMTX_PARAM_INT, "4096", "bytes", 4, 9.2e18, NULL, "its bytes", PARAM(region_size)},
    {"control_address", SIMTX_PARAM_INT, "0x7FF00000", "bytes", 0, 9.2e18, NULL, "an address outside every region for the all-regions ops; partition p gets the chunk of p in its interleave round", PARAM(control_address)},
    {"partition_count", SIMTX_PARAM_INT, "1", "partitions", 1, 1024, NULL, "memory partitions (each gets the ops)", PARAM(partition_count)},
    {"partition_interleave", SIMTX_PARAM_INT, "256", "bytes", 1, 1LL << 40, NULL, "bytes per partition chunk", PARAM(partition_interleave)},
    {"closer", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "this agent writes and closes the versions (one agent of a platform)", PARAM(closer)},
};

static const simtx_param_table version_traffic_param_table = {
    version_traffic_param_specs, sizeof version_traffic_param_specs / sizeof version_traffic_param_specs[0], sizeof(version_traffic_params)};

static const simtx_socket_spec version_traffic_sockets[] = {
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "version.h ops, snapshot reads and writes out, responses in", false},
};

typedef enum phase { PHASE_IDLE, PHASE_ACQUIRE, PHASE_ACCESS, PHASE_CLOSE, PHASE_RELEASE, PHASE_DONE } phase;

#define MAX_PARTITIONS 64

typedef struct version_traffic {
    version_traffic_params params;
    simtx_env env;
    phase phase;
    uint64_t round, sent, answered, to_send, rng;
    unsigned partitions;
    uint64_t handle[MAX_PARTITIONS];
    uint64_t point;        /* the closer's commit points: its CLOSEs carry 1, 2, 3, ... (version.h) */
    uint64_t epoch, clock; /* the epoch and creation time the last CLOSE was answered with */
    bool port_blocked;
    uint64_t issue[64];
    struct {
        uint64_t rounds, reads, writes, acquires, closes, overflows, violations, stale_reads;
        simtx_histogram read_latency;
    } stats;
} version_traffic;

static uint64_t next_random(version_traffic *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 7;
    t->rng ^= t->rng << 17;
    return t->rng;
}

static void *version_traffic_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const version_traffic_params *p = params;
    if (p->partition_count > MAX_PARTITIONS) {
        snprintf(error, error_size, "parameter 'partition_count' (%" PRId64 ") exceeds %d", p->partition_count, MAX_PARTITIONS);
        return NULL;
    }
    version_traffic *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->params = *p;
    t->env = *env;
    t->partitions = (unsigned)p->partition_count;
    t->rng = env->seed * 0x9E3779B97F4A7C15ull + 1;
    for (const char *c = env->instance_name ? env->instance_name : ""; *c; c++) t->rng = t->rng * 31 + (uint8_t)*c;
    if (!t->rng) t->rng = 1;
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "rounds", &t->stats.rounds, "rounds", "rounds completed");
    simtx_observe_counter(o, "snapshot_reads", &t->stats.reads, "requests", "snapshot reads answered");
    simtx_observe_counter(o, "writes", &t->stats.writes, "requests", "writes answered");
    simtx_observe_counter(o, "acquires", &t->stats.acquires, "snapshots", "snapshots acquired (at every partition)");
    simtx_observe_counter(o, "closes", &t->stats.closes, "versions", "versions closed (at every partition)");
    simtx_observe_counter(o, "overflows", &t->stats.overflows, "events", "CLOSEs answered with a new epoch (creation-time overflow)");
    simtx_observe_counter(o, "stale_reads", &t->stats.stale_reads, "reads", "snapshot reads answered from the newest version: their snapshot was invalidated by an overflow");
    simtx_observe_counter(o, "violations", &t->stats.violations, "reads", "snapshot reads that returned a newer version's value (fail the run)");
    simtx_observe_histogram(o, "read_latency", &t->stats.read_latency, "cycles", "snapshot read issue to answer");
    return t;
}

static void version_traffic_destroy(void *core) { free(core); }

static uint64_t control_address(const version_traffic *t, unsigned partition)
{
    uint64_t interleave = (uint64_t)t->params.partition_interleave, round = interleave * t->partitions;
    return (uint64_t)t->params.control_address / round * round + partition * interleave;
}

static unsigned partition_of(const version_traffic *t, uint64_t address)
{
    return t->partitions > 1 ? (unsigned)partition_of_address(address, (uint64_t)t->params.partition_interleave, t->partitions) : 0;
}

static uint32_t stamp(uint64_t epoch, uint64_t ts) { return (uint32_t)(epoch << 24 | (ts & 0xFFFFFF)); }

static void enter(version_traffic *t, phase next)
{
    t->phase = next;
    t->sent = t->answered = 0;
    bool writer = t->params.closer;
    switch (next) {
    case PHASE_ACQUIRE:
    case PHASE_RELEASE: t->to_send = t->partitions; break;
    case PHASE_ACCESS: t->to_send = (uint64_t)t->params.reads + (writer ? (uint64_t)t->params.writes : 0); break;
    case PHASE_CLOSE: t->to_send = writer ? t->partitions : 0; break;
    default: t->to_send = 0; break;
    }
}

static void advance(version_traffic *t)
{
    while (t->phase != PHASE_DONE && t->phase != PHASE_IDLE && t->answered == t->to_send) {
        switch (t->phase) {
        case PHASE_ACQUIRE: enter(t, PHASE_ACCESS); break;
        case PHASE_ACCESS: enter(t, PHASE_CLOSE); break;
        case PHASE_CLOSE: enter(t, PHASE_RELEASE); break;
        default:
            t->stats.rounds++;
            t->round++;
            enter(t, t->round < (uint64_t)t->params.rounds ? PHASE_ACQUIRE : PHASE_DONE);
            break;
        }
    }
}

static void make_message(version_traffic *t, simtx_msg *m)
{
    uint64_t i = t->sent;
    switch (t->phase) {
    case PHASE_ACQUIRE: simtx_msg_init(m, SIMTX_OP_VERSION_ACQUIRE, control_address(t, (unsigned)i), 0); m->aux = VERSION_NEWEST; break;
    case PHASE_RELEASE: simtx_msg_init(m, SIMTX_OP_VERSION_RELEASE, control_address(t, (unsigned)i), 0); m->aux = t->handle[i]; break;
    case PHASE_CLOSE: simtx_msg_init(m, SIMTX_OP_VERSION_CLOSE, control_address(t, (unsigned)i), 0); m->aux = t->point + 1; break;
    default: {
        uint64_t words = (uint64_t)t->params.region_size / 4;
        uint64_t address = (uint64_t)t->params.region_base + next_random(t) % words * 4;
        bool read = i < (uint64_t)t->params.reads;
        simtx_msg_init(m, read ? SIMTX_OP_READ : SIMTX_OP_WRITE, address, 4);
        if (read) {
            m->flags = SIMTX_FLAG_SNAPSHOT;
            m->aux = t->handle[partition_of(t, address)]; /* its epoch above, version.h */
            m->transaction_id = (uint32_t)version_handle_timestamp(m->aux);
        } else {
            uint32_t value = stamp(t->epoch, t->clock + 1); /* the version this round closes */
            memcpy(m->data, &value, 4);
        }
        break;
    }
    }
    m->id = i;
}

static uint64_t version_traffic_cycle(void *core, uint64_t now)
{
    version_traffic *t = core;
    if (t->phase == PHASE_IDLE) {
        if (now < (uint64_t)t->params.start_cycle) return (uint64_t)t->params.start_cycle;
        enter(t, t->params.rounds ? PHASE_ACQUIRE : PHASE_DONE);
    }
    advance(t);
    uint64_t limit = t->phase == PHASE_ACCESS ? (uint64_t)t->params.max_outstanding : t->to_send;
    if (t->port_blocked || t->sent == t->to_send || t->sent - t->answered >= limit) return SIMTX_NEVER;
    simtx_msg m;
    make_message(t, &m);
    if (!t->env.send(t->env.context, 0, &m)) {
        t->port_blocked = true;
        return SIMTX_NEVER;
    }
    t->issue[t->sent % 64] = now;
    t->sent++;
    return now + 1;
}

static simtx_accept_result version_traffic_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    version_traffic *t = core;
    (void)port;
    if (msg->status != SIMTX_STATUS_OK) {
        char error[160];
        snprintf(error, sizeof error, "version_traffic: %s at 0x%" PRIx64 " answered with status %u", simtx_op_name((simtx_op)msg->op),
                 msg->address, msg->status);
        t->env.fail(t->env.context, error);
    }
    switch (msg->op) {
    case SIMTX_OP_VERSION_ACQUIRE:
        t->handle[msg->id] = msg->aux;
        t->stats.acquires += msg->id == 0;
        break;
    case SIMTX_OP_VERSION_CLOSE:
        if (msg->id == t->partitions - 1) {
            uint64_t epoch = version_handle_epoch(msg->aux);
            if (epoch != t->epoch) t->stats.overflows++;
            t->epoch = epoch;
            t->clock = version_handle_timestamp(msg->aux);
            t->point++;
            t->stats.closes++;
        }
        break;
    case SIMTX_OP_READ: {
        uint32_t value;
        memcpy(&value, msg->data, 4);
        /* The epoch read above the read stamp: our handle's timestamp + 1, or 0
         * when an overflow ended its epoch (the newest version was read: only
         * its epoch is known). */
        uint64_t handle = t->handle[partition_of(t, msg->address)];
        if (!version_handle_timestamp(msg->aux)) {
            t->stats.stale_reads++;
            handle = version_handle(version_handle_epoch(msg->aux), 0xFFFFFF);
        } else if (version_handle(version_handle_epoch(msg->aux), version_handle_timestamp(msg->aux) - 1) != handle) {
            char error[200];
            snprintf(error, sizeof error, "version_traffic: snapshot read of 0x%" PRIx64 " at handle 0x%" PRIx64 " answered for handle 0x%" PRIx64 " + 1",
                     msg->address, handle, msg->aux);
            t->env.fail(t->env.context, error);
        }
        if (value > stamp(version_handle_epoch(handle), version_handle_timestamp(handle))) {
            char error[200];
            snprintf(error, sizeof error, "version_traffic: snapshot read of 0x%" PRIx64 " at handle 0x%" PRIx64 " returned 0x%" PRIx32 ", written for a later version",
                     msg->address, handle, value);
            t->stats.violations++;
            t->env.fail(t->env.context, error);
        }
        t->stats.reads++;
        simtx_histogram_add(&t->stats.read_latency, now - t->issue[msg->id % 64]);
        break;
    }
    case SIMTX_OP_WRITE: t->stats.writes++; break;
    default: break;
    }
    t->answered++;
    return SIMTX_ACCEPTED;
}

static void version_traffic_port_free(void *core, unsigned port)
{
    (void)port;
    ((version_traffic *)core)->port_blocked = false;
}

static bool version_traffic_finished(void *core) { return ((version_traffic *)core)->phase == PHASE_DONE; }

static double version_traffic_progress(void *core)
{
    const version_traffic *t = core;
    return t->params.rounds ? (double)t->round / (double)t->params.rounds : 1.0;
}

const simtx_block_info version_traffic_block_info = {
    .name = "version_traffic",
    .summary = "test initiator of versioned memory: acquire, snapshot reads, writes, close and release rounds, checking snapshots",
    .params = &version_traffic_param_table,
    .sockets = version_traffic_sockets,
    .socket_count = 1,
    .create = version_traffic_create,
    .destroy = version_traffic_destroy,
    .accept = version_traffic_accept,
    .cycle = version_traffic_cycle,
    .port_free = version_traffic_port_free,
    .progress = version_traffic_progress,
    .finished = version_traffic_finished,
};
