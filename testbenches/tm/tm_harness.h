/* A C harness for commit units without SystemC: N commit_unit cores, each
 * with a fake_env, in front of one shared memory standing in for the L2
 * slices (fixed latency, answered in order). Tests play the cores: they
 * send TM messages (routed to the partition owning msg.address, retried
 * while the unit pushes back) and collect the responses. */
#ifndef SIMTX_TM_HARNESS_H
#define SIMTX_TM_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "commit_unit.h"
#include "fake_env.h"
#include "sparse_memory.h"

#define TM_HARNESS_MAX_PARTITIONS 8

typedef struct tm_timed_msg {
    simtx_msg msg;
    uint64_t ready;
} tm_timed_msg;

typedef struct tm_msg_list {
    tm_timed_msg *items;
    size_t count, capacity;
} tm_msg_list;

typedef struct tm_node {
    commit_unit_params params;
    fake_env fake;
    commit_unit *unit;
    tm_msg_list inbound;      /* core -> unit, waiting to be accepted */
    tm_msg_list l2_responses; /* L2 -> unit, waiting for their latency and acceptance */
    uint64_t refusals;        /* BUSY answers on the upstream port */
    uint64_t l2_requests;
    uint64_t next_cycle;      /* what the unit's last cycle() asked for */
} tm_node;

typedef struct tm_system {
    unsigned partitions;
    uint64_t interleave;
    uint64_t l2_latency;
    uint64_t now;
    tm_node *nodes; /* partitions of them (heap: a fake_env is large) */
    sparse_memory *memory;
    tm_msg_list responses; /* unit -> cores, in arrival order (ready = arrival cycle) */
    tm_msg_list l2_log;    /* every L2 access the units made, in order (ready = issue cycle) */
    simtx_observer *observer;
} tm_system;

/* settings: extra "name=value" for every unit (NULL-terminated or NULL). */
void tm_system_init(tm_system *sys, unsigned partitions, uint64_t l2_latency, const char *const *settings);
void tm_system_release(tm_system *sys);
/* Queues msg for the unit owning msg->address. */
void tm_system_send(tm_system *sys, const simtx_msg *msg);
/* One cycle of every unit. */
void tm_system_step(tm_system *sys);
/* Steps until nothing is queued or in flight, at most max_cycles. */
void tm_system_run(tm_system *sys, uint64_t max_cycles);
/* The first failure a unit reported, or NULL. */
const char *tm_system_failure(const tm_system *sys);
/* The response with this id (NULL if none yet). */
const simtx_msg *tm_system_response(const tm_system *sys, uint64_t id);
uint64_t tm_system_response_cycle(const tm_system *sys, uint64_t id);
uint32_t tm_system_read_word(tm_system *sys, uint64_t address);
void tm_system_write_word(tm_system *sys, uint64_t address, uint32_t value);

/* Message builders. */
simtx_msg tm_make(simtx_op op, uint64_t address, uint32_t cid, uint64_t aux, uint64_t id);
simtx_msg tm_make_log(simtx_op op, uint32_t cid, const tm_entry *entries, unsigned count, uint64_t id);

bool tm_list_push(tm_msg_list *list, const simtx_msg *msg, uint64_t ready);
void tm_list_remove(tm_msg_list *list, size_t index);

#endif
