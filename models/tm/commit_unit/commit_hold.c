/* commit_hold: the commit unit's messages beyond its window (see commit_hold.h). */
#include "commit_hold.h"

/* The IDs a log, TM_LOG_DONE or TM_SKIP message names; false for the other
 * ops (they never wait for the window) and for malformed messages (take_in
 * reports them). */
bool commit_hold_message_ids(const commit_ring *ring, const simtx_msg *msg, uint32_t *lowest, uint32_t *highest)
{
    uint32_t count;
    switch ((simtx_op)msg->op) {
    case SIMTX_OP_TM_READ_LOG:
    case SIMTX_OP_TM_WRITE_LOG:
        count = tm_entry_count(msg);
        if (msg->size % TM_ENTRY_BYTES || count == 0 || count > TM_MAX_ENTRIES_PER_MSG) return false;
        *lowest = *highest = tm_entry_cid(msg, 0);
        for (unsigned k = 1; k < count; k++) {
            uint32_t cid = tm_entry_cid(msg, k);
            if (cid < *lowest) *lowest = cid;
            if (cid > *highest) *highest = cid;
        }
        return true;
    case SIMTX_OP_TM_LOG_DONE:
        count = msg->size ? msg->size / 8 : 1;
        if (msg->size % 8 || count > TM_MAX_ENTRIES_PER_MSG) return false;
        break;
    case SIMTX_OP_TM_SKIP:
        count = (uint32_t)msg->aux;
        if (count == 0 || count > ring->window) return false;
        break;
    default: return false;
    }
    *lowest = msg->transaction_id;
    *highest = msg->transaction_id + count - 1;
    return true;
}

/* Whether one of the first `before` messages put aside names an ID in
 * [lowest, highest]: a later message of that ID must wait behind it, so
 * that each ID's messages are taken in arrival order. */
bool commit_hold_overlaps(const commit_ring *ring, size_t before, uint32_t lowest, uint32_t highest)
{
    for (size_t i = 0; i < before; i++) {
        uint32_t first, last;
        if (commit_hold_message_ids(ring, &ring->beyond.messages[i], &first, &last) && first <= highest && last >= lowest) return true;
    }
    return false;
}

/* Whether msg waits aside (ring.beyond) instead of in the input queue: it
 * names an ID past the window, or one of a message already waiting there.
 * The window's ring retires IDs only in order, and an ID stays live at a
 * partition after its transaction has finished at the core while older
 * skips are still on their way, so messages beyond the window keep coming;
 * left in the input queue they would fill it and refuse the messages that
 * let the window move on. */
bool commit_hold_waits(const commit_ring *ring, const simtx_msg *msg)
{
    uint32_t lowest, highest;
    if (!commit_hold_message_ids(ring, msg, &lowest, &highest)) return false;
    return highest >= ring->retire_cid + ring->window || commit_hold_overlaps(ring, ring->beyond.length, lowest, highest);
}
