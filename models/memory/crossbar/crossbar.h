/* crossbar: the interconnect between cores (L1s) and memory partitions (L2
 * slices), modelled as GPGPU-Sim does as two networks, one per direction: a
 * request network from core ports to partition ports and a reply network
 * back. Over TLM a request and its response share a socket pair, so one
 * block carries both networks: each port has an input queue (of the network
 * whose traffic enters there) and an output queue (of the other network).
 * Requests go to the partition their address maps to; responses retrace the
 * route stack. */
#ifndef SIMTX_CROSSBAR_H
#define SIMTX_CROSSBAR_H

#include "simtx_block.h"

typedef struct crossbar_params {
    int64_t cores;              /* core-side target sockets */
    int64_t partitions;         /* partition-side initiator sockets */
    int64_t flit_bytes;         /* bytes per flit */
    int64_t flits_per_cycle;    /* flits a port moves per cycle (bandwidth per port) */
    int64_t header_bytes;       /* control bytes of every packet */
    int64_t latency;            /* cycles through the switch */
    int64_t input_queue_depth;  /* packets per input queue */
    int64_t output_queue_depth; /* packets per output queue */
    char *mapping;              /* "interleave" or "ranges" */
    int64_t interleave;         /* bytes per partition chunk (mapping = interleave) */
    int64_t reply_flit_bytes;   /* reply network's flit size; 0: flit_bytes */
    int64_t reply_latency;      /* reply network's traversal; 0: latency */
    bool tm_log_data;           /* TM log/commit requests carry their entries as flits */
    char *count_flags;          /* flags whose combinations split the flit counts ("" none) */
} crossbar_params;

extern const simtx_block_info crossbar_block_info;

#endif
