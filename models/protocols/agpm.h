/* The AGPM control protocol: posted messages between the per-SM path
 * selectors (agpm_selector, between a core's ldst_unit and its L1) and the
 * AGPM tracker (agpm_tracker: the L1- and L2-level AGPM buffers, the
 * reservation buffer, the periods and the Table III classifier), after the
 * control signals of the AGPM paper's Figure 6. Family "pm control"
 * (SIMTX_FAMILY_PM_CONTROL): caches and networks never see these ops; the
 * selectors and the tracker are bound directly (dedicated wires, no
 * crossbar).
 *
 * PARTIES AND ORDER OF EVENTS
 *
 *   selector -> tracker, on the selector's `report` initiator socket bound
 *   to one of the tracker's `reports` target sockets:
 *     AGPM_LOG     a log update (a WRITE flagged SIMTX_FLAG_PM_LOG) left
 *                  the selector by the path in aux; sent when the write
 *                  is forwarded, before anything the write causes in the
 *                  caches;
 *     AGPM_DONE    that log update is durable: aux = cycles from its
 *                  arrival at the selector to its durable acknowledgement
 *                  (the write's, or that of the clean covering its line:
 *                  the selector makes one per line a warp writes), for
 *                  CWPPR;
 *     AGPM_KERNEL  a launch boundary passed the selector (the ldst_unit's
 *                  invalidating FENCE, ldst.h LDST_LAUNCH_FENCE_ID): the
 *                  tracker ends the period and flushes its buffers.
 *   tracker -> selector, on the tracker's `decisions` initiator sockets
 *   (one per core) bound to each selector's `decision` target socket:
 *     AGPM_DECISION  at each period end, to every selector: the path the
 *                  classifier chose and what it saw; a selector's policy
 *                  applies it (or ignores it) from then on.
 *
 * FIELDS
 *
 *   AGPM_LOG       aux: agpm_path taken (bits 0-7), AGPM_LOG_COUNTED (the
 *                  first report of its write: one log update for the
 *                  period), AGPM_LOG_TRACKED (address and byte_enable name
 *                  the logged data: a write flagged PM_LOG_NAMES makes one
 *                  report per 128-byte block its words name, the bytes
 *                  of the named words enabled; the buffers track it),
 *                  AGPM_LOG_SAME_ACCESS (the same warp access as the
 *                  previous tracked report, on the same block);
 *                  address: that block, or the write's own block when not
 *                  tracked; size: 128; core: the selector's core; warp,
 *                  cta: the write's.
 *   AGPM_DONE      aux: cycles waited; core.
 *   AGPM_KERNEL    core; aux: the launch's shared memory bytes per CTA (its
 *                  launch fence's tag, mem.h), Table III's reason h.
 *   AGPM_DECISION  aux: agpm_decision_pack (path, reason, the temporal-
 *                  locality bit Themis reads); transaction_id: the period
 *                  number (from 1); core: the destination selector.
 *   id, handle     unused (posted).
 *
 * RULES
 *
 *   Every op is posted (simtx_op_info.answered false) and must be taken at
 *   once: a refusal fails the run at the sender. So the control path can
 *   neither slow nor deadlock the memory path it observes.
 *
 * COSTS
 *
 *   None in the protocol: the messages take no time (the paper's control
 *   wires); the tracker's own latency to a decision is its parameter.
 */
#ifndef SIMTX_AGPM_H
#define SIMTX_AGPM_H

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A log update's path. */
typedef enum agpm_path {
    AGPM_PATH_NON_TEMPORAL, /* nt-store: bypass the caches into the WPQ */
    AGPM_PATH_TEMPORAL,     /* store + clwb through the L1 and the L2 */
} agpm_path;

/* Table III's reasons; NONE: no rule matched. */
typedef enum agpm_reason {
    AGPM_REASON_NONE,
    AGPM_REASON_A, AGPM_REASON_B, AGPM_REASON_C, AGPM_REASON_D,
    AGPM_REASON_E, AGPM_REASON_F, AGPM_REASON_G, AGPM_REASON_H,
    AGPM_REASON_COUNT
} agpm_reason;

/* The block AGPM tracks: an aligned 128-byte segment. */
#define AGPM_BLOCK_BYTES 128u

#define AGPM_LOG_COUNTED (UINT64_C(1) << 8)
#define AGPM_LOG_TRACKED (UINT64_C(1) << 9)
/* A tracked report continuing the previous one of the same warp access
 * (its store split over several requests by the coalescer) on the same
 * block: its bytes join the entry as one log update, not a second one. */
#define AGPM_LOG_SAME_ACCESS (UINT64_C(1) << 10)

/* AGPM_DECISION's aux: bits 0-7 path, 8-15 reason, bit 16 the buffers
 * showed temporal locality (l1d_t_all or l2_t_all not 0). */
static inline uint64_t agpm_decision_pack(agpm_path path, agpm_reason reason, bool temporal)
{
    return (uint64_t)path | (uint64_t)reason << 8 | (uint64_t)temporal << 16;
}
static inline agpm_path agpm_decision_path(const simtx_msg *msg) { return (agpm_path)(msg->aux & 0xFFu); }
static inline agpm_reason agpm_decision_reason(const simtx_msg *msg) { return (agpm_reason)((msg->aux >> 8) & 0xFFu); }
static inline bool agpm_decision_temporal(const simtx_msg *msg) { return (msg->aux >> 16) & 1u; }

#ifdef __cplusplus
}
#endif
#endif
