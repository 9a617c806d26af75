/* tmu_sitm: the tm_unit's side of SI-TM's concurrency control
 * (protocols/sitm.h; ISCA'17 §4-5) as an access filter and a pre-commit
 * check.
 *
 * The filter gives the lanes of a warp IDs (a slot among `sitm_warps` per
 * core: ID = (core x sitm_warps + slot) x 32 + lane), starts them at the
 * sitm_cc block at TX_BEGIN once the snapshot filter (before it) acquired
 * the attempt's snapshot (SI_BEGIN with the snapshot's point, which the
 * block holds while a table overflows or commits the snapshot sees have
 * not ended there), reports every word a lane reads from memory or writes
 * (SI_ACCESS: not the words it reads from its own writes or re-reads),
 dooms the lanes a verdict names (single writer, loop, overflow) and the
 * lanes the block did not start (one runs alone after an overflow), and
 * ends them (SI_END, with the lanes that committed and the commit IDs
 * taken) when they leave the attempt. The check `sitm_wait` holds TX_COMMIT until every SI_ACCESS of
 * the warp is answered (section 4.3: every timestamp update a transaction
 * starts finishes before it commits) and fails the doomed lanes there.
 *
 * A verdict aborts its lane at once, as the paper's verdict does: through
 * TX_ABORT (tx.h 6) to the core while the attempt runs (the lane leaves,
 * its SI_END frees its entries, the others run on); a verdict that comes
 * once the attempt reached TX_COMMIT fails the lane there. (An earlier
 * immediate abort lost list inserts on LL2 seed 1; the cause was a snapshot
 * torn across VIT slices and the tables judging visibility by arrival
 * order, both fixed, not the abort.) Its statistics
 * (aborts_single_writer, aborts_loop, aborts_overflow, ...) exist only when
 * it is configured, so other designs' statistics do not change. */
#include <stdlib.h>
#include <string.h>

#include "sitm.h"
#include "tmu_internal.h"

#define SITM_LANES 32
/* Progress: a warp whose attempts committed no lane this many times in a
 * row asks to run alone (sitm.h 1). Lockstep lanes that read and write the
 * same words (GraphCut's vertex count) can doom one another every round,
 * the same way each time; one transaction alone meets no running one. A
 * round in which some lane committed made progress: counting those too (the
 * re-run number) sent a warp whose lanes commit a few per round (a list's
 * inserts) alone for every lane left after 8 rounds, each alone round
 * draining every core. Once alone, the warp's lanes run alone until the
 * transaction's last lane committed (GraphCut's lanes, back in lockstep
 * after one commit alone, doomed one another for 8 more rounds each time). */
#define SITM_ALONE_AFTER 8

typedef struct sitm_warp {
    bool has_slot, begin_waiting, check_waiting;
    uint8_t form;          /* the SI_BEGIN form to send next (sitm.h 1): SNAPSHOT, or ADMIT / ADMITTED after a WAIT */
    bool admitting;        /* an ADMIT form is unanswered */
    uint32_t ends_pending; /* SI_ENDs not yet answered */
    uint32_t slot, base;   /* the slot and the ID of lane 0 */
    uint32_t pending;      /* SI_ACCESS answers awaited */
    uint32_t stage;        /* the pre-commit stage to go on from */
    uint32_t barren;       /* attempts in a row, up to the running one, after which no lane committed */
    bool progressed;       /* a lane of the warp committed since its last TX_BEGIN */
    uint64_t begun;        /* lanes started at the block and not yet ended */
    uint64_t refused;      /* lanes the block did not start (one runs alone after an overflow): they fail at TX_COMMIT */
    uint64_t begin_lanes;  /* a held TX_BEGIN's lanes */
    uint64_t failed;       /* lanes a verdict named after TX_COMMIT */
    uint8_t verdict[SITM_LANES];
} sitm_warp;

typedef struct sitm_filter {
    tmu_slot_warps warps;
    uint32_t index;
    bool *slot_used;
    uint32_t *slot_waiters, waiting, waiters_capacity; /* warps waiting for a slot, in order */
    uint64_t aborts[SITM_VERDICTS];  /* by verdict */
    uint64_t messages, entries, waits, held_commits, begin_waits, aborted_at_once[SITM_VERDICTS];
} sitm_filter;

static bool sitm_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    bool snapshot = false;
    for (uint32_t i = 0; i < u->filter_count; i++) snapshot |= u->filter[i] == &tmu_filter_snapshot;
    if (!snapshot) {
        snprintf(error, error_size, "filters: sitm needs the snapshot filter before it (its SI_BEGIN carries the snapshot's point)");
        return false;
    }
    sitm_filter *s = calloc(1, sizeof *s);
    if (!s) return false;
    s->warps.size = sizeof(sitm_warp);
    s->index = index;
    s->slot_used = calloc((size_t)u->params.sitm_warps, sizeof *s->slot_used);
    if (!s->slot_used) {
        snprintf(error, error_size, "out of memory");
        free(s);
        return false;
    }
    simtx_observer *o = u->env.observer;
    simtx_observe_counter(o, "aborts_single_writer", &s->aborts[SITM_SINGLE_WRITER], "attempts",
                          "aborts: SI-TM's Writer Table found another running writer of a word the lane wrote (sitm)");
    simtx_observe_counter(o, "aborts_loop", &s->aborts[SITM_LOOP], "attempts",
                          "aborts: post-dating found a dependency loop the lane's access would close (sitm)");
    simtx_observe_counter(o, "aborts_overflow", &s->aborts[SITM_OVERFLOW], "attempts",
                          "aborts: a Writer Table, Reader List or timestamp overflow (sitm; the retry waits for room)");
    simtx_observe_counter(o, "sitm_messages", &s->messages, "messages", "SI_BEGIN, SI_ACCESS and SI_END sent");
    simtx_observe_counter(o, "sitm_entries", &s->entries, "entries", "words reported in SI_ACCESS");
    simtx_observe_counter(o, "sitm_slot_waits", &s->waits, "attempts", "TX_BEGINs that waited for an ID slot (more transactional warps than sitm_warps)");
    simtx_observe_counter(o, "sitm_begin_waits", &s->begin_waits, "attempts",
                          "SI_BEGINs answered WAIT (a table overflow or timestamp reset): the snapshot given back, admitted first (sitm.h 1)");
    simtx_observe_counter(o, "sitm_held_commits", &s->held_commits, "commits", "TX_COMMITs that waited for SI_ACCESS answers");
    simtx_observe_counter(o, "sitm_loop_tx_aborts", &s->aborted_at_once[SITM_LOOP], "attempts",
                          "of aborts_loop, lanes aborted at once through TX_ABORT while running (the others failed at TX_COMMIT)");
    simtx_observe_counter(o, "sitm_single_writer_tx_aborts", &s->aborted_at_once[SITM_SINGLE_WRITER], "attempts",
                          "of aborts_single_writer, lanes aborted at once through TX_ABORT while running");
    *state = s;
    return true;
}

static void sitm_destroy(void *state)
{
    sitm_filter *s = state;
    tmu_slot_warps_release(&s->warps);
    free(s->slot_used);
    free(s->slot_waiters);
    free(s);
}

static bool send(tmu *u, const sitm_filter *s, uint32_t warp, simtx_msg *m)
{
    m->warp = (int32_t)warp;
    m->id = tmu_filter_id(s->index, warp, 0);
    ((sitm_filter *)s)->messages++;
    return tmu_push(u, m);
}

/* SI_BEGIN goes once the warp has an ID slot, its previous SI_END was
 * answered and its snapshot is acquired (it carries the snapshot's point). */
static void try_begin(tmu *u, sitm_filter *s, sitm_warp *sw, uint32_t warp)
{
    uint32_t point;
    if (!sw->begin_waiting || !sw->has_slot || sw->ends_pending || !tmu_snapshot_point(u, warp, &point)) return;
    sw->begin_waiting = false;
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.transaction_id = sw->base;
    m.lane_mask = sw->begin_lanes;
    m.aux = point;
    /* data[0] = 1: run alone (asked once per attempt, with its first form) */
    sitm_set_begin(&m, sw->form == SITM_BEGIN_SNAPSHOT && sw->barren >= SITM_ALONE_AFTER, sw->form);
    sw->begun = sw->refused = 0; /* until the answer says which started */
    send(u, s, warp, &m);
}

/* After a WAIT (sitm.h 1): the ADMIT form, once the clock is read again
 * and the snapshot given back, so that the held transaction pins nothing. */
static void send_admit(tmu *u, sitm_filter *s, sitm_warp *sw, uint32_t warp)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.transaction_id = sw->base;
    m.lane_mask = sw->begin_lanes;
    sitm_set_begin(&m, false, SITM_BEGIN_ADMIT); /* asked to run alone with its first form already */
    sw->admitting = true;
    send(u, s, warp, &m);
}

static bool take_slot(tmu *u, sitm_filter *s, sitm_warp *sw)
{
    for (uint32_t k = 0; k < (uint32_t)u->params.sitm_warps; k++) {
        if (s->slot_used[k]) continue;
        s->slot_used[k] = true;
        sw->has_slot = true;
        sw->slot = k;
        return true;
    }
    return false;
}

/* TX_BEGIN: held until the block started the lanes (and, first, until the
 * warp's previous SI_END was answered and it has an ID slot). */
static bool sitm_begin(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)now;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    if (!sw) return false;
    if (lanes >> SITM_LANES) {
        tmu_fail(u, "sitm: warp %u begins lanes 0x%llx; SI-TM's transaction IDs cover 32 lanes", warp, (unsigned long long)lanes);
        return false;
    }
    sw->begin_lanes = lanes;
    /* A re-run: the last attempt ended. Once alone, alone until the
     * transaction's lanes all committed: a commit alone does not show that
     * the lockstep rounds would not doom one another again. */
    if (!u->warps[warp]->attempt) sw->barren = 0;
    else if (sw->barren < SITM_ALONE_AFTER) sw->barren = sw->progressed ? 0 : sw->barren + 1;
    sw->progressed = false;
    sw->check_waiting = sw->admitting = false;
    sw->form = SITM_BEGIN_SNAPSHOT;
    sw->failed = 0;
    sw->begin_waiting = true;
    memset(sw->verdict, 0, sizeof sw->verdict);
    if (!sw->has_slot && !take_slot(u, s, sw)) {
        if (s->waiting == s->waiters_capacity) {
            uint32_t capacity = s->waiters_capacity ? 2 * s->waiters_capacity : 16;
            uint32_t *waiters = realloc(s->slot_waiters, capacity * sizeof *waiters);
            if (!waiters) {
                tmu_fail(u, "sitm: out of memory");
                return false;
            }
            s->slot_waiters = waiters;
            s->waiters_capacity = capacity;
        }
        s->waits++;
        s->slot_waiters[s->waiting++] = warp;
        return true;
    }
    sw->base = ((uint32_t)u->warps[warp]->core * (uint32_t)u->params.sitm_warps + sw->slot) * SITM_LANES;
    try_begin(u, s, sw, warp); /* the snapshot is not there yet: at begin_released */
    return true;
}

/* The snapshot filter acquired the attempt's snapshot. */
static void sitm_begin_released(void *state, tmu *u, uint32_t warp, uint64_t now)
{
    (void)now;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    if (sw) try_begin(u, s, sw, warp);
}

/* The snapshot filter read the clock: its ACQUIRE goes at once, unless the
 * block answered WAIT: then the ADMIT form goes first, pinning nothing. */
static void sitm_clock_read(void *state, tmu *u, uint32_t warp, uint32_t bound, uint64_t now)
{
    (void)bound;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    if (sw && sw->form == SITM_BEGIN_ADMIT) send_admit(u, s, sw, warp);
    else tmu_snapshot_acquire(u, warp, now);
}

/* Every word a lane reads from memory or writes, once per attempt. */
static uint64_t sitm_access(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort)
{
    (void)pause;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    tmu_warp *w = u->warps[warp];
    if (!sw || r->fault != LDST_FAULT_NONE) return 0;
    (void)abort; /* lanes not started (refused) fail at TX_COMMIT, as doomed ones */
    bool write = r->op == SIMTX_OP_WRITE;
    uint32_t point = 0;
    uint64_t snapshot = tmu_snapshot_point(u, warp, &point) ? (uint64_t)point + 1 : 0; /* sitm.h: aux */
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_ACCESS, SITM_CC_ADDRESS, 0);
    m.aux = snapshot;
    for (uint64_t mask = r->lanes & sw->begun; mask; mask &= mask - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(mask), word = r->addresses[l] & ~3u;
        tmu_lane *lane = &w->lane[l];
        if (tmu_log_find(&lane->writes, word)) continue; /* written already (a read of it comes from the log) */
        if (!write && tmu_log_find(&lane->reads, word)) continue;
        if (!sitm_append_entry(&m, word / 4, (uint16_t)(sw->base + l), write ? SITM_WRITE : SITM_READ)) {
            send(u, s, warp, &m);
            sw->pending++;
            simtx_msg_init(&m, SIMTX_OP_SI_ACCESS, SITM_CC_ADDRESS, 0);
            m.aux = snapshot;
            sitm_append_entry(&m, word / 4, (uint16_t)(sw->base + l), write ? SITM_WRITE : SITM_READ);
        }
        s->entries++;
    }
    if (sitm_entry_count(&m)) {
        send(u, s, warp, &m);
        sw->pending++;
    }
    return 0; /* overlapped with the access (section 5) */
}

/* Fails the doomed lanes at TX_COMMIT; the chain goes on. */
static void fail_committing(sitm_filter *s, tmu_warp *w, sitm_warp *sw)
{
    for (uint64_t m = sw->refused & w->committing; m; m &= m - 1) {
        sw->failed |= UINT64_C(1) << __builtin_ctzll(m);
        sw->verdict[__builtin_ctzll(m)] = SITM_OVERFLOW;
    }
    sw->refused = 0;
    for (uint64_t m = sw->failed & w->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        tmu_lane *lane = &w->lane[l];
        if (!lane->passed) continue;
        lane->passed = false;
        lane->abort_cause = &s->aborts[sw->verdict[l]];
    }
    sw->failed = 0;
}

static void sitm_response(void *state, tmu *u, uint32_t warp, uint32_t lane, const simtx_msg *msg, uint64_t now)
{
    (void)lane;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    tmu_warp *w = u->warps[warp];
    if (!sw) return;
    switch (msg->op) {
    case SIMTX_OP_SI_BEGIN:
        if (sw->admitting) { /* admitted: acquire, then the ADMITTED form */
            sw->admitting = false;
            sw->form = SITM_BEGIN_ADMITTED;
            sw->begin_waiting = true;
            tmu_snapshot_acquire(u, warp, now);
            return;
        }
        if (msg->aux & SITM_BEGIN_WAIT) { /* give the snapshot back, ask to be admitted */
            s->begin_waits++;
            sw->form = SITM_BEGIN_ADMIT;
            sw->begin_waiting = true;
            tmu_snapshot_restart(u, warp, now);
            return;
        }
        sw->begun = msg->aux & sw->begin_lanes;
        sw->refused = sw->begin_lanes & ~sw->begun;
        tmu_begin_ready(u, warp, now);
        return;
    case SIMTX_OP_SI_END:
        if (sw->ends_pending) sw->ends_pending--;
        if (sw->ends_pending) return;
        if (sw->begin_waiting && sw->has_slot) {
            try_begin(u, s, sw, warp);
        } else if (!sw->begun && !sw->begin_waiting) { /* the slot is free: the first warp waiting for one takes it */
            s->slot_used[sw->slot] = false;
            sw->has_slot = false;
            if (s->waiting) {
                uint32_t next = s->slot_waiters[0];
                memmove(s->slot_waiters, s->slot_waiters + 1, --s->waiting * sizeof *s->slot_waiters);
                sitm_warp *nw = tmu_slot_warp(u, &s->warps, next);
                if (nw && take_slot(u, s, nw)) {
                    nw->base = ((uint32_t)u->warps[next]->core * (uint32_t)u->params.sitm_warps + nw->slot) * SITM_LANES;
                    try_begin(u, s, nw, next);
                }
            }
        }
        return;
    case SIMTX_OP_SI_ACCESS: break;
    default: return;
    }
    if (sw->pending) sw->pending--;
    /* A verdict aborts the lane at once while its attempt runs (TX_ABORT,
     * tx.h 6: it leaves, its SI_END goes); a lane the unit refuses to
     * abort (the core sent TX_COMMIT: the commit decides) fails at
     * sitm_wait. */
    uint64_t abort[SITM_VERDICTS] = {0};
    for (unsigned k = 0, n = sitm_entry_count(msg); k < n; k++) {
        sitm_entry e = sitm_get_entry(msg, k);
        uint32_t l = e.id - sw->base;
        if (e.verdict == SITM_OK || e.verdict >= SITM_VERDICTS || l >= SITM_LANES || !(sw->begun >> l & 1) || sw->verdict[l]) continue;
        sw->verdict[l] = e.verdict;
        abort[e.verdict] |= UINT64_C(1) << l;
    }
    static const unsigned causes[SITM_VERDICTS] = {0, TX_ABORT_WRITER_CONFLICT, TX_ABORT_LOOP, TX_ABORT_OVERFLOW};
    for (unsigned v = SITM_SINGLE_WRITER; v < SITM_VERDICTS; v++)
        if (abort[v]) {
            uint64_t aborted = tmu_abort_lanes(u, w, warp, abort[v], &s->aborts[v], causes[v], now);
            s->aborted_at_once[v] += (uint64_t)__builtin_popcountll(aborted);
            sw->failed |= abort[v] & ~aborted;
        }
    if (sw->check_waiting && !sw->pending) {
        sw->check_waiting = false;
        fail_committing(s, w, sw);
        tmu_precommit_continue(u, w, warp, sw->stage, now);
    }
}

/* Lanes left the attempt: the block drops their entries. */
static void sitm_ended(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)now;
    sitm_filter *s = state;
    sitm_warp *sw = tmu_slot_warp(u, &s->warps, warp);
    if (!sw || !(lanes & sw->begun)) return;
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_END, SITM_CC_ADDRESS, 0);
    m.transaction_id = sw->base;
    m.lane_mask = lanes & sw->begun;
    m.aux = u->warps[warp]->committed & m.lane_mask;
    if (m.aux) sw->progressed = true;
    for (uint64_t mask = m.lane_mask; mask; mask &= mask - 1) { /* the commit IDs the lanes took (sitm.h 4) */
        uint32_t l = (uint32_t)__builtin_ctzll(mask);
        sitm_set_end_cid(&m, l, u->warps[warp]->lane[l].ended_cid);
    }
    sw->begun &= ~lanes;
    sw->ends_pending++;
    send(u, s, warp, &m);
}

const tmu_filter tmu_filter_sitm = {
    .name = "sitm",
    .aborts = true, /* its own counters (aborts_single_writer, aborts_loop, aborts_overflow) */
    .tx_abort_cause = TX_ABORT_LOOP,
    .create = sitm_create,
    .destroy = sitm_destroy,
    .begin = sitm_begin,
    .begin_released = sitm_begin_released,
    .clock_read = sitm_clock_read,
    .access = sitm_access,
    .response = sitm_response,
    .attempt_ended = sitm_ended,
};

/* The pre-commit check. Checks are made before filters: it finds the
 * unit's sitm filter when it runs. */
static bool wait_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)index;
    *state = NULL;
    const char *f = u->params.filters ? strstr(u->params.filters, "sitm") : NULL;
    if (!f) {
        snprintf(error, error_size, "precommit: sitm_wait needs the sitm filter (filters = \"%s\")", u->params.filters ? u->params.filters : "");
        return false;
    }
    return true;
}

static bool wait_check(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)state, (void)now;
    sitm_filter *s = NULL;
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i] == &tmu_filter_sitm) s = u->filter_state[i];
    sitm_warp *sw = s ? tmu_slot_warp(u, &s->warps, warp) : NULL;
    if (!sw) return false;
    if (!sw->pending) {
        fail_committing(s, w, sw);
        return false;
    }
    s->held_commits++;
    sw->check_waiting = true;
    sw->stage = next_stage;
    return true;
}

const tmu_precommit tmu_precommit_sitm_wait = {
    .name = "sitm_wait",
    .create = wait_create,
    .destroy = NULL,
    .check = wait_check,
};
