/* tm_tcd: KILO TM's temporal conflict detection: an attempt's start time, last-written-time queries before loads, the read-only check at commit. */
#include "core_internal.h"

/* The attempt's start time is the next commit ID (aux = 0 reads the clock). */
static void request_start_time(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    tx->phase = TX_WAIT_START;
    tx->block_count = 0;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = 0;
    request.warp = (int32_t)warp_index;
    request.id = ((uint64_t)1 << 62) | (uint64_t)TM_KIND_START << 48 | (uint64_t)warp_index << 16;
    tm_core_push(c, &request);
}

static void query_block(simt_core *c, warp *w, uint32_t warp_index, uint32_t index)
{
    tx_warp *tx = w->tx;
    simtx_msg query;
    simtx_msg_init(&query, SIMTX_OP_TM_LWT_QUERY, (uint64_t)tx->blocks[index].block * TM_LWT_BLOCK_BYTES, 0);
    query.aux = tx->start_time;
    query.warp = (int32_t)warp_index;
    query.id = ((uint64_t)1 << 62) | (uint64_t)TM_KIND_LWT << 48 | (uint64_t)warp_index << 16 | index;
    tx->lwt_pending++;
    tm_core_push(c, &query);
}

static uint32_t block_index(const tx_warp *tx, uint32_t block)
{
    for (uint32_t b = 0; b < tx->block_count; b++)
        if (tx->blocks[b].block == block) return b;
    return UINT32_MAX;
}

/* TCD: before a transactional load first touches a 128-byte block, ask its
 * partition for the block's last-written time (answered once every ID
 * before the start time retired, so the load then sees all of them).
 * Returns true when queries went out and the load must wait. */
static bool need_block_queries(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint64_t mask)
{
    tx_warp *tx = w->tx;
    const uint32_t *base = reg(c, w, k->insn.rs1);
    uint32_t first_new = tx->block_count;
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t address = base[__builtin_ctzll(m)] + (uint32_t)k->insn.imm;
        rv_window window = rv_window_of(address);
        if (window != RV_WINDOW_GLOBAL && window != RV_WINDOW_PERSISTENT) continue;
        if (address - c->launch->args_address < c->launch->args_size) continue;
        uint32_t block = address / TM_LWT_BLOCK_BYTES;
        if (block_index(tx, block) != UINT32_MAX) continue;
        tx_block *blocks = core_reserve(tx->blocks, &tx->block_capacity, tx->block_count + 1u, sizeof *blocks, 32);
        if (!blocks) {
            core_fail(c, "out of memory for temporal conflict detection");
            return true;
        }
        tx->blocks = blocks;
        if (tx->block_count >= 0xffff) return false; /* beyond the id field: the commit validates these */
        tx->blocks[tx->block_count++] = (tx_block){block, UINT32_MAX};
    }
    if (tx->block_count == first_new) return false;
    tx->phase = TX_WAIT_LWT;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY);
    for (uint32_t b = first_new; b < tx->block_count; b++) query_block(c, w, warp_index, b);
    return true;
}

/* At tx_commit with read-only lanes: ask again for every block; read-only
 * lanes whose blocks were all last written before the start time commit
 * here. */
static bool tcd_check(simt_core *c, warp *w, uint32_t warp_index, uint32_t next_stage, uint64_t now)
{
    (void)now;
    tx_warp *tx = w->tx;
    bool read_only = false;
    for (uint64_t m = tx->committing; m; m &= m - 1) {
        const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        read_only |= lane->reads.count && !lane->writes.count;
    }
    if (!read_only || !tx->block_count) return false;
    tx->phase = TX_TCD_CHECK;
    tx->precommit_resume = next_stage;
    for (uint32_t b = 0; b < tx->block_count; b++) query_block(c, w, warp_index, b);
    return true;
}

static bool tcd_response(simt_core *c, warp *w, uint32_t warp_index, unsigned kind, uint32_t l, const simtx_msg *msg, uint64_t now)
{
    (void)l;
    tx_warp *tx = w->tx;
    if (kind == TM_KIND_START) {
        tx->start_time = (uint32_t)msg->aux;
        tx->phase = TX_RUNNING;
        warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
        return true;
    }
    if (kind != TM_KIND_LWT) return false;
    uint32_t index = (uint32_t)msg->id & 0xffff;
    if (index < tx->block_count) tx->blocks[index].last_written = (uint32_t)msg->aux;
    if (--tx->lwt_pending) return true;
    if (tx->phase == TX_WAIT_LWT) { /* the load that needed the blocks issues again */
        tx->phase = TX_RUNNING;
        warp_sched_set_hot(&c->sched, warp_index, 0, STALL_NONE);
    } else if (tx->phase == TX_TCD_CHECK) {
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
            if (!lane->reads.count || lane->writes.count) continue;
            bool clean = true;
            for (uint32_t i = 0; i < lane->reads.count && clean; i++) {
                uint32_t b = block_index(tx, lane->reads.entries[i].address / TM_LWT_BLOCK_BYTES);
                clean = b != UINT32_MAX && tx->blocks[b].last_written < tx->start_time;
            }
            lane->tcd = clean;
        }
        tm_core_precommit_continue(c, w, warp_index, tx->precommit_resume, now);
    }
    return true;
}

const tm_precommit tm_precommit_tcd = {
    .name = "tcd",
    .attempt_started = request_start_time,
    .before_load = need_block_queries,
    .check = tcd_check,
    .response = tcd_response,
};
