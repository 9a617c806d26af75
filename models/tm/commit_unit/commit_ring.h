/* commit_ring: the commit-ID window of a commit unit, usable by any
 * commit-unit variant. Commit IDs are global and processed in order: the
 * ring keeps `window` live IDs (slots indexed by ID mod window) and three
 * pointers, all in ID order: the next ID for hazard detection
 * (hazard_cid), the next to write back (writeback_cid) and the oldest not
 * yet retired (retire_cid). It also holds the requests answered once for
 * several IDs (groups), the requests that wait for older IDs to retire
 * (held), and the work queues of IDs that may validate or complete.
 * Retirement (commit_ring_retire) frees IDs in order and wakes the IDs
 * whose validation waited for them. */
#ifndef SIMTX_COMMIT_RING_H
#define SIMTX_COMMIT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tm_lazy.h"

/* Commit-ID states at this unit (after KILO TM's commit entry states). */
enum {
    COMMIT_SLOT_FREE,       /* nothing heard of this ID yet */
    COMMIT_SLOT_FILL,       /* log entries arriving */
    COMMIT_SLOT_SKIP,       /* no entries here */
    COMMIT_SLOT_CHECKED,    /* hazard detection done, validation may start */
    COMMIT_SLOT_VALIDATING, /* validation reads issued */
    COMMIT_SLOT_VALIDATED,  /* outcome sent, waiting for the decision */
    COMMIT_SLOT_COMMITTING, /* writing back */
    COMMIT_SLOT_DONE,       /* committed and acknowledged, or aborted */
};

typedef struct commit_log {
    tm_entry *entries;
    uint32_t count, capacity;
} commit_log;

typedef struct commit_slot {
    uint32_t cid;
    uint8_t state;
    bool done_received, has_decision, commit, hazard;
    uint32_t expected_reads, expected_writes;
    commit_log reads, writes;
    int32_t done_group, decision_group; /* the held requests answering this ID (groups) */
    uint8_t done_bit;                   /* this ID's bit in its TM_LOG_DONE's outcome mask */
    uint32_t first_waiter, next_waiter; /* IDs whose validation waits for this one to retire (0: none) */
    int32_t core, warp;                 /* who sent its TM_LOG_DONE (-1: unknown) */
    uint32_t hazard_progress; /* entries through hazard detection, reads first */
    uint32_t wait_for_cid;    /* validation waits until this ID retired (0: none) */
    uint32_t validation_issued, validation_returned;
    bool validation_failed;
    uint32_t writeback_issued, writeback_acked;
    uint64_t done_cycle, checked_cycle, decision_cycle;
} commit_slot;

/* A held request answered once for several IDs: a TM_LOG_DONE (response:
 * the mask of IDs that passed) or a TM_DECISION (response: the write-back
 * acknowledgement). The single-ID forms are groups of one. */
typedef struct commit_group {
    simtx_msg request;
    uint32_t pending; /* IDs still to validate / to write back */
    uint64_t mask;    /* outcome bits so far */
} commit_group;

/* Messages put aside until the ring can take them, in arrival order. It
 * grows: refusing one could block the decisions it waits for. */
typedef struct commit_held {
    simtx_msg *messages;
    size_t length, capacity;
} commit_held;

typedef struct commit_ring {
    commit_slot *slots;
    uint32_t window;
    uint32_t hazard_cid, writeback_cid, retire_cid;
    commit_group *groups; /* 2 x window of them: each holds at least one live ID */
    int32_t *free_groups;
    uint32_t free_group_count;
    commit_held queries; /* TCD queries waiting for older IDs to retire */
    commit_held beyond;  /* log, TM_LOG_DONE and TM_SKIP messages for IDs past the window */
    uint32_t *validate_queue; /* IDs that may validate, oldest first (window of them) */
    uint32_t *complete_queue; /* IDs that finished validating or writing back (2 x window) */
    size_t validate_head, validate_length, complete_head, complete_length;
} commit_ring;

/* All pointers at ID 1 (0 means no ID). False when out of memory (then
 * commit_ring_release frees what was taken). */
bool commit_ring_init(commit_ring *ring, uint32_t window);
void commit_ring_release(commit_ring *ring);

static inline bool commit_ring_in_window(const commit_ring *ring, uint32_t cid)
{
    return cid >= ring->retire_cid && cid - ring->retire_cid < ring->window;
}

/* The slot cid maps to (it holds cid only if slot->cid == cid). */
static inline commit_slot *commit_ring_slot(commit_ring *ring, uint32_t cid) { return &ring->slots[cid % ring->window]; }

/* The slot of cid, turned from FREE into FILL; NULL when it holds another
 * ID or is past FILL (a protocol error the caller reports). */
commit_slot *commit_ring_open(commit_ring *ring, uint32_t cid);

/* Every log entry and the TM_LOG_DONE of the slot are in. */
static inline bool commit_ring_slot_complete(const commit_slot *s)
{
    return s->state == COMMIT_SLOT_FILL && s->done_received && s->reads.count == s->expected_reads &&
           s->writes.count == s->expected_writes;
}

/* False when out of memory. */
bool commit_log_append(commit_log *log, tm_entry entry);

/* A free group for request (the caller checks free_group_count first). */
int32_t commit_ring_group_open(commit_ring *ring, const simtx_msg *request);
void commit_ring_group_free(commit_ring *ring, int32_t group);

/* Holds a message until the caller takes it back (commit_ring_unhold);
 * false when out of memory. */
bool commit_ring_hold(commit_held *held, const simtx_msg *message);
void commit_ring_unhold(commit_held *held, size_t index);

static inline void commit_ring_queue_validation(commit_ring *ring, uint32_t cid)
{
    ring->validate_queue[(ring->validate_head + ring->validate_length++) % ring->window] = cid;
}

static inline void commit_ring_queue_completion(commit_ring *ring, uint32_t cid)
{
    ring->complete_queue[(ring->complete_head + ring->complete_length++) % (2 * (size_t)ring->window)] = cid;
}

/* The oldest queued ID (the queue must not be empty), and its removal. */
static inline uint32_t commit_ring_next_validation(const commit_ring *ring)
{
    return ring->validate_queue[ring->validate_head];
}

static inline void commit_ring_pop_validation(commit_ring *ring)
{
    ring->validate_head = (ring->validate_head + 1) % ring->window;
    ring->validate_length--;
}

static inline uint32_t commit_ring_next_completion(const commit_ring *ring)
{
    return ring->complete_queue[ring->complete_head];
}

static inline void commit_ring_pop_completion(commit_ring *ring)
{
    ring->complete_head = (ring->complete_head + 1) % (2 * (size_t)ring->window);
    ring->complete_length--;
}

/* Retires, in ID order, the written-back IDs that are skipped or done:
 * their slots become free and the IDs waiting for them are queued for
 * validation. Returns how many retired. */
uint32_t commit_ring_retire(commit_ring *ring);

#endif
