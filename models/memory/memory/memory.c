#include "memory.h"

#include <stdio.h>
#include <stdlib.h>

#include "atomic_op.h"
#include "msg_queue.h"
#include "sparse_memory.h"

#define PARAM(field) offsetof(memory_params, field)

static const simtx_param_spec memory_param_specs[] = {
    {"latency", SIMTX_PARAM_INT, "100", "cycles", 1, 1e9, NULL, "cycles from the start of an access to its response", PARAM(latency)},
    {"bytes_per_cycle", SIMTX_PARAM_INT, "32", "bytes", 0, 1 << 20, NULL, "data-bus bytes per cycle (0: unlimited)", PARAM(bytes_per_cycle)},
    {"queue_depth", SIMTX_PARAM_INT, "16", "requests", 1, 1 << 20, NULL, "requests held at once; a full queue refuses new ones", PARAM(queue_depth)},
    {"base", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "first address served", PARAM(base)},
    {"size", SIMTX_PARAM_INT, "4GiB", "bytes", 1, 9.2e18, NULL, "bytes served from base; other addresses get an address error", PARAM(size)},
};

static const simtx_param_table memory_param_table = {
    memory_param_specs, sizeof memory_param_specs / sizeof memory_param_specs[0], sizeof(memory_params)};

static const simtx_socket_spec memory_sockets[] = {
    {"port", SIMTX_SOCKET_TARGET, NULL, "requests in, responses out", false},
};

struct memory {
    memory_params params;
    simtx_env env;
    sparse_memory *data;
    msg_queue requests;  /* waiting for the data bus */
    msg_queue responses; /* accessed, waiting for their latency and the port */
    uint64_t bus_free_cycle;
    bool port_blocked;
    struct {
        uint64_t reads, writes, atomics, bytes_read, bytes_written, address_errors, command_errors;
        simtx_average queue_occupancy;
    } stats;
    struct {
        uint64_t queue_depth;
    } probes;
};

static void memory_destroy(void *core);

static void *memory_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const memory_params *p = params;
    memory *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->params = *p;
    m->env = *env;
    m->data = sparse_memory_create();
    if (!msg_queue_init(&m->requests, (size_t)p->queue_depth) ||
        !msg_queue_init(&m->responses, (size_t)p->queue_depth)) {
        snprintf(error, error_size, "out of memory for queue_depth %lld", (long long)p->queue_depth);
        memory_destroy(m);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "reads", &m->stats.reads, "requests", "read requests served");
    simtx_observe_counter(o, "writes", &m->stats.writes, "requests", "write requests served");
    simtx_observe_counter(o, "atomics", &m->stats.atomics, "requests", "atomic read-modify-writes served (32-bit)");
    simtx_observe_counter(o, "bytes_read", &m->stats.bytes_read, "bytes", "bytes read");
    simtx_observe_counter(o, "bytes_written", &m->stats.bytes_written, "bytes", "bytes written");
    simtx_observe_energy(o, "read_byte", &m->stats.bytes_read, "a byte read (the fixed-latency memory stands for a DRAM channel)");
    simtx_observe_energy(o, "write_byte", &m->stats.bytes_written, "a byte written");
    simtx_observe_counter(o, "address_errors", &m->stats.address_errors, "requests", "requests outside [base, base+size)");
    simtx_observe_counter(o, "command_errors", &m->stats.command_errors, "requests", "requests with an unsupported op");
    simtx_observe_average(o, "queue_occupancy", &m->stats.queue_occupancy, "requests", "requests held, sampled at each arrival");
    simtx_observe_level_probe(o, "queue_depth", &m->probes.queue_depth, 16, 0, "requests held");
    return m;
}

static void memory_destroy(void *core)
{
    memory *m = core;
    sparse_memory_destroy(m->data);
    msg_queue_release(&m->requests);
    msg_queue_release(&m->responses);
    free(m);
}

static bool in_range(const memory *m, uint64_t address, size_t size)
{
    uint64_t base = (uint64_t)m->params.base;
    return address >= base && address - base <= (uint64_t)m->params.size &&
           size <= (uint64_t)m->params.size - (address - base);
}

bool memory_peek(memory *m, uint64_t address, void *data, size_t size)
{
    if (!in_range(m, address, size)) return false;
    sparse_memory_read(m->data, address, data, size);
    return true;
}

static size_t held(const memory *m)
{
    return m->requests.length + m->responses.length;
}

static simtx_accept_result memory_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    memory *m = core;
    (void)port;
    if (held(m) >= (size_t)m->params.queue_depth) return SIMTX_BUSY;
    simtx_average_add(&m->stats.queue_occupancy, (double)held(m));
    msg_queue_push(&m->requests, msg, now);
    m->probes.queue_depth = held(m);
    return SIMTX_ACCEPTED;
}

/* Does the access functionally when it takes the bus; FIFO order makes the
 * data a later request sees the data earlier ones left. */
static void serve(memory *m, simtx_msg *msg)
{
    if (!in_range(m, msg->address, msg->size) || msg->size > SIMTX_MSG_MAX_DATA) {
        m->stats.address_errors++;
        simtx_msg_make_response(msg, SIMTX_STATUS_ADDRESS_ERROR);
        return;
    }
    switch (msg->op) {
    case SIMTX_OP_READ:
        sparse_memory_read(m->data, msg->address, msg->data, msg->size);
        m->stats.reads++;
        m->stats.bytes_read += msg->size;
        break;
    case SIMTX_OP_WRITE:
        sparse_memory_write_masked(m->data, msg->address, msg->data, msg->size, msg->byte_enable);
        m->stats.writes++;
        m->stats.bytes_written += msg->size;
        break;
    case SIMTX_OP_ATOMIC: {
        if (!atomic_op_supported(msg)) {
            m->stats.command_errors++;
            simtx_msg_make_response(msg, SIMTX_STATUS_COMMAND_ERROR);
            return;
        }
        uint8_t word[ATOMIC_OP_BYTES];
        sparse_memory_read(m->data, msg->address, word, sizeof word);
        atomic_op_perform(msg, word);
        sparse_memory_write(m->data, msg->address, word, sizeof word);
        m->stats.atomics++;
        break;
    }
    case SIMTX_OP_CLEAN_LINE:
    case SIMTX_OP_FLUSH_LINE:
    case SIMTX_OP_FENCE: break; /* nothing is cached here, and every earlier request is served */
    default:
        m->stats.command_errors++;
        simtx_msg_make_response(msg, SIMTX_STATUS_COMMAND_ERROR);
        return;
    }
    simtx_msg_make_response(msg, SIMTX_STATUS_OK);
}

static uint64_t memory_cycle(void *core, uint64_t now)
{
    memory *m = core;
    /* Requests take the data bus in order; with an unlimited bus
     * (bytes_per_cycle = 0) all waiting requests are served this cycle. */
    while (!msg_queue_empty(&m->requests) && m->bus_free_cycle <= now) {
        simtx_msg *msg = msg_queue_front(&m->requests);
        serve(m, msg);
        msg->served_by = SIMTX_LEVEL_MEMORY; /* mem.h LEVELS */
        uint64_t width = (uint64_t)m->params.bytes_per_cycle;
        if (width) m->bus_free_cycle = now + (msg->size ? (msg->size + width - 1) / width : 1);
        msg_queue_push(&m->responses, msg, now + (uint64_t)m->params.latency);
        msg_queue_pop(&m->requests);
    }
    while (!m->port_blocked && !msg_queue_empty(&m->responses) && msg_queue_front_ready(&m->responses) <= now) {
        if (!m->env.send(m->env.context, 0, msg_queue_front(&m->responses))) {
            m->port_blocked = true;
            break;
        }
        msg_queue_pop(&m->responses);
    }
    m->probes.queue_depth = held(m);
    uint64_t next = SIMTX_NEVER;
    if (!msg_queue_empty(&m->requests)) next = m->bus_free_cycle > now ? m->bus_free_cycle : now + 1;
    if (!m->port_blocked && !msg_queue_empty(&m->responses)) {
        uint64_t ready = msg_queue_front_ready(&m->responses);
        if (ready < next) next = ready > now ? ready : now + 1;
    }
    return next;
}

static void memory_port_free(void *core, unsigned port)
{
    (void)port;
    ((memory *)core)->port_blocked = false;
}

static size_t memory_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                  int *forward_port)
{
    memory *m = core;
    *forward_port = -1;
    if (!in_range(m, address, size)) return 0;
    if (is_write) sparse_memory_write(m->data, address, data, size);
    else sparse_memory_read(m->data, address, data, size);
    return size;
}

const simtx_block_info memory_block_info = {
    .name = "memory",
    .summary = "memory target with fixed latency, bus bandwidth and a bounded queue, holding real data",
    .params = &memory_param_table,
    .sockets = memory_sockets,
    .socket_count = 1,
    .create = memory_create,
    .destroy = memory_destroy,
    .accept = memory_accept,
    .cycle = memory_cycle,
    .port_free = memory_port_free,
    .debug_access = memory_debug_access,
};
