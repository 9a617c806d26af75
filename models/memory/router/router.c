#include "router.h"

#include <stdio.h>
#include <stdlib.h>

#include "msg_queue.h"

#define PARAM(field) offsetof(router_params, field)
#define NO_ROUTE (-1)

static const simtx_param_spec router_param_specs[] = {
    {"inputs", SIMTX_PARAM_INT, "1", "sockets", 1, 256, NULL, "number of input (target) sockets", PARAM(inputs)},
    {"outputs", SIMTX_PARAM_INT, "1", "sockets", 1, 256, NULL, "number of output (initiator) sockets", PARAM(outputs)},
    {"latency", SIMTX_PARAM_INT, "1", "cycles", 1, 1e6, NULL, "cycles from arrival to earliest departure", PARAM(latency)},
    {"queue_depth", SIMTX_PARAM_INT, "4", "messages", 1, 1 << 16, NULL, "arrival queue entries per port", PARAM(queue_depth)},
    {"bytes_per_cycle", SIMTX_PARAM_INT, "32", "bytes", 1, 1 << 16, NULL, "bytes a link moves per cycle (one flit)", PARAM(bytes_per_cycle)},
    {"interleave", SIMTX_PARAM_INT, "0", "bytes", 0, 1LL << 40, NULL, "0: route by address ranges; otherwise consecutive blocks of this many bytes go to consecutive outputs", PARAM(interleave)},
};

static const simtx_param_table router_param_table = {
    router_param_specs, sizeof router_param_specs / sizeof router_param_specs[0], sizeof(router_params)};

static const simtx_socket_spec router_sockets[] = {
    {"inputs", SIMTX_SOCKET_TARGET, "inputs", "requests in, responses out", false},
    {"outputs", SIMTX_SOCKET_INITIATOR, "outputs", "requests out, responses in", false},
};

typedef struct router {
    router_params params;
    simtx_env env;
    unsigned port_count;
    msg_queue *arrivals;          /* per port */
    uint64_t *link_free_cycle;    /* per port: its outgoing link is free from then */
    bool *blocked;                /* per port: the socket refused; wait for port_free */
    unsigned *next_source;        /* per port: round-robin pointer */
    /* Per port and queue slot: the port its message leaves by, decided once
     * on arrival rather than by every output on every cycle. */
    int *destinations;
    unsigned *heads_for;          /* per port: queue heads leaving by it (outputs without any are skipped) */
    struct {
        uint64_t requests, responses, address_errors, flits, arbitration_losses;
    } stats;
    uint64_t *queue_depth_probes; /* per port */
} router;

static unsigned input_count(const router *r) { return (unsigned)r->params.inputs; }

static int route_request(const router *r, uint64_t address)
{
    if (r->params.interleave)
        return (int)(input_count(r) + (address / (uint64_t)r->params.interleave) % (uint64_t)r->params.outputs);
    for (size_t i = 0; i < r->env.address_map_length; i++) {
        const simtx_address_range *range = &r->env.address_map[i];
        if (address >= range->base && address - range->base < range->size) return (int)range->port;
    }
    return NO_ROUTE;
}

/* Where a message arriving at a port goes next; only the router's own ports. */
static int destination(const router *r, const simtx_msg *msg)
{
    if (!msg->is_response) return route_request(r, msg->address);
    int port = msg->route_depth ? msg->route[msg->route_depth - 1] : NO_ROUTE;
    return port >= 0 && (unsigned)port < r->port_count ? port : NO_ROUTE;
}

/* The destination of the head of port s's arrival queue. */
static int head_destination(const router *r, unsigned s)
{
    const msg_queue *queue = &r->arrivals[s];
    return r->destinations[(size_t)s * queue->capacity + msg_queue_head_slot(queue)];
}

/* Counts a new head of port s's queue for the output it leaves by. */
static void count_head(router *r, unsigned s)
{
    int d = head_destination(r, s);
    if (d != NO_ROUTE) r->heads_for[d]++;
}

static void *router_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const router_params *p = params;
    router *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->params = *p;
    r->env = *env;
    r->port_count = (unsigned)(p->inputs + p->outputs);
    r->arrivals = calloc(r->port_count, sizeof *r->arrivals);
    r->link_free_cycle = calloc(r->port_count, sizeof *r->link_free_cycle);
    r->blocked = calloc(r->port_count, sizeof *r->blocked);
    r->next_source = calloc(r->port_count, sizeof *r->next_source);
    r->queue_depth_probes = calloc(r->port_count, sizeof *r->queue_depth_probes);
    r->destinations = calloc((size_t)r->port_count * (size_t)p->queue_depth, sizeof *r->destinations);
    r->heads_for = calloc(r->port_count, sizeof *r->heads_for);
    if (!r->arrivals || !r->link_free_cycle || !r->blocked || !r->next_source || !r->queue_depth_probes ||
        !r->destinations || !r->heads_for) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    for (unsigned i = 0; i < r->port_count; i++) msg_queue_init(&r->arrivals[i], (size_t)p->queue_depth);
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "requests", &r->stats.requests, "messages", "requests forwarded");
    simtx_observe_counter(o, "responses", &r->stats.responses, "messages", "responses forwarded");
    simtx_observe_counter(o, "flits", &r->stats.flits, "flits", "link cycles used, all ports");
    simtx_observe_energy(o, "flit", &r->stats.flits, "a link cycle used (a flit through the router)");
    simtx_observe_counter(o, "address_errors", &r->stats.address_errors, "requests", "requests no output owns, answered with an address error");
    simtx_observe_counter(o, "arbitration_losses", &r->stats.arbitration_losses, "messages", "ready heads that lost their output to another port");
    for (unsigned i = 0; i < r->port_count; i++) {
        char name[48];
        snprintf(name, sizeof name, "%s%u_queue", i < input_count(r) ? "input" : "output",
                 i < input_count(r) ? i : i - input_count(r));
        simtx_observe_level_probe(o, name, &r->queue_depth_probes[i], 8, (uint64_t)p->queue_depth, "messages waiting in this port's arrival queue");
    }
    return r;
}

static void router_destroy(void *core)
{
    router *r = core;
    for (unsigned i = 0; i < r->port_count; i++) msg_queue_release(&r->arrivals[i]);
    free(r->arrivals);
    free(r->link_free_cycle);
    free(r->blocked);
    free(r->next_source);
    free(r->queue_depth_probes);
    free(r->destinations);
    free(r->heads_for);
    free(r);
}

static simtx_accept_result router_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    router *r = core;
    msg_queue *queue = &r->arrivals[port];
    if (msg_queue_full(queue)) return SIMTX_BUSY;
    if (!msg->is_response && msg->route_depth == SIMTX_MSG_MAX_ROUTE) {
        r->env.fail(r->env.context, "a request crossed more routing blocks than a message can record");
        return SIMTX_ACCEPTED;
    }
    size_t slot = msg_queue_slot(queue, queue->length);
    msg_queue_push(queue, msg, now + (uint64_t)r->params.latency);
    simtx_msg *queued = msg_queue_back(queue);
    int d = destination(r, queued);
    if (!queued->is_response) {
        queued->route[queued->route_depth++] = (uint8_t)port;
        if (d == NO_ROUTE) { /* answer it ourselves */
            r->stats.address_errors++;
            simtx_msg_make_response(queued, SIMTX_STATUS_ADDRESS_ERROR);
            d = (int)port;
        }
    }
    r->destinations[(size_t)port * queue->capacity + slot] = d;
    if (queue->length == 1) count_head(r, port);
    r->queue_depth_probes[port] = queue->length;
    return SIMTX_ACCEPTED;
}

static uint64_t router_cycle(void *core, uint64_t now)
{
    router *r = core;
    unsigned n = r->port_count;
    /* Each output, in port order, takes the first ready head for it in
     * round-robin order; the other ready heads for it lose arbitration. A
     * port whose head left may offer its next head to a later output. */
    for (unsigned d = 0; d < n; d++) {
        if (!r->heads_for[d] || r->blocked[d] || r->link_free_cycle[d] > now) continue;
        for (unsigned k = 0, s = r->next_source[d]; k < n; k++, s = s + 1 < n ? s + 1 : 0) {
            msg_queue *queue = &r->arrivals[s];
            if (msg_queue_empty(queue) || msg_queue_front_ready(queue) > now || head_destination(r, s) != (int)d) continue;
            if (r->link_free_cycle[d] > now) { /* taken this cycle by an earlier source */
                r->stats.arbitration_losses++;
                continue;
            }
            simtx_msg *out = msg_queue_front(queue);
            if (out->is_response) out->route_depth--; /* this hop's entry, popped as the response leaves */
            if (!r->env.send(r->env.context, d, out)) {
                if (out->is_response) out->route_depth++;
                r->blocked[d] = true;
                break;
            }
            uint64_t bytes = (out->op == SIMTX_OP_WRITE) != out->is_response ? out->size : 0;
            uint64_t flits = bytes ? (bytes + (uint64_t)r->params.bytes_per_cycle - 1) / (uint64_t)r->params.bytes_per_cycle : 1;
            r->link_free_cycle[d] = now + flits;
            r->stats.flits += flits;
            if (out->is_response) r->stats.responses++;
            else r->stats.requests++;
            r->heads_for[d]--;
            msg_queue_pop(queue);
            if (!msg_queue_empty(queue)) count_head(r, s);
            r->queue_depth_probes[s] = queue->length;
            r->next_source[d] = s + 1 < n ? s + 1 : 0;
        }
    }
    /* Sleep until the earliest head can move. */
    uint64_t next = SIMTX_NEVER;
    for (unsigned s = 0; s < n; s++) {
        msg_queue *queue = &r->arrivals[s];
        if (msg_queue_empty(queue)) continue;
        int d = head_destination(r, s);
        if (d == NO_ROUTE) {
            r->env.fail(r->env.context, "a response arrived with no route back");
            return SIMTX_NEVER;
        }
        if (r->blocked[d]) continue;
        uint64_t when = msg_queue_front_ready(queue);
        if (r->link_free_cycle[d] > when) when = r->link_free_cycle[d];
        if (when <= now) when = now + 1;
        if (when < next) next = when;
    }
    return next;
}

static void router_port_free(void *core, unsigned port)
{
    ((router *)core)->blocked[port] = false;
}

static size_t router_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                  int *forward_port)
{
    (void)is_write, (void)data, (void)size;
    *forward_port = route_request(core, address);
    return 0;
}

const simtx_block_info router_block_info = {
    .name = "router",
    .summary = "input-queued crossbar routing by address ranges or interleaving, responses retrace their route",
    .params = &router_param_table,
    .sockets = router_sockets,
    .socket_count = 2,
    .create = router_create,
    .destroy = router_destroy,
    .accept = router_accept,
    .cycle = router_cycle,
    .port_free = router_port_free,
    .debug_access = router_debug_access,
};
