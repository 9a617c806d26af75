/* core_internal: the core's shared state (warps, CTA slots, pending accesses, the core struct) and the helpers every module of the core uses; like Lua's lstate.h. */
#ifndef SIMTX_CORE_INTERNAL_H
#define SIMTX_CORE_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "msg_queue.h"
#include "simtx_array.h"
#include "simt_core.h"
#include "simt_stack.h"
#include "tx_client.h"
#include "warp_sched.h"

#define MAX_LANES 64

/* A warp's register file: the integer and float registers (rv32.h's index
 * space), then each lane's fcsr, so that a transaction's checkpoint and
 * rollback cover all three. */
#define FCSR_ROW RV_REGISTERS
#define WARP_ROWS (RV_REGISTERS + 1)

/* The sockets, both speaking ldst.h: global and persistent lanes (and the
 * lazy TM protocol) to the ldst_unit, shared lanes to the lds. */
enum { LDST_PORT = 0, LDS_PORT = 1, TX_EVENTS_PORT = 2 };

/* Beats waiting for a socket. The lds refuses only while it holds its
 * requests' limit, so room for a few requests keeps issue going and a
 * fuller queue only delays the stall; the ldst socket's holds one global
 * instruction's beats at most (lsu_has_room). */
#define LSU_QUEUE_BEATS 64

/* Inlined although GCC finds it too big to (or calls an outlined clone):
 * the cycle's steps exec_warp_ready, exec_issue and warp_sched_promote_due
 * (called once or twice there), fill_lanes, and issue's whole-warp argument
 * load (lsu_whole_warp_access, const_load_arguments). The calls' saves
 * and the results passed through memory cost more than the code's growth.
 * Not for lsu_execute, warp_sched_set_hot (callers everywhere) or
 * lsu_send_queued, whose growth outweighs the call. Without link-time
 * optimisation a step shared by two files is defined in a header. */
#define CYCLE_STEP static inline __attribute__((always_inline))

typedef struct warp {
    /* What issue and exec_warp_ready() read, first (one or two cache lines). */
    bool resident;
    bool at_barrier;
    bool waiting_token;
    uint32_t pending_memory;    /* memory instructions of this warp still in flight */
    uint32_t cta_slot, warp_in_cta;
    /* Registers whose lanes all hold one value (bit r; a clear bit says
     * nothing): a memory instruction with such a base register has one
     * address, known without a pass over the lanes (the arguments' loads). */
    uint64_t uniform_registers;
    simt_stack stack;
    uint32_t *registers;        /* [WARP_ROWS][lanes]: lane-contiguous for the SIMD loops */
    tx_warp *tx;                /* transactional state, allocated at the first tx_begin */
    uint64_t next_issue;
    uint64_t age;               /* dispatch order, for GTO */
    uint64_t register_ready[RV_REGISTERS];/* scoreboard: cycle a register can be read; UINT64_MAX: load in flight */
    uint8_t *local;             /* lanes * local_memory bytes, allocated on first use */
    /* lr/sc: a reservation per lane (address and the value lr read); sc
     * becomes a compare-and-swap against that value (ABA-blind, like a CAS). */
    uint64_t reserved;
    uint32_t reserved_address[MAX_LANES], reserved_value[MAX_LANES];
} warp;

typedef struct cta_slot {
    bool resident;
    uint32_t id[3];
    uint32_t warp_count, warps_done, barrier_arrived;
    uint32_t draining;          /* finished warps with memory accesses in flight */
    uint32_t shared_offset;     /* the CTA's region in the lds */
    uint32_t *warps;            /* warp slots */
} cta_slot;

/* A memory instruction in flight to the ldst_unit, the lds or both (the
 * LD/ST path's pending table). */
typedef struct pending_access {
    bool in_use;
    uint32_t warp, pc;
    uint8_t op, op_class, rd;   /* op_class: rv_class_of(op), kept rather than looked up per response */
    uint32_t remaining;         /* requests still to complete (one per socket) */
    bool warp_waits;            /* counted in the warp's pending_memory (all but a store served by the lds alone) */
    uint32_t addresses[MAX_LANES]; /* the lanes' kernel addresses: a transactional load's words, a fault's lane */
} pending_access;

/* A socket's beats not yet taken, and whether its unit holds one it refused. */
typedef struct ldst_socket {
    msg_queue beats;
    bool blocked;
} ldst_socket;

/* What issuing an instruction did: executed it, found a structural stall
 * (nothing changed), or failed the run (reported). A result rather than a
 * failure flag set through a pointer, which kept the callers' flags in
 * memory. */
typedef enum issue_result { ISSUE_DONE, ISSUE_STALLED, ISSUE_FAILED } issue_result;

struct simt_core {
    simt_core_params params;
    simtx_env env;
    uint32_t lanes;
    uint64_t full_mask;
    simt_launch *launch;
    const kernel_image *image;  /* the launch's, for every decode without going through launch */
    warp *warps;
    cta_slot *ctas;
    uint32_t free_warps, free_ctas, free_registers, free_shared;
    /* Registers some launch's code on this core can write: the others are
     * still zero (calloc) in every warp slot. */
    uint64_t written_registers;
    /* The registers a new warp must find zero: those the launch kernel names
     * that some launch wrote (sp and a0 are set anyway). */
    uint64_t launch_cleared_registers;
    uint64_t age_counter;
    uint64_t lsu_free_cycle;
    /* false: no CTA fits until one is released or a launch starts (other
     * cores taking CTAs only make it fit less), so a cycle need not check */
    bool cta_may_fit;
    warp_sched sched;
    pending_access *pending;
    uint32_t *free_pending;
    uint32_t free_pending_count;
    ldst_socket sockets[2];     /* by port */
    bool lds_size_checked;      /* the lds holds shared_memory (checked at the first clear) */
    bool launch_fence_pending;  /* the launch's invalidating fence is not answered yet: no CTA dispatched */
    uint64_t launch_fence_since; /* the launch's first cycle ticked with its fence pending, until its first CTA (else UINT64_MAX) */
    /* Changes visible outside a warp: global and shared stores and atomics,
     * transaction events and warp exits (barriers are counted in stats).
     * The watchdog's sign that the core is not spinning (simtx_block.h). */
    uint64_t visible_events;
    uint64_t last_tick;
    stall_reason last_stall;
    uint64_t busy_since;        /* first cycle with a resident CTA, while some are */
    uint64_t residency_since;   /* the cycle the resident warp count last changed */
    FILE *trace;
    uint32_t tm_tokens_used, token_waiters;
    tx_queue tx_out;            /* tx.h events for the tx_port socket */
    unsigned tx_port;           /* LDST_PORT or LDS_PORT (parameter tm_events): where tx.h events go and which lanes are transactional */
    /* What the core sees of transactions (the tm_unit counts the rest). */
    struct {
        uint64_t tm_wasted_cycles, tm_wasted_instructions, tm_core_cycles, tm_token_stalls;
        simtx_histogram tm_core_duration;
    } tm_stats;
    /* Persistence (the caches and the NVM controllers count the rest). */
    struct {
        uint64_t sfences, sfence_stall_cycles;
    } pm_stats;
    /* Per warp slot: the cycle after the one its sfence first waited (0:
     * not waiting). Beside the warps, not in them: a larger warp struct
     * costs the cycle's warp indexing more instructions. */
    uint64_t *sfence_since;
    struct {
        uint64_t tx_warps;
    } tm_probes;
    struct {
        uint64_t warp_instructions, thread_instructions, ctas_completed, busy_cycles, launch_fence_cycles, ticks;
        uint64_t resident_warp_cycles; /* resident warps integrated over cycles */
        uint64_t stall_cycles[STALL_REASONS];
        uint64_t divergent_branches;
        uint64_t shared_accesses, local_accesses, constant_loads, barriers;
        /* Made at finish, like ipc: its count and sum are warp_instructions
         * and thread_instructions, its buckets and bounds come from
         * issues_by_active_lanes (an add per issue rather than the
         * histogram's comparisons). */
        simtx_histogram active_lanes;
        uint64_t issues_by_active_lanes[MAX_LANES + 1];
        double ipc, simd_efficiency, achieved_occupancy; /* derived at finish */
    } stats;
    /* Energy events (simtx_observe_energy): active lanes issued per
     * instruction class; warp_instructions counts the issues. */
    uint64_t energy_lanes[RV_CLASS_FLOAT + 1];
    struct {
        uint64_t active_warps, issued, stall_reason, pending_memory;
    } probes;
};

static inline uint32_t *reg(const simt_core *c, warp *w, unsigned r) { return &w->registers[r * c->lanes]; }

/* Writes value to the lanes of mask (a plain loop for a full warp). */
CYCLE_STEP void fill_lanes(const simt_core *c, uint32_t *lanes, uint64_t mask, uint32_t value)
{
    uint32_t count = c->lanes; /* a local: the stores cannot change it */
    if (mask == c->full_mask && count == 32) /* the usual warp: a loop of known count, unrolled */
        for (uint32_t l = 0; l < 32; l++) lanes[l] = value;
    else if (mask == c->full_mask)
        for (uint32_t l = 0; l < count; l++) lanes[l] = value;
    else
        for (uint64_t m = mask; m; m &= m - 1) lanes[__builtin_ctzll(m)] = value;
}

/* The little-endian value of `size` (1..4) bytes: fixed-size copies for
 * the per-lane load paths. */
static inline uint32_t read_bytes(const uint8_t *bytes, unsigned size)
{
    uint32_t value = 0;
    switch (size) {
    case 4: memcpy(&value, bytes, 4); break;
    case 2: memcpy(&value, bytes, 2); break;
    case 1: value = bytes[0]; break;
    default: memcpy(&value, bytes, size); break;
    }
    return value;
}

/* Fails the run with a message (simt_core.c). */
void core_fail(simt_core *c, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* "0x1010 <kernel+0x10>: lw a0, 0(a1) (core 0, CTA (2,0,0), warp 3 of the CTA)" for error messages. */
void core_describe(const simt_core *c, const warp *w, uint32_t pc, char *out, size_t size);

#endif
