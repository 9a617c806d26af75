/* tx_client: the core's side of protocols/tx.h: the warp's transaction as
 * the core keeps it (the SIMT stack's Retry and Transaction entries, the
 * register checkpoint, the private stack's undo log, tokens, the attempt's
 * timeout, flattened nesting) and the events it sends to the tm_unit. The
 * core knows no TM design: logs, checks and the commit protocol are the
 * tm_unit's. */
#ifndef SIMTX_TX_CLIENT_H
#define SIMTX_TX_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_image.h"
#include "simt_core.h"
#include "simtx_msg.h"
#include "tx.h"

#ifndef MAX_LANES
#define MAX_LANES 64
#endif

typedef struct warp warp;

/* Old bytes of the private stack a transaction overwrote (undone on abort). */
typedef struct local_undo {
    uint32_t offset, old;
    uint32_t size;
} local_undo;

typedef struct tx_lane {
    local_undo *undo;
    uint32_t undo_count;
    size_t undo_capacity;
    uint32_t depth; /* flattened nesting */
} tx_lane;

/* IDLE: no transaction; WAIT_BEGIN: TX_BEGIN or TX_RESUME sent, not
 * answered (the warp issues nothing of the attempt); RUNNING; WAIT_COMMIT:
 * TX_COMMIT sent. */
enum { TX_IDLE, TX_WAIT_BEGIN, TX_RUNNING, TX_WAIT_COMMIT };

typedef struct tx_warp {
    int phase;
    uint32_t begin_pc, commit_pc, commit_rd;
    uint32_t retry_index; /* stack index of the Retry entry */
    uint64_t committing;  /* lanes of the TX_COMMIT awaiting its outcome */
    uint32_t *checkpoint; /* registers and fcsr at tx_begin, [WARP_ROWS][lanes] */
    uint32_t attempt;     /* the warp's attempt number (TX_BEGIN's aux) */
    uint64_t attempt_start, attempt_instructions;
    /* TX_BEGIN's answer: a part resumed after a pause keeps it, so its time
     * (statistics, wasted cycles) includes the pause, as the paper's
     * transaction length does; attempt_start (the timeout) restarts. */
    uint64_t round_start;
    bool abort_requested;
    int abort_cause;      /* TX_ROLLBACK_TIMEOUT or TX_ROLLBACK_FAULT */
    uint64_t abort_lanes; /* lanes the tm_unit aborted (TX_ABORT, tx.h 6): rolled back with abort_requested's wait */
    uint64_t timeout;     /* doubles after each timeout abort, so long but correct transactions finish */
    uint32_t fault_aborts; /* consecutive fault aborts: a transaction that always faults is a kernel bug */
    uint32_t fault_pc;
    /* Pause-and-Go: the tm_unit said (TX_BEGIN's or TX_RESUME's answer)
     * that its accesses may pause lanes, so each transactional request asks
     * for a verdict and the warp issues nothing while one is outstanding
     * (tx.h 2). */
    bool may_pause;
    /* TX_BEGIN's answer said attempts are never doomed (TX_BEGIN_CONSISTENT):
     * a fault inside one fails the run. */
    bool consistent;
    /* Lanes a verdict aborted with TX_VERDICT_RETRY_AT_COMMIT this attempt:
     * when they were the last running, the warp walks to tx_commit empty
     * (walking, since walk_start) before the re-run (tx.h, THE EMPTY WALK). */
    uint64_t retry_at_commit;
    bool walking;
    uint64_t walk_start;
    uint32_t verdicts_pending;
    /* TX_COMMIT's outcome asked for a serialised retry (tx.h 3): the next
     * attempt runs the lowest retry lane, the others wait in Retry. */
    uint8_t serialize;
    tx_lane lane[MAX_LANES];
} tx_warp;

/* tx.h events waiting for the ldst socket (sent before the LD/ST beats). */
typedef struct tx_queue {
    simtx_msg *messages;
    size_t head, length, capacity;
} tx_queue;

static inline bool tx_client_active(const tx_warp *tx) { return tx && tx->phase != TX_IDLE; }
/* Inside a transaction that may be doomed: a fault aborts it rather than the run. */
static inline bool tx_client_may_be_doomed(const tx_warp *tx) { return tx_client_active(tx) && !tx->consistent; }

/* One instruction of an empty walk (tx.h): k the decoded instruction at
 * the Transaction entry's pc (NULL: outside the text); at tx_commit, or
 * outside the transaction's body, the walk ends and the lanes re-run. */
void tx_client_walk(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint64_t now);

void tx_client_release(simt_core *c);
void tx_client_release_warp(tx_warp *tx);

/* tx_begin of the outer transaction for the lanes of mask (nested ones are flattened by the caller). */
bool tx_client_begin(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now);
/* tx_commit of the outer transaction: rd receives 1 in committed lanes. */
void tx_client_commit(simt_core *c, warp *w, uint32_t warp_index, uint32_t rd, uint64_t mask, uint64_t now);
/* With no access in flight: rolls back the lanes the tm_unit aborted
 * (TX_ABORT), then, if asked and lanes still run, the whole doomed attempt
 * (fault or timeout, TX_ROLLBACK). */
void tx_client_abort_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now);
/* Whether the warp must roll lanes back before it issues again. */
static inline bool tx_client_abort_pending(const tx_warp *tx) { return tx->abort_requested || tx->abort_lanes; }
/* An unsolicited event of the tm_unit on the tx_events socket (TX_ABORT). */
void tx_client_event(simt_core *c, const simtx_msg *msg, uint64_t now);
/* Asks for the attempt's abort (a fault the doomed attempt may cause). */
static inline void tx_client_request_abort(tx_warp *tx, int cause, uint32_t pc)
{
    tx->abort_requested = true;
    tx->abort_cause = cause;
    tx->fault_pc = pc;
}
/* The verdict of the warp's transactional access at pc (tx.h 2): its
 * paused lanes wait in a Paused entry, and the warp may issue again. */
void tx_client_verdict(simt_core *c, warp *w, uint32_t warp_index, uint32_t pc, const simtx_msg *msg, uint64_t now);
/* A tx.h response on the ldst socket. */
void tx_client_response(simt_core *c, const simtx_msg *msg, uint64_t now);
/* The token a transactional warp holds: free it and wake the waiters. */
void tx_client_release_token(simt_core *c);
bool tx_client_undo_append(simt_core *c, tx_lane *lane, uint32_t offset, uint32_t old, uint32_t size);

#endif
