/* tm_traffic: a transactional-memory traffic generator standing in for the
 * SIMT cores' transactions (as trace_player does for plain accesses). Its
 * agents run transactions on a pool of words: they load their read set
 * through the memory system, think, then commit through the commit units
 * with the protocol of models/protocols/tm_lazy.h (KILO TM
 * per-transaction messages), retrying on abort.
 * At the end it reads the pool back and checks the whole history with the
 * serializability oracle; a violation fails the run. */
#ifndef SIMTX_TM_TRAFFIC_H
#define SIMTX_TM_TRAFFIC_H

#include "simtx_block.h"

typedef struct tm_traffic_params {
    int64_t agents;          /* concurrent transactions */
    int64_t transactions;    /* commits each agent must make */
    int64_t pool_words;      /* words the transactions share */
    int64_t address_base;    /* first pool word (pool words spread over partitions) */
    int64_t partitions;      /* memory partitions (commit units) */
    int64_t interleave;      /* bytes per partition chunk */
    int64_t max_reads;       /* read set size 1..max_reads */
    int64_t max_writes;      /* write set size 0..max_writes */
    int64_t think_cycles;    /* compute time between the loads and the commit, 0..think_cycles */
    int64_t read_only_percent;
    bool temporal_conflict_detection; /* read-only transactions commit at the core when they can */
    int64_t warp_lanes;      /* 0: KILO TM messages; n: warps of n lanes with Warp TM's coalesced messages */
    int64_t core_id;         /* msg.core of every message */
    bool check;              /* run the serializability oracle at the end */
} tm_traffic_params;

extern const simtx_block_info tm_traffic_block_info;

#endif
