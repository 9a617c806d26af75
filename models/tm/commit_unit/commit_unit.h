/* commit_unit: the KILO TM / Warp TM commit unit of one memory partition,
 * between the crossbar and the L2 slice. It serves the TM protocol of
 * tm_lazy.h (commit IDs, log transfer, in-order hazard detection with a
 * finite last-writer history, value-based validation through the L2,
 * in-order write-back, temporal conflict detection for read-only
 * transactions) and passes every other request through to the L2 unchanged. */
#ifndef SIMTX_COMMIT_UNIT_H
#define SIMTX_COMMIT_UNIT_H

#include "simtx_block.h"
#include "tm_lazy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct commit_unit_params {
    int64_t partition;           /* this unit's partition index */
    int64_t partitions;          /* partitions in the system (address ownership checks) */
    int64_t interleave;          /* bytes per partition chunk of the crossbar's mapping */
    bool cid_allocator;          /* serves TM_CID_REQUEST (one unit, in partition 0) */
    int64_t window;              /* commit IDs held at once (the ring) */
    int64_t input_queue_depth;   /* TM messages waiting to be taken in */
    int64_t output_queue_depth;  /* messages waiting for either port */
    int64_t words_per_cycle;     /* validation reads + write-backs issued per cycle */
    int64_t hazard_words_per_cycle; /* log entries through hazard detection per cycle */
    int64_t writeback_window;    /* write-backs in flight (issued, not acknowledged); 0: no limit */
    int64_t lwh_entries;         /* last-writer history entries */
    int64_t lwh_ways;            /* its associativity */
    int64_t lwt_entries;         /* last-written-time table entries (TCD) */
    int64_t lwt_subarrays;       /* its subarrays (ways) */
    char *validation;            /* the validation policy: values | ideal (commit_validation.h) */
    char *notify;                /* the notify policy: none | rct (commit_notify.h) */
    int64_t rct_entries;         /* reference count table entries (notify = rct) */
    int64_t rct_ways;            /* its associativity */
    int64_t notify_batch_cycles; /* the longest an update waits to share a broadcast */
    bool skip_validation_check;  /* TEST ONLY: ignore value mismatches (a broken validation) */
    bool version_close;          /* SI-TM: close versions at retired IDs, hold ACQUIREs until then (version.h) */
} commit_unit_params;

extern const simtx_block_info commit_unit_block_info;

typedef struct commit_unit commit_unit;

/* Ports: 0 = upstream (target, from the crossbar), 1 = downstream (initiator,
 * to the L2), 2 = notify (initiator, to the notify network). */
enum { COMMIT_UNIT_UPSTREAM = 0, COMMIT_UNIT_DOWNSTREAM = 1, COMMIT_UNIT_NOTIFY = 2, COMMIT_UNIT_PORTS = 3 };

/* For tests: the oldest commit ID not yet retired here. */
uint32_t commit_unit_retire_cid(const commit_unit *unit);

#ifdef __cplusplus
}
#endif
#endif
