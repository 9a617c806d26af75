/* lsu: the core's side of the LD/ST path: per-lane addresses, the window decision per lane (shared lanes to the lds, global and persistent lanes to the ldst_unit, arguments and code to the constant path), local memory (with its transactional undo), the lr/sc reservation and the pending table. */
#ifndef SIMTX_CORE_LSU_H
#define SIMTX_CORE_LSU_H

#include "core_internal.h"
#include "lsu_socket.h"

/* The atomic operation of an atomic instruction (sc: a compare-and-swap
 * against the reserved value); one mapping for the ldst_unit and the lds. */
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

/* Where the lanes of a memory instruction go, when one decision covers
 * them all; otherwise each lane is checked and routed on its own. */
typedef enum warp_access {
    ACCESS_LANE_BY_LANE, /* mixed windows, a fault, or partly in the argument block */
    ACCESS_MEMORY,       /* every lane to the ldst_unit (global/persistent) */
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
 * without changing any state): local and constant lanes in the core, the
 * others sent as ldst.h requests (their values come back through
 * lsu_socket_response). */
issue_result lsu_execute(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask, uint64_t now);

/* One of the entry's requests (ldst_unit or lds) has completed: the last
 * frees the entry, releases rd and wakes the warp. */
void lsu_complete(simt_core *c, pending_access *entry, uint32_t entry_index, uint64_t now);

/* Sends the ldst socket's queued messages (the TM protocol's first) while the ldst_unit takes them. */
void lsu_send_queued(simt_core *c, uint64_t now);

/* Whether the pending table has room and the ldst_unit takes a request:
 * a global instruction issues only when no earlier one's beats wait for the
 * unit (as an LD/ST pipeline register holds one instruction), so the core
 * piles no requests up in front of it; warps wait for room instead and are
 * released as the unit takes the waiting beats. A shared instruction
 * finding the lds's queue full stalls in lsu_execute until the lds's
 * port_free wakes the core. */
static inline bool lsu_has_room(const simt_core *c)
{
    const ldst_socket *ldst = &c->sockets[LDST_PORT];
    return c->free_pending_count && !ldst->blocked && msg_queue_empty(&ldst->beats);
}

#endif
