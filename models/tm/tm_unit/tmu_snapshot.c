/* tmu_snapshot: SI-TM's snapshot reads (ISCA'17 §5) as an access filter.
 * At TX_BEGIN the attempt reads the commit clock C (tm_lazy.h 1, aux 0) and
 * acquires the snapshot at point C - 1 (every ID below C) from every
 * partition's VIT slice (version.h, TM SIDE ON THE CORE PATH); it runs once
 * every slice has answered with the same boundary (a slice that closed the
 * IDs up to C - 1 together with later ones holds fewer of them: the filter
 * then acquires again at the lowest boundary, version.h VERSION
 * BOUNDARIES, which becomes the snapshot's point). Each load it forwards reads that snapshot
 * (SIMTX_FLAG_SNAPSHOT, the handle's timestamp in transaction_id, its epoch
 * in the ldst.h tag), and the snapshot is released at every slice at
 * TX_COMMIT, or once no lane of the attempt runs (rolled back, aborted).
 * Timestamp overflow (version.h, OVERFLOW; ISCA'17 §4.3): once the unit
 * learns that an epoch is over -- an ACQUIRE answered in a later one, or a
 * load whose read stamp is 0 (a slice read the newest version for it) --
 * every running attempt holding a snapshot of that epoch or an earlier one
 * is aborted (TX_ABORT, counted in aborts_overflow) and re-acquires when
 * the core runs it again. A filter with a clock_read hook (sitm) goes
 * between the clock read and the ACQUIRE: the attempt pins its version
 * only once that filter let it start (tmu_snapshot_acquire). */
#include <stdlib.h>

#include "tm_lazy.h"
#include "tmu_internal.h"
#include "version.h"

/* The lane field of the filter's own request ids: the slice's partition
 * for ACQUIRE and RELEASE, SNAPSHOT_CLOCK for the clock read. */
enum { SNAPSHOT_CLOCK = 255 };

typedef struct snapshot_warp {
    uint64_t handle;  /* the acquired snapshot (version.h) */
    uint64_t point;   /* the commit point it was acquired at (C - 1, or the slices' common boundary below it) */
    uint64_t lowest;  /* the lowest boundary the slices answered (version.h, ACQUIRE) */
    uint64_t holders; /* the attempt's lanes still running on it */
    uint32_t pending; /* ACQUIRE answers awaited */
    uint32_t pinned;  /* of those answered, the slices that pinned `handle` */
    bool too_old;     /* a slice answered VERSION_TOO_OLD: acquire again at a newer clock */
    bool held;        /* acquired at every slice and not yet released */
    bool acquired;    /* the running attempt's loads read `handle` (kept past the release at TX_COMMIT) */
    bool gated;       /* the clock is read; a clock_read filter lets the ACQUIRE go (tmu_snapshot_acquire) */
    bool released;    /* the TX_BEGIN hold is released (a restart's acquire tells the filters instead) */
} snapshot_warp;

typedef struct snapshot_filter {
    tmu_slot_warps warps;
    uint32_t index;
    uint64_t aborts; /* attempts aborted because their snapshot's epoch is over */
} snapshot_filter;

static bool snapshot_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    if (u->params.partitions <= 0 || u->params.partitions > SNAPSHOT_CLOCK) {
        snprintf(error, error_size, "filters: snapshot needs 1..%d partitions (partitions = %lld)", SNAPSHOT_CLOCK,
                 (long long)u->params.partitions);
        return false;
    }
    snapshot_filter *s = calloc(1, sizeof *s);
    if (!s) return false;
    s->warps.size = sizeof(snapshot_warp);
    s->index = index;
    /* Its own statistic, so that units without the filter report none. */
    simtx_observe_counter(u->env.observer, "aborts_overflow", &s->aborts, "attempts",
                          "aborts: the snapshot's epoch is over (VIT timestamp overflow; snapshot filter, TX_ABORT)");
    *state = s;
    return true;
}

static void snapshot_destroy(void *state)
{
    snapshot_filter *s = state;
    tmu_slot_warps_release(&s->warps);
    free(s);
}

/* A versioned-memory op for every slice, the lane field naming its partition. */
static bool to_every_slice(tmu *u, const snapshot_filter *s, uint32_t warp, simtx_op op, uint64_t aux)
{
    for (uint32_t p = 0; p < (uint32_t)u->params.partitions; p++) {
        simtx_msg request;
        simtx_msg_init(&request, op, tm_partition_address(p, (uint64_t)u->params.interleave), 0);
        request.aux = aux;
        request.warp = (int32_t)warp;
        request.id = tmu_filter_id(s->index, warp, p);
        if (!tmu_push(u, &request)) return false;
    }
    return true;
}

static bool read_clock(tmu *u, const snapshot_filter *s, uint32_t warp);

/* An epoch is over (§4.3: every transaction running on it aborts): the
 * running attempts whose snapshot is of `epoch` or earlier leave (their
 * release follows, ignored by the slices that overflowed). */
static void epoch_over(tmu *u, snapshot_filter *s, uint64_t epoch, uint64_t now)
{
    for (uint32_t warp = 0; warp < s->warps.count; warp++) {
        snapshot_warp *w = s->warps.items[warp];
        tmu_warp *tw = warp < u->warp_count ? u->warps[warp] : NULL;
        if (!w || !w->held || version_handle_epoch(w->handle) > epoch || !tw || tw->phase != TMU_RUNNING || !tw->lanes) continue;
        tmu_abort_lanes(u, tw, warp, tw->lanes, &s->aborts, TX_ABORT_VERSION_OVERFLOW, now);
    }
}

/* TX_BEGIN: held until the snapshot is acquired (the clock read first). */
static bool snapshot_begin(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)now;
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (!w) return false;
    if (w->held || w->pending || w->gated) {
        tmu_fail(u, "TX_BEGIN of warp %u while its previous snapshot is still held", warp);
        return false;
    }
    w->holders = lanes;
    w->acquired = w->released = false;
    return read_clock(u, s, warp);
}

static bool read_clock(tmu *u, const snapshot_filter *s, uint32_t warp)
{
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = 0; /* read the clock: the next ID to be handed out */
    request.warp = (int32_t)warp;
    request.id = tmu_filter_id(s->index, warp, SNAPSHOT_CLOCK);
    return tmu_push(u, &request);
}

static void snapshot_response(void *state, tmu *u, uint32_t warp, uint32_t lane, const simtx_msg *msg, uint64_t now)
{
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (!w) return;
    if (msg->op == SIMTX_OP_TM_CID_REQUEST) { /* the clock C: the snapshot holds every ID below it */
        uint64_t clock = msg->aux;
        w->pending = (uint32_t)u->params.partitions;
        w->pinned = 0;
        w->too_old = false;
        w->point = w->lowest = clock ? clock - 1 : 0;
        bool gated = false;
        for (uint32_t i = 0; i < u->filter_count; i++) gated |= u->filter[i]->clock_read != NULL;
        if (gated) { /* the gate's own begin first (SI-TM: a held SI_BEGIN pins no version) */
            w->gated = true;
            for (uint32_t i = 0; i < u->filter_count; i++)
                if (u->filter[i]->clock_read) u->filter[i]->clock_read(u->filter_state[i], u, warp, (uint32_t)w->point, now);
            return;
        }
        to_every_slice(u, s, warp, SIMTX_OP_VERSION_ACQUIRE, w->point);
        return;
    }
    if (msg->op != SIMTX_OP_VERSION_ACQUIRE || !w->pending) return; /* a RELEASE's acknowledgement */
    if (msg->aux == VERSION_TOO_OLD) {
        w->too_old = true;
    } else if (w->pinned++ && msg->aux != w->handle) {
        tmu_fail(u, "the VIT slices answered warp %u's ACQUIRE with different handles (0x%llx at partition %u, 0x%llx)", warp,
                 (unsigned long long)msg->aux, lane, (unsigned long long)w->handle);
        return;
    } else {
        w->handle = msg->aux;
    }
    if (msg->aux != VERSION_TOO_OLD && msg->transaction_id < w->lowest) w->lowest = msg->transaction_id;
    if (--w->pending) return;
    if (w->too_old) { /* unpin what some slices pinned, and start over from a newer clock */
        if (w->pinned) to_every_slice(u, s, warp, SIMTX_OP_VERSION_RELEASE, w->handle);
        read_clock(u, s, warp);
        return;
    }
    if (w->lowest < w->point) {
        /* A slice closed the IDs up to the point together with later ones:
         * its version there holds fewer IDs than the others'. The snapshot
         * moves down to the lowest boundary (a prefix there too: the slices
         * answer their boundaries below it, until they agree), pinned
         * before the first pins are released. */
        uint64_t pinned = w->handle;
        w->point = w->lowest;
        w->pending = (uint32_t)u->params.partitions;
        w->pinned = 0;
        to_every_slice(u, s, warp, SIMTX_OP_VERSION_ACQUIRE, w->point);
        to_every_slice(u, s, warp, SIMTX_OP_VERSION_RELEASE, pinned);
        return;
    }
    w->held = w->acquired = true;
    if (version_handle_epoch(w->handle)) epoch_over(u, s, version_handle_epoch(w->handle) - 1, now);
    if (!w->released) {
        w->released = true;
        tmu_begin_ready(u, warp, now);
        return;
    }
    for (uint32_t i = 0; i < u->filter_count; i++) /* acquired again (tmu_snapshot_restart) */
        if (u->filter[i]->begin_released) u->filter[i]->begin_released(u->filter_state[i], u, warp, now);
}

/* A load read at a slice whose epoch moved past the snapshot's (read stamp 0). */
static void snapshot_loaded(void *state, tmu *u, uint32_t warp, const tmu_request *r, const simtx_msg *last, uint64_t now)
{
    (void)r;
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (w && w->held && last->status == SIMTX_STATUS_OK && ldst_stamp(last) == 0) epoch_over(u, s, version_handle_epoch(w->handle), now);
}

static void snapshot_forward(void *state, tmu *u, uint32_t warp, const tmu_request *r, simtx_msg *header)
{
    (void)r;
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (!w || !w->held) return;
    header->flags |= SIMTX_FLAG_SNAPSHOT;
    header->transaction_id = (uint32_t)version_handle_timestamp(w->handle);
    header->aux = (header->aux & UINT64_C(0xFFFFFFFF)) | version_handle_epoch(w->handle) << 32; /* the ldst.h tag */
}

static void release(tmu *u, snapshot_filter *s, snapshot_warp *w, uint32_t warp)
{
    w->held = false;
    w->holders = 0;
    to_every_slice(u, s, warp, SIMTX_OP_VERSION_RELEASE, w->handle);
}

/* A committing attempt reads nothing more: released before its write-back,
 * which may wait at a slice for a version slot (version.h, DEADLOCK RULES). */
static void snapshot_commit(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)lanes, (void)now;
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (w && w->held) release(u, s, w, warp);
}

static void snapshot_ended(void *state, tmu *u, uint32_t warp, uint64_t lanes, uint64_t now)
{
    (void)now;
    snapshot_filter *s = state;
    snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
    if (!w || !w->held) return;
    w->holders &= ~lanes;
    if (!w->holders) release(u, s, w, warp);
}

const tmu_filter tmu_filter_snapshot = {
    .name = "snapshot",
    .aborts = true,
    .tx_abort_cause = TX_ABORT_VERSION_OVERFLOW,
    .create = snapshot_create,
    .destroy = snapshot_destroy,
    .begin = snapshot_begin,
    .forward = snapshot_forward,
    .loaded = snapshot_loaded,
    .response = snapshot_response,
    .commit_started = snapshot_commit,
    .attempt_ended = snapshot_ended,
};

bool tmu_snapshot_point(tmu *u, uint32_t warp, uint32_t *point)
{
    for (uint32_t i = 0; i < u->filter_count; i++) {
        if (u->filter[i] != &tmu_filter_snapshot) continue;
        snapshot_filter *s = u->filter_state[i];
        snapshot_warp *w = tmu_slot_warp(u, &s->warps, warp);
        if (!w || !w->acquired) return false;
        *point = (uint32_t)w->point; /* a commit ID: the same in every epoch */
        return true;
    }
    return false;
}

static snapshot_warp *gate_warp(tmu *u, uint32_t warp, snapshot_filter **filter)
{
    for (uint32_t i = 0; i < u->filter_count; i++) {
        if (u->filter[i] != &tmu_filter_snapshot) continue;
        *filter = u->filter_state[i];
        return tmu_slot_warp(u, &(*filter)->warps, warp);
    }
    return NULL;
}

void tmu_snapshot_restart(tmu *u, uint32_t warp, uint64_t now)
{
    (void)now;
    snapshot_filter *s = NULL;
    snapshot_warp *w = gate_warp(u, warp, &s);
    tmu_warp *tw = warp < u->warp_count ? u->warps[warp] : NULL;
    if (!w || !w->held || !tw || tw->phase != TMU_STARTING) {
        tmu_fail(u, "snapshot: warp %u restarts a snapshot it does not hold while starting", warp);
        return;
    }
    uint64_t holders = w->holders;
    release(u, s, w, warp);
    w->holders = holders;
    w->acquired = false;
    read_clock(u, s, warp);
}

void tmu_snapshot_acquire(tmu *u, uint32_t warp, uint64_t now)
{
    (void)now;
    snapshot_filter *s = NULL;
    snapshot_warp *w = gate_warp(u, warp, &s);
    if (!w || !w->gated) {
        tmu_fail(u, "snapshot: warp %u's ACQUIRE was let go while it waited for none", warp);
        return;
    }
    w->gated = false;
    to_every_slice(u, s, warp, SIMTX_OP_VERSION_ACQUIRE, w->point);
}
