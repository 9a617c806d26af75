#include "cache_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool harness_send(void *context, unsigned port, const simtx_msg *msg)
{
    harness *h = context;
    if (port == CACHE_UPSTREAM_PORT) {
        if (h->refuse_up) return false;
        if (h->up_count == HARNESS_MAX) abort();
        h->up_cycle[h->up_count] = h->now;
        h->up[h->up_count++] = *msg;
        return true;
    }
    if (port == CACHE_MONITOR_PORT) {
        if (h->refuse_events) return false;
        if (h->event_count == HARNESS_MAX_EVENTS) abort();
        h->events[h->event_count++] = *msg;
        return true;
    }
    if (h->refuse_down) return false;
    if (h->down_count == HARNESS_MAX) abort();
    h->down[h->down_count++] = *msg;
    return true;
}

static void harness_fail(void *context, const char *message)
{
    harness *h = context;
    snprintf(h->failure, sizeof h->failure, "%s", message);
}

cache_config harness_config(bool write_back)
{
    cache_config config = {
        .size = 4 * 2 * 128,
        .line_size = 128,
        .associativity = 2,
        .sectors = 4,
        .mshr_entries = 4,
        .mshr_max_merge = 4,
        .hit_latency = 3,
        .input_queue_depth = 2,
        .miss_queue_depth = 4,
        .response_queue_depth = 8,
        .pending_entries = 4,
        .write_back = write_back,
    };
    return config;
}

bool harness_init(harness *h, const cache_config *config, char *error, size_t error_size)
{
    memset(h, 0, sizeof *h);
    h->env.context = h;
    h->env.instance_name = "cache_under_test";
    h->env.seed = 1;
    h->env.send = harness_send;
    h->env.fail = harness_fail;
    h->memory = sparse_memory_create();
    h->cache = cache_create(config, &h->env, error, error_size);
    if (!h->cache) {
        sparse_memory_destroy(h->memory);
        h->memory = NULL;
    }
    return h->cache != NULL;
}

void harness_release(harness *h)
{
    cache_destroy(h->cache);
    sparse_memory_destroy(h->memory);
}

simtx_msg harness_message(simtx_op op, uint64_t address, uint32_t size, uint64_t id, const uint8_t *data)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, address, size);
    msg.id = id;
    if (data) memcpy(msg.data, data, size);
    return msg;
}

simtx_msg harness_atomic_message(uint64_t address, simtx_atomic_op code, uint32_t operand, uint32_t expected, uint64_t id)
{
    simtx_msg msg = harness_message(SIMTX_OP_ATOMIC, address, 4, id, (const uint8_t *)&operand);
    msg.atomic_op = (uint8_t)code;
    msg.aux = expected;
    return msg;
}

simtx_accept_result harness_request(harness *h, simtx_op op, uint64_t address, uint32_t size, uint64_t id,
                                    const uint8_t *data)
{
    simtx_msg msg = harness_message(op, address, size, id, data);
    return cache_accept(h->cache, CACHE_UPSTREAM_PORT, &msg, h->now);
}

simtx_accept_result harness_atomic(harness *h, uint64_t address, simtx_atomic_op code, uint32_t operand,
                                   uint32_t expected, uint64_t id)
{
    simtx_msg msg = harness_atomic_message(address, code, operand, expected, id);
    return cache_accept(h->cache, CACHE_UPSTREAM_PORT, &msg, h->now);
}

void harness_run(harness *h, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++) {
        h->now++;
        cache_cycle(h->cache, h->now);
    }
}

size_t harness_serve(harness *h, size_t count)
{
    size_t accepted = 0;
    while (accepted < count && h->down_served < h->down_count) {
        simtx_msg response = h->down[h->down_served];
        if (response.op == SIMTX_OP_READ) sparse_memory_read(h->memory, response.address, response.data, response.size);
        else if (response.op == SIMTX_OP_WRITE)
            sparse_memory_write_masked(h->memory, response.address, response.data, response.size, response.byte_enable);
        simtx_msg_make_response(&response, SIMTX_STATUS_OK);
        response.served_by = SIMTX_LEVEL_DRAM; /* a target names its level (mem.h LEVELS) */
        if (cache_accept(h->cache, CACHE_DOWNSTREAM_PORT, &response, h->now) != SIMTX_ACCEPTED) {
            /* Refused: undo nothing (a write is idempotent), retry later. */
            break;
        }
        h->down_served++;
        accepted++;
    }
    return accepted;
}

void harness_settle(harness *h, uint64_t limit)
{
    for (uint64_t i = 0; i < limit && !cache_idle(h->cache); i++) {
        harness_run(h, 1);
        harness_serve(h, HARNESS_MAX);
    }
    harness_run(h, 1);
}

const simtx_msg *harness_response(const harness *h, uint64_t id)
{
    for (size_t i = 0; i < h->up_count; i++)
        if (h->up[i].id == id) return &h->up[i];
    return NULL;
}
