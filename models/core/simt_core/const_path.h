/* const_path: the core's constant path: loads from the kernel's argument block (the code window's read-only data is read lane by lane in lsu.c). */
#ifndef SIMTX_CONST_PATH_H
#define SIMTX_CONST_PATH_H

#include "core_internal.h"

/* The little-endian value at `address` of the argument block, truncated
 * at its end. */
static inline uint32_t const_read_argument(const simt_launch *l, uint32_t address, unsigned size)
{
    uint32_t at = address - l->args_address;
    return read_bytes(l->args + at, size <= l->args_size - at ? size : l->args_size - at);
}

/* Executes a load of the whole warp from the argument block (its rd's
 * uniform bit already clear); addresses: the lanes', read only when
 * lowest != highest. */
CYCLE_STEP void const_load_arguments(simt_core *c, warp *w, const kernel_insn *k, uint64_t mask, const uint32_t *addresses,
                               uint32_t lowest, uint32_t highest, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    unsigned size = rv_access_size(op);
    if (k->insn.rd && lowest == highest) {
        fill_lanes(c, reg(c, w, k->insn.rd), mask, rv_extend_load(op, const_read_argument(c->launch, lowest, size)));
        if (mask == c->full_mask) w->uniform_registers |= 1ull << k->insn.rd;
    } else if (k->insn.rd) {
        uint32_t *rd = reg(c, w, k->insn.rd);
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            rd[lane] = rv_extend_load(op, const_read_argument(c->launch, addresses[lane], size));
        }
    }
    c->stats.constant_loads++;
    if (k->insn.rd) w->register_ready[k->insn.rd] = now + (uint64_t)c->params.constant_latency; /* at least 1 */
    c->lsu_free_cycle = now + 1;
}


#endif
