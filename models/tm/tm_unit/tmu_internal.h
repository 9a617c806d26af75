/* tmu_internal: the tm_unit's shared state (warps, lanes' logs, requests in
 * flight, queues) and the interfaces of its modules and policy slots. */
#ifndef SIMTX_TMU_INTERNAL_H
#define SIMTX_TMU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ldst.h"
#include "msg_queue.h"
#include "ref_table.h"
#include "simtx_array.h"
#include "tm_lazy.h"
#include "tm_lazy_walker.h"
#include "tm_unit.h"
#include "tx.h"

#define TMU_MAX_LANES 64
#define TMU_MAX_PRECOMMIT 3 /* each check at most once */
#define TMU_MAX_FILTERS 4

/* Ids of the unit's own requests on the ldst socket: the lazy TM protocol
 * (bit 62) and the loads it forwards (bit 61); tx.h reserves both bits. */
#define TMU_TM_TAG (UINT64_C(1) << 62)
#define TMU_LOAD_TAG (UINT64_C(1) << 61)

enum { TMU_KIND_CID = 1, TMU_KIND_ACK, TMU_KIND_OUTCOME, TMU_KIND_DECISION, TMU_KIND_WARP_OUTCOME, TMU_KIND_WARP_DECISION,
       TMU_KIND_LWT };

/* A TM protocol id: the kind, the warp, the lane (or window, or block) and the partition. */
static inline uint64_t tmu_id(unsigned kind, uint32_t warp, uint32_t lane, uint32_t partition)
{
    return TMU_TM_TAG | (uint64_t)kind << 48 | (uint64_t)warp << 16 | (uint64_t)lane << 8 | partition;
}

/* A lane's log (lazy versioning): words with the value read or to write. */
typedef struct tmu_log {
    tm_entry *entries;
    uint32_t count;
    size_t capacity;
} tmu_log;

typedef struct tmu_lane {
    tmu_log reads, writes;
    uint32_t cid;      /* 0: no commit ID (empty, or committed by TCD) */
    uint64_t involved; /* partitions with entries of this lane */
    uint32_t outcomes_pending, acks_pending;
    uint32_t attempts; /* aborts before the running attempt */
    bool passed;
    bool tcd;          /* committed read-only by temporal conflict detection */
    bool early_aborted; /* failed the Early-Abort check (its conflict address table) */
    /* Pause-and-Go: paused at the warp's log position pause_index, with
     * these many read and write entries (TX_RESUME truncates back to them;
     * a load the lane issued before the pause may log its words later) */
    bool paused;
    uint32_t pause_index, pause_reads, pause_writes;
    uint32_t pauses; /* in the running attempt */
} tmu_lane;

enum { TMU_IDLE, TMU_RUNNING, TMU_TCD_CHECK, TMU_CONFLICT_CHECK, TMU_WAIT_CID, TMU_VALIDATING };

/* A 128-byte block a read-only lane read (temporal conflict detection) and
 * its last-written time (UINT32_MAX until answered). */
typedef struct tmu_block {
    uint32_t block, last_written;
} tmu_block;

/* A transactional ldst.h request of the core: its beats (kept whole for
 * their responses) and the lanes' slots. */
typedef struct tmu_request {
    bool in_use;
    unsigned beat_count;
    simtx_msg beats[LDST_MAX_BEATS];
    uint32_t addresses[TMU_MAX_LANES], data[TMU_MAX_LANES], results[TMU_MAX_LANES];
    uint64_t lanes;
    uint32_t warp;
    uint8_t op, access_size;
    ldst_fault fault;
    unsigned fault_lane;
    uint64_t ready;            /* the cycle the lanes answered from the logs are */
    uint64_t forwarded;        /* lanes sent on as a load, whose completion is awaited */
    uint64_t paused;           /* lanes a filter paused (tx.h 2), out of `lanes` */
    uint32_t pause_index;      /* their log index */
    bool verdict;              /* beats[0] is a VERDICT beat (tx.h 2), answered when the filters are done */
    uint8_t first_response;    /* 1 once the verdict is answered: the other beats' responses remain */
    uint64_t verdict_ready;    /* the cycle the verdict went into the `verdicts` queue for */
} tmu_request;

typedef struct tmu_warp {
    int phase;
    uint64_t lanes;            /* the running attempt's */
    uint64_t paused;           /* Pause-and-Go: lanes waiting to resume */
    uint32_t log_position;     /* the warp's log pointer: transactional accesses of the attempt so far (tx.h 5) */
    int32_t core, cta;
    simtx_msg commit_event;    /* the TX_COMMIT being answered (header only) */
    uint32_t precommit_resume; /* the pre-commit stage after the running check */
    uint64_t committing;       /* lanes at TX_COMMIT */
    uint32_t unresolved;       /* committing lanes still waiting for the commit units */
    uint64_t commit_start;
    uint32_t in_flight;        /* transactional requests not yet answered */
    /* Warp TM: the warp's commit IDs are first_cid.. in lane order */
    uint64_t check_done_at;
    uint64_t check_cycles;     /* the commit's timed checks so far (an overlapping check adds only its excess) */
    uint32_t first_cid, cid_count, dones_pending, acks_pending;
    uint64_t decision_partitions;
    uint8_t lane_of_rank[TMU_MAX_LANES];
    /* The attempt's read stamp (ldst.h: every ID below it is in its loads'
     * values) and temporal conflict detection's blocks at the commit */
    uint32_t read_stamp, block_count, lwt_pending;
    tmu_block *blocks;
    size_t block_capacity;
    tmu_lane lane[TMU_MAX_LANES];
} tmu_warp;

/* Committed transactions, for the serializability oracle. */
typedef struct tmu_history {
    tm_unit_record *records;
    size_t count, capacity;
    uint32_t *words; /* address, value pairs: each record's reads then writes */
    size_t word_count, word_capacity;
} tmu_history;

/* Messages waiting for a socket (a warp's commit sends up to lanes x
 * partitions x 3 requests at once): a growable ring. */
typedef struct tmu_queue {
    simtx_msg *messages;
    uint64_t *ready;
    size_t head, length, capacity;
} tmu_queue;

typedef struct tmu tmu;

/* The commit slot: how logs and decisions travel once the lanes hold commit
 * IDs (per transaction, KILO TM; warp-coalesced, Warp TM). */
typedef struct tmu_commit_policy {
    const char *name;
    /* The commit IDs arrived: send the committing lanes' logs. */
    void (*send_logs)(tmu *u, tmu_warp *w, uint32_t warp);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tmu_commit_policy;

/* A pre-commit check (temporal conflict detection; Warp TM's intra-warp
 * check), run in the configured order at TX_COMMIT before commit IDs.
 * Every hook may be NULL. */
typedef struct tmu_precommit {
    const char *name;
    /* At TX_COMMIT: true when the check runs on; it then calls
     * tmu_precommit_continue(..., next_stage, ...) when done. */
    bool (*check)(tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tmu_precommit;

/* An access filter (Pause-and-Go; SI-TM's snapshot reads to come), run in
 * order on every transactional request of a running attempt before the
 * logs serve it. */
typedef struct tmu_filter {
    const char *name;
    bool pauses; /* it may pause lanes: TX_BEGIN's and TX_RESUME's answers say so (tx.h 2) */
    bool (*create)(void **state, const tm_unit_params *params, char *error, size_t error_size);
    void (*destroy)(void *state);
    /* A transactional request of the warp: lanes that should pause in
     * *pause (the unit keeps one lane of the attempt running) and lanes
     * that must abort in *abort. Returns its cycles, spent before the
     * request is served. */
    uint64_t (*access)(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort);
    /* The warp's attempt ended (committed or rolled back) for `lanes`. */
    void (*attempt_ended)(void *state, uint32_t warp, uint64_t lanes);
} tmu_filter;

extern const tmu_commit_policy tmu_commit_per_tx;    /* tmu_commit_per_tx.c */
extern const tmu_commit_policy tmu_commit_coalesced; /* tmu_commit_coalesced.c */
extern const tmu_precommit tmu_precommit_tcd;        /* tmu_tcd.c */
extern const tmu_precommit tmu_precommit_intra_warp; /* tmu_intra_warp.c */
extern const tmu_precommit tmu_precommit_early_abort; /* tmu_early_abort.c */
extern const tmu_filter tmu_filter_pause_and_go;     /* tmu_pause.c */

struct tmu {
    tm_unit_params params;
    simtx_env env;
    const tmu_commit_policy *commit;
    const tmu_precommit *precommit[TMU_MAX_PRECOMMIT];
    uint32_t precommit_count;
    const tmu_filter *filter[TMU_MAX_FILTERS];
    void *filter_state[TMU_MAX_FILTERS];
    uint32_t filter_count;
    bool may_pause;            /* a filter may pause lanes */
    tmu_warp **warps;          /* by the core's warp slot, allocated at its first TX_BEGIN */
    uint32_t warp_count;
    tmu_request *requests;     /* transactional requests in flight (their index is the forwarded load's id) */
    uint32_t request_count, *free_requests, free_request_count;
    uint32_t staging;          /* the request whose beats are arriving (UINT32_MAX: none) */
    bool pass_open;            /* a pass-through request's first beat went on, its last not yet */
    tmu_queue to_core;         /* responses to the core */
    tmu_queue verdicts;        /* verdicts (tx.h 2) to the core, sent before to_core: they pass the responses
                                  queued before them, never their own request's */
    tmu_queue pass;            /* tail beats of a pass-through request the ldst socket refused */
    tmu_queue to_memory;       /* the unit's own requests (TM protocol, forwarded loads) */
    bool core_blocked, memory_blocked;
    uint32_t timed_checks;     /* warps in a pre-commit check that ends by time */
    uint32_t *ownership;       /* Warp TM's ownership table (one warp checks at a time in the model) */
    ref_table cat;             /* EA/PG's conflict address table (tmu_cat.c; allocated at the first update) */
    tmu_history history;
    bool recording;
    struct {
        uint64_t commits, aborts, aborts_validation, aborts_intra_warp, aborts_early, aborts_timeout, aborts_fault;
        uint64_t cat_updates, cat_overflows, cat_lookups, cat_hits;
        uint64_t pauses, paused_lanes, resumes, pause_lookups, pause_hits;
        uint64_t tcd_commits, commit_cycles, log_bytes, messages;
        uint64_t tx_loads, tx_stores, log_answered_lanes, forwarded_loads, passed_through;
        simtx_histogram read_set, write_set, aborts_per_tx, commit_duration, cat_update_latency;
    } stats;
    struct {
        uint64_t tx_warps, committing, cat_occupancy, paused_lanes;
    } probes;
};

/* tm_unit.c: failing the run; the queues. */
void tmu_fail(tmu *u, const char *format, ...) __attribute__((format(printf, 2, 3)));
bool tmu_queue_push(tmu *u, tmu_queue *q, const simtx_msg *msg, uint64_t ready);
/* A TM protocol request (counted, tagged with the core) for the ldst socket. */
bool tmu_push(tmu *u, const simtx_msg *msg);

/* tmu_access.c: the logs and the transactional accesses. */
static inline tm_entry *tmu_log_find(tmu_log *log, uint32_t word)
{
    for (uint32_t i = 0; i < log->count; i++)
        if (log->entries[i].address == word) return &log->entries[i];
    return NULL;
}
bool tmu_log_append(tmu *u, tmu_log *log, uint32_t word, uint32_t value);
/* A beat of a transactional request from the core. */
void tmu_access_beat(tmu *u, const simtx_msg *msg, uint64_t now);
/* A response to a forwarded load (id tagged TMU_LOAD_TAG). */
void tmu_access_response(tmu *u, const simtx_msg *msg, uint64_t now);
void tmu_access_release(tmu *u);

/* tmu_tx.c: the tx.h events, the commit's common steps, the TM responses. */
void tmu_tx_event(tmu *u, const simtx_msg *msg, uint64_t now);
void tmu_tx_response(tmu *u, const simtx_msg *msg, uint64_t now);
/* Pre-commit checks from `stage` on, then commit IDs (or the end of the commit). */
void tmu_precommit_continue(tmu *u, tmu_warp *w, uint32_t warp, uint32_t stage, uint64_t now);
/* A pre-commit check that ends after `cycles` (beyond the commit's earlier
 * timed checks, which it overlaps); the chain goes on from next_stage then.
 * False when the earlier checks already covered it (go on at once). */
bool tmu_start_timed_check(tmu *u, tmu_warp *w, uint32_t next_stage, uint64_t cycles, uint64_t now);
/* Each cycle while timed checks run: ends those due; the earliest cycle one ends, SIMTX_NEVER if none. */
uint64_t tmu_timed_checks_cycle(tmu *u, uint64_t now);
/* Every committing lane is resolved: TX_COMMIT's response. */
void tmu_finish_commit(tmu *u, tmu_warp *w, uint32_t warp, uint64_t now);
void tmu_tx_release(tmu *u);

/* The commit policies drive the shared log walker (tm_lazy_walker.h); its
 * messages are tagged for the warp, counted and queued by the emitter. */
typedef struct tmu_walk {
    tmu *u;
    tmu_warp *w;
    uint32_t warp;
    const uint8_t *lane_of; /* transaction index -> lane (NULL: the index is the lane) */
    bool coalesced;         /* Warp TM's message forms and response kinds */
} tmu_walk;

tm_walker tmu_walker(tmu *u, tmu_walk *walk);

static inline tm_walk_tx tmu_walk_tx(const tmu_lane *lane)
{
    return (tm_walk_tx){lane->reads.entries, lane->writes.entries, lane->reads.count, lane->writes.count, lane->cid};
}

/* tmu_cat.c: EA/PG's conflict address table, kept from the commit units'
 * notifications (protocols/notify.h): the written (TMU_CAT_WRITTEN) and read
 * (TMU_CAT_READ) bits of a word among committing transactions. */
enum { TMU_CAT_WRITTEN = 1, TMU_CAT_READ = 2 };
void tmu_cat_notify(tmu *u, const simtx_msg *msg, uint64_t now);
uint32_t tmu_cat_bits(tmu *u, uint32_t address);
void tmu_cat_release(tmu *u);

/* tmu_history.c: the commit records. */
void tmu_record_commit(tmu *u, const tmu_lane *lane, uint32_t cid, uint32_t after);
void tmu_history_release(tmu *u);

#endif
