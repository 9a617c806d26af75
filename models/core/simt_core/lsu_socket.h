/* lsu_socket: the core's side of its two ldst.h sockets
 * (models/protocols/ldst.h): a warp memory instruction's lanes as one
 * request of beats, global and persistent lanes to the ldst_unit (port
 * LDST_PORT), shared lanes to the lds (LDS_PORT, with the CTA region's
 * clear at dispatch); the beats' queues and the responses' write-back.
 * Global memory and shared memory themselves are the blocks'. */
#ifndef SIMTX_CORE_LSU_SOCKET_H
#define SIMTX_CORE_LSU_SOCKET_H

#include "core_internal.h"
#include "ldst.h"

/* The ids of lds requests no instruction waits for: a CTA's clear, and
 * before the first one an empty clear at offset shared_memory, which the
 * lds refuses if it is smaller (a check that zeroes nothing). */
#define LDST_SHARED_CLEAR_ID UINT64_MAX
#define LDST_SHARED_SIZE_CHECK_ID (UINT64_MAX - 1)

/* The beats a request of `lanes` (not empty) takes for an instruction of
 * class cls: addresses, then store data or operands, then sc's expected values. */
static inline unsigned lsu_socket_beats(rv_class cls, rv_op op, uint64_t lanes)
{
    unsigned groups = (uint32_t)lanes ? 1u : 0u;
    if (lanes >> LDST_LANES_PER_BEAT) groups++;
    unsigned per_group = cls == RV_CLASS_LOAD || op == RV_LR || op == RV_CLWB ? 1u : op == RV_SC ? 3u : 2u;
    return groups * per_group;
}

/* Room for `beats` more beats on a socket (and always one left on the lds's
 * for a CTA's clear). */
static inline bool lsu_socket_has_room(const simt_core *c, unsigned port, unsigned beats)
{
    return c->sockets[port].beats.capacity - c->sockets[port].beats.length > beats;
}

/* Sends the request of an instruction's lanes on a socket, queueing what
 * the unit does not take (room checked by the caller), tagged with its
 * pending entry. word_run: lane l's address is addresses[0] + 4 l, which a
 * plain access outside a transaction sends to the ldst_unit as a run. */
void lsu_socket_request(simt_core *c, unsigned port, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t entry_index,
                        uint64_t lanes, const uint32_t *addresses, bool word_run, uint64_t now);

/* Queues the clear of a CTA's region in the lds at dispatch (the first one
 * preceded by the size check); false without room. */
bool lsu_socket_clear(simt_core *c, uint32_t offset, uint32_t bytes, uint32_t cta_slot, uint64_t now);

/* Queues a launch's invalidating fence on the ldst socket (ldst.h): no CTA
 * is dispatched until it is answered, so the launch reads no line the L1
 * kept from before it (the host may have written the memory since). */
void lsu_socket_launch_fence(simt_core *c);

/* Sends a socket's queued beats while its unit takes them. */
void lsu_socket_send_queued(simt_core *c, unsigned port);

/* A response on a socket (LDST_PORT: not of the TM protocol). */
void lsu_socket_response(simt_core *c, unsigned port, const simtx_msg *msg, uint64_t now);

#endif
