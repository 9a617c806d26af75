/* tmu_early_abort: EA/PG's Early-Abort (HPCA'16 Section 4.3), a pre-commit
 * check. Each committing lane's read and write logs are looked up in the
 * conflict address table (tmu_cat.c); a lane that writes a word committing
 * transactions read or write, or reads a word they write, is likely to fail
 * validation: it aborts here, before its logs are sent. Read-read is no
 * conflict. Lookups take cat_ports words per cycle for one log position of
 * every lane, and overlap Warp TM's intra-warp check when it runs first. */
#include "tmu_internal.h"

static bool conflicts(tmu *u, const tmu_lane *lane)
{
    for (uint32_t i = 0; i < lane->writes.count; i++)
        if (tmu_cat_bits(u, lane->writes.entries[i].address)) return true;
    for (uint32_t i = 0; i < lane->reads.count; i++)
        if (tmu_cat_bits(u, lane->reads.entries[i].address) & TMU_CAT_WRITTEN) return true;
    return false;
}

/* The state: the counter of its abort cause. */
static bool early_abort_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)index, (void)error, (void)error_size;
    *state = tmu_abort_cause(u, tmu_precommit_early_abort.abort_cause);
    return true;
}

static bool early_abort_check(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)warp;
    uint32_t lanes = 0, longest = 0;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        uint32_t entries = lane->reads.count + lane->writes.count;
        if (!lane->passed || lane->check_committed || !entries) continue;
        lanes++;
        if (entries > longest) longest = entries;
        if (conflicts(u, lane)) {
            lane->passed = false;
            lane->abort_cause = state;
        }
    }
    if (!lanes) return false;
    uint64_t ports = (uint64_t)u->params.cat_ports;
    return tmu_start_timed_check(u, w, next_stage, (lanes + ports - 1) / ports * longest, now);
}

const tmu_precommit tmu_precommit_early_abort = {
    .name = "early_abort",
    .abort_cause = "early",
    .abort_description = "aborts: Early-Abort found a log word in the conflict address table (early_abort)",
    .create = early_abort_create,
    .check = early_abort_check,
};
