#include "row_copy_initiator.h"

#include <stdlib.h>

#define PARAM(field) offsetof(row_copy_initiator_params, field)

static const simtx_param_spec row_copy_initiator_param_specs[] = {
    {"copies", SIMTX_PARAM_INT, "1", "operations", 0, 1e12, NULL, "ROW_COPY operations to issue", PARAM(copies)},
    {"start_cycle", SIMTX_PARAM_INT, "0", "cycles", 0, 9.2e18, NULL, "cycle of the first issue", PARAM(start_cycle)},
    {"period", SIMTX_PARAM_INT, "1000", "cycles", 1, 9.2e18, NULL, "cycles between issues; an issue also waits for the previous response", PARAM(period)},
    {"source_address", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "source row of the first copy", PARAM(source_address)},
    {"target_address", SIMTX_PARAM_INT, "0x8000", "bytes", 0, 9.2e18, NULL, "destination row of the first copy", PARAM(target_address)},
    {"stride", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "added to both addresses for each further copy", PARAM(stride)},
    {"copy_bytes", SIMTX_PARAM_INT, "2048", "bytes", 0, 1 << 30, NULL, "size field of each operation (one DRAM row)", PARAM(copy_bytes)},
};

static const simtx_param_table row_copy_initiator_param_table = {
    row_copy_initiator_param_specs, sizeof row_copy_initiator_param_specs / sizeof row_copy_initiator_param_specs[0],
    sizeof(row_copy_initiator_params)};

static const simtx_socket_spec row_copy_initiator_sockets[] = {
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "ROW_COPY operations out, responses in", false},
};

typedef struct row_copy_initiator {
    row_copy_initiator_params params;
    simtx_env env;
    uint64_t issued, completed, next_issue, issue_cycle;
    bool in_flight, port_blocked;
    struct {
        uint64_t copies, error_responses;
        simtx_histogram latency;
    } stats;
    struct {
        uint64_t copying;
    } probes;
} row_copy_initiator;

static void *row_copy_initiator_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    (void)error;
    (void)error_size;
    row_copy_initiator *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->params = *(const row_copy_initiator_params *)params;
    r->env = *env;
    r->next_issue = (uint64_t)r->params.start_cycle;
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "copies", &r->stats.copies, "operations", "ROW_COPY operations completed");
    simtx_observe_counter(o, "error_responses", &r->stats.error_responses, "operations", "responses with an error status");
    simtx_observe_histogram(o, "latency", &r->stats.latency, "cycles", "issue to response");
    simtx_observe_probe(o, "copying", &r->probes.copying, 1, "a ROW_COPY is in flight");
    return r;
}

static void row_copy_initiator_destroy(void *core) { free(core); }

static uint64_t row_copy_initiator_cycle(void *core, uint64_t now)
{
    row_copy_initiator *r = core;
    if (r->in_flight || r->port_blocked || r->issued >= (uint64_t)r->params.copies) return SIMTX_NEVER;
    if (now < r->next_issue) return r->next_issue;
    uint64_t offset = r->issued * (uint64_t)r->params.stride;
    simtx_msg msg;
    simtx_msg_init(&msg, SIMTX_OP_ROW_COPY, (uint64_t)r->params.source_address + offset, (uint32_t)r->params.copy_bytes);
    msg.aux = (uint64_t)r->params.target_address + offset;
    msg.id = r->issued;
    if (!r->env.send(r->env.context, 0, &msg)) {
        r->port_blocked = true;
        return SIMTX_NEVER;
    }
    r->issued++;
    r->in_flight = true;
    r->issue_cycle = now;
    r->next_issue = now + (uint64_t)r->params.period;
    r->probes.copying = 1;
    return SIMTX_NEVER;
}

static simtx_accept_result row_copy_initiator_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    row_copy_initiator *r = core;
    (void)port;
    if (!r->in_flight || msg->id + 1 != r->issued) {
        r->env.fail(r->env.context, "a response arrived for no ROW_COPY in flight");
        return SIMTX_ACCEPTED;
    }
    if (msg->status != SIMTX_STATUS_OK) r->stats.error_responses++;
    r->in_flight = false;
    r->completed++;
    r->stats.copies++;
    r->probes.copying = 0;
    simtx_histogram_add(&r->stats.latency, now - r->issue_cycle);
    return SIMTX_ACCEPTED;
}

static void row_copy_initiator_port_free(void *core, unsigned port)
{
    (void)port;
    ((row_copy_initiator *)core)->port_blocked = false;
}

static bool row_copy_initiator_finished(void *core)
{
    const row_copy_initiator *r = core;
    return r->completed >= (uint64_t)r->params.copies;
}

static double row_copy_initiator_progress(void *core)
{
    const row_copy_initiator *r = core;
    return r->params.copies ? (double)r->completed / (double)r->params.copies : 1.0;
}

const simtx_block_info row_copy_initiator_block_info = {
    .name = "row_copy_initiator",
    .summary = "test initiator issuing periodic ROW_COPY (in-DRAM copy) operations, one at a time",
    .params = &row_copy_initiator_param_table,
    .sockets = row_copy_initiator_sockets,
    .socket_count = 1,
    .create = row_copy_initiator_create,
    .destroy = row_copy_initiator_destroy,
    .accept = row_copy_initiator_accept,
    .cycle = row_copy_initiator_cycle,
    .port_free = row_copy_initiator_port_free,
    .progress = row_copy_initiator_progress,
    .finished = row_copy_initiator_finished,
};
