/* lsu_memcheck: the memory checker's per-lane test and its report. */
#include "lsu_memcheck.h"

#include <inttypes.h>
#include <stdio.h>

/* Fails the run (or aborts the transaction) for one lane's access; reason
 * says what it lies outside of and what is nearest. */
static __attribute__((noinline)) bool report(simt_core *c, warp *w, rv_op op, uint32_t pc, uint32_t lane, uint32_t address,
                                             const char *reason)
{
    if (tx_client_may_be_doomed(w->tx)) {
        tx_client_request_abort(w->tx, TX_ROLLBACK_FAULT, pc);
        return true;
    }
    rv_class cls = rv_class_of(op);
    char where[320];
    core_describe(c, w, pc, where, sizeof where);
    core_fail(c, "memcheck: invalid %u-byte %s at 0x%08" PRIx32 " by lane %" PRIu32 " at pc %s: %s", rv_access_size(op),
              cls == RV_CLASS_LOAD ? "load" : cls == RV_CLASS_STORE ? "store" : "atomic", address, lane, where, reason);
    return true;
}

static bool report_global(simt_core *c, warp *w, rv_op op, uint32_t pc, uint32_t lane, uint32_t address)
{
    const memcheck_range *nearest = memcheck_nearest(c->launch->memcheck, address);
    char reason[256] = "outside every live allocation (nothing is allocated)";
    if (nearest) {
        uint64_t end = (uint64_t)nearest->address + nearest->bytes;
        char how[64];
        if (address < nearest->address) snprintf(how, sizeof how, "%" PRIu32 " bytes before it", nearest->address - address);
        else if (address >= end) snprintf(how, sizeof how, "%" PRIu64 " bytes past its end", address - end);
        else snprintf(how, sizeof how, "running past its end");
        snprintf(reason, sizeof reason, "outside every live allocation (nearest: %s at 0x%08" PRIx32 " of %" PRIu32 " bytes, %s)",
                 memcheck_kind_name(nearest->kind), nearest->address, nearest->bytes, how);
    }
    return report(c, w, op, pc, lane, address, reason);
}

bool lsu_memcheck_lanes_refused(simt_core *c, warp *w, rv_op op, uint32_t pc, uint64_t memory_mask, uint64_t shared_mask,
                                const uint32_t *addresses)
{
    unsigned size = rv_access_size(op);
    for (uint64_t m = memory_mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        if (!memcheck_find(c->launch->memcheck, addresses[lane], size)) return report_global(c, w, op, pc, lane, addresses[lane]);
    }
    uint32_t shared_bytes = c->launch->shared_bytes;
    for (uint64_t m = shared_mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m), offset = addresses[lane] - RV_SHARED_BASE;
        if (offset < shared_bytes && size <= shared_bytes - offset) continue;
        char reason[160];
        snprintf(reason, sizeof reason, "outside the CTA's shared memory (nearest: its region at 0x%08" PRIx32 " of %" PRIu32 " bytes)",
                 RV_SHARED_BASE, shared_bytes);
        return report(c, w, op, pc, lane, addresses[lane], reason);
    }
    return false;
}
