/* router: an input-queued crossbar. Requests go to the output whose address
 * range (from the netlist bindings) holds their address, or are interleaved
 * across outputs; responses retrace the route they came by. Each output link
 * moves bytes_per_cycle per cycle, arbitrated round-robin. */
#ifndef SIMTX_ROUTER_H
#define SIMTX_ROUTER_H

#include "simtx_block.h"

typedef struct router_params {
    int64_t inputs;          /* target sockets (requests in) */
    int64_t outputs;         /* initiator sockets (requests out) */
    int64_t latency;         /* cycles from arrival to earliest departure */
    int64_t queue_depth;     /* arrival queue entries per port */
    int64_t bytes_per_cycle; /* link width */
    int64_t interleave;      /* 0: address ranges; >0: bytes per output, round-robin */
} router_params;

extern const simtx_block_info router_block_info;

#endif
