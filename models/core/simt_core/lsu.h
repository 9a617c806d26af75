/* lsu: the core's LD/ST path (load-store unit): address windows and faults, the coalescer, local memory (with its transactional undo), atomics and lr/sc, the pending table, the request queue and the responses' write-back. */
#ifndef SIMTX_CORE_LSU_H
#define SIMTX_CORE_LSU_H

#include "core_internal.h"
#include "lsu_shared.h"

/* The memory side's atomic operation for an atomic instruction (sc: a
 * compare-and-swap against the reserved value); one mapping for the memory
 * side and the lds. */
static inline simtx_atomic_op lsu_atomic_code(rv_op op)
{
    switch (op) {
    case RV_AMOSWAP: return SIMTX_ATOMIC_SWAP;
    case RV_AMOADD: return SIMTX_ATOMIC_ADD;
    case RV_AMOXOR: return SIMTX_ATOMIC_XOR;
    case RV_AMOAND: return SIMTX_ATOMIC_AND;
    case RV_AMOOR: return SIMTX_ATOMIC_OR;
    case RV_AMOMIN: return SIMTX_ATOMIC_MIN;
    case RV_AMOMAX: return SIMTX_ATOMIC_MAX;
    case RV_AMOMINU: return SIMTX_ATOMIC_MINU;
    case RV_SC: return SIMTX_ATOMIC_CAS;
    default: return SIMTX_ATOMIC_MAXU;
    }
}

/* A coalesced request: the segment, the lanes in it and the byte range
 * [first, end) they touch within it. */
typedef struct lsu_segment {
    uint32_t base, first, end;
    uint64_t lanes;
} lsu_segment;

/* Groups the lanes of mask by segment (segment_size: a power of two), in
 * order of each segment's first lane, in one pass over the lanes; returns
 * how many segments (at most one per lane). `size`: bytes per access. */
uint32_t lsu_coalesce(const uint32_t *addresses, uint64_t mask, unsigned size, uint32_t segment_size, lsu_segment *segments);

/* Where the lanes of a memory instruction go, when one decision covers
 * them all; otherwise each lane is checked and routed on its own. */
typedef enum warp_access {
    ACCESS_LANE_BY_LANE, /* mixed windows, a fault, or partly in the argument block */
    ACCESS_MEMORY,       /* every lane to the memory side (global/persistent) */
    ACCESS_ARGUMENTS,    /* every lane loads from the argument block */
    ACCESS_IN_CORE,      /* every lane to shared, local or code memory */
} warp_access;

/* Decides from the lowest and highest address (and address_bits, whose
 * low bits are zero only if every address is aligned: the addresses ORed)
 * whether every lane's access passes the per-lane checks and goes the same
 * way. Windows are intervals, so when the lowest address and the highest
 * access's last byte share one, all accesses lie in it. */
CYCLE_STEP warp_access lsu_whole_warp_access(const simt_core *c, rv_class cls, unsigned size, uint32_t lowest, uint32_t highest,
                                         uint32_t address_bits)
{
    uint32_t last_byte = highest + size - 1;
    rv_window window = rv_window_of(lowest);
    if (last_byte < highest || rv_window_of(last_byte) != window || window == RV_WINDOW_NONE || (address_bits & (size - 1)) ||
        (window == RV_WINDOW_CODE && cls != RV_CLASS_LOAD))
        return ACCESS_LANE_BY_LANE;
    uint64_t arguments = c->launch->args_address, arguments_end = arguments + c->launch->args_size;
    /* Lane by lane, shared and local memory come before the argument block. */
    bool arguments_first = window != RV_WINDOW_SHARED && window != RV_WINDOW_LOCAL;
    if (lowest >= arguments && highest < arguments_end && cls == RV_CLASS_LOAD && arguments_first) return ACCESS_ARGUMENTS;
    if (lowest < arguments_end && highest >= arguments) return ACCESS_LANE_BY_LANE;
    return window == RV_WINDOW_GLOBAL || window == RV_WINDOW_PERSISTENT ? ACCESS_MEMORY : ACCESS_IN_CORE;
}

/* Executes a load, store or atomic for the lanes of mask (or stalls
 * without changing any state). The interface of a later ldst_unit block:
 * the lanes' addresses and store data in, the lanes' values back through
 * lsu_response. */
issue_result lsu_execute(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now);

/* A response of the memory socket to a request of the pending table. */
void lsu_response(simt_core *c, const simtx_msg *msg, uint64_t now);

/* One of the entry's requests (memory side or lds) has completed: the last
 * frees the entry, releases rd and wakes the warp. */
void lsu_complete(simt_core *c, pending_access *entry, uint32_t entry_index, uint64_t now);

/* Sends queued requests (the TM protocol's first) while the socket takes them. */
void lsu_send_queued(simt_core *c, uint64_t now);

/* Whether the request queue and the pending table have room for a warp's
 * worst case (one request per lane). The lds's beats leave at issue; only a
 * refusing lds fills their queue, and issue then stalls in lsu_execute
 * until its port_free wakes the core. */
static inline bool lsu_has_room(const simt_core *c)
{
    return c->free_pending_count && c->requests.capacity - c->requests.length >= c->lanes;
}

#endif
