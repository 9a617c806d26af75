/* The nvm_controller's state and the calls between its files; internal. */
#ifndef SIMTX_NVM_CONTROLLER_INTERNAL_H
#define SIMTX_NVM_CONTROLLER_INTERNAL_H

#include "msg_queue.h"
#include "nvm_controller.h"
#include "nvm_wpq.h"
#include "sparse_memory.h"

/* A read waiting for, or using, the media. Its data is taken at arrival
 * (media overlaid with the WPQ), so it sees exactly the writes that arrived
 * before it whatever the drain order; the media access is timing only. */
typedef struct nvm_read {
    simtx_msg msg; /* the response, data filled in */
    uint64_t seq, arrival, ready;
    unsigned bank;
    bool valid, issued;
} nvm_read;

struct nvm_controller {
    nvm_controller_params params;
    simtx_env env;
    sparse_memory *media;
    nvm_wpq wpq;
    nvm_read *reads; /* read_queue_depth slots */
    unsigned read_count;
    uint64_t next_read_seq;
    uint64_t *bank_free; /* per bank: the cycle it can start an access */
    uint64_t bus_free;   /* the channel can issue the next access from then */
    msg_queue answers;   /* write acknowledgements, forwarded reads, fences, errors: in arrival order */
    bool port_blocked;   /* the port refused a response: wait for port_free */
    bool refused;        /* an arrival was refused: announce the next room */
    bool write_refused;  /* the last refusal was a write facing a full WPQ */
    uint64_t write_refused_since;
    struct {
        uint64_t reads, writes, forwarded_reads, media_reads, media_writes, bytes_read, bytes_written, fences, line_requests;
        uint64_t wpq_full_stalls, wpq_full_cycles, address_errors, command_errors;
        /* Accepted writes by the path that persisted them (mem.h): a cache's
         * eviction write-back, a clean's (clwb) write-back, a non-temporal
         * write, any other write. */
        uint64_t persists_writeback, persists_clwb, persists_non_temporal, persists_other;
        simtx_histogram read_latency, write_accept_latency, write_media_latency;
        simtx_time_average wpq_occupancy, read_queue_occupancy;
    } stats;
    struct {
        uint64_t wpq_occupancy, read_queue_depth;
    } probes;
};

/* nvm_controller.c: the block's behaviour. */
simtx_accept_result nvm_controller_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now);
uint64_t nvm_controller_cycle(void *core, uint64_t now);
void nvm_controller_finish(void *core, uint64_t now);

#endif
