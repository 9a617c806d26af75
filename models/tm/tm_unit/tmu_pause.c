/* tmu_pause: EA/PG's Pause-and-Go (HPCA'16 Section 4.4), an access filter.
 * Each lane's word is looked up in the conflict address table (tmu_cat.c):
 * a load of a word committing transactions write, or a store to a word they
 * read or write, would likely fail validation, so the lane pauses before
 * the access (tmu_access.c parks it, the core keeps it in a Paused entry)
 * and resumes once the warp's running attempt is over. The lookups take
 * cat_ports lanes per cycle, spent before the access is served and before
 * its verdict lets the warp go on (tx.h 2). A lane
 * that has paused pauses_per_lane times in the attempt runs on: the paper
 * sets no bound, and on the trees, where most of a warp's lanes hit the
 * table near the root, repeated pauses cost more commit rounds than the
 * aborts they avoid (docs/fidelity.md). */
#include "tmu_internal.h"

static uint64_t pause_access(void *state, tmu *u, uint32_t warp, const tmu_request *r, uint64_t *pause, uint64_t *abort)
{
    (void)state, (void)abort;
    uint32_t conflicting = r->op == SIMTX_OP_READ ? TMU_CAT_WRITTEN : TMU_CAT_WRITTEN | TMU_CAT_READ;
    const tmu_lane *lane = u->warps[warp]->lane;
    uint64_t limit = (uint64_t)u->params.pauses_per_lane, lanes = 0;
    unsigned count = 0;
    for (uint64_t m = r->lanes; m; m &= m - 1, count++) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        if ((tmu_cat_bits(u, r->addresses[l] & ~3u) & conflicting) && (!limit || lane[l].pauses < limit)) lanes |= m & -m;
    }
    u->stats.pause_lookups += count;
    u->stats.pause_hits += (uint64_t)__builtin_popcountll(lanes);
    *pause = lanes;
    uint64_t ports = (uint64_t)u->params.cat_ports;
    return (count + ports - 1) / ports;
}

const tmu_filter tmu_filter_pause_and_go = {
    .name = "pause_and_go",
    .pauses = true,
    .access = pause_access,
};
