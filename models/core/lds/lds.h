/* lds: a SIMT core's shared memory (the local data share) as a block of its
 * own: banks, bank-conflict timing, loads, stores, atomics and lr/sc, served
 * over the core <-> LD/ST protocol (models/protocols/ldst.h). */
#ifndef SIMTX_LDS_H
#define SIMTX_LDS_H

#include <stdbool.h>

#include "simtx_block.h"

typedef struct lds_params {
    int64_t size;        /* bytes of shared memory */
    int64_t banks;       /* banks accessed in parallel */
    int64_t bank_width;  /* bytes of one bank word */
    int64_t latency;     /* start to result of a conflict-free access */
    int64_t queue_depth; /* requests held (assembling, waiting or answering) */
    char *policy;        /* how an access acts on the storage: plain or localtm */
    /* localtm (lds_localtm.c) */
    bool perfect;        /* Perfect GPU-LocalTM: the same behaviour, no added cycles */
    bool broken_filters; /* a deliberately wrong design for the oracles: filters ignore other wavefronts */
    int64_t filter_bits, max_work_items, max_wavefronts;
    int64_t filter_cycles, new_cycles, own_cycles, false_own_cycles, begin_cycles, commit_cycles;
} lds_params;

extern const simtx_block_info lds_block_info;

#endif
