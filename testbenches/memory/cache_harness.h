/* Drives a cache_engine without SystemC: records what it sends up and down,
 * can refuse either port, and plays the next level as a memory that answers
 * the oldest outstanding requests on demand (as a DRAM target: served_by
 * SIMTX_LEVEL_DRAM). */
#ifndef CACHE_HARNESS_H
#define CACHE_HARNESS_H

#include "cache_engine.h"
#include "sparse_memory.h"

#define HARNESS_MAX 4096
#define HARNESS_MAX_EVENTS 256

typedef struct harness {
    simtx_env env;
    cache *cache;
    uint64_t now;
    simtx_msg up[HARNESS_MAX];   /* responses sent to the requester */
    uint64_t up_cycle[HARNESS_MAX];
    size_t up_count;
    simtx_msg down[HARNESS_MAX]; /* every request sent to the next level */
    size_t down_count, down_served; /* requests [down_served, down_count) await an answer */
    simtx_msg events[HARNESS_MAX_EVENTS]; /* monitor events (after cache_monitor_bound) */
    size_t event_count;
    bool refuse_up, refuse_down, refuse_events;
    char failure[512];
    sparse_memory *memory;       /* the next level's data */
} harness;

/* A small default geometry: 4 sets x 2 ways x 128 B, 4 sectors. */
cache_config harness_config(bool write_back);
/* Creates the cache; returns false (message in error) when it refuses. */
bool harness_init(harness *h, const cache_config *config, char *error, size_t error_size);
void harness_release(harness *h);

/* A request with all bytes enabled (data: NULL or size bytes). */
simtx_msg harness_message(simtx_op op, uint64_t address, uint32_t size, uint64_t id, const uint8_t *data);
/* A 4-byte atomic: operand in data[0..3], CAS's expected value in aux. */
simtx_msg harness_atomic_message(uint64_t address, simtx_atomic_op code, uint32_t operand, uint32_t expected, uint64_t id);
/* Offers a request at the current cycle; returns the core's answer. */
simtx_accept_result harness_request(harness *h, simtx_op op, uint64_t address, uint32_t size, uint64_t id,
                                    const uint8_t *data);
simtx_accept_result harness_atomic(harness *h, uint64_t address, simtx_atomic_op code, uint32_t operand,
                                   uint32_t expected, uint64_t id);
/* Runs the cache's cycle() for `cycles` cycles. */
void harness_run(harness *h, uint64_t cycles);
/* Answers up to `count` outstanding downstream requests in order from the
 * memory; returns how many the cache accepted. */
size_t harness_serve(harness *h, size_t count);
/* Runs and serves until no work is left or `limit` cycles pass. */
void harness_settle(harness *h, uint64_t limit);
/* The response with this id, or NULL. */
const simtx_msg *harness_response(const harness *h, uint64_t id);

#endif
