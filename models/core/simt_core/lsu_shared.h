/* lsu_shared: the core's side of the lds socket (models/protocols/ldst.h):
 * a warp memory instruction's shared-window lanes as one request of beats,
 * the CTA region's clear at dispatch, the beats' queue and the responses'
 * write-back. Shared memory itself is the lds block's. */
#ifndef SIMTX_CORE_LSU_SHARED_H
#define SIMTX_CORE_LSU_SHARED_H

#include "core_internal.h"
#include "ldst.h"

/* The ids of requests no instruction waits for: a CTA's clear, and before
 * the first one an empty clear at offset shared_memory, which the lds
 * refuses if it is smaller (a check that zeroes nothing). */
#define LDST_SHARED_CLEAR_ID UINT64_MAX
#define LDST_SHARED_SIZE_CHECK_ID (UINT64_MAX - 1)

/* The beats a request of `lanes` (not empty) takes for an instruction of
 * class cls: addresses, then store data or operands, then sc's expected values. */
static inline unsigned lsu_shared_beats(rv_class cls, rv_op op, uint64_t lanes)
{
    unsigned groups = (uint32_t)lanes ? 1u : 0u;
    if (lanes >> LDST_LANES_PER_BEAT) groups++;
    unsigned per_group = cls == RV_CLASS_LOAD || op == RV_LR ? 1u : op == RV_SC ? 3u : 2u;
    return groups * per_group;
}

/* Room for `beats` more beats, and always one left for a CTA's clear. */
static inline bool lsu_shared_has_room(const simt_core *c, unsigned beats)
{
    return c->lds_requests.capacity - c->lds_requests.length > beats;
}

/* Queues the request of an instruction's shared lanes (room checked by the
 * caller), tagged with its pending entry. */
void lsu_shared_request(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t entry_index, uint64_t lanes,
                         const uint32_t *addresses, uint64_t now);

/* Queues the clear of a CTA's region at dispatch (the first one preceded
 * by the size check); false without room. */
bool lsu_shared_clear(simt_core *c, uint32_t offset, uint32_t bytes, uint32_t cta_slot, uint64_t now);

/* Sends queued beats while the lds takes them. */
void lsu_shared_send_queued(simt_core *c);

/* A response of the lds socket. */
void lsu_shared_response(simt_core *c, const simtx_msg *msg, uint64_t now);

#endif
