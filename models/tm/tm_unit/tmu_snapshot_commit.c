/* tmu_snapshot_commit: SI-TM's read-only commit (ISCA'17 §5). A lane that
 * only read, every load from the snapshot its attempt acquired at point
 * C - 1 (the snapshot filter, tmu_snapshot.c), read one consistent prefix of
 * the commit order: it commits here without validation, no commit ID and no
 * logs sent, serialized right after ID C - 1 (the oracle's `after` record).
 * Lanes that wrote take the commit units' path. */
#include <stdlib.h>
#include <string.h>

#include "tmu_internal.h"

typedef struct snapshot_commit {
    uint64_t commits;
} snapshot_commit;

/* Whether a comma-separated list names `name`. */
static bool names(const char *list, const char *name)
{
    size_t length = strlen(name);
    for (const char *p = list; p && *p; p += strcspn(p, ", ")) {
        p += strspn(p, ", ");
        if (strncmp(p, name, length) == 0 && (p[length] == '\0' || p[length] == ',' || p[length] == ' ')) return true;
    }
    return false;
}

static bool snapshot_commit_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)index;
    if (!names(u->params.filters, "snapshot")) { /* without snapshot reads a read-only lane must be validated */
        snprintf(error, error_size, "precommit: snapshot_ro needs the snapshot filter (filters = \"%s\")",
                 u->params.filters ? u->params.filters : "");
        return false;
    }
    snapshot_commit *s = calloc(1, sizeof *s);
    if (!s) return false;
    simtx_observe_counter(u->env.observer, "snapshot_ro_commits", &s->commits, "transactions",
                          "read-only transactions committed on their snapshot without validation (no commit ID, no logs sent)");
    *state = s;
    return true;
}

static bool snapshot_commit_check(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)next_stage, (void)now;
    snapshot_commit *s = state;
    uint32_t point;
    if (!tmu_snapshot_point(u, warp, &point)) return false;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        if (!lane->passed || !lane->reads.count || lane->writes.count) continue;
        lane->check_committed = true;
        lane->serial_after = point;
        s->commits++;
    }
    return false; /* nothing to wait for: the next check runs on the other lanes */
}

const tmu_precommit tmu_precommit_snapshot_ro = {
    .name = "snapshot_ro",
    .create = snapshot_commit_create,
    .destroy = free,
    .check = snapshot_commit_check,
};
