/* tm_core: the core side of lazy TM (KILO TM, Warp TM): logs, checkpoints, attempts, and the internal interface the issue, LD/ST and accept paths use. */
#ifndef SIMTX_TM_CORE_H
#define SIMTX_TM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_image.h"
#include "simt_core.h"
#include "simtx_msg.h"
#include "tm_lazy.h"
#include "tm_lazy_walker.h"

#ifndef MAX_LANES
#define MAX_LANES 64
#endif

typedef struct warp warp;

/* A lane's transaction logs (lazy versioning): the words it read from
 * memory with the values seen, the words it will write, and the old bytes
 * of its private stack it overwrote (undone on abort). */
typedef struct tx_log {
    tm_entry *entries;
    uint32_t count;
    size_t capacity;
} tx_log;

typedef struct local_undo {
    uint32_t offset, old;
    uint32_t size;
} local_undo;

typedef struct tx_lane {
    tx_log reads, writes;
    local_undo *undo;
    uint32_t undo_count;
    size_t undo_capacity;
    uint32_t depth;     /* flattened nesting */
    uint32_t cid;       /* 0: no commit ID (empty transaction) */
    uint64_t involved;  /* partitions with entries of this lane */
    uint32_t outcomes_pending, acks_pending;
    bool passed;
    bool tcd;           /* committed read-only by temporal conflict detection */
    uint32_t attempts;
} tx_lane;

enum { TX_IDLE, TX_RUNNING, TX_WAIT_START, TX_WAIT_LWT, TX_TCD_CHECK, TX_CONFLICT_CHECK, TX_WAIT_CID, TX_VALIDATING };
enum { ABORT_VALIDATION, ABORT_TIMEOUT, ABORT_FAULT };

/* A 128-byte block a transaction attempt loaded (temporal conflict
 * detection) and its last-written time (UINT32_MAX until answered). */
typedef struct tx_block {
    uint32_t block, last_written;
} tx_block;

typedef struct tx_warp {
    int phase;
    uint32_t begin_pc, commit_pc, commit_rd;
    uint32_t retry_index;   /* stack index of the Retry entry */
    uint32_t precommit_resume; /* the pre-commit stage after the running check */
    uint32_t *checkpoint;   /* registers at tx_begin, [32][lanes] */
    uint64_t committing;    /* lanes at tx_commit */
    uint32_t unresolved;    /* committing lanes still waiting for the commit units */
    uint64_t attempt_start, commit_start, attempt_instructions;
    bool abort_requested;
    int abort_cause;
    uint64_t timeout;          /* doubles after each timeout abort, so long but correct transactions finish */
    uint32_t fault_aborts;     /* consecutive fault aborts: a transaction that always faults is a kernel bug */
    uint32_t fault_pc;
    /* Warp TM: the warp's commit IDs are first_cid.. in lane order */
    uint64_t check_done_at;   /* the intra-warp conflict check ends */
    uint32_t first_cid, cid_count, dones_pending, acks_pending;
    uint64_t decision_partitions;
    uint8_t lane_of_rank[MAX_LANES];
    /* Temporal conflict detection: the start time and the 128-byte blocks
     * the attempt loaded, with their last-written times */
    uint32_t start_time, block_count, lwt_pending;
    tx_block *blocks;
    size_t block_capacity;
    tx_lane lane[MAX_LANES];
} tx_warp;

/* Committed transactions, for the serializability oracle. */
typedef struct tx_history {
    simt_tm_record *records;
    size_t count, capacity;
    uint32_t *words; /* address, value pairs: each record's reads then writes */
    size_t word_count, word_capacity;
} tx_history;

/* Requests of the TM protocol waiting for the memory socket (a warp's
 * commit sends up to lanes x partitions x 3 of them at once). */
typedef struct tm_queue {
    simtx_msg *messages;
    size_t head, length, capacity;
} tm_queue;

/* Response ids of the TM protocol: a tag bit, the kind, the warp, the lane
 * (or window, or block index) and the partition. */
#define TM_ID_TAG (UINT64_C(1) << 62)
enum { TM_KIND_CID = 1, TM_KIND_ACK, TM_KIND_OUTCOME, TM_KIND_DECISION, TM_KIND_WARP_OUTCOME, TM_KIND_WARP_DECISION, TM_KIND_START,
       TM_KIND_LWT };

static inline uint64_t tm_id(unsigned kind, uint32_t warp_index, uint32_t lane, uint32_t partition)
{
    return TM_ID_TAG | (uint64_t)kind << 48 | (uint64_t)warp_index << 16 | (uint64_t)lane << 8 | partition;
}

/* The design variants, chosen once at create (policy slots). The commit
 * slot: how logs and decisions travel once the lanes hold commit IDs
 * (per transaction, KILO TM; warp-coalesced, Warp TM). */
typedef struct tm_commit_policy {
    const char *name;
    /* The commit IDs arrived: send the committing lanes' logs. */
    void (*send_logs)(simt_core *c, warp *w, uint32_t warp_index);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(simt_core *c, warp *w, uint32_t warp_index, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tm_commit_policy;

/* A pre-commit check (temporal conflict detection; Warp TM's intra-warp
 * conflict check): the core runs the configured ones in order at
 * tx_commit, before commit IDs. Every hook may be NULL. */
typedef struct tm_precommit {
    const char *name;
    /* An attempt starts (tx_begin or a re-run of the Retry lanes). */
    void (*attempt_started)(simt_core *c, warp *w, uint32_t warp_index);
    /* A transactional load is about to issue: true when it must wait (the warp sleeps until the answers). */
    bool (*before_load)(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint64_t mask);
    /* At tx_commit: true when the check runs on; it then calls
     * tm_core_precommit_continue(..., next_stage, ...) when done. */
    bool (*check)(simt_core *c, warp *w, uint32_t warp_index, uint32_t next_stage, uint64_t now);
    /* Each cycle while checks run (c->conflict_checks): the earliest cycle one ends, SIMTX_NEVER if none. */
    uint64_t (*cycle)(simt_core *c, uint64_t now);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(simt_core *c, warp *w, uint32_t warp_index, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tm_precommit;

extern const tm_commit_policy tm_commit_per_tx;     /* tm_commit_per_tx.c */
extern const tm_commit_policy tm_commit_coalesced;  /* tm_commit_coalesced.c */
extern const tm_precommit tm_precommit_tcd;         /* tm_tcd.c */
extern const tm_precommit tm_precommit_intra_warp;  /* tm_intra_warp.c */

/* ---- The interface of the shared paths (issue, LD/ST, warp readiness,
 * accept). Each call is one message of a later protocols/tx.h contract:
 * begin = TX_BEGIN, start_commit = TX_COMMIT (its outcome: committed lanes
 * leave, failed ones retry), abort_attempt = TX_ROLLBACK, response = the
 * commit side's answers; an abort request is the unsolicited TX_ABORT. ---- */

static inline bool tm_core_active(const tx_warp *tx) { return tx && tx->phase != TX_IDLE; }

/* Chooses the policy slots from the parameters; false with a message. */
bool tm_core_init(simt_core *c, char *error, size_t error_size);
void tm_core_release(simt_core *c);
void tm_core_release_warp(tx_warp *tx);

/* tx_begin of the outer transaction for the lanes of mask (nested ones are flattened by the caller). */
bool tm_core_begin(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now);
/* tx_commit of the outer transaction: rd receives 1 in committed lanes. */
void tm_core_start_commit(simt_core *c, warp *w, uint32_t warp_index, uint32_t rd, uint64_t mask, uint64_t now);
/* Rolls back a doomed attempt (fault or timeout), no access in flight. */
void tm_core_abort_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now);
/* Asks for the attempt's abort (a fault the doomed attempt may cause). */
static inline void tm_core_request_abort(tx_warp *tx, int cause, uint32_t pc)
{
    tx->abort_requested = true;
    tx->abort_cause = cause;
    tx->fault_pc = pc;
}
/* A response of the TM protocol (id tagged TM_ID_TAG). */
void tm_core_response(simt_core *c, const simtx_msg *msg, uint64_t now);
/* The pre-commit checks that end by time: the earliest cycle one ends. */
uint64_t tm_core_cycle(simt_core *c, uint64_t now);
/* The token a transactional warp holds: free it and wake the waiters. */
void tm_core_release_token(simt_core *c);

/* Pre-commit checks from `stage` on, then commit IDs (or the end of the commit). */
void tm_core_precommit_continue(simt_core *c, warp *w, uint32_t warp_index, uint32_t stage, uint64_t now);
/* Every committing lane is resolved: committed lanes leave, failed ones retry. */
void tm_core_finish_commit(simt_core *c, warp *w, uint32_t warp_index, uint64_t now);

/* Logs and the message queue, for the policies and the LD/ST path. */
static inline tm_entry *tm_core_log_find(tx_log *log, uint32_t word)
{
    for (uint32_t i = 0; i < log->count; i++)
        if (log->entries[i].address == word) return &log->entries[i];
    return NULL;
}
bool tm_core_log_grow_append(simt_core *c, tx_log *log, uint32_t word, uint32_t value);
/* Inline while the log has room (the LD/ST path and its responses append per lane). */
static inline bool tm_core_log_append(simt_core *c, tx_log *log, uint32_t word, uint32_t value)
{
    if (log->count < log->capacity) {
        log->entries[log->count++] = (tm_entry){word, value};
        return true;
    }
    return tm_core_log_grow_append(c, log, word, value);
}
bool tm_core_undo_append(simt_core *c, tx_lane *lane, uint32_t offset, uint32_t old, uint32_t size);
bool tm_core_push(simt_core *c, const simtx_msg *msg);

/* The commit policies drive the shared log walker (tm_lazy_walker.h); its
 * messages are tagged for the warp (response id, warp, lane mask), counted
 * and queued by tm_core_walk_emit. */
typedef struct tm_core_walk {
    simt_core *c;
    tx_warp *tx;
    uint32_t warp_index;
    const uint8_t *lane_of; /* transaction index -> lane (NULL: the index is the lane) */
    bool coalesced;         /* Warp TM's message forms and response kinds */
} tm_core_walk;

/* The walker over the core's partitions, emitting for `walk`. */
tm_walker tm_core_walker(simt_core *c, tm_core_walk *walk);

/* The walker's view of a lane's transaction. */
static inline tm_walk_tx tm_core_walk_tx(const tx_lane *lane)
{
    return (tm_walk_tx){lane->reads.entries, lane->writes.entries, lane->reads.count, lane->writes.count, lane->cid};
}

#endif
