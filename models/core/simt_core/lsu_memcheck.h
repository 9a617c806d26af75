/* lsu_memcheck: the memory checker on the core's LD/ST path (simtx run
 * --memcheck): every global or persistent lane access must lie in a live
 * range of the launch's table (models/protocols/memcheck.h), every shared
 * one in its CTA's region. */
#ifndef SIMTX_CORE_LSU_MEMCHECK_H
#define SIMTX_CORE_LSU_MEMCHECK_H

#include "core_internal.h"

/* Checks the lanes of memory_mask (to the ldst_unit) and shared_mask (to
 * the lds) of the instruction at pc. A violation fails the run naming the
 * lane, the pc and the nearest allocation; in a transaction it aborts the
 * transaction instead (a doomed one may compute any address, as for a
 * window fault). Returns whether it found one. */
bool lsu_memcheck_refused(simt_core *c, warp *w, rv_op op, uint32_t pc, uint64_t memory_mask, uint64_t shared_mask,
                          const uint32_t *addresses);

#endif
