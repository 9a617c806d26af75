/* tm_lazy_walker: the core side of the log transfer and the decisions of
 * the lazy TM protocol (tm_lazy.h), as one library that the SIMT core's TM
 * side and the tm_traffic generator share, so that the protocol is written
 * once. It is not a block: it owns no state between calls, sends nothing
 * itself and hands every request it builds to the caller's emit callback,
 * in protocol order.
 *
 * Input: the committing transactions of one warp (or one agent) with their
 * read and write logs and commit IDs, in lane order (so the IDs ascend).
 * Output, through emit, per partition p = 0 .. partitions-1:
 *
 *   per transaction (KILO TM, tm_walk_logs_per_tx): for each transaction t
 *     with entries at p: its read entries at p in log order (messages of up
 *     to TM_MAX_ENTRIES_PER_MSG entries), then its write entries, then one
 *     TM_LOG_DONE (counts in aux). Transactions with no entries at p are
 *     collected into runs of consecutive IDs; a run is sent as one TM_SKIP
 *     when the next transaction breaks it, and the last run after the
 *     transactions of p.
 *   coalesced (Warp TM, tm_walk_logs_coalesced; the IDs must be consecutive):
 *     for each window of TM_MAX_ENTRIES_PER_MSG IDs: the window's read
 *     entries at p (all transactions in order, messages of up to 16 entries
 *     of several IDs, aux packs the ID offsets), then its write entries,
 *     then one coalesced TM_LOG_DONE with a record per ID, or, when the
 *     window has no entry at p, one TM_SKIP for the whole window instead.
 *
 * The walker fills op, address, size, data, transaction_id and aux, sets
 * core and warp to -1 and lane_mask to 0; the callback tags the message
 * (id, core, warp, lane_mask) from the event and queues it. Log traffic,
 * as the commit unit counts it, is TM_LOG_HEADER_BYTES + size for every
 * TM_WALK_LOG and TM_WALK_DONE message (tm_walk_log_bytes). */
#ifndef SIMTX_TM_LAZY_WALKER_H
#define SIMTX_TM_LAZY_WALKER_H

#include <stdbool.h>
#include <stdint.h>

#include "tm_lazy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most transactions one walk takes (bit masks over their indices). */
#define TM_WALK_MAX_TX 64

/* One committing transaction: its logs and its commit ID. */
typedef struct tm_walk_tx {
    const tm_entry *reads, *writes;
    uint32_t read_count, write_count;
    uint32_t cid;
} tm_walk_tx;

typedef enum tm_walk_kind {
    TM_WALK_LOG,      /* TM_READ_LOG or TM_WRITE_LOG */
    TM_WALK_DONE,     /* TM_LOG_DONE (per transaction, or coalesced for a window) */
    TM_WALK_SKIP,     /* TM_SKIP */
    TM_WALK_DECISION, /* TM_DECISION (per transaction, or coalesced) */
} tm_walk_kind;

/* What a message stands for, so that the caller can tag it. */
typedef struct tm_walk_event {
    tm_walk_kind kind;
    unsigned partition;
    /* Per-transaction forms (log, done, decision): the transaction's index.
     * Coalesced log, done and skip: the window's first index. Per-transaction
     * skip: the index of the run's first transaction. Coalesced decision: 0. */
    uint32_t tx;
    /* Log messages: bit i = the message carries entries of transaction i. */
    uint64_t carried;
} tm_walk_event;

typedef void (*tm_walk_emit)(void *context, simtx_msg *msg, const tm_walk_event *event);

typedef struct tm_walker {
    unsigned partitions; /* memory partitions, each with a commit unit */
    uint64_t interleave; /* bytes per partition chunk (tm_partition_of) */
    tm_walk_emit emit;
    void *context;
} tm_walker;

/* KILO TM's log transfer. involved (count entries, may be NULL): bit p is
 * set for every partition p where transaction i has entries (and so a
 * TM_LOG_DONE, an outcome and later a decision). */
void tm_walk_logs_per_tx(const tm_walker *walker, const tm_walk_tx *txs, uint32_t count, uint64_t *involved);

/* Warp TM's log transfer; txs[i].cid must be txs[0].cid + i. involved as
 * above. Returns the partitions that received at least one TM_LOG_DONE
 * (bit p), the ones the coalesced decision goes to. */
uint64_t tm_walk_logs_coalesced(const tm_walker *walker, const tm_walk_tx *txs, uint32_t count, uint64_t *involved);

/* KILO TM's decision for transaction tx (index, reported in the event) with
 * commit ID cid: one TM_DECISION per partition of `partitions` (bit p),
 * ascending. */
void tm_walk_decision(const tm_walker *walker, uint32_t tx, uint32_t cid, bool commit, uint64_t partitions);

/* Warp TM's coalesced decision for `count` IDs from first_cid (commit_mask
 * bit i = commit ID first_cid + i): one TM_DECISION per partition of
 * `partitions`, ascending. */
void tm_walk_decisions_coalesced(const tm_walker *walker, uint32_t first_cid, uint32_t count, uint64_t commit_mask,
                                 uint64_t partitions);

/* Log traffic of a TM_WALK_LOG or TM_WALK_DONE message (header + payload). */
static inline uint64_t tm_walk_log_bytes(const simtx_msg *msg) { return TM_LOG_HEADER_BYTES + (uint64_t)msg->size; }

#ifdef __cplusplus
}
#endif
#endif
