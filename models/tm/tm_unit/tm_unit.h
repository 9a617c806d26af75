/* tm_unit: the core side of lazy transactional memory (KILO TM, Warp TM) as
 * a block beside a SIMT core: the lanes' read and write logs, the pre-commit
 * checks, the commit protocol with the commit units and the commit records.
 * It speaks protocols/tx.h and protocols/ldst.h with the core (target
 * `core`) and protocols/ldst.h plus the lazy TM protocol (tm_lazy.h) towards
 * the memory side (initiator `ldst`); everything else passes through. */
#ifndef SIMTX_TM_UNIT_H
#define SIMTX_TM_UNIT_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tm_unit_params {
    char *commit;              /* per_tx (KILO TM) | coalesced (Warp TM) */
    char *precommit;           /* checks before commit IDs, in order: none, or a list of tcd, intra_warp, early_abort */
    char *filters;             /* access filters, in order: none, or a list of pause_and_go, snapshot */
    int64_t partitions;        /* memory partitions, each with a commit unit */
    int64_t interleave;        /* bytes per partition chunk */
    int64_t conflict_table;    /* Warp TM: ownership table bytes */
    int64_t conflict_latency;  /* Warp TM: cycles of one pass over the table */
    int64_t log_latency;       /* a load answered from the logs */
    int64_t cat_entries;       /* EA/PG: conflict address table entries */
    int64_t cat_ways;          /* its associativity */
    int64_t cat_ports;         /* its lookups per cycle */
    int64_t pauses_per_lane;   /* Pause-and-Go: pauses of a lane per attempt (0: unlimited) */
    double notify_clock_ratio; /* EA/PG: its cycles per cycle of the notifying commit units */
    int64_t sitm_warps;        /* SI-TM: warps per core holding transaction IDs */
    bool record;               /* keep the commit records */
} tm_unit_params;

extern const simtx_block_info tm_unit_block_info;

/* One committed transaction: its commit ID and where its words lie in the
 * history's word array (address, value pairs: reads, then writes). Reads
 * are memory reads only (not served by the transaction's own writes). */
typedef struct tm_unit_record {
    uint32_t cid;
    uint32_t after; /* 1: a read-only transaction committed without a commit ID (temporal conflict detection, snapshot_ro), serialized right after cid */
    uint32_t read_count, write_count;
    size_t first_word;
    uint32_t snapshot; /* with TM_UNIT_RECORD_SNAPSHOT: the attempt's loads read the snapshot of every ID <= snapshot */
    uint32_t flags;    /* TM_UNIT_RECORD_* */
} tm_unit_record;

/* The attempt took a snapshot (the snapshot filter); the SI history checker
 * (verification/si_check.h) checks every read against it. */
#define TM_UNIT_RECORD_SNAPSHOT 1u
/* Its reads were not validated at commit (a commit path that sends no read
 * log, e.g. SI-TM's write-write commit units: tmu_lane.unvalidated): they
 * hold at its snapshot only, and first committer wins must hold. */
#define TM_UNIT_RECORD_UNVALIDATED 2u

/* The serializability oracle's history (the record parameter turns it on
 * from the netlist; a testbench may turn it on or off at any time). */
void tm_unit_set_recording(void *unit, bool on);
size_t tm_unit_history(const void *unit, const tm_unit_record **records, const uint32_t **words);
void tm_unit_clear_history(void *unit);

#ifdef __cplusplus
}
#endif
#endif
