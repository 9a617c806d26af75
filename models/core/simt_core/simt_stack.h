/* simt_stack: a warp's IPDOM reconvergence stack, with the Retry and Transaction entries of a transaction. */
#ifndef SIMTX_SIMT_STACK_H
#define SIMTX_SIMT_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Entry kinds. A transaction (KILO TM) keeps two entries above its parent:
 * Retry collects the lanes that failed to commit, Transaction runs the
 * attempt. Pause-and-Go (HPCA'16 Figure 6) parks lanes the tm_unit paused in
 * a Paused entry between Retry and the running Transaction entry, with
 * log_index where their log resumes (tx.h). It is the paused lanes' copy of
 * the Transaction entry; the divergent and call entries they were inside
 * follow it, copied for them (so they reconverge and return as they would
 * have), the last one's pc the paused access; a single Paused entry's pc is
 * the access. A later pause goes right below the running entry, so the
 * newest paused lanes resume first (Figure 7); a resumed Paused entry turns
 * Transaction. */
typedef enum simt_stack_kind { ENTRY_NORMAL, ENTRY_RETRY, ENTRY_TRANSACTION, ENTRY_PAUSED } simt_stack_kind;

typedef struct stack_entry {
    uint32_t pc, reconverge;
    uint64_t mask;
    bool is_call;
    bool at_barrier;    /* its lanes wait at a CTA barrier, pc after it (simt_stack_park_top) */
    uint8_t kind;       /* simt_stack_kind */
    uint32_t log_index; /* ENTRY_PAUSED, and a Transaction entry resumed from one: where its lanes' log resumed (tx.h) */
} stack_entry;

/* Reconvergence pc of Retry/Transaction entries: never an instruction
 * address, so only the commit pops them. */
#define TX_NO_RECONVERGE 0xfffffffeu

/* Deepest stack a warp may build (runaway recursion fails the run). */
#define SIMT_STACK_MAX_DEPTH 4096

typedef struct simt_stack {
    stack_entry *entries;
    uint32_t depth;
    uint32_t capacity;
} simt_stack;

typedef enum simt_stack_status {
    SIMT_STACK_OK,
    SIMT_STACK_TOO_DEEP,  /* SIMT_STACK_MAX_DEPTH entries already */
    SIMT_STACK_NO_MEMORY,
} simt_stack_status;

/* What reconvergence left: the warp runs on, finished (no entry left), or
 * finished because a return reached the exit pc inside a region (an
 * internal error the caller reports). */
typedef enum simt_stack_state { SIMT_STACK_RUNNING, SIMT_STACK_FINISHED, SIMT_STACK_BROKEN } simt_stack_state;

/* An empty stack with room for `capacity` entries; false when out of memory. */
bool simt_stack_init(simt_stack *s, uint32_t capacity);
void simt_stack_release(simt_stack *s);

/* Starts a warp: one entry at entry_pc for the lanes of mask, reconverging at exit_pc. */
void simt_stack_start(simt_stack *s, uint32_t entry_pc, uint32_t exit_pc, uint64_t mask);

static inline stack_entry *simt_stack_top(simt_stack *s) { return &s->entries[s->depth - 1]; }

simt_stack_status simt_stack_push(simt_stack *s, uint32_t pc, uint32_t reconverge, uint64_t mask, bool is_call);

/* Pops reconverged and emptied entries. exit_pc: where a kernel's top
 * entry ends; a return there inside a region is BROKEN, the entry left on
 * top for the caller's report. */
simt_stack_state simt_stack_reconverge(simt_stack *s, uint32_t exit_pc);

/* tx_begin at begin_pc for the lanes of mask, its tx_commit at commit_pc:
 * the parent entry continues after tx_commit once every lane committed,
 * a Retry entry (empty) and a Transaction entry (mask) run from
 * begin_pc + 4. *retry_index: the Retry entry's index. */
simt_stack_status simt_stack_open_transaction(simt_stack *s, uint32_t begin_pc, uint32_t commit_pc, uint64_t mask,
                                              uint32_t *retry_index);

/* The lanes of `lanes` failed their attempt: they wait in the Retry entry. */
static inline void simt_stack_retry_lanes(simt_stack *s, uint32_t retry_index, uint64_t lanes) { s->entries[retry_index].mask |= lanes; }

/* The running attempt's Transaction entry: the only one above Retry (Paused
 * entries and their segments below it, its divergent entries above). */
static inline uint32_t simt_stack_attempt_index(const simt_stack *s, uint32_t retry_index)
{
    uint32_t e = s->depth - 1;
    while (e > retry_index + 1 && s->entries[e].kind != ENTRY_TRANSACTION) e--;
    return e;
}

/* The running attempt's lanes (its Transaction entry). */
static inline uint64_t simt_stack_attempt_lanes(const simt_stack *s, uint32_t retry_index)
{
    return s->entries[simt_stack_attempt_index(s, retry_index)].mask;
}

/* An unsolicited abort (tx.h 6): `lanes` of the running attempt leave its
 * entries (the Transaction entry and the divergent and call entries above
 * it) for the Retry entry. Emptied entries above are left for
 * simt_stack_reconverge. */
static inline void simt_stack_abort_lanes(simt_stack *s, uint32_t retry_index, uint64_t lanes)
{
    for (uint32_t e = simt_stack_attempt_index(s, retry_index); e < s->depth; e++) s->entries[e].mask &= ~lanes;
    simt_stack_retry_lanes(s, retry_index, lanes);
}

/* Pause-and-Go: the lanes of `lanes` (some of the running attempt's, all in
 * the top entry) stop at the access at pc. They leave the attempt's entries
 * (the Transaction entry and the divergent and call entries above it) and
 * wait below it in a Paused entry with log_index, followed by their copies
 * of those entries (the last at pc). Emptied entries above are left for
 * simt_stack_reconverge. */
simt_stack_status simt_stack_pause(simt_stack *s, uint32_t retry_index, uint32_t pc, uint64_t lanes, uint32_t log_index);

/* What follows a settled attempt. */
typedef enum simt_settle {
    SIMT_SETTLE_DONE,   /* every lane committed: the parent continues after tx_commit */
    SIMT_SETTLE_RERUN,  /* Retry's lanes re-run from begin_pc + 4 (a new attempt) */
    SIMT_SETTLE_RESUME, /* the newest Paused entry's lanes resume (now the Transaction entry; its segment above) */
} simt_settle;

/* After a commit or an abort emptied the running Transaction entry: the
 * newest Paused entry resumes; without one, the Retry entry's lanes re-run
 * from begin_pc + 4 under a fresh Transaction entry; with none left the
 * Retry entry pops and the parent continues after tx_commit. */
simt_stack_status simt_stack_settle_transaction(simt_stack *s, uint32_t retry_index, uint32_t begin_pc, simt_settle *next);

/* CTA barriers count threads (per-thread semantics, as on Volta and later
 * GPUs): the lanes of the top entry that reach a barrier wait there in
 * their entry while the warp's other lanes run on to it. An entry is a
 * leaf when no entry above it shares a lane (IPDOM entries nest, so no
 * lane of it has diverged further); a leaf not waiting at the barrier can
 * run next whatever its place in the stack: the lanes of the entries above
 * it are disjoint from its own, and its parents stay below it. */

/* The top entry's lanes reached a barrier: they wait there and resume at
 * resume_pc. The entry stays (not popped even if resume_pc is its
 * reconvergence) until simt_stack_release_barrier. */
static inline void simt_stack_park_top(simt_stack *s, uint32_t resume_pc)
{
    s->entries[s->depth - 1].pc = resume_pc;
    s->entries[s->depth - 1].at_barrier = true;
}

/* Moves the highest leaf with lanes not waiting at the barrier to the top;
 * false when there is none (every lane of the warp waits at the barrier,
 * has finished, or waits to reconverge with lanes that do). */
bool simt_stack_run_other_leaf(simt_stack *s);

/* With no leaf to run: the lanes neither at the barrier nor finished (every
 * entry holding a finished lane is at exit_pc), which wait to reconverge
 * past the barrier and then run on at *pc; 0 when none. */
uint64_t simt_stack_lanes_past_barrier(const simt_stack *s, uint32_t exit_pc, uint32_t *pc);

/* The barrier released: every waiting entry runs on (the top first), those
 * at their reconvergence pc popped by the next simt_stack_reconverge. */
void simt_stack_release_barrier(simt_stack *s);

/* The lanes of mask leave every entry (thread exit). */
void simt_stack_remove_lanes(simt_stack *s, uint64_t mask);

#endif
