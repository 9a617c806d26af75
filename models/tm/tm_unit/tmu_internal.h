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
#define TMU_MAX_PRECOMMIT 5 /* each check at most once */
#define TMU_MAX_FILTERS 4
#define TMU_MAX_CAUSES 8 /* abort causes the slots name */

/* Ids of the unit's own requests on the ldst socket: the lazy TM protocol
 * (bit 62) and the loads it forwards (bit 61); tx.h reserves both bits. */
#define TMU_TM_TAG (UINT64_C(1) << 62)
#define TMU_LOAD_TAG (UINT64_C(1) << 61)

enum { TMU_KIND_CID = 1, TMU_KIND_ACK, TMU_KIND_OUTCOME, TMU_KIND_DECISION, TMU_KIND_WARP_OUTCOME, TMU_KIND_WARP_DECISION,
       TMU_KIND_LWT, TMU_KIND_FILTER = 16 /* + the filter's index: its own requests */ };

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
    uint32_t cid;      /* 0: no commit ID (empty, or committed by a pre-commit check) */
    uint32_t ended_cid; /* the commit ID its last attempt took (0: none), kept past the reset at its end for the attempt_ended hooks */
    uint32_t attempts; /* aborts before the running attempt */
    bool passed;
    /* A pre-commit check committed the lane without a commit ID (TCD's
     * read-only lanes): it serializes right after ID serial_after. */
    bool check_committed;
    /* Its reads are not validated at commit (set by a commit path that
     * sends no read log): recorded TM_UNIT_RECORD_UNVALIDATED. */
    bool unvalidated;
    uint32_t serial_after;
    /* The counter of the abort cause a slot failed the lane with (its
     * aborts_<cause>); NULL: the commit units' validation. */
    uint64_t *abort_cause;
    /* Pause-and-Go: paused at the warp's log position pause_index, with
     * these many read and write entries (TX_RESUME truncates back to them;
     * a load the lane issued before the pause may log its words later) */
    bool paused;
    uint32_t pause_index, pause_reads, pause_writes;
    uint32_t pauses; /* in the running attempt */
} tmu_lane;

/* TMU_STARTING: TX_BEGIN held by a filter (its begin hook) until it calls
 * tmu_begin_ready; TMU_CHECK_WAIT: a pre-commit check waits for the memory
 * side; TMU_CONFLICT_CHECK: a pre-commit check that ends by time. */
enum { TMU_IDLE, TMU_RUNNING, TMU_CHECK_WAIT, TMU_CONFLICT_CHECK, TMU_WAIT_CID, TMU_VALIDATING, TMU_STARTING };

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
    uint64_t aborted;          /* lanes a filter aborted (TX_ABORT sent) that the core may still name until the attempt ends */
    uint32_t attempt;          /* TX_BEGIN's attempt number (TX_ABORT's transaction_id) */
    uint32_t log_position;     /* the warp's log pointer: transactional accesses of the attempt so far (tx.h 5) */
    int32_t core, cta;
    simtx_msg commit_event;    /* the TX_COMMIT being answered (header only) */
    uint32_t precommit_resume; /* the pre-commit stage after the running check */
    uint64_t committing;       /* lanes at TX_COMMIT (0 outside a commit) */
    uint64_t committed;        /* while the attempt_ended hooks run after a commit: its committed lanes (else 0) */
    uint32_t unresolved;       /* committing lanes still waiting for the commit units */
    uint64_t commit_start;
    uint32_t in_flight;        /* transactional requests not yet answered */
    uint64_t check_done_at;
    uint64_t check_cycles;     /* the commit's timed checks so far (an overlapping check adds only its excess) */
    uint32_t begin_holds;      /* filters holding TX_BEGIN (TMU_STARTING) */
    simtx_msg begin_event;     /* the TX_BEGIN they hold (header only) */
    /* The attempt's read stamp (ldst.h: every ID below it is in its loads' values) */
    uint32_t read_stamp;
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

/* SLOTS. Every slot kind owns its state: create (may be NULL) makes it,
 * with the unit's parameters at hand (u->params) and its place in the
 * unit's slot list (index), destroy frees it; every hook gets it back.
 * Per-warp state lives there too (tmu_slot_warps below), never in the
 * shared tmu_warp/tmu_lane. A slot that fails lanes names its abort cause
 * (abort_cause, statistic aborts_<cause>): tmu_lane.abort_cause. */
typedef bool (*tmu_slot_create)(void **state, tmu *u, uint32_t index, char *error, size_t error_size);

/* The commit slot: how logs and decisions travel once the lanes hold commit
 * IDs (per transaction, KILO TM; warp-coalesced, Warp TM). */
typedef struct tmu_commit_policy {
    const char *name;
    tmu_slot_create create;
    void (*destroy)(void *state);
    /* The commit IDs arrived (lane->cid, consecutive in lane order): send
     * the committing lanes' logs. */
    void (*send_logs)(void *state, tmu *u, tmu_warp *w, uint32_t warp);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(void *state, tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tmu_commit_policy;

/* A pre-commit check (temporal conflict detection; Warp TM's intra-warp
 * check; Early-Abort), run in the configured order at TX_COMMIT before
 * commit IDs. Every hook may be NULL. */
typedef struct tmu_precommit {
    const char *name;
    /* The cause of the lanes it fails and its description (NULL: it fails none). */
    const char *abort_cause, *abort_description;
    tmu_slot_create create;
    void (*destroy)(void *state);
    /* At TX_COMMIT: true when the check runs on; it then calls
     * tmu_precommit_continue(..., next_stage, ...) when done. */
    bool (*check)(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now);
    /* A response of this policy's kinds; false: not one of them. */
    bool (*response)(void *state, tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t lane, const simtx_msg *msg, uint64_t now);
} tmu_precommit;

/* An access filter (Pause-and-Go; SI-TM's snapshot reads to come): it sees
 * the attempt's start, every transactional request of a running attempt
 * before the logs serve it, the loads forwarded to memory, the responses
 * to its own requests and the notifications. Every hook may be NULL. */
typedef struct tmu_filter {
    const char *name;
    bool pauses; /* it may pause lanes: TX_BEGIN's and TX_RESUME's answers say so (tx.h 2) */
    /* The cause of the lanes it aborts (TX_ABORT, tx.h 6) and its description; NULL: it aborts none. */
    const char *abort_cause, *abort_description;
    unsigned tx_abort_cause; /* TX_ABORT's aux (tx.h TX_ABORT_*) */
    /* It aborts lanes itself (tmu_abort_lanes) with a counter of its own,
     * registered only by the units that run it; tx_events must be bound. */
    bool aborts;
    tmu_slot_create create;
    void (*destroy)(void *state);
    /* TX_BEGIN of `lanes`: true holds the attempt (e.g. to fetch a begin
     * timestamp) until the filter calls tmu_begin_ready. */
    bool (*begin)(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now);
    /* Another filter released the TX_BEGIN (tmu_begin_ready) while filters
     * still hold it: what that one fetched (a snapshot) is there now. */
    void (*begin_released)(void *state, tmu *u, uint32_t warp, uint64_t now);
    /* The snapshot filter read the commit clock for the warp's attempt
     * (`bound` = clock - 1: the snapshot's point will be at or below it).
     * A filter with this hook holds the snapshot's ACQUIRE until it calls
     * tmu_snapshot_acquire (at once, or once it was let start: SI-TM's
     * admission, sitm.h 1, so that a transaction the sitm_cc block holds
     * pins no version). */
    void (*clock_read)(void *state, tmu *u, uint32_t warp, uint32_t bound, uint64_t now);
    /* A transactional request of the warp: lanes that should pause in
     * *pause (the unit keeps one lane of the attempt running) and lanes
     * that must abort in *abort (they leave the attempt: TX_ABORT). Returns
     * its cycles, spent before the request is served. */
    uint64_t (*access)(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort);
    /* A load forwarded to memory for the request's lanes: the filter may tag
     * its header (flags, transaction_id; aux bits 32-63, the window size,
     * which the ldst_unit does not use); every beat carries the tags. */
    void (*forward)(void *state, tmu *u, uint32_t warp, const tmu_request *r, simtx_msg *header);
    /* The last response of a load forwarded for the request (ldst.h: its
     * read stamp): the filter may abort lanes (tmu_abort_lanes), which
     * leave the request's answer. */
    void (*loaded)(void *state, tmu *u, uint32_t warp, const tmu_request *r, const simtx_msg *last, uint64_t now);
    /* A response to one of the filter's own requests (ids from tmu_filter_id). */
    void (*response)(void *state, tmu *u, uint32_t warp, uint32_t lane, const simtx_msg *msg, uint64_t now);
    /* A notification (protocols/notify.h) of any kind: it acts on its own kinds. */
    void (*notify)(void *state, tmu *u, const simtx_msg *msg, uint64_t now);
    /* TX_COMMIT of `lanes`, before the pre-commit checks: the attempt loads
     * nothing more (validation reads are the commit units'). */
    void (*commit_started)(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now);
    /* The warp's attempt ended (committed, rolled back or aborted) for
     * `lanes`; those of them that committed are in the warp's `committed`. */
    void (*attempt_ended)(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now);
} tmu_filter;

/* Per-warp state a slot keeps in its own state: zeroed items of `size`
 * bytes, made at the warp's first use (release, if set, frees what an item
 * holds before the item itself). */
typedef struct tmu_slot_warps {
    void **items;
    size_t count, size;
    void (*release)(void *item);
} tmu_slot_warps;

/* The warp's item; NULL after a failure (the run failed). */
void *tmu_slot_warp(tmu *u, tmu_slot_warps *s, uint32_t warp);
void tmu_slot_warps_release(tmu_slot_warps *s);
/* A slot whose whole state is its per-warp items: made with items of
 * `size` bytes (NULL when out of memory), freed with everything it holds. */
tmu_slot_warps *tmu_slot_warps_new(size_t size, void (*release)(void *item));
void tmu_slot_warps_free(void *s);

extern const tmu_commit_policy tmu_commit_per_tx;    /* tmu_commit_per_tx.c */
extern const tmu_commit_policy tmu_commit_coalesced; /* tmu_commit_coalesced.c */
extern const tmu_commit_policy tmu_commit_write_set; /* tmu_commit_per_tx.c */
extern const tmu_precommit tmu_precommit_tcd;        /* tmu_tcd.c */
extern const tmu_precommit tmu_precommit_intra_warp; /* tmu_intra_warp.c */
extern const tmu_precommit tmu_precommit_early_abort; /* tmu_early_abort.c */
extern const tmu_precommit tmu_precommit_snapshot_ro; /* tmu_snapshot_commit.c */
extern const tmu_filter tmu_filter_pause_and_go;     /* tmu_pause.c */
extern const tmu_filter tmu_filter_snapshot;         /* tmu_snapshot.c */
extern const tmu_filter tmu_filter_sitm;             /* tmu_sitm.c */
extern const tmu_precommit tmu_precommit_sitm_wait;  /* tmu_sitm.c */

/* A filter from outside the unit's own list (a testbench's), chosen by name
 * in `filters` like the others; register before creating the unit. False
 * when the list of extra filters is full. */
bool tmu_register_filter(const tmu_filter *filter);

struct tmu {
    tm_unit_params params;
    simtx_env env;
    const tmu_commit_policy *commit;
    void *commit_state;
    const tmu_precommit *precommit[TMU_MAX_PRECOMMIT];
    void *precommit_state[TMU_MAX_PRECOMMIT];
    uint32_t precommit_count;
    const tmu_filter *filter[TMU_MAX_FILTERS];
    void *filter_state[TMU_MAX_FILTERS];
    uint32_t filter_count;
    uint64_t *filter_aborts[TMU_MAX_FILTERS]; /* their abort causes' counters (NULL: none) */
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
    tmu_queue events;          /* TX_ABORTs for the tx_events socket (tx.h 6) */
    bool core_blocked, memory_blocked, events_blocked;
    uint32_t timed_checks;     /* warps in a pre-commit check that ends by time */
    ref_table cat;             /* EA/PG's conflict address table (tmu_cat.c; allocated at the first update) */
    tmu_history history;
    bool recording;
    const char *cause_names[TMU_MAX_CAUSES], *cause_descriptions[TMU_MAX_CAUSES]; /* of stats.aborts_by_cause */
    uint32_t cause_count;
    struct {
        uint64_t commits, aborts, aborts_validation, aborts_timeout, aborts_fault;
        /* the slots' abort causes (every slot of the unit's lists that names one, configured or not) */
        uint64_t aborts_by_cause[TMU_MAX_CAUSES];
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
/* A filter that held TX_BEGIN (its begin hook) is ready: once none holds it, the attempt may run. */
void tmu_begin_ready(tmu *u, uint32_t warp, uint64_t now);
/* Aborts `lanes` of the warp's running attempt (a filter's TX_ABORT, tx.h
 * 6; from its access, response or notify hook): drops their logs, counts
 * them under `cause` and tells the core; returns the lanes it aborted.
 * It refuses lanes at TX_COMMIT (from its arrival to its answer, the
 * pre-commit checks included, which run in the running phase and read
 * the logs): the commit decides them; a filter that must still fail one
 * does so in a pre-commit check (lane->passed, as sitm_wait does). */
uint64_t tmu_abort_lanes(tmu *u, tmu_warp *w, uint32_t warp, uint64_t lanes, uint64_t *cause, unsigned tx_cause, uint64_t now);
/* The id of a filter's own request (its responses come to its response hook). */
uint64_t tmu_filter_id(uint32_t filter_index, uint32_t warp, uint32_t lane);
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
 * messages get the warp and core here, their id (kind, lane) and what the
 * policy then awaits from the policy's tag, and are counted and queued. */
typedef struct tmu_walk tmu_walk;
struct tmu_walk {
    tmu *u;
    tmu_warp *w;
    uint32_t warp;
    const uint8_t *lane_of; /* transaction index -> lane (NULL: the index is the lane) */
    void (*tag)(tmu_walk *walk, simtx_msg *msg, const tm_walk_event *e, uint32_t lane);
    void *policy;           /* the policy's per-warp state, for tag */
};

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

/* The counter of a slot's abort cause (the slot's abort_cause name). */
uint64_t *tmu_abort_cause(tmu *u, const char *cause);

/* tmu_snapshot.c: the snapshot point (the commit point C - 1 it acquired)
 * the warp's attempt read, kept until its next TX_BEGIN; false when it read
 * none (no snapshot filter, or not acquired). */
bool tmu_snapshot_point(tmu *u, uint32_t warp, uint32_t *point);
/* tmu_snapshot.c: a filter's clock_read hook lets the warp's snapshot be
 * acquired now (at the bound it was given, or the slices' boundary below). */
void tmu_snapshot_acquire(tmu *u, uint32_t warp, uint64_t now);
/* tmu_snapshot.c: the warp's starting attempt gives its snapshot back
 * (RELEASE) and reads the clock again (clock_read hooks); once acquired
 * again the filters' begin_released hooks are called. */
void tmu_snapshot_restart(tmu *u, uint32_t warp, uint64_t now);

/* tmu_history.c: the commit records. */
void tmu_record_commit(tmu *u, uint32_t warp, const tmu_lane *lane, uint32_t cid, uint32_t after);
void tmu_history_release(tmu *u);

#endif
