/* tmu_intra_warp: Warp TM's pre-commit check: intra-warp conflicts resolved in an ownership table before commit IDs. */
#include <stdio.h>
#include <stdlib.h>

#include "tmu_internal.h"

/* Warp TM's intra-warp conflict resolution (two phases in a shared-memory
 * ownership table): phase 1, every lane claims the entries its writes hash
 * to; phase 2, a lane whose write entry another lane owns, or whose read
 * entry a writing lane owns, aborts. The model resolves claims by lane
 * priority (the lowest lane wins an entry) and checks lanes in order
 * against the lanes that passed, so the lowest committing lane always
 * proceeds (no livelock); the table hash gives false conflicts as in
 * hardware. Returns the cycles both phases take. */
/* The check's state: the ownership table (one warp checks at a time in the
 * model) and the counter of its abort cause. */
typedef struct intra_warp {
    uint32_t *ownership;
    uint32_t entries;
    uint64_t *aborts;
} intra_warp;

static bool intra_warp_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)index;
    intra_warp *s = calloc(1, sizeof *s);
    if (s) {
        s->entries = (uint32_t)u->params.conflict_table / 4;
        s->ownership = calloc(s->entries, sizeof *s->ownership);
        s->aborts = tmu_abort_cause(u, tmu_precommit_intra_warp.abort_cause);
    }
    if (!s || !s->ownership) {
        free(s);
        snprintf(error, error_size, "out of memory for the intra-warp conflict table (conflict_table)");
        return false;
    }
    *state = s;
    return true;
}

static void intra_warp_destroy(void *state)
{
    intra_warp *s = state;
    free(s->ownership);
    free(s);
}

static uint64_t intra_warp_conflicts(intra_warp *s, tmu *u, tmu_warp *w, uint64_t candidates, uint64_t *failed)
{
    uint32_t entries = s->entries;
    /* ownership[e]: 1 + lane that writes e and passed; reads marked by bit 16. */
    uint32_t *table = s->ownership;
    uint32_t max_writes = 0, max_accesses = 0;
    *failed = 0;
    for (uint64_t m = candidates; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        const tmu_lane *lane = &w->lane[l];
        bool conflict = false;
        for (uint32_t i = 0; i < lane->writes.count && !conflict; i++) {
            uint32_t owner = table[(lane->writes.entries[i].address >> 2) % entries];
            conflict = owner != 0; /* written or read by a lane that passed */
        }
        for (uint32_t i = 0; i < lane->reads.count && !conflict; i++) {
            uint32_t owner = table[(lane->reads.entries[i].address >> 2) % entries];
            conflict = owner & 0xffff; /* written by a lane that passed */
        }
        if (lane->writes.count > max_writes) max_writes = lane->writes.count;
        if (lane->reads.count + lane->writes.count > max_accesses) max_accesses = lane->reads.count + lane->writes.count;
        if (conflict) {
            *failed |= 1ull << l;
            continue;
        }
        for (uint32_t i = 0; i < lane->writes.count; i++) table[(lane->writes.entries[i].address >> 2) % entries] |= 1 + l;
        for (uint32_t i = 0; i < lane->reads.count; i++) table[(lane->reads.entries[i].address >> 2) % entries] |= 1u << 16;
    }
    /* Clear only what was touched (the table is reused by the next warp). */
    for (uint64_t m = candidates; m; m &= m - 1) {
        const tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        for (uint32_t i = 0; i < lane->writes.count; i++) table[(lane->writes.entries[i].address >> 2) % entries] = 0;
        for (uint32_t i = 0; i < lane->reads.count; i++) table[(lane->reads.entries[i].address >> 2) % entries] = 0;
    }
    return 2 * (uint64_t)u->params.conflict_latency + max_writes + max_accesses;
}

/* Claims and checks the lanes still unresolved; the check ends after its cycles (intra_warp_cycle). */
static bool intra_warp_check(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)warp;
    intra_warp *s = state;
    uint64_t candidates = 0, conflicting = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        const tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        if (!lane->check_committed && (lane->reads.count || lane->writes.count)) candidates |= 1ull << __builtin_ctzll(m);
    }
    uint64_t cycles = intra_warp_conflicts(s, u, w, candidates, &conflicting);
    for (uint64_t m = conflicting; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        lane->passed = false;
        lane->abort_cause = s->aborts;
    }
    return tmu_start_timed_check(u, w, next_stage, cycles, now);
}

const tmu_precommit tmu_precommit_intra_warp = {
    .name = "intra_warp",
    .abort_cause = "intra_warp",
    .abort_description = "aborts: conflict with another lane of the warp (intra_warp)",
    .create = intra_warp_create,
    .destroy = intra_warp_destroy,
    .check = intra_warp_check,
};
