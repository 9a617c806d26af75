/* The peer protocol: how a partition-side block (a commit unit, a table
 * slice in the before_l2 or before_dram chain) reaches a block elsewhere:
 * the slice of another partition, or one central table (SI-TM's logical
 * timestamp table, a table that fixes the version boundaries every slice
 * agrees on). The path is a peer network: a crossbar instance of its own,
 * as the notify network is one, carrying only these requests and their
 * responses.
 *
 * WHY A NETWORK (and not the alternatives)
 *
 *   Core-mediated requests (a partition answers the tm_unit, which asks
 *   the other partition) cost two request-network round trips and make the
 *   partition's answer wait for a core. A dedicated binding per pair costs
 *   nothing and so models no link. A crossbar instance counts each request
 *   and response as packets on links of their own (flits, latency, one
 *   transfer per output per cycle), reuses a block the platforms already
 *   configure, and keeps its traffic off the request network, so that a
 *   peer request can never wait behind, or hold up, a memory access.
 *
 * PARTIES AND ORDER OF EVENTS
 *
 *   1. A partition-side block sends SIMTX_OP_PEER on its `peer` initiator
 *      socket, bound to the peer crossbar's `cores[p]` socket (p: its
 *      partition; on a peer network those face the senders).
 *   2. The crossbar routes it by address: `mapping = ranges` to the one
 *      target whose `partitions[t]` binding carries the { base, size }
 *      holding the address (a central table at a reserved range, like the
 *      commit-ID allocator's address 0), or `mapping = interleave` with the
 *      platform's address map (partitions, interleave) to the slice of the
 *      partition that owns the address.
 *   3. The target (its `peer` target socket) answers it in place
 *      (simtx_msg_make_response) and the crossbar carries the response back
 *      to the sender by its route stack, as on the request network.
 *
 * FIELDS
 *
 *   op              SIMTX_OP_PEER (family SIMTX_FAMILY_PEER, answered; the
 *                   request and the response carry `size` bytes of data)
 *   address         routes it: the central table's address, or an address
 *                   of the partition whose slice it concerns
 *   id              the sender's tag, returned unchanged
 *   aux, transaction_id, data, size   what the target's own protocol says
 *                   (its header lists its kinds; e.g. a timestamp table:
 *                   aux = the increment, the response's aux = the value)
 *   core, warp      the transaction's issuer, when the request is about one
 *   flags           none defined
 *
 * COSTS
 *
 *   As any crossbar packet: header_bytes plus size in flits on each link
 *   the request and its response take, the crossbar's latency each way,
 *   one switch transfer each. The target's handling time is its block's.
 *
 * DEADLOCK RULES
 *
 *   The peer network carries nothing but peer requests and their
 *   responses. A target answers a peer request without waiting for the
 *   request network, the notify network or a peer request of its own: it
 *   may refuse one (SIMTX_BUSY) only while a queue of its own drains. A
 *   block that both sends and receives peer requests keeps taking the
 *   requests addressed to it while its own wait for their responses, and
 *   takes every response at once. So every peer request is answered
 *   without a cycle of waits: the peer network always drains, and a
 *   partition block stalled on it waits only for that drain.
 *
 * Tested by testbenches/memory/crossbar_peer_testbench.cpp: three
 * partitions' requests to one central table through a peer network.
 */
#ifndef SIMTX_PEER_H
#define SIMTX_PEER_H

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A peer request to the target at address (no data yet: set size and data). */
static inline void peer_request_init(simtx_msg *msg, uint64_t address, uint64_t id)
{
    simtx_msg_init(msg, SIMTX_OP_PEER, address, 0);
    msg->id = id;
}

#ifdef __cplusplus
}
#endif

#endif
