/* commit_hold: the commit unit's messages beyond its commit-ID window.
 * A log, TM_LOG_DONE or TM_SKIP message naming an ID past the window, or an
 * ID of a message already held, waits aside (commit_ring.beyond) instead of
 * in the input queue, and is taken in once the window reaches it, after the
 * earlier messages of its IDs (commit_unit.c's input stage and take_aside). */
#ifndef SIMTX_COMMIT_HOLD_H
#define SIMTX_COMMIT_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commit_ring.h"

/* The IDs msg names, lowest to highest; false for ops that never wait for
 * the window and for malformed messages (the unit reports those). */
bool commit_hold_message_ids(const commit_ring *ring, const simtx_msg *msg, uint32_t *lowest, uint32_t *highest);
/* Whether one of the first `before` held messages names an ID in [lowest, highest]. */
bool commit_hold_overlaps(const commit_ring *ring, size_t before, uint32_t lowest, uint32_t highest);
/* Whether msg must wait aside rather than in the input queue. */
bool commit_hold_waits(const commit_ring *ring, const simtx_msg *msg);

#endif
