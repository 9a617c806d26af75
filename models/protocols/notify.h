/* The notify protocol: one-way notifications from the memory partitions
 * (commit units and the tables future TM designs add there) to the cores,
 * over a notify network: a second crossbar instance with mapping = core.
 * EA/PG's commit-unit-to-core updates and SI-TM's aborts ride on it.
 *
 * PARTIES AND ORDER OF EVENTS
 *
 *   1. A partition block sends SIMTX_OP_NOTIFY on its notify initiator
 *      socket, bound to one of the notify crossbar's `cores` sockets (on a
 *      notify network those face the partitions: its inputs).
 *   2. The crossbar (mapping = core) sends it out of `partitions` socket
 *      msg.core (on a notify network those face the cores: output i is core
 *      i), or, with SIMTX_FLAG_BROADCAST, a copy out of every output.
 *   3. The core-side receiver (its notify target socket) takes it. There is
 *      no response: a notification is posted (simtx_op_info.answered is
 *      false), and the crossbar pushes no route for it.
 *
 * ADDRESSING
 *
 *   msg.core is the destination core, 0 .. outputs - 1. Broadcast is the
 *   SIMTX_FLAG_BROADCAST flag, not core = -1: simtx_msg_init leaves core at
 *   -1, so a sender that forgot to address its notification would otherwise
 *   reach every core silently. Without the flag a core outside the
 *   crossbar's outputs fails the run (there is no response to carry an
 *   address error).
 *
 * FIELDS
 *
 *   id              the notification kind (notify_kind): a posted message has
 *                   no response to match, so its tag names what it says
 *   address         the address it concerns (a block, a word), or 0
 *   aux             per kind (e.g. a commit ID or a timestamp)
 *   transaction_id  the transaction it concerns, when one
 *   warp            the warp it concerns, or -1 (all of the core's)
 *   size, data      optional payload (up to SIMTX_MSG_MAX_DATA bytes)
 *   flags           SIMTX_FLAG_BROADCAST; the others mean nothing here
 *
 * WHY IT CANNOT DEADLOCK WITH THE REQUEST NETWORK
 *
 *   The notify network is its own crossbar instance and carries only
 *   notifications; nothing travels back on it. A receiver takes every
 *   notification without waiting for anything else: it may refuse one
 *   (SIMTX_BUSY) only while a queue of its own drains, and that drain never
 *   waits for a memory request or response. So the notify network always
 *   drains, and a partition block stalled on its busy notify port waits
 *   only for that drain, never for the request network, while a core never
 *   waits for the notify network to send or answer a request. Answered
 *   notifications would add the reverse dependency (a partition holding
 *   state until a core, which may itself wait on that partition, answers);
 *   none of the designs needs the acknowledgement, so there is none.
 *
 * COSTS
 *
 *   As any crossbar packet: header_bytes plus size in flits on each output
 *   link the notification takes, the crossbar's latency, and one switch
 *   transfer. A broadcast fans out: each output takes its copy when its
 *   own round-robin picks it, every free one in the same transfer, a busy
 *   one (transferring, or its queue full) later without holding the
 *   others back; the broadcast holds its input, as one transfer, until
 *   the last output took its copy. The receiver's own handling time is its
 *   block's.
 */
#ifndef SIMTX_NOTIFY_H
#define SIMTX_NOTIFY_H

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a notification says (msg.id); designs add their kinds here. */
typedef enum notify_kind {
    NOTIFY_KIND_TEST,   /* carries nothing the receiver acts on: for testbenches */
    NOTIFY_KIND_CONFLICT_ADDRESSES, /* EA/PG: a commit unit's reference counts changed (below) */
    NOTIFY_KIND_COUNT
} notify_kind;

/* NOTIFY_KIND_CONFLICT_ADDRESSES (EA/PG, HPCA'16 Section 4.1), broadcast by
 * a commit unit with a reference count table: size / 4 entries of 4 bytes,
 * each a word address whose low bits say what changed: NOTIFY_CAT_WRITE
 * set for its writers, clear for its readers; NOTIFY_CAT_ADD set when the
 * word got its first reader (writer) among the partition's committing
 * transactions, clear when it lost its last. A word belongs to one
 * partition, so its entries arrive in order. A table that was full when a
 * word came sent nothing for it, then or when it leaves. aux: the cycle
 * (the sender's clock) the commit unit sent it, from which the receiver
 * measures the update latency (queueing and the notify network; the
 * sender's batching of entries comes before). */
#define NOTIFY_CAT_WRITE 1u
#define NOTIFY_CAT_ADD 2u
#define NOTIFY_CAT_ENTRIES (SIMTX_MSG_MAX_DATA / 4)

/* A notification of `kind` for core `core` (ignored when broadcast). */
static inline void notify_init(simtx_msg *msg, notify_kind kind, int core, bool broadcast)
{
    simtx_msg_init(msg, SIMTX_OP_NOTIFY, 0, 0);
    msg->id = (uint64_t)kind;
    msg->core = core;
    if (broadcast) msg->flags |= SIMTX_FLAG_BROADCAST;
}

#ifdef __cplusplus
}
#endif
#endif
