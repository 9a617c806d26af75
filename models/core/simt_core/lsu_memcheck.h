/* lsu_memcheck: the memory checker on the core's LD/ST path (on in simtx
 * run unless --no-memcheck): every global or persistent lane access must
 * lie in a live range of the launch's table (models/protocols/memcheck.h), every shared
 * one in its CTA's region. */
#ifndef SIMTX_CORE_LSU_MEMCHECK_H
#define SIMTX_CORE_LSU_MEMCHECK_H

#include "core_internal.h"

/* Checks the lanes of memory_mask (to the ldst_unit) and shared_mask (to
 * the lds) of the instruction at pc, lane by lane. A violation fails the
 * run naming the lane, the pc and the nearest allocation; in a transaction
 * it aborts the transaction instead (a doomed one may compute any address,
 * as for a window fault). Returns whether it found one. */
bool lsu_memcheck_lanes_refused(simt_core *c, warp *w, rv_op op, uint32_t pc, uint64_t memory_mask, uint64_t shared_mask,
                                const uint32_t *addresses);

/* The same, first for the whole warp at once: when every lane's access lies
 * between lowest and highest (the active lanes' lowest and highest
 * addresses) and that span lies in one live range or in the CTA's shared
 * region, no lane can be outside (one lookup per instruction, not one per
 * lane). */
static inline bool lsu_memcheck_refused(simt_core *c, warp *w, rv_op op, uint32_t pc, uint64_t memory_mask, uint64_t shared_mask,
                                        const uint32_t *addresses, uint32_t lowest, uint32_t highest)
{
    uint64_t span = (uint64_t)highest + rv_access_size(op) - lowest;
    if (!shared_mask && memcheck_find(c->launch->memcheck, lowest, span)) return false;
    if (!memory_mask && lowest - RV_SHARED_BASE < c->launch->shared_bytes && span <= c->launch->shared_bytes - (lowest - RV_SHARED_BASE))
        return false;
    return lsu_memcheck_lanes_refused(c, w, op, pc, memory_mask, shared_mask, addresses);
}

#endif
