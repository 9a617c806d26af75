/* warp_sched: which warps may issue when (the due and waiting sets), why the others stall, and the room waiters. */
#ifndef SIMTX_WARP_SCHED_H
#define SIMTX_WARP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#define NO_SLOT UINT32_MAX

/* Why no instruction issued in a cycle (the stall_reason probe). */
typedef enum stall_reason {
    STALL_NONE,       /* an instruction issued */
    STALL_IDLE,       /* no warp resident */
    STALL_SCOREBOARD, /* operands not ready (incl. loads in flight) */
    STALL_PIPELINE,   /* branch shadow or one-per-cycle per warp */
    STALL_MEMORY,     /* LD/ST unit busy or request queue full */
    STALL_BARRIER,    /* every ready warp waits at a barrier */
    STALL_REASONS
} stall_reason;

extern const char *const warp_sched_stall_names[STALL_REASONS];
extern const char *const warp_sched_stall_docs[STALL_REASONS];

/* The scheduler's view of a warp (set only by warp_sched_set_hot): no
 * issue before ready_at (0: now; UINT64_MAX: not resident, at a barrier,
 * finished, or until a load returns). */
typedef struct warp_hot {
    uint64_t ready_at;
    uint8_t reason; /* stall_reason behind ready_at */
} warp_hot;

typedef struct warp_sched {
    bool lrr;                   /* loose round-robin, else greedy-then-oldest */
    warp_hot *hot;
    uint32_t *last_issued;      /* per scheduler: a slot it owns, or NO_SLOT */
    /* Sets of warp slots, one bit each, so that a cycle visits only the
     * warps that may issue rather than every slot: */
    uint32_t warp_set_words;
    uint64_t *due_warps;        /* ready_at has come: the ones exec_warp_ready() decodes */
    uint64_t *waiting_warps;    /* ready_at is a known future cycle */
    uint64_t earliest_waiting;  /* no waiting warp is due before (exact after warp_sched_promote_due) */
    uint32_t not_due_reasons[STALL_REASONS]; /* warps not due, by hot reason: a stalled cycle's worst reason */
    uint64_t *scheduler_warps;  /* per scheduler: the slots it owns */
    uint64_t *room_waiters;     /* warps whose memory instruction found no pending entry or queue room */
    uint32_t room_waiter_count;
} warp_sched;

/* Sets for `warps` slots shared among `schedulers`, every warp idle;
 * false when out of memory. */
bool warp_sched_init(warp_sched *s, uint32_t warps, uint32_t schedulers, bool lrr);
void warp_sched_release(warp_sched *s);

static inline void warp_set_add(uint64_t *set, uint32_t i) { set[i >> 6] |= 1ull << (i & 63); }
static inline void warp_set_remove(uint64_t *set, uint32_t i) { set[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool warp_set_has(const uint64_t *set, uint32_t i) { return (set[i >> 6] >> (i & 63)) & 1; }

/* The first slot in [from, end) that is in both sets, or NO_SLOT. */
static inline uint32_t warp_set_next(const uint64_t *set, const uint64_t *within, uint32_t from, uint32_t end)
{
    for (uint32_t word = from >> 6; from < end && word <= (end - 1) >> 6; word++) {
        uint64_t bits = set[word] & within[word];
        if (word == from >> 6) bits &= UINT64_MAX << (from & 63);
        if (!bits) continue;
        uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
        return i < end ? i : NO_SLOT;
    }
    return NO_SLOT;
}

/* When warp i may issue next and why not before; keeps the due and
 * waiting sets and the reason counts. */
void warp_sched_set_hot(warp_sched *s, uint32_t i, uint64_t ready_at, stall_reason reason);

/* Waiting warps whose cycle has come become due; earliest_waiting becomes
 * exact. Inlined into the cycle (called once or twice there). */
static inline __attribute__((always_inline)) void warp_sched_promote_due(warp_sched *s, uint64_t now)
{
    uint64_t earliest = UINT64_MAX;
    for (uint32_t word = 0; word < s->warp_set_words; word++)
        for (uint64_t bits = s->waiting_warps[word]; bits; bits &= bits - 1) {
            uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
            const warp_hot *h = &s->hot[i];
            if (h->ready_at > now) {
                if (h->ready_at < earliest) earliest = h->ready_at;
                continue;
            }
            warp_set_remove(s->waiting_warps, i);
            warp_set_add(s->due_warps, i);
            s->not_due_reasons[h->reason]--;
        }
    s->earliest_waiting = earliest;
}

/* A warp whose memory instruction found no room sleeps until room frees. */
static inline void warp_sched_wait_for_room(warp_sched *s, uint32_t i)
{
    warp_sched_set_hot(s, i, UINT64_MAX, STALL_MEMORY);
    warp_set_add(s->room_waiters, i);
    s->room_waiter_count++;
}

/* A pending entry or queue room freed: the oldest warp waiting for room
 * may try again (what GTO would pick; LRR sees the same order). Callers check that one
 * waits (mostly none does: no call). */
struct warp;
void warp_sched_release_room_waiter(warp_sched *s, const struct warp *warps);

#endif
