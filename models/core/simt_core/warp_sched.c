/* warp_sched: the due/waiting warp sets, stall reasons and room waiters (the selection itself runs in execute.c's cycle). */
#include "warp_sched.h"

#include <stdlib.h>

#include "core_internal.h"

const char *const warp_sched_stall_names[STALL_REASONS] = {"issued", "idle", "scoreboard", "pipeline", "memory", "barrier"};
const char *const warp_sched_stall_docs[STALL_REASONS] = {
    "",
    "cycles without an issue: a launch is running but no warp is resident",
    "cycles without an issue: operands not ready (ALU/MUL/DIV latency, loads in flight)",
    "cycles without an issue: warps in a branch shadow or just issued",
    "cycles without an issue: LD/ST unit busy, no room for requests, or finished warps waiting for their stores",
    "cycles without an issue: every waiting warp is at a CTA barrier"};

bool warp_sched_init(warp_sched *s, uint32_t warps, uint32_t schedulers, bool lrr)
{
    s->lrr = lrr;
    s->hot = calloc(warps, sizeof *s->hot);
    s->warp_set_words = (warps + 63) / 64;
    s->due_warps = calloc(s->warp_set_words, sizeof *s->due_warps);
    s->waiting_warps = calloc(s->warp_set_words, sizeof *s->waiting_warps);
    s->room_waiters = calloc(s->warp_set_words, sizeof *s->room_waiters);
    s->scheduler_warps = calloc((size_t)s->warp_set_words * schedulers, sizeof *s->scheduler_warps);
    s->last_issued = calloc(schedulers, sizeof *s->last_issued);
    if (!s->hot || !s->due_warps || !s->waiting_warps || !s->room_waiters || !s->scheduler_warps || !s->last_issued) return false;
    /* As if slot 0 had issued last: its scheduler starts there (LRR after it). */
    for (uint32_t k = 1; k < schedulers; k++) s->last_issued[k] = NO_SLOT;
    for (uint32_t i = 0; i < warps; i++) {
        s->hot[i] = (warp_hot){UINT64_MAX, STALL_IDLE};
        s->not_due_reasons[STALL_IDLE]++;
        warp_set_add(&s->scheduler_warps[(size_t)(i % schedulers) * s->warp_set_words], i);
    }
    s->earliest_waiting = UINT64_MAX;
    return true;
}

void warp_sched_release(warp_sched *s)
{
    free(s->hot);
    free(s->due_warps), free(s->waiting_warps), free(s->room_waiters), free(s->scheduler_warps), free(s->last_issued);
}

/* A future ready_at is always after the current cycle (set from a
 * latency), so only 0 makes a warp due at once. */
void warp_sched_set_hot(warp_sched *s, uint32_t i, uint64_t ready_at, stall_reason reason)
{
    warp_hot *h = &s->hot[i];
    if (warp_set_has(s->due_warps, i)) warp_set_remove(s->due_warps, i);
    else s->not_due_reasons[h->reason]--;
    warp_set_remove(s->waiting_warps, i);
    *h = (warp_hot){ready_at, (uint8_t)reason};
    if (ready_at == 0) {
        warp_set_add(s->due_warps, i);
        return;
    }
    s->not_due_reasons[reason]++;
    if (ready_at == UINT64_MAX) return;
    warp_set_add(s->waiting_warps, i);
    if (ready_at < s->earliest_waiting) s->earliest_waiting = ready_at;
}

void warp_sched_release_room_waiter(warp_sched *s, const struct warp *warps)
{
    uint32_t chosen = NO_SLOT;
    for (uint32_t word = 0; word < s->warp_set_words; word++)
        for (uint64_t bits = s->room_waiters[word]; bits; bits &= bits - 1) {
            uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
            if (chosen == NO_SLOT || warps[i].age < warps[chosen].age) chosen = i;
        }
    warp_set_remove(s->room_waiters, chosen);
    s->room_waiter_count--;
    warp_sched_set_hot(s, chosen, 0, STALL_NONE);
}
