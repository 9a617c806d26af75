/* tmu_access: transactional accesses (lazy versioning). The access filters
 * look first (lanes they pause or abort leave the attempt, the request's
 * verdict goes to the core once they are done, tx.h 2, and an abort's
 * TX_ABORT before the request's answer, tx.h 6); a store goes to
 * the lane's write log; a load of a logged word is answered from the logs;
 * the other lanes of a load go on as a word load, whose values are logged
 * on the way back, and their read stamps (ldst.h) lower the attempt's. */
#include <stdlib.h>
#include <string.h>

#include "tmu_internal.h"

#define NO_REQUEST UINT32_MAX

bool tmu_log_append(tmu *u, tmu_log *log, uint32_t word, uint32_t value)
{
    if (log->count == log->capacity) {
        tm_entry *entries = simtx_array_reserve(log->entries, &log->capacity, log->count + 1u, sizeof *entries, 16);
        if (!entries) {
            tmu_fail(u, "out of memory for a transaction log");
            return false;
        }
        log->entries = entries;
    }
    log->entries[log->count++] = (tm_entry){word, value};
    return true;
}

static uint32_t new_request(tmu *u)
{
    if (!u->free_request_count) {
        size_t capacity = u->request_count, free_capacity = u->request_count;
        tmu_request *requests = simtx_array_reserve(u->requests, &capacity, u->request_count + 1u, sizeof *requests, 8);
        if (!requests) return NO_REQUEST;
        u->requests = requests;
        uint32_t *free_requests = simtx_array_reserve(u->free_requests, &free_capacity, capacity, sizeof *free_requests, 8);
        if (!free_requests) return NO_REQUEST;
        u->free_requests = free_requests;
        for (size_t i = capacity; i-- > u->request_count;) {
            u->requests[i].in_use = false;
            u->free_requests[u->free_request_count++] = (uint32_t)i;
        }
        u->request_count = (uint32_t)capacity;
    }
    uint32_t index = u->free_requests[--u->free_request_count];
    tmu_request *r = &u->requests[index];
    r->in_use = true;
    r->beat_count = 0;
    r->fault = LDST_FAULT_NONE;
    r->fault_lane = 0;
    r->forwarded = 0;
    r->paused = 0;
    r->verdict = false;
    r->first_response = 0;
    r->verdict_ready = 0;
    return index;
}

static unsigned lowest_lane(uint64_t lanes) { return lanes ? (unsigned)__builtin_ctzll(lanes) : 0u; }

static uint32_t extract(uint32_t word_value, uint32_t address, unsigned size)
{
    uint32_t value = word_value >> ((address & 3u) * 8);
    return size == 4 ? value : value & ((1u << (8 * size)) - 1u);
}

/* The request's responses, in beat order, ready at `ready` (ldst.h 4);
 * after its verdict when that was answered already (tx.h 2). */
static void respond(tmu *u, uint32_t index, uint64_t ready)
{
    tmu_request *r = &u->requests[index];
    if (r->first_response && ready <= r->verdict_ready) ready = r->verdict_ready + 1;
    for (unsigned b = r->first_response; b < r->beat_count; b++) {
        simtx_msg response;
        const simtx_msg *beat = &r->beats[b];
        simtx_msg_copy_header(&response, beat);
        simtx_msg_make_response(&response, SIMTX_STATUS_OK);
        response.aux &= UINT64_C(0xffffffff);
        if (r->fault != LDST_FAULT_NONE) ldst_set_fault(&response, r->fault, r->fault_lane);
        if (r->paused) { /* tx.h 2: the beat's group's paused lanes in aux bits 32-63 */
            response.flags |= SIMTX_FLAG_TX_PAUSE;
            response.aux |= (uint64_t)ldst_group_lanes(r->paused, ldst_group(beat)) << 32;
            response.transaction_id = r->pause_index;
        }
        response.aux = (response.aux & ~LDST_LAST) | (b + 1 == r->beat_count ? LDST_LAST : 0);
        if (r->op == SIMTX_OP_READ && r->fault == LDST_FAULT_NONE && ldst_beat_of(beat) == LDST_BEAT_ADDRESSES) {
            unsigned group = ldst_group(beat);
            memset(response.data, 0, beat->size);
            for (uint32_t m = ldst_group_lanes(r->lanes, group); m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                ldst_set_slot(&response, i, r->results[LDST_LANES_PER_BEAT * group + i]);
            }
        } else {
            response.size = 0;
        }
        tmu_queue_push(u, &u->to_core, &response, ready);
    }
    if (r->warp < u->warp_count && u->warps[r->warp]) u->warps[r->warp]->in_flight--;
    r->in_use = false;
    u->free_requests[u->free_request_count++] = index;
}

/* Sends the lanes of a load the logs did not hold on as a word load, at `ready`. */
static void forward_load(tmu *u, uint32_t index, uint64_t lanes, uint64_t ready)
{
    tmu_request *r = &u->requests[index];
    const simtx_msg *head = &r->beats[r->verdict]; /* not the VERDICT beat: its flags are the core's */
    uint32_t words[TMU_MAX_LANES];
    for (uint64_t m = lanes; m; m &= m - 1) words[__builtin_ctzll(m)] = r->addresses[__builtin_ctzll(m)] & ~3u;
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_copy_header(&header, head);
    header.aux = ldst_aux(ldst_rd(head), 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, ldst_window_size(head));
    header.lane_mask = lanes;
    header.id = TMU_LOAD_TAG | index;
    header.handle = NULL;
    header.route_depth = 0;
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->forward) u->filter[i]->forward(u->filter_state[i], u, r->warp, r, &header);
    unsigned count = ldst_make_beats(beats, &header, words, NULL, NULL);
    for (unsigned b = 0; b < count; b++) tmu_queue_push(u, &u->to_memory, &beats[b], ready);
    r->forwarded = lanes;
    u->stats.forwarded_loads++;
}

/* Pauses the lanes of `lanes` at the request (Pause-and-Go): they leave
 * the running attempt with their logs as they are, and the request goes on
 * for the others. One lane of the attempt always runs on, so every pause
 * ends with the attempt's commit and a round of pauses is bounded by the
 * lanes (committing transactions keep priority: nothing here aborts them). */
static void pause_lanes(tmu *u, tmu_warp *w, tmu_request *r, uint64_t lanes)
{
    if (lanes == w->lanes) lanes &= lanes - 1; /* the lowest lane runs on */
    if (!lanes) return;
    for (uint64_t m = lanes; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        lane->paused = true;
        lane->pauses++;
        lane->pause_index = w->log_position;
        lane->pause_reads = lane->reads.count;
        lane->pause_writes = lane->writes.count;
    }
    unsigned count = (unsigned)__builtin_popcountll(lanes);
    w->lanes &= ~lanes;
    w->paused |= lanes;
    r->lanes &= ~lanes;
    r->paused = lanes;
    r->pause_index = w->log_position;
    u->stats.pauses++;
    u->stats.paused_lanes += count;
    u->probes.paused_lanes += count;
}

/* Answers the request's VERDICT beat (tx.h 2): its paused lanes, ready at
 * `ready`, the filters' lookups done. */
static void send_verdict(tmu *u, tmu_request *r, uint64_t ready)
{
    simtx_msg response;
    simtx_msg_copy_header(&response, &r->beats[0]);
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    response.aux &= UINT64_C(0xffffffff) & ~LDST_LAST;
    response.transaction_id = r->paused ? r->pause_index : 0;
    tx_set_verdict_lanes(&response, r->paused);
    tmu_queue *q = &u->verdicts;
    if (!tmu_queue_push(u, q, &response, ready)) return;
    r->verdict_ready = q->ready[(q->head + q->length - 1) % q->capacity]; /* the queue's order may delay it */
    r->first_response = 1;
}

/* Serves a checked request. */
static void serve(tmu *u, tmu_warp *w, uint32_t warp, uint32_t index, uint64_t now)
{
    tmu_request *r = &u->requests[index];
    uint64_t paused = 0, delay = 0; /* the filters' cycles come before the access */
    for (uint32_t i = 0; i < u->filter_count && r->lanes; i++) {
        uint64_t pause = 0, abort = 0;
        if (!u->filter[i]->access) continue;
        delay += u->filter[i]->access(u->filter_state[i], u, warp, r, &pause, &abort);
        if (abort & r->lanes) { /* tx.h 6: they leave the attempt, the core hears it before this access's answer */
            tmu_abort_lanes(u, w, warp, abort & r->lanes, u->filter_aborts[i], u->filter[i]->tx_abort_cause, now + delay);
            r->lanes &= ~abort;
        }
        paused |= pause;
    }
    paused &= r->lanes;
    if (paused) pause_lanes(u, w, r, paused);
    if (r->verdict) send_verdict(u, r, now + delay);
    if (!r->lanes) { /* every lane paused or aborted: nothing to serve */
        respond(u, index, now + delay + 1);
        return;
    }
    w->log_position++;
    if (r->op == SIMTX_OP_READ) {
        uint64_t forward = 0, answered = 0;
        for (uint64_t m = r->lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), word = r->addresses[l] & ~3u;
            tmu_lane *lane = &w->lane[l];
            const tm_entry *seen = tmu_log_find(&lane->writes, word);
            if (!seen) seen = tmu_log_find(&lane->reads, word);
            if (seen) {
                r->results[l] = extract(seen->value, r->addresses[l], r->access_size);
                answered |= 1ull << l;
            } else {
                forward |= 1ull << l;
            }
        }
        u->stats.tx_loads++;
        u->stats.log_answered_lanes += (uint64_t)__builtin_popcountll(answered);
        r->ready = now + delay + (answered ? (uint64_t)u->params.log_latency : 1);
        if (forward) forward_load(u, index, forward, delay ? now + delay : 0);
        else respond(u, index, r->ready);
        return;
    }
    for (uint64_t m = r->lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m), word = r->addresses[l] & ~3u, shift = (r->addresses[l] & 3u) * 8;
        tmu_lane *lane = &w->lane[l];
        tm_entry *written = tmu_log_find(&lane->writes, word);
        uint32_t value = r->data[l];
        if (r->access_size < 4) {
            const tm_entry *base = written ? written : tmu_log_find(&lane->reads, word);
            if (!base) {
                tmu_fail(u, "%u-byte transactional store to 0x%08x (warp %u, lane %u) to a word the transaction neither read nor wrote: not supported",
                         r->access_size, r->addresses[l], warp, l);
                return;
            }
            uint32_t byte_mask = (r->access_size == 1 ? 0xffu : 0xffffu) << shift;
            value = (base->value & ~byte_mask) | ((value << shift) & byte_mask);
        }
        if (written) written->value = value;
        else if (!tmu_log_append(u, &lane->writes, word, value)) return;
    }
    u->stats.tx_stores++;
    respond(u, index, now + delay + 1);
}

/* Whether the op, size and lanes are served; the fault and its lane if not. */
static ldst_fault check(const tmu_request *r, const simtx_msg *head, unsigned *lane)
{
    *lane = lowest_lane(r->lanes);
    bool plain_size = r->access_size == 1 || r->access_size == 2 || r->access_size == 4;
    if ((head->op != SIMTX_OP_READ && head->op != SIMTX_OP_WRITE) || ldst_kind_of(head) != LDST_KIND_PLAIN || !plain_size ||
        !r->lanes || ldst_is_run(head))
        return LDST_FAULT_UNSUPPORTED; /* atomics inside a transaction among them; runs are the ldst_unit's alone */
    for (uint64_t m = r->lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        if (r->addresses[l] & (r->access_size - 1u)) {
            *lane = l;
            return LDST_FAULT_MISALIGNED;
        }
    }
    return LDST_FAULT_NONE;
}

/* The request's last beat arrived. */
static void submit(tmu *u, uint32_t index, uint64_t now)
{
    tmu_request *r = &u->requests[index];
    const simtx_msg *head = &r->beats[0];
    uint32_t warp = r->warp;
    tmu_warp *w = warp < u->warp_count ? u->warps[warp] : NULL;
    if (w && (r->lanes & w->aborted)) { /* sent before the core heard of their TX_ABORT: not served for them */
        r->lanes &= ~w->aborted;
        if (!r->lanes) {
            w->in_flight++;
            respond(u, index, now + 1);
            return;
        }
    }
    if (!w || w->phase != TMU_RUNNING || (r->lanes & ~w->lanes)) {
        tmu_fail(u, "a transactional %s of warp %d (lanes 0x%llx) outside a running transaction of those lanes",
                 simtx_op_name((simtx_op)head->op), head->warp, (unsigned long long)r->lanes);
        r->in_use = false;
        u->free_requests[u->free_request_count++] = index;
        return;
    }
    w->in_flight++;
    if (r->fault == LDST_FAULT_NONE) r->fault = check(r, head, &r->fault_lane);
    if (r->fault != LDST_FAULT_NONE) {
        respond(u, index, now + 1);
        return;
    }
    serve(u, w, warp, index, now);
}

void tmu_access_beat(tmu *u, const simtx_msg *msg, uint64_t now)
{
    if (u->staging == NO_REQUEST) {
        uint32_t index = new_request(u);
        if (index == NO_REQUEST) {
            tmu_fail(u, "out of memory for transactional requests");
            return;
        }
        tmu_request *r = &u->requests[index];
        r->op = msg->op;
        r->access_size = (uint8_t)ldst_access_size(msg);
        r->lanes = msg->lane_mask;
        r->warp = msg->warp < 0 ? UINT32_MAX : (uint32_t)msg->warp;
        u->staging = index;
    }
    tmu_request *r = &u->requests[u->staging];
    const simtx_msg *head = &r->beats[0];
    unsigned group = ldst_group(msg), kind = ldst_beat_of(msg);
    bool fits = r->beat_count < LDST_MAX_BEATS && (!r->beat_count || (msg->op == head->op && msg->id == head->id &&
                                                                      msg->lane_mask == head->lane_mask)) &&
                group < LDST_MAX_GROUPS && (kind <= LDST_BEAT_DATA || (kind == LDST_BEAT_VERDICT && !r->beat_count));
    /* Kept whole for its response; past the most beats a request takes the
     * last slot keeps the latest beat, so the completion is answered. */
    r->beats[r->beat_count < LDST_MAX_BEATS ? r->beat_count++ : LDST_MAX_BEATS - 1] = *msg;
    if (!fits) {
        r->fault = LDST_FAULT_UNSUPPORTED;
    } else if (kind == LDST_BEAT_VERDICT) {
        r->verdict = true; /* no slots */
    } else {
        uint32_t *slots = (kind == LDST_BEAT_ADDRESSES ? r->addresses : r->data) + LDST_LANES_PER_BEAT * group;
        for (uint32_t m = ldst_group_lanes(msg->lane_mask, group); m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            slots[i] = ldst_slot(msg, i);
        }
    }
    if (!ldst_is_last(msg)) return;
    uint32_t index = u->staging;
    u->staging = NO_REQUEST;
    submit(u, index, now);
}

void tmu_access_response(tmu *u, const simtx_msg *msg, uint64_t now)
{
    uint32_t index = (uint32_t)msg->id;
    tmu_request *r = index < u->request_count ? &u->requests[index] : NULL;
    tmu_warp *w = r && r->in_use && r->warp < u->warp_count ? u->warps[r->warp] : NULL;
    if (!w || !r->forwarded) {
        tmu_fail(u, "a response to no forwarded load (id 0x%llx)", (unsigned long long)msg->id);
        return;
    }
    if (msg->status != SIMTX_STATUS_OK) {
        if (r->fault == LDST_FAULT_NONE) {
            r->fault = ldst_fault_of(msg);
            r->fault_lane = ldst_fault_lane(msg);
        }
    } else if (ldst_beat_of(msg) == LDST_BEAT_ADDRESSES && msg->size) {
        if (ldst_stamp(msg) < w->read_stamp) w->read_stamp = ldst_stamp(msg);
        unsigned group = ldst_group(msg);
        for (uint32_t m = ldst_group_lanes(r->forwarded, group); m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m), l = LDST_LANES_PER_BEAT * group + i;
            uint32_t word = r->addresses[l] & ~3u, word_value = ldst_slot(msg, i);
            tmu_lane *lane = &w->lane[l];
            if (w->aborted >> l & 1) continue; /* aborted while the load was out */
            if (!tmu_log_find(&lane->reads, word)) {
                tmu_log_append(u, &lane->reads, word, word_value);
                /* A load the lane issued before it paused (tx.h 5): its word stays at the resume. */
                if (lane->paused) lane->pause_reads = lane->reads.count;
            }
            r->results[l] = extract(word_value, r->addresses[l], r->access_size);
        }
    }
    if (!ldst_is_last(msg)) return;
    uint64_t aborted = w->aborted;
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->loaded) u->filter[i]->loaded(u->filter_state[i], u, r->warp, r, msg, now);
    r->lanes &= ~(w->aborted & ~aborted); /* tx.h 6: their TX_ABORT goes before this answer */
    respond(u, index, r->ready > now + 1 ? r->ready : now + 1);
}

void tmu_access_release(tmu *u)
{
    free(u->requests);
    free(u->free_requests);
}
