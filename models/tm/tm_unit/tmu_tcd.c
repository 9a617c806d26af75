/* tmu_tcd: KILO TM's temporal conflict detection (tm_lazy.h 5). Every
 * transactional load comes back with a read stamp (every commit ID below it
 * is in the values read) and the attempt keeps the lowest, R. At TX_COMMIT
 * the read-only lanes ask for the last-written time of each block they
 * read; a lane whose blocks were all last written below R read what no ID
 * from R on has touched: it commits here, serialized just before ID R.
 * Nothing waits before the commit, so writers never pay for the check. */
#include <stdlib.h>

#include "tmu_internal.h"

/* A 128-byte block a read-only lane read and its last-written time
 * (UINT32_MAX until answered). */
typedef struct tcd_block {
    uint32_t block, last_written;
} tcd_block;

/* Per warp: the blocks of the running check and the answers awaited. */
typedef struct tcd_warp {
    tcd_block *blocks;
    size_t block_capacity;
    uint32_t block_count, lwt_pending;
} tcd_warp;

static void release_warp(void *item) { free(((tcd_warp *)item)->blocks); }

static bool tcd_create(void **state, tmu *u, uint32_t index, char *error, size_t error_size)
{
    (void)u, (void)index, (void)error, (void)error_size;
    return (*state = tmu_slot_warps_new(sizeof(tcd_warp), release_warp)) != NULL;
}

static void query_block(tmu *u, const tmu_warp *w, tcd_warp *t, uint32_t warp, uint32_t index)
{
    simtx_msg query;
    simtx_msg_init(&query, SIMTX_OP_TM_LWT_QUERY, (uint64_t)t->blocks[index].block * TM_LWT_BLOCK_BYTES, 0);
    query.aux = 0; /* answered at once */
    query.warp = (int32_t)warp;
    query.core = w->core;
    query.id = TMU_TM_TAG | (uint64_t)TMU_KIND_LWT << 48 | (uint64_t)warp << 16 | index;
    t->lwt_pending++;
    tmu_push(u, &query);
}

static uint32_t block_index(const tcd_warp *t, uint32_t block)
{
    for (uint32_t b = 0; b < t->block_count; b++)
        if (t->blocks[b].block == block) return b;
    return UINT32_MAX;
}

static bool read_only(const tmu_lane *lane) { return lane->reads.count && !lane->writes.count; }

/* Adds the blocks of a read-only lane's reads; false when out of memory. */
static bool add_blocks(tmu *u, tcd_warp *t, const tmu_lane *lane)
{
    for (uint32_t i = 0; i < lane->reads.count; i++) {
        uint32_t block = lane->reads.entries[i].address / TM_LWT_BLOCK_BYTES;
        if (block_index(t, block) != UINT32_MAX) continue;
        if (t->block_count > 0xffff) return true; /* beyond the id field: the commit units validate those lanes */
        tcd_block *blocks = simtx_array_reserve(t->blocks, &t->block_capacity, t->block_count + 1u, sizeof *blocks, 32);
        if (!blocks) {
            tmu_fail(u, "out of memory for temporal conflict detection");
            return false;
        }
        t->blocks = blocks;
        t->blocks[t->block_count++] = (tcd_block){block, UINT32_MAX};
    }
    return true;
}

/* At TX_COMMIT with read-only lanes whose loads were stamped: query every
 * block they read. */
static bool tcd_check(void *state, tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)now;
    tcd_warp *t = tmu_slot_warp(u, state, warp);
    if (!t) return false;
    t->block_count = 0;
    if (!w->read_stamp || w->read_stamp == UINT32_MAX) return false; /* no stamp: no commit unit on the way */
    for (uint64_t m = w->committing; m; m &= m - 1) {
        const tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        if (read_only(lane) && !add_blocks(u, t, lane)) return false;
    }
    if (!t->block_count) return false;
    w->phase = TMU_CHECK_WAIT;
    w->precommit_resume = next_stage;
    for (uint32_t b = 0; b < t->block_count; b++) query_block(u, w, t, warp, b);
    return true;
}

static bool tcd_response(void *state, tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    (void)l;
    if (kind != TMU_KIND_LWT || w->phase != TMU_CHECK_WAIT) return false;
    tcd_warp *t = tmu_slot_warp(u, state, warp);
    if (!t) return true;
    uint32_t index = (uint32_t)msg->id & 0xffff;
    if (index < t->block_count) t->blocks[index].last_written = (uint32_t)msg->aux;
    if (--t->lwt_pending) return true;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        if (!read_only(lane)) continue;
        bool clean = true;
        for (uint32_t i = 0; i < lane->reads.count && clean; i++) {
            uint32_t b = block_index(t, lane->reads.entries[i].address / TM_LWT_BLOCK_BYTES);
            clean = b != UINT32_MAX && t->blocks[b].last_written < w->read_stamp;
        }
        /* serialized just before ID R, the attempt's read stamp */
        lane->check_committed = clean;
        lane->serial_after = w->read_stamp - 1;
        u->stats.tcd_commits += clean && lane->passed;
    }
    tmu_precommit_continue(u, w, warp, w->precommit_resume, now);
    return true;
}

const tmu_precommit tmu_precommit_tcd = {
    .name = "tcd",
    .create = tcd_create,
    .destroy = tmu_slot_warps_free,
    .check = tcd_check,
    .response = tcd_response,
};
