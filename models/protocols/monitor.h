/* The cache monitor protocol: events a cache (l1_cache, l2_cache through
 * the cache engine) emits on its optional `monitor` socket for a block that
 * observes it (AGPM's buffers, a testbench). A monitor socket has the role
 * SIMTX_SOCKET_MONITOR: it may stay unbound, and then the cache makes no
 * event at all.
 *
 * PARTIES AND ORDER OF EVENTS
 *
 *   The cache sends each event when it happens, in the cycle of its tag
 *   lookup:
 *     EVICT      a valid line leaves. Replaced to make room: before the
 *                WRITEBACK of its dirty data and the MISS that needed the
 *                room, with MONITOR_DIRTY when it was dirty. Dropped by a
 *                write-through write (write-evict), a flush, a forwarded op
 *                acting on the line or a fence dropping every line: after
 *                the WRITEBACK of a dirty one (then no longer dirty);
 *     WRITEBACK  dirty data of a line goes to the next level (eviction,
 *                clean, flush, or a forwarded op acting on the line);
 *     HIT        the lookup found every sector it needs valid (served now);
 *                a write-through cache's write finding the line also makes
 *                a HIT (MONITOR_WRITE), before the EVICT of its
 *                write-evict, though the cache counts no hit (GPGPU-Sim,
 *                whose statistics AGPM's buffers follow, calls it one);
 *     MISS       it did not: a new miss, a sector miss, or an access merged
 *                into a fill already in flight.
 *   A lookup that stalls (no MSHR, no queue room) makes no event; it makes
 *   its events when it is retried and proceeds. Reads, writes and executed
 *   atomics make HIT or MISS, except a write-through cache's write that
 *   does not find the line (no event: it does not look for data) or finds
 *   one whose fill is in flight (merged into it: no event);
 *   fences and forwarded ops make neither.
 *
 * FIELDS
 *
 *   op               SIMTX_OP_MONITOR_HIT / _MISS / _EVICT / _WRITEBACK
 *   address          the line's address (its first byte)
 *   size             the cache's line size
 *   core, warp, cta  the access that caused it (-1 when none)
 *   flags            the causing access's flags (0 when none): a block
 *                    observing it tells log updates (SIMTX_FLAG_PM_LOG),
 *                    non-temporal and persistent accesses apart
 *   byte_enable      HIT and MISS of a read, write or atomic: bit i set
 *                    when the access reads or writes byte i of the line
 *                    (a write's own byte_enable, shifted to its offset;
 *                    lines up to SIMTX_MSG_MAX_DATA bytes); otherwise all
 *                    ones
 *   aux              set index (bits 0-31), way (bits 32-47), MONITOR_DIRTY
 *                    (EVICT: the line was dirty) and MONITOR_WRITE (HIT and
 *                    MISS: the access writes); monitor_set/way read them
 *   id, handle       unused
 *
 * RULES
 *
 *   An event is posted (no response) and never refused: the receiver must
 *   accept every event at once; a refusal fails the run at the cache,
 *   naming it. So monitoring can neither slow nor deadlock the cache.
 *
 * COSTS
 *
 *   None in the model: events take no time and no bandwidth; the observer
 *   charges what its own hardware would.
 */
#ifndef SIMTX_MONITOR_H
#define SIMTX_MONITOR_H

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MONITOR_DIRTY (UINT64_C(1) << 63)
#define MONITOR_WRITE (UINT64_C(1) << 62)

static inline uint64_t monitor_location(unsigned set, unsigned way) { return (uint64_t)set | (uint64_t)(way & 0xFFFFu) << 32; }
static inline unsigned monitor_set(const simtx_msg *msg) { return (unsigned)(msg->aux & 0xFFFFFFFFu); }
static inline unsigned monitor_way(const simtx_msg *msg) { return (unsigned)((msg->aux >> 32) & 0xFFFFu); }

#ifdef __cplusplus
}
#endif
#endif
