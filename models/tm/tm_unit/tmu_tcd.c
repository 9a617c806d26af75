/* tmu_tcd: KILO TM's temporal conflict detection: an attempt's start time, last-written-time queries before loads, the read-only check at commit. */
#include "tmu_internal.h"

/* The attempt's start time is the next commit ID (aux = 0 reads the
 * clock); TX_BEGIN is answered when it arrives. */
static bool request_start_time(tmu *u, tmu_warp *w, uint32_t warp)
{
    w->phase = TMU_WAIT_START;
    w->block_count = 0;
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = 0;
    request.warp = (int32_t)warp;
    request.core = w->core;
    request.id = tmu_id(TMU_KIND_START, warp, 0, 0);
    tmu_push(u, &request);
    return true;
}

static void query_block(tmu *u, tmu_warp *w, uint32_t warp, uint32_t index)
{
    simtx_msg query;
    simtx_msg_init(&query, SIMTX_OP_TM_LWT_QUERY, (uint64_t)w->blocks[index].block * TM_LWT_BLOCK_BYTES, 0);
    query.aux = w->start_time;
    query.warp = (int32_t)warp;
    query.core = w->core;
    query.id = TMU_TM_TAG | (uint64_t)TMU_KIND_LWT << 48 | (uint64_t)warp << 16 | index;
    w->lwt_pending++;
    tmu_push(u, &query);
}

static uint32_t block_index(const tmu_warp *w, uint32_t block)
{
    for (uint32_t b = 0; b < w->block_count; b++)
        if (w->blocks[b].block == block) return b;
    return UINT32_MAX;
}

/* Before a transactional load first touches a 128-byte block, ask its
 * partition for the block's last-written time (answered once every ID
 * before the start time retired, so the load then sees all of them).
 * Returns true when queries went out and the load must wait. */
static bool need_block_queries(tmu *u, tmu_warp *w, uint32_t warp, const tmu_request *r)
{
    uint32_t first_new = w->block_count;
    for (uint64_t m = r->lanes; m; m &= m - 1) {
        uint32_t block = r->addresses[__builtin_ctzll(m)] / TM_LWT_BLOCK_BYTES;
        if (block_index(w, block) != UINT32_MAX) continue;
        tmu_block *blocks = tmu_reserve(w->blocks, &w->block_capacity, w->block_count + 1u, sizeof *blocks, 32);
        if (!blocks) {
            tmu_fail(u, "out of memory for temporal conflict detection");
            return false;
        }
        w->blocks = blocks;
        if (w->block_count >= 0xffff) break; /* beyond the id field: the commit validates these */
        w->blocks[w->block_count++] = (tmu_block){block, UINT32_MAX};
    }
    if (w->block_count == first_new) return false;
    for (uint32_t b = first_new; b < w->block_count; b++) query_block(u, w, warp, b);
    return true;
}

/* At TX_COMMIT with read-only lanes: ask again for every block; read-only
 * lanes whose blocks were all last written before the start time commit
 * here. */
static bool tcd_check(tmu *u, tmu_warp *w, uint32_t warp, uint32_t next_stage, uint64_t now)
{
    (void)now;
    bool read_only = false;
    for (uint64_t m = w->committing; m; m &= m - 1) {
        const tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
        read_only |= lane->reads.count && !lane->writes.count;
    }
    if (!read_only || !w->block_count) return false;
    w->phase = TMU_TCD_CHECK;
    w->precommit_resume = next_stage;
    for (uint32_t b = 0; b < w->block_count; b++) query_block(u, w, warp, b);
    return true;
}

static bool tcd_response(tmu *u, tmu_warp *w, uint32_t warp, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    (void)l;
    if (kind == TMU_KIND_START) {
        w->start_time = (uint32_t)msg->aux;
        tmu_begin_ready(u, w, now);
        return true;
    }
    if (kind != TMU_KIND_LWT) return false;
    uint32_t index = (uint32_t)msg->id & 0xffff;
    if (index < w->block_count) w->blocks[index].last_written = (uint32_t)msg->aux;
    if (--w->lwt_pending) return true;
    if (w->phase == TMU_RUNNING) { /* the loads that needed the blocks are served */
        tmu_serve_held(u, w, warp, now);
    } else if (w->phase == TMU_TCD_CHECK) {
        for (uint64_t m = w->committing; m; m &= m - 1) {
            tmu_lane *lane = &w->lane[__builtin_ctzll(m)];
            if (!lane->reads.count || lane->writes.count) continue;
            bool clean = true;
            for (uint32_t i = 0; i < lane->reads.count && clean; i++) {
                uint32_t b = block_index(w, lane->reads.entries[i].address / TM_LWT_BLOCK_BYTES);
                clean = b != UINT32_MAX && w->blocks[b].last_written < w->start_time;
            }
            lane->tcd = clean;
        }
        tmu_precommit_continue(u, w, warp, w->precommit_resume, now);
    }
    return true;
}

const tmu_precommit tmu_precommit_tcd = {
    .name = "tcd",
    .attempt_started = request_start_time,
    .before_load = need_block_queries,
    .check = tcd_check,
    .response = tcd_response,
};
