#include "simt_core.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg_queue.h"
#include "tm_lazy.h"

#define PARAM(field) offsetof(simt_core_params, field)
#define MAX_LANES 64
#define NO_SLOT UINT32_MAX

static const simtx_param_spec simt_core_param_specs[] = {
    {"core_id", SIMTX_PARAM_INT, "0", "", 0, 1 << 20, NULL, "this core's number (message metadata, traces)", PARAM(core_id)},
    {"lanes", SIMTX_PARAM_INT, "32", "threads", 1, MAX_LANES, NULL, "threads per warp (SIMD width; 32 or 64 usually)", PARAM(lanes)},
    {"warps", SIMTX_PARAM_INT, "48", "warps", 1, 1024, NULL, "warp slots per core", PARAM(warps)},
    {"ctas", SIMTX_PARAM_INT, "8", "CTAs", 1, 1024, NULL, "CTAs resident per core at once", PARAM(ctas)},
    {"registers", SIMTX_PARAM_INT, "32768", "registers", 32, 1 << 24, NULL, "32-bit registers per core (a thread holds the kernel's used registers)", PARAM(registers)},
    {"shared_memory", SIMTX_PARAM_INT, "48KiB", "bytes", 0, 1 << 26, NULL, "shared memory per core, split among resident CTAs", PARAM(shared_memory)},
    {"local_memory", SIMTX_PARAM_INT, "4KiB", "bytes", 64, 1 << 20, NULL, "local memory (stack) per thread", PARAM(local_memory)},
    {"scheduler", SIMTX_PARAM_ENUM, "gto", "", 0, 0, "gto|lrr", "warp scheduler: greedy-then-oldest or loose round-robin", PARAM(scheduler)},
    {"schedulers", SIMTX_PARAM_INT, "2", "", 1, 16, NULL, "warp schedulers (each issues one instruction per cycle from its share of the warps)", PARAM(schedulers)},
    {"alu_latency", SIMTX_PARAM_INT, "4", "cycles", 1, 1000, NULL, "issue to result of integer ALU ops", PARAM(alu_latency)},
    {"mul_latency", SIMTX_PARAM_INT, "6", "cycles", 1, 1000, NULL, "issue to result of multiplications", PARAM(mul_latency)},
    {"div_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 1000, NULL, "issue to result of divisions and remainders", PARAM(div_latency)},
    {"branch_latency", SIMTX_PARAM_INT, "2", "cycles", 1, 1000, NULL, "cycles before a warp issues again after a branch, jump, call or return", PARAM(branch_latency)},
    {"shared_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL, "issue to result of a conflict-free shared-memory load", PARAM(shared_latency)},
    {"local_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL, "issue to result of a local-memory (stack) load", PARAM(local_latency)},
    {"constant_latency", SIMTX_PARAM_INT, "8", "cycles", 1, 10000, NULL, "issue to result of a load from the code window (read-only data) or the argument block", PARAM(constant_latency)},
    {"shared_banks", SIMTX_PARAM_INT, "32", "banks", 1, 1024, NULL, "shared-memory banks, 4 bytes wide", PARAM(shared_banks)},
    {"segment_size", SIMTX_PARAM_INT, "128", "bytes", 4, SIMTX_MSG_MAX_DATA, NULL, "coalescing segment: a warp's global accesses become one request per touched segment", PARAM(segment_size)},
    {"sector_size", SIMTX_PARAM_INT, "32", "bytes", 4, SIMTX_MSG_MAX_DATA, NULL, "a request covers the touched sectors of its segment", PARAM(sector_size)},
    {"max_pending_memory", SIMTX_PARAM_INT, "64", "instructions", 1, 1 << 16, NULL, "global memory instructions in flight per core", PARAM(max_pending_memory)},
    {"request_queue", SIMTX_PARAM_INT, "128", "requests", 1, 1 << 16, NULL, "requests waiting for the memory socket", PARAM(request_queue)},
    {"trace_file", SIMTX_PARAM_PATH, "", "", 0, 0, NULL, "write a per-warp instruction trace here; empty: none", PARAM(trace_file)},
    {"trace_warp", SIMTX_PARAM_INT, "-1", "", -1, 1024, NULL, "warp slot to trace; -1: every warp", PARAM(trace_warp)},
    {"tm_warp_tokens", SIMTX_PARAM_INT, "2", "warps", 0, 1024, NULL, "transactional warps at once per core (KILO TM's token count); 0: no limit", PARAM(tm_warp_tokens)},
    {"tm_partitions", SIMTX_PARAM_INT, "6", "", 1, 64, NULL, "memory partitions, each with a commit unit (the crossbar's)", PARAM(tm_partitions)},
    {"tm_interleave", SIMTX_PARAM_INT, "256", "bytes", 4, 1 << 30, NULL, "bytes per partition chunk (the crossbar's interleave)", PARAM(tm_interleave)},
    {"tm_timeout", SIMTX_PARAM_INT, "100000", "cycles", 0, 1 << 30, NULL, "abort a transaction attempt running longer than this (doomed transactions may loop); 0: never", PARAM(tm_timeout)},
    {"tm_mode", SIMTX_PARAM_ENUM, "kilo", "", 0, 0, "kilo|warp", "KILO TM (per-transaction log messages) or Warp TM (intra-warp conflict resolution, then warp-coalesced messages)", PARAM(tm_mode)},
    {"tm_conflict_table", SIMTX_PARAM_INT, "4KiB", "bytes", 4, 1 << 20, NULL, "Warp TM: the ownership table per warp in shared memory (4-byte entries; words hash into it, so collisions are false conflicts)", PARAM(tm_conflict_table)},
    {"tm_tcd", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "KILO TM's temporal conflict detection: read-only transactions commit at the core when no block they read was written since their start", PARAM(tm_tcd)},
    {"tm_record", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "record every committed transaction's reads and writes for the serializability oracle", PARAM(tm_record)},
};

static const simtx_param_table simt_core_param_table = {
    simt_core_param_specs, sizeof simt_core_param_specs / sizeof simt_core_param_specs[0], sizeof(simt_core_params)};

static const simtx_socket_spec simt_core_sockets[] = {
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "global and persistent accesses of the LD/ST unit out, responses in"},
};

enum { MEMORY_PORT = 0 };

/* Why no instruction issued in a cycle (the stall_reason probe). */
typedef enum stall_reason {
    STALL_NONE,       /* an instruction issued */
    STALL_IDLE,       /* no warp resident */
    STALL_SCOREBOARD, /* operands not ready (incl. loads in flight) */
    STALL_PIPELINE,   /* branch shadow or one-per-cycle per warp */
    STALL_MEMORY,     /* LD/ST unit busy or request queue full */
    STALL_BARRIER,    /* every ready warp waits at a barrier */
    STALL_REASONS
} stall_reason;

static const char *const stall_names[STALL_REASONS] = {"issued", "idle", "scoreboard", "pipeline", "memory", "barrier"};
static const char *const stall_docs[STALL_REASONS] = {
    "",
    "cycles without an issue: a launch is running but no warp is resident",
    "cycles without an issue: operands not ready (ALU/MUL/DIV latency, loads in flight)",
    "cycles without an issue: warps in a branch shadow or just issued",
    "cycles without an issue: LD/ST unit busy, no room for requests, or finished warps waiting for their stores",
    "cycles without an issue: every waiting warp is at a CTA barrier"};

typedef struct stack_entry {
    uint32_t pc, reconverge;
    uint64_t mask;
    bool is_call;
    uint8_t kind; /* entry_kind: a transaction's Retry and Transaction entries (KILO TM) */
} stack_entry;

typedef enum entry_kind { ENTRY_NORMAL, ENTRY_RETRY, ENTRY_TRANSACTION } entry_kind;

/* Reconvergence pc of Retry/Transaction entries: never an instruction
 * address, so only the commit pops them. */
#define TX_NO_RECONVERGE 0xfffffffeu

/* A lane's transaction logs (lazy versioning): the words it read from
 * memory with the values seen, the words it will write, and the old bytes
 * of its private stack it overwrote (undone on abort). */
typedef struct tx_log {
    tm_entry *entries;
    uint32_t count;
    size_t capacity;
} tx_log;

typedef struct local_undo {
    uint32_t offset, old;
    uint32_t size;
} local_undo;

typedef struct tx_lane {
    tx_log reads, writes;
    local_undo *undo;
    uint32_t undo_count;
    size_t undo_capacity;
    uint32_t depth;     /* flattened nesting */
    uint32_t cid;       /* 0: no commit ID (empty transaction) */
    uint64_t involved;  /* partitions with entries of this lane */
    uint32_t outcomes_pending, acks_pending;
    bool passed;
    bool tcd;           /* committed read-only by temporal conflict detection */
    uint32_t attempts;
} tx_lane;

enum { TX_IDLE, TX_RUNNING, TX_WAIT_START, TX_WAIT_LWT, TX_TCD_CHECK, TX_CONFLICT_CHECK, TX_WAIT_CID, TX_VALIDATING };
enum { ABORT_VALIDATION, ABORT_TIMEOUT, ABORT_FAULT };

/* A 128-byte block a transaction attempt loaded (temporal conflict
 * detection) and its last-written time (UINT32_MAX until answered). */
typedef struct tx_block {
    uint32_t block, last_written;
} tx_block;

typedef struct tx_warp {
    int phase;
    uint32_t begin_pc, commit_pc, commit_rd;
    uint32_t retry_index;   /* stack index of the Retry entry */
    uint32_t *checkpoint;   /* registers at tx_begin, [32][lanes] */
    uint64_t committing;    /* lanes at tx_commit */
    uint32_t unresolved;    /* committing lanes still waiting for the commit units */
    uint64_t attempt_start, commit_start, attempt_instructions;
    bool abort_requested;
    int abort_cause;
    uint64_t timeout;          /* doubles after each timeout abort, so long but correct transactions finish */
    uint32_t fault_aborts;     /* consecutive fault aborts: a transaction that always faults is a kernel bug */
    uint32_t fault_pc;
    /* Warp TM: the warp's commit IDs are first_cid.. in lane order */
    uint64_t check_done_at;   /* the intra-warp conflict check ends */
    uint32_t first_cid, cid_count, dones_pending, acks_pending;
    uint64_t decision_partitions;
    uint8_t lane_of_rank[MAX_LANES];
    /* Temporal conflict detection: the start time and the 128-byte blocks
     * the attempt loaded, with their last-written times */
    uint32_t start_time, block_count, lwt_pending;
    tx_block *blocks;
    size_t block_capacity;
    tx_lane lane[MAX_LANES];
} tx_warp;

typedef struct warp {
    /* What issue and warp_ready() read, first (one or two cache lines). */
    bool resident;
    bool at_barrier;
    bool waiting_token;
    uint32_t depth;
    uint32_t pending_memory;    /* memory instructions of this warp still in flight */
    uint32_t cta_slot, warp_in_cta;
    /* Registers whose lanes all hold one value (bit r; a clear bit says
     * nothing): a memory instruction with such a base register has one
     * address, known without a pass over the lanes (the arguments' loads). */
    uint32_t uniform_registers;
    stack_entry *stack;
    uint32_t *registers;        /* [32][lanes]: lane-contiguous for the SIMD loops */
    tx_warp *tx;                /* transactional state, allocated at the first tx_begin */
    uint64_t next_issue;
    uint64_t age;               /* dispatch order, for GTO */
    uint64_t register_ready[32];/* scoreboard: cycle a register can be read; UINT64_MAX: load in flight */
    size_t stack_capacity;
    uint8_t *local;             /* lanes * local_memory bytes, allocated on first use */
    /* lr/sc: a reservation per lane (address and the value lr read); sc
     * becomes a compare-and-swap against that value (ABA-blind, like a CAS). */
    uint64_t reserved;
    uint32_t reserved_address[MAX_LANES], reserved_value[MAX_LANES];
} warp;

/* The scheduler's view of a warp (set only by set_hot): no issue before
 * ready_at (0: now; UINT64_MAX: not resident, at a barrier, finished, or
 * until a load returns). */
typedef struct warp_hot {
    uint64_t ready_at;
    uint8_t reason; /* stall_reason behind ready_at */
} warp_hot;

typedef struct cta_slot {
    bool resident;
    uint32_t id[3];
    uint32_t warp_count, warps_done, barrier_arrived;
    uint32_t draining;          /* finished warps with memory accesses in flight */
    uint32_t shared_offset;     /* into the core's shared memory */
    uint32_t *warps;            /* warp slots */
} cta_slot;

/* A global memory instruction in flight. */
typedef struct pending_access {
    bool in_use;
    uint32_t warp, pc;
    uint8_t op, op_class, rd;   /* op_class: rv_class_of(op), kept rather than looked up per response */
    uint32_t remaining;         /* responses still expected */
    uint64_t lanes;
    uint32_t addresses[MAX_LANES];
    uint32_t expected[MAX_LANES]; /* sc: the value the CAS compares against */
    bool transactional;         /* a load inside a transaction: log what it reads */
    bool contiguous;            /* a word load, lane l at addresses[0] + 4 l (only addresses[0] is kept): a response's lanes are one run */
} pending_access;

/* Committed transactions, for the serializability oracle. */
typedef struct tx_history {
    simt_tm_record *records;
    size_t count, capacity;
    uint32_t *words; /* address, value pairs: each record's reads then writes */
    size_t word_count, word_capacity;
} tx_history;

/* Requests of the TM protocol waiting for the memory socket (a warp's
 * commit sends up to lanes x partitions x 3 of them at once). */
typedef struct tm_queue {
    simtx_msg *messages;
    size_t head, length, capacity;
} tm_queue;

/* Registers first .. first + count - 1. */
typedef struct register_run {
    uint8_t first, count;
} register_run;

struct simt_core {
    simt_core_params params;
    simtx_env env;
    uint32_t lanes;
    uint64_t full_mask;
    bool lrr;
    simt_launch *launch;
    const kernel_image *image;  /* the launch's, for every decode without going through launch */
    warp *warps;
    warp_hot *hot;
    cta_slot *ctas;
    uint8_t *shared;
    uint32_t free_warps, free_ctas, free_registers, free_shared;
    uint32_t *last_issued;      /* per scheduler: a slot it owns, or NO_SLOT */
    /* Registers some launch's code on this core can write: the others are
     * still zero (calloc) in every warp slot. */
    uint32_t written_registers;
    /* The registers a new warp must find zero: those the launch kernel names
     * that some launch wrote (sp and a0 are set anyway), as runs of
     * consecutive registers: one memset per run rather than per register. A
     * run stays within 2 KB, above which glibc's memset switches to rep
     * stosb (as fast natively, a count per byte under Valgrind, the measure
     * of this loop's cost). */
    register_run launch_register_runs[32];
    uint32_t launch_register_run_count;
    uint64_t age_counter;
    uint64_t ldst_free_cycle;
    /* false: no CTA fits until one is released or a launch starts (other
     * cores taking CTAs only make it fit less), so a cycle need not check */
    bool cta_may_fit;
    /* Sets of warp slots, one bit each, so that a cycle visits only the
     * warps that may issue rather than every slot: */
    uint32_t warp_set_words;
    uint64_t *due_warps;        /* ready_at has come: the ones warp_ready() decodes */
    uint64_t *waiting_warps;    /* ready_at is a known future cycle */
    uint64_t earliest_waiting;  /* no waiting warp is due before (exact after promote_due_warps) */
    uint32_t not_due_reasons[STALL_REASONS]; /* warps not due, by hot reason: a stalled cycle's worst reason */
    uint64_t *scheduler_warps;  /* per scheduler: the slots it owns */
    uint64_t *room_waiters;     /* warps whose memory instruction found no pending entry or queue room */
    uint32_t room_waiter_count;
    pending_access *pending;
    uint32_t *free_pending;
    uint32_t free_pending_count;
    msg_queue requests;
    bool port_blocked;
    uint64_t last_tick;
    stall_reason last_stall;
    uint64_t busy_since;        /* first cycle with a resident CTA, while some are */
    FILE *trace;
    uint32_t tm_tokens_used, token_waiters;
    bool warp_tm;
    uint32_t conflict_checks;   /* warps in TX_CONFLICT_CHECK */
    uint32_t *ownership;        /* Warp TM's ownership table (one warp checks at a time in the model) */
    tm_queue tm_out;
    tx_history history;
    bool tm_recording;
    struct {
        uint64_t tm_n_commits, tm_n_aborts, tm_aborts_validation, tm_aborts_timeout, tm_aborts_fault, tm_aborts_intra_warp;
        uint64_t tm_wasted_cycles, tm_wasted_instructions, tm_core_cycles, tm_commit_cycles, tm_log_bytes, tm_messages;
        uint64_t tm_token_stalls, tm_tcd_commits;
        simtx_histogram tm_read_set, tm_write_set, tm_aborts_per_tx, tm_core_duration, tm_commit_duration;
    } tm_stats;
    struct {
        uint64_t tx_warps, committing_warps;
    } tm_probes;
    struct {
        uint64_t warp_instructions, thread_instructions, ctas_completed, busy_cycles, ticks;
        uint64_t stall_cycles[STALL_REASONS];
        uint64_t divergent_branches, global_loads, global_stores, global_atomics, memory_requests;
        uint64_t shared_accesses, shared_bank_conflict_cycles, local_accesses, constant_loads, barriers;
        /* Made at finish, like ipc: its count and sum are warp_instructions
         * and thread_instructions, its buckets and bounds come from
         * issues_by_active_lanes (an add per issue rather than the
         * histogram's comparisons). */
        simtx_histogram active_lanes;
        uint64_t issues_by_active_lanes[MAX_LANES + 1];
        double ipc, simd_efficiency; /* derived at finish */
    } stats;
    struct {
        uint64_t active_warps, issued, stall_reason, pending_memory;
    } probes;
};

/* Inlined although GCC finds it too big to (or calls an outlined clone):
 * simt_core_cycle's steps warp_ready, issue and promote_due_warps (called
 * once or twice there), fill_lanes, and issue's whole-warp argument load
 * (whole_warp_access, load_arguments). The calls' saves and the results
 * passed through memory cost more than the code's growth (vector add: 4%
 * fewer host instructions). Not so for execute_memory (BFS: more than it
 * saves), set_hot (callers everywhere) or send_queued_requests (no gain). */
#define CYCLE_STEP static inline __attribute__((always_inline))

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

static inline void warp_set_add(uint64_t *set, uint32_t i) { set[i >> 6] |= 1ull << (i & 63); }
static inline void warp_set_remove(uint64_t *set, uint32_t i) { set[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool warp_set_has(const uint64_t *set, uint32_t i) { return (set[i >> 6] >> (i & 63)) & 1; }

/* The first slot in [from, end) that is in both sets, or NO_SLOT. */
static inline uint32_t warp_set_next(const uint64_t *set, const uint64_t *within, uint32_t from, uint32_t end)
{
    for (uint32_t word = from >> 6; from < end && word <= (end - 1) >> 6; word++) {
        uint64_t bits = set[word] & within[word];
        if (word == from >> 6) bits &= UINT64_MAX << (from & 63);
        if (!bits) continue;
        uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
        return i < end ? i : NO_SLOT;
    }
    return NO_SLOT;
}

/* When warp i may issue next and why not before; keeps the due and waiting
 * sets and the reason counts. A future ready_at is always after the
 * current cycle (set from a latency), so only 0 makes a warp due at once. */
static void set_hot(simt_core *c, uint32_t i, uint64_t ready_at, stall_reason reason)
{
    warp_hot *h = &c->hot[i];
    if (warp_set_has(c->due_warps, i)) warp_set_remove(c->due_warps, i);
    else c->not_due_reasons[h->reason]--;
    warp_set_remove(c->waiting_warps, i);
    *h = (warp_hot){ready_at, (uint8_t)reason};
    if (ready_at == 0) {
        warp_set_add(c->due_warps, i);
        return;
    }
    c->not_due_reasons[reason]++;
    if (ready_at == UINT64_MAX) return;
    warp_set_add(c->waiting_warps, i);
    if (ready_at < c->earliest_waiting) c->earliest_waiting = ready_at;
}

/* Waiting warps whose cycle has come become due; earliest_waiting becomes
 * exact. */
CYCLE_STEP void promote_due_warps(simt_core *c, uint64_t now)
{
    uint64_t earliest = UINT64_MAX;
    for (uint32_t word = 0; word < c->warp_set_words; word++)
        for (uint64_t bits = c->waiting_warps[word]; bits; bits &= bits - 1) {
            uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
            const warp_hot *h = &c->hot[i];
            if (h->ready_at > now) {
                if (h->ready_at < earliest) earliest = h->ready_at;
                continue;
            }
            warp_set_remove(c->waiting_warps, i);
            warp_set_add(c->due_warps, i);
            c->not_due_reasons[h->reason]--;
        }
    c->earliest_waiting = earliest;
}

static void fail(simt_core *c, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    c->env.fail(c->env.context, message);
}

/* "0x1010 <kernel+0x10>: lw a0, 0(a1) (warp 3, CTA 2)" for error messages. */
static void describe(const simt_core *c, const warp *w, uint32_t pc, char *out, size_t size)
{
    char where[200];
    kernel_image_describe_pc(c->launch->image, pc, where, sizeof where);
    const cta_slot *cta = &c->ctas[w->cta_slot];
    snprintf(out, size, "%s (core %" PRId64 ", CTA (%u,%u,%u), warp %u of the CTA)", where, c->params.core_id, cta->id[0],
             cta->id[1], cta->id[2], w->warp_in_cta);
}

/* Room for `needed` items in a growable array (capacity doubling from
 * `first_capacity`): the array, possibly moved, or NULL when out of memory,
 * leaving the array and *capacity as they were. */
static void *reserve(void *items, size_t *capacity, size_t needed, size_t item_size, size_t first_capacity)
{
    if (needed <= *capacity) return items;
    size_t grown = *capacity ? *capacity : first_capacity;
    while (grown < needed) grown *= 2;
    void *moved = realloc(items, grown * item_size);
    if (moved) *capacity = grown;
    return moved;
}

/* The registers the kernel's instructions name, and sp (always set). */
static uint32_t kernel_register_mask(const kernel_image *image)
{
    uint32_t used = 1u << 2;
    size_t count = (image->text_end - image->text_start) / 4;
    for (size_t i = 0; i < count; i++) {
        const rv_insn *insn = &image->insns[i].insn;
        if (insn->op == RV_ILLEGAL) continue;
        used |= 1u << insn->rd | 1u << insn->rs1 | 1u << insn->rs2;
    }
    return used;
}

/* The registers the code reachable from entry_pc writes (x0 excepted: no
 * write reaches it). Control flow is static (no indirect jumps), so a walk
 * over the decoded flow finds every instruction a warp can execute. */
static uint32_t kernel_written_registers(const kernel_image *image, uint32_t entry_pc, char *error, size_t error_size)
{
    size_t count = (image->text_end - image->text_start) / 4;
    uint8_t *seen = calloc(count + 1, 1); /* + 1: never a zero-byte allocation */
    uint32_t *work = malloc((count + 1) * sizeof *work);
    if (!seen || !work) {
        free(seen), free(work);
        snprintf(error, error_size, "out of memory for the kernel's registers");
        return UINT32_MAX;
    }
    size_t pending = 0;
    uint32_t written = 0;
    const kernel_insn *entry = kernel_image_insn(image, entry_pc);
    if (entry) work[pending++] = (uint32_t)(entry - image->insns), seen[entry - image->insns] = 1;
    while (pending) {
        const kernel_insn *k = &image->insns[work[--pending]];
        rv_class cls = (rv_class)k->op_class;
        if (cls != RV_CLASS_BRANCH && cls != RV_CLASS_STORE) written |= 1u << k->insn.rd; /* their rd field is immediate bits */
        uint32_t pc = image->text_start + 4 * (uint32_t)(k - image->insns);
        /* Successors: the target of a branch, jump, call or tx_begin (its
         * commit), and the next instruction unless control never falls
         * through (after a call it is where the callee returns to). */
        uint32_t successors[2] = {k->target, pc + 4};
        bool falls_through = k->flow != KERNEL_FLOW_JUMP && k->flow != KERNEL_FLOW_TAIL_CALL && k->flow != KERNEL_FLOW_RETURN &&
                             k->flow != KERNEL_FLOW_STOP;
        for (unsigned s = 0; s < (falls_through ? 2u : 1u); s++) {
            const kernel_insn *next = kernel_image_insn(image, successors[s]);
            if (!next || seen[next - image->insns]) continue;
            seen[next - image->insns] = 1;
            work[pending++] = (uint32_t)(next - image->insns);
        }
    }
    free(seen), free(work);
    return written & ~1u;
}

uint32_t simt_kernel_registers(const kernel_image *image)
{
    return (uint32_t)__builtin_popcount(kernel_register_mask(image) & ~1u); /* x0 needs no storage */
}

static void simt_core_destroy(void *core);

static void *simt_core_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const simt_core_params *p = params;
    if (p->sector_size > p->segment_size || p->segment_size % p->sector_size || (p->segment_size & (p->segment_size - 1))) {
        snprintf(error, error_size, "parameter 'segment_size' must be a power of two and a multiple of 'sector_size'");
        return NULL;
    }
    if (p->request_queue < p->lanes) {
        snprintf(error, error_size, "parameter 'request_queue' (%lld) must hold at least one request per lane (%lld)",
                 (long long)p->request_queue, (long long)p->lanes);
        return NULL;
    }
    simt_core *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->params = *p;
    c->params.scheduler = NULL;
    c->params.trace_file = NULL;
    c->env = *env;
    c->lanes = (uint32_t)p->lanes;
    c->full_mask = c->lanes == 64 ? UINT64_MAX : (1ull << c->lanes) - 1;
    c->lrr = !strcmp(p->scheduler, "lrr");
    c->warp_tm = !strcmp(p->tm_mode, "warp");
    c->params.tm_mode = NULL;
    c->warps = calloc((size_t)p->warps, sizeof *c->warps);
    c->hot = calloc((size_t)p->warps, sizeof *c->hot);
    c->ctas = calloc((size_t)p->ctas, sizeof *c->ctas);
    c->shared = calloc(1, (size_t)p->shared_memory + 1);
    /* The warp sets and the schedulers' last issued slots, which every
     * cycle reads, in one allocation: one host cache line for 64 warps and
     * two schedulers rather than five. */
    c->warp_set_words = ((uint32_t)p->warps + 63) / 64;
    size_t set_words = (size_t)c->warp_set_words * (3 + (size_t)p->schedulers);
    size_t set_bytes = (set_words + ((size_t)p->schedulers + 1) / 2) * sizeof(uint64_t);
    set_bytes = (set_bytes + 63) / 64 * 64; /* aligned_alloc's size is a multiple of the alignment */
    c->due_warps = aligned_alloc(64, set_bytes);
    if (c->due_warps) {
        memset(c->due_warps, 0, set_bytes);
        c->waiting_warps = c->due_warps + c->warp_set_words;
        c->room_waiters = c->waiting_warps + c->warp_set_words;
        c->scheduler_warps = c->room_waiters + c->warp_set_words;
        c->last_issued = (uint32_t *)(c->due_warps + set_words);
        /* As if slot 0 had issued last: its scheduler starts there (LRR after it). */
        for (int64_t s = 1; s < p->schedulers; s++) c->last_issued[s] = NO_SLOT;
    }
    c->pending = calloc((size_t)p->max_pending_memory, sizeof *c->pending);
    c->free_pending = calloc((size_t)p->max_pending_memory, sizeof *c->free_pending);
    if (!c->warps || !c->hot || !c->ctas || !c->shared || !c->pending || !c->free_pending || !c->due_warps ||
        !msg_queue_init(&c->requests, (size_t)p->request_queue)) {
        snprintf(error, error_size, "out of memory");
        simt_core_destroy(c);
        return NULL;
    }
    for (uint32_t i = 0; i < (uint32_t)p->warps; i++) {
        warp *w = &c->warps[i];
        c->hot[i] = (warp_hot){UINT64_MAX, STALL_IDLE};
        c->not_due_reasons[STALL_IDLE]++;
        warp_set_add(&c->scheduler_warps[(size_t)(i % (uint32_t)p->schedulers) * c->warp_set_words], i);
        w->registers = calloc(32 * c->lanes, sizeof(uint32_t));
        w->stack_capacity = 16;
        w->stack = calloc(w->stack_capacity, sizeof *w->stack);
        if (!w->registers || !w->stack) {
            snprintf(error, error_size, "out of memory");
            simt_core_destroy(c);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < (uint32_t)p->ctas; i++) {
        c->ctas[i].warps = calloc((size_t)p->warps, sizeof(uint32_t));
        if (!c->ctas[i].warps) {
            snprintf(error, error_size, "out of memory");
            simt_core_destroy(c);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < (uint32_t)p->max_pending_memory; i++) c->free_pending[i] = (uint32_t)p->max_pending_memory - 1 - i;
    c->free_pending_count = (uint32_t)p->max_pending_memory;
    c->earliest_waiting = UINT64_MAX;
    c->free_warps = (uint32_t)p->warps;
    c->free_ctas = (uint32_t)p->ctas;
    c->free_registers = (uint32_t)p->registers;
    c->free_shared = (uint32_t)p->shared_memory;
    if (p->trace_file && p->trace_file[0]) {
        c->trace = fopen(p->trace_file, "w");
        if (!c->trace) {
            snprintf(error, error_size, "parameter 'trace_file': cannot write '%s'", p->trace_file);
            simt_core_destroy(c);
            return NULL;
        }
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "warp_instructions", &c->stats.warp_instructions, "instructions", "warp instructions issued");
    simtx_observe_counter(o, "thread_instructions", &c->stats.thread_instructions, "instructions", "thread instructions executed (active lanes summed)");
    simtx_observe_counter(o, "ctas_completed", &c->stats.ctas_completed, "CTAs", "CTAs run to completion");
    simtx_observe_counter(o, "busy_cycles", &c->stats.busy_cycles, "cycles", "cycles with at least one resident CTA");
    simtx_observe_counter(o, "ticks", &c->stats.ticks, "cycles", "cycles the core was evaluated (it sleeps through the others)");
    for (int r = 1; r < STALL_REASONS; r++) {
        char name[48];
        snprintf(name, sizeof name, "stall_%s", stall_names[r]);
        simtx_observe_counter(o, name, &c->stats.stall_cycles[r], "cycles", stall_docs[r]);
    }
    simtx_observe_counter(o, "divergent_branches", &c->stats.divergent_branches, "branches", "branches that split a warp");
    simtx_observe_counter(o, "global_loads", &c->stats.global_loads, "instructions", "load instructions to the global/persistent windows");
    simtx_observe_counter(o, "global_stores", &c->stats.global_stores, "instructions", "store instructions to the global/persistent windows");
    simtx_observe_counter(o, "global_atomics", &c->stats.global_atomics, "instructions", "atomic instructions to the global/persistent windows");
    simtx_observe_counter(o, "memory_requests", &c->stats.memory_requests, "requests", "requests sent to the memory side after coalescing");
    simtx_observe_counter(o, "shared_accesses", &c->stats.shared_accesses, "instructions", "shared-memory load/store/atomic instructions");
    simtx_observe_counter(o, "shared_bank_conflict_cycles", &c->stats.shared_bank_conflict_cycles, "cycles", "extra LD/ST cycles serialising bank conflicts");
    simtx_observe_counter(o, "local_accesses", &c->stats.local_accesses, "instructions", "local-memory (stack) load/store instructions");
    simtx_observe_counter(o, "constant_loads", &c->stats.constant_loads, "instructions", "loads served by the core's constant path: read-only data in the code window and the argument block");
    simtx_observe_counter(o, "barriers", &c->stats.barriers, "barriers", "CTA barriers completed");
    simtx_observe_histogram(o, "active_lanes", &c->stats.active_lanes, "lanes", "active lanes per issued warp instruction");
    simtx_observe_real(o, "ipc", &c->stats.ipc, "instructions/cycle", "thread instructions per busy cycle (GPGPU-Sim's gpu_ipc, per core)");
    simtx_observe_real(o, "simd_efficiency", &c->stats.simd_efficiency, "", "active lanes per warp instruction over lanes per warp");
    simtx_observe_probe(o, "active_warps", &c->probes.active_warps, 11, "resident warps");
    simtx_observe_probe(o, "issued", &c->probes.issued, 4, "warp instructions issued this cycle");
    simtx_observe_probe(o, "stall_reason", &c->probes.stall_reason, 3,
                        "0 issued, 1 idle, 2 scoreboard, 3 pipeline, 4 memory, 5 barrier");
    simtx_observe_probe(o, "pending_memory", &c->probes.pending_memory, 16, "global memory instructions in flight");
    c->tm_recording = p->tm_record;
    simtx_observe_counter(o, "tm_n_commits", &c->tm_stats.tm_n_commits, "transactions", "transactions committed (lanes)");
    simtx_observe_counter(o, "tm_n_aborts", &c->tm_stats.tm_n_aborts, "attempts", "transaction attempts aborted (lanes), every cause");
    simtx_observe_counter(o, "tm_n_aborts_validation", &c->tm_stats.tm_aborts_validation, "attempts", "aborts: a commit unit's value-based validation failed");
    simtx_observe_counter(o, "tm_n_aborts_intra_warp", &c->tm_stats.tm_aborts_intra_warp, "attempts", "aborts: conflict with another lane of the warp (Warp TM)");
    simtx_observe_counter(o, "tm_n_aborts_timeout", &c->tm_stats.tm_aborts_timeout, "attempts", "aborts: the attempt ran longer than tm_timeout (doomed, looping)");
    simtx_observe_counter(o, "tm_n_aborts_fault", &c->tm_stats.tm_aborts_fault, "attempts", "aborts: the attempt faulted (doomed: bad address)");
    simtx_observe_counter(o, "tm_wasted_cycles", &c->tm_stats.tm_wasted_cycles, "cycles", "cycles of aborted warp attempts, tx_begin to abort");
    simtx_observe_counter(o, "tm_wasted_instructions", &c->tm_stats.tm_wasted_instructions, "instructions", "thread instructions of aborted attempts");
    simtx_observe_counter(o, "tm_core_cycles", &c->tm_stats.tm_core_cycles, "cycles", "warp attempts' time in the core: tx_begin to tx_commit");
    simtx_observe_counter(o, "tm_commit_cycles", &c->tm_stats.tm_commit_cycles, "cycles", "warp commits' time with the commit units: tx_commit to the last acknowledgement");
    simtx_observe_counter(o, "tm_log_bytes", &c->tm_stats.tm_log_bytes, "bytes", "read/write-log traffic to the commit units (header + 8 bytes per entry)");
    simtx_observe_counter(o, "tm_messages", &c->tm_stats.tm_messages, "messages", "TM protocol requests sent");
    simtx_observe_counter(o, "tm_n_tcd_commits", &c->tm_stats.tm_tcd_commits, "transactions", "read-only transactions committed by temporal conflict detection (no commit ID, no logs sent)");
    simtx_observe_counter(o, "tm_token_stalls", &c->tm_stats.tm_token_stalls, "events", "tx_begin found no free transactional-warp token");
    simtx_observe_histogram(o, "tm_read_set", &c->tm_stats.tm_read_set, "words", "read-log entries per committed transaction");
    simtx_observe_histogram(o, "tm_write_set", &c->tm_stats.tm_write_set, "words", "write-log entries per committed transaction");
    simtx_observe_histogram(o, "tm_core_duration", &c->tm_stats.tm_core_duration, "cycles", "per warp attempt: tx_begin (or restart) to tx_commit");
    simtx_observe_histogram(o, "tm_commit_duration", &c->tm_stats.tm_commit_duration, "cycles", "per warp commit: tx_commit to the last commit-unit acknowledgement");
    simtx_observe_histogram(o, "tm_aborts_per_tx", &c->tm_stats.tm_aborts_per_tx, "aborts", "aborts before each committed transaction");
    simtx_observe_probe(o, "tm_warps", &c->tm_probes.tx_warps, 11, "warps inside a transaction (holding a token)");
    simtx_observe_probe(o, "tm_committing", &c->tm_probes.committing_warps, 11, "warps waiting for the commit units");
    return c;
}

static void simt_core_destroy(void *core)
{
    simt_core *c = core;
    if (!c) return;
    for (int64_t i = 0; c->warps && i < c->params.warps; i++) {
        free(c->warps[i].registers);
        free(c->warps[i].stack);
        free(c->warps[i].local);
        tx_warp *tx = c->warps[i].tx;
        if (tx) {
            for (uint32_t l = 0; l < MAX_LANES; l++) free(tx->lane[l].reads.entries), free(tx->lane[l].writes.entries), free(tx->lane[l].undo);
            free(tx->checkpoint);
            free(tx->blocks);
            free(tx);
        }
    }
    free(c->tm_out.messages);
    free(c->ownership);
    free(c->history.records);
    free(c->history.words);
    for (int64_t i = 0; c->ctas && i < c->params.ctas; i++) free(c->ctas[i].warps);
    if (c->trace) fclose(c->trace);
    msg_queue_release(&c->requests);
    free(c->warps), free(c->hot), free(c->ctas), free(c->shared), free(c->pending), free(c->free_pending);
    free(c->due_warps); /* with the other warp sets and last_issued */
    free(c);
}

static uint32_t cta_threads(const simt_launch *l) { return l->block[0] * l->block[1] * l->block[2]; }
static uint32_t cta_warps(const simt_core *c, const simt_launch *l) { return (cta_threads(l) + c->lanes - 1) / c->lanes; }

bool simt_core_start_launch(simt_core *c, simt_launch *launch, char *error, size_t error_size)
{
    uint32_t warps = cta_warps(c, launch);
    uint32_t registers = warps * c->lanes * launch->registers_per_thread;
    if (warps > c->params.warps || registers > (uint64_t)c->params.registers || launch->shared_bytes > c->params.shared_memory) {
        snprintf(error, error_size,
                 "a CTA of %u threads (%u warps, %u registers, %u bytes of shared memory) does not fit core %" PRId64
                 " (%" PRId64 " warps, %" PRId64 " registers, %" PRId64 " bytes of shared memory)",
                 cta_threads(launch), warps, registers, launch->shared_bytes, c->params.core_id, c->params.warps,
                 c->params.registers, c->params.shared_memory);
        return false;
    }
    uint32_t written = kernel_written_registers(launch->image, launch->entry_pc, error, error_size);
    if (written == UINT32_MAX) return false;
    c->launch = launch;
    c->image = launch->image;
    c->written_registers |= written;
    uint32_t run_limit = 2048 / (sizeof(uint32_t) * c->lanes); /* registers per run; at least 8 (lanes <= 64) */
    c->launch_register_run_count = 0;
    uint32_t sp_and_a0 = 1u << 2 | 1u << 10;
    for (uint64_t left = kernel_register_mask(launch->image) & c->written_registers & ~sp_and_a0; left;) {
        uint32_t first = (uint32_t)__builtin_ctzll(left);
        uint32_t count = (uint32_t)__builtin_ctzll(~(left >> first)); /* left has bits below 32 only: ~ has a one */
        if (count > run_limit) count = run_limit;
        c->launch_register_runs[c->launch_register_run_count++] = (register_run){(uint8_t)first, (uint8_t)count};
        left &= ~(((UINT64_C(1) << count) - 1) << first);
    }
    c->cta_may_fit = true;
    return true;
}

/* Whether the launch has a CTA left and this core has the warps, CTA slot
 * and registers for it (shared memory is placed by dispatch_cta). */
static bool cta_fits(const simt_core *c)
{
    const simt_launch *l = c->launch;
    if (!l || l->next_cta >= l->total_ctas || !c->free_ctas) return false;
    uint32_t warps = cta_warps(c, l);
    return warps <= c->free_warps && warps * c->lanes * l->registers_per_thread <= c->free_registers;
}

void simt_core_end_launch(simt_core *c)
{
    c->launch = NULL;
}

/* Takes the next CTA of the launch if this core has room for it (the
 * caller checks cta_may_fit first). */
static bool dispatch_cta(simt_core *c, uint64_t now)
{
    simt_launch *l = c->launch;
    if (!cta_fits(c)) {
        c->cta_may_fit = false;
        return false;
    }
    uint32_t warps = cta_warps(c, l), threads = cta_threads(l);
    uint32_t registers = warps * c->lanes * l->registers_per_thread;
    /* Shared memory: CTA slots own fixed equal partitions would waste room;
     * first-fit over the resident CTAs' ranges instead. */
    uint32_t offset = 0;
    if (l->shared_bytes) {
        bool placed = false;
        for (uint32_t candidate = 0; !placed && candidate + l->shared_bytes <= (uint32_t)c->params.shared_memory;) {
            placed = true;
            for (int64_t s = 0; s < c->params.ctas; s++) {
                const cta_slot *other = &c->ctas[s];
                if (!other->resident) continue;
                if (candidate < other->shared_offset + l->shared_bytes && other->shared_offset < candidate + l->shared_bytes) {
                    candidate = other->shared_offset + l->shared_bytes;
                    placed = false;
                    break;
                }
            }
            offset = candidate;
        }
        if (!placed) {
            c->cta_may_fit = false;
            return false;
        }
    }
    uint32_t slot = 0;
    while (c->ctas[slot].resident) slot++;
    cta_slot *cta = &c->ctas[slot];
    uint64_t linear = l->next_cta++;
    cta->resident = true;
    cta->id[0] = (uint32_t)(linear % l->grid[0]);
    cta->id[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    cta->id[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    cta->warp_count = warps;
    cta->warps_done = 0;
    cta->barrier_arrived = 0;
    cta->draining = 0;
    cta->shared_offset = offset;
    memset(c->shared + offset, 0, l->shared_bytes);
    if (c->free_warps == (uint32_t)c->params.warps) c->busy_since = now;
    c->free_ctas--;
    c->free_warps -= warps;
    c->free_registers -= registers;
    uint32_t w_index = 0;
    for (uint32_t k = 0; k < warps; k++) {
        while (c->warps[w_index].resident) w_index++;
        warp *w = &c->warps[w_index];
        cta->warps[k] = w_index;
        w->resident = true;
        w->cta_slot = slot;
        w->warp_in_cta = k;
        w->at_barrier = false;
        w->reserved = 0;
        w->pending_memory = 0;
        w->waiting_token = false;
        if (w->tx) w->tx->phase = TX_IDLE;
        w->next_issue = now + 1;
        set_hot(c, w_index, 0, STALL_NONE);
        w->age = c->age_counter++;
        for (uint32_t run = 0; run < c->launch_register_run_count; run++)
            memset(reg(c, w, c->launch_register_runs[run].first), 0, sizeof(uint32_t) * c->lanes * c->launch_register_runs[run].count);
        for (int r = 0; r < 32; r++) w->register_ready[r] = 0;
        w->uniform_registers = UINT32_MAX; /* zero, or sp and a0 below (registers the kernel does not name are never read) */
        uint32_t first_thread = k * c->lanes;
        uint32_t active = threads - first_thread < c->lanes ? threads - first_thread : c->lanes;
        fill_lanes(c, reg(c, w, 2), c->full_mask, RV_LOCAL_BASE + (uint32_t)c->params.local_memory); /* sp */
        fill_lanes(c, reg(c, w, 10), c->full_mask, l->args_address);                                /* a0 */
        w->depth = 1;
        w->stack[0].pc = l->entry_pc;
        w->stack[0].reconverge = KERNEL_EXIT_PC;
        w->stack[0].mask = active == 64 ? UINT64_MAX : (1ull << active) - 1;
        w->stack[0].is_call = true;
        w->stack[0].kind = ENTRY_NORMAL;
        /* Like hardware, local memory is not cleared between threads. */
    }
    c->probes.active_warps = (uint32_t)c->params.warps - c->free_warps;
    return true;
}

static void release_cta(simt_core *c, uint32_t slot, uint64_t now)
{
    cta_slot *cta = &c->ctas[slot];
    simt_launch *l = c->launch;
    for (uint32_t k = 0; k < cta->warp_count; k++) {
        c->warps[cta->warps[k]].resident = false;
        set_hot(c, cta->warps[k], UINT64_MAX, STALL_IDLE);
    }
    cta->resident = false;
    c->cta_may_fit = true;
    c->free_ctas++;
    c->free_warps += cta->warp_count;
    c->free_registers += cta->warp_count * c->lanes * l->registers_per_thread;
    l->finished_ctas++;
    c->stats.ctas_completed++;
    if (c->free_warps == (uint32_t)c->params.warps) c->stats.busy_cycles += now - c->busy_since + 1;
    c->probes.active_warps = (uint32_t)c->params.warps - c->free_warps;
}

/* A warp finished (stack empty) or the last memory instruction of a
 * finished one completed: complete the CTA when every warp is done and
 * quiet (counted rather than visiting the warps, whose lines are cold). */
static void check_cta_done(simt_core *c, uint32_t slot, uint64_t now)
{
    cta_slot *cta = &c->ctas[slot];
    if (cta->warps_done < cta->warp_count || cta->draining) return;
    release_cta(c, slot, now);
}

/* Releases the barrier once every live warp of the CTA waits there. */
static void check_barrier(simt_core *c, uint32_t slot)
{
    cta_slot *cta = &c->ctas[slot];
    if (!cta->barrier_arrived || cta->barrier_arrived < cta->warp_count - cta->warps_done) return;
    for (uint32_t k = 0; k < cta->warp_count; k++) {
        c->warps[cta->warps[k]].at_barrier = false;
        if (c->warps[cta->warps[k]].depth) set_hot(c, cta->warps[k], 0, STALL_NONE);
    }
    cta->barrier_arrived = 0;
    c->stats.barriers++;
}

static bool push_entry(simt_core *c, warp *w, uint32_t pc, uint32_t reconverge, uint64_t mask, bool is_call)
{
    if (w->depth == 4096) {
        fail(c, "SIMT stack deeper than 4096 entries (runaway recursion?) at pc 0x%x", pc);
        return false;
    }
    stack_entry *stack = reserve(w->stack, &w->stack_capacity, w->depth + 1u, sizeof *stack, 16);
    if (!stack) {
        fail(c, "out of memory for a SIMT stack");
        return false;
    }
    w->stack = stack;
    w->stack[w->depth++] = (stack_entry){pc, reconverge, mask, is_call, ENTRY_NORMAL};
    return true;
}

/* Pops reconverged and emptied entries; ends the warp when none is left. */
static void reconverge(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    while (w->depth) {
        stack_entry *top = &w->stack[w->depth - 1];
        if (top->mask && top->pc != top->reconverge) {
            if (top->pc == KERNEL_EXIT_PC) {
                fail(c, "internal: warp %u returned inside a reconvergence region (reconvergence at 0x%x)", warp_index,
                     top->reconverge);
                w->depth = 0;
                break;
            }
            return;
        }
        w->depth--;
    }
    cta_slot *cta = &c->ctas[w->cta_slot];
    cta->warps_done++;
    if (w->pending_memory) cta->draining++;
    set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY); /* done; its stores may be in flight */
    check_barrier(c, w->cta_slot);
    check_cta_done(c, w->cta_slot, now);
}

/* Reads CSR csr into rd (NULL: x0) for the lanes of mask; false if the CSR
 * is unknown. One decision per warp, not per lane; thread ids step through
 * the block instead of dividing per lane. */
static bool read_csr(const simt_core *c, const warp *w, unsigned csr, uint64_t mask, uint32_t *rd)
{
    const simt_launch *l = c->launch;
    const cta_slot *cta = &c->ctas[w->cta_slot];
    uint32_t uniform;
    switch (csr) {
    case RV_CSR_TID_X: case RV_CSR_TID_Y: case RV_CSR_TID_Z: {
        uint32_t first = w->warp_in_cta * c->lanes;
        uint32_t x = first % l->block[0], y = first / l->block[0] % l->block[1], z = first / (l->block[0] * l->block[1]);
        if (rd && x + c->lanes <= l->block[0]) { /* the warp lies in one row of the block: y and z are uniform */
            if (csr != RV_CSR_TID_X) fill_lanes(c, rd, mask, csr == RV_CSR_TID_Y ? y : z);
            else if (mask == c->full_mask)
                for (uint32_t lane = 0, lanes = c->lanes; lane < lanes; lane++) rd[lane] = x + lane; /* lanes: a local the stores cannot change */
            else
                for (uint64_t m = mask; m; m &= m - 1) rd[__builtin_ctzll(m)] = x + (uint32_t)__builtin_ctzll(m);
            return true;
        }
        for (uint32_t lane = 0; rd && lane < c->lanes; lane++) {
            if ((mask >> lane) & 1) rd[lane] = csr == RV_CSR_TID_X ? x : csr == RV_CSR_TID_Y ? y : z;
            if (++x == l->block[0]) {
                x = 0;
                if (++y == l->block[1]) y = 0, z++;
            }
        }
        return true;
    }
    case RV_CSR_LANE_ID:
        for (uint64_t m = mask; rd && m; m &= m - 1) rd[__builtin_ctzll(m)] = (uint32_t)__builtin_ctzll(m);
        return true;
    case RV_CSR_NTID_X: case RV_CSR_NTID_Y: case RV_CSR_NTID_Z: uniform = l->block[csr - RV_CSR_NTID_X]; break;
    case RV_CSR_CTAID_X: case RV_CSR_CTAID_Y: case RV_CSR_CTAID_Z: uniform = cta->id[csr - RV_CSR_CTAID_X]; break;
    case RV_CSR_NCTAID_X: case RV_CSR_NCTAID_Y: case RV_CSR_NCTAID_Z: uniform = l->grid[csr - RV_CSR_NCTAID_X]; break;
    case RV_CSR_WARP_ID: uniform = w->warp_in_cta; break;
    case RV_CSR_WARP_SIZE: uniform = c->lanes; break;
    default: return false;
    }
    if (rd) fill_lanes(c, rd, mask, uniform);
    return true;
}

static simtx_atomic_op atomic_code(rv_op op)
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
    default: return SIMTX_ATOMIC_MAXU;
    }
}

/* ---- Transactions (KILO TM): logs, checkpoints, Retry/Transaction entries,
 * the log walker and the commit protocol of tm_lazy.h. ---- */

#define TM_ID_TAG (UINT64_C(1) << 62)
enum { TM_KIND_CID = 1, TM_KIND_ACK, TM_KIND_OUTCOME, TM_KIND_DECISION, TM_KIND_WARP_OUTCOME, TM_KIND_WARP_DECISION, TM_KIND_START,
       TM_KIND_LWT };

static uint64_t tm_id(unsigned kind, uint32_t warp_index, uint32_t lane, uint32_t partition)
{
    return TM_ID_TAG | (uint64_t)kind << 48 | (uint64_t)warp_index << 16 | (uint64_t)lane << 8 | partition;
}

static bool tm_push(simt_core *c, const simtx_msg *msg)
{
    tm_queue *q = &c->tm_out;
    if (q->length == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 256;
        simtx_msg *grown = malloc(capacity * sizeof *grown);
        if (!grown) {
            fail(c, "out of memory for TM messages");
            return false;
        }
        for (size_t i = 0; i < q->length; i++) grown[i] = q->messages[(q->head + i) % q->capacity];
        free(q->messages);
        q->messages = grown;
        q->head = 0;
        q->capacity = capacity;
    }
    simtx_msg *slot = &q->messages[(q->head + q->length++) % q->capacity];
    *slot = *msg;
    slot->core = (int32_t)c->params.core_id;
    c->tm_stats.tm_messages++;
    return true;
}

static tm_entry *log_find(tx_log *log, uint32_t word)
{
    for (uint32_t i = 0; i < log->count; i++)
        if (log->entries[i].address == word) return &log->entries[i];
    return NULL;
}

static bool log_append(simt_core *c, tx_log *log, uint32_t word, uint32_t value)
{
    tm_entry *entries = reserve(log->entries, &log->capacity, log->count + 1u, sizeof *entries, 16);
    if (!entries) {
        fail(c, "out of memory for a transaction log");
        return false;
    }
    log->entries = entries;
    log->entries[log->count++] = (tm_entry){word, value};
    return true;
}

static bool undo_append(simt_core *c, tx_lane *lane, uint32_t offset, uint32_t old, uint32_t size)
{
    local_undo *undo = reserve(lane->undo, &lane->undo_capacity, lane->undo_count + 1u, sizeof *undo, 16);
    if (!undo) {
        fail(c, "out of memory for a transaction's stack undo log");
        return false;
    }
    lane->undo = undo;
    lane->undo[lane->undo_count++] = (local_undo){offset, old, size};
    return true;
}

static bool in_transaction(const warp *w) { return w->tx && w->tx->phase != TX_IDLE; }

static unsigned tm_partition(const simt_core *c, uint32_t address)
{
    return tm_partition_of(address, (uint64_t)c->params.tm_interleave, (unsigned)c->params.tm_partitions);
}

/* Clears a lane's logs for a new attempt or after its commit. */
static void lane_reset(tx_lane *lane)
{
    lane->reads.count = lane->writes.count = 0;
    lane->undo_count = 0;
    lane->cid = 0;
    lane->involved = 0;
    lane->outcomes_pending = lane->acks_pending = 0;
    lane->passed = true;
    lane->tcd = false;
}

/* TCD: the attempt's start time is the next commit ID (aux = 0 reads the clock). */
static void request_start_time(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    tx->phase = TX_WAIT_START;
    tx->block_count = 0;
    set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = 0;
    request.warp = (int32_t)warp_index;
    request.id = ((uint64_t)1 << 62) | (uint64_t)TM_KIND_START << 48 | (uint64_t)warp_index << 16;
    tm_push(c, &request);
}

static void query_block(simt_core *c, warp *w, uint32_t warp_index, uint32_t index)
{
    tx_warp *tx = w->tx;
    simtx_msg query;
    simtx_msg_init(&query, SIMTX_OP_TM_LWT_QUERY, (uint64_t)tx->blocks[index].block * TM_LWT_BLOCK_BYTES, 0);
    query.aux = tx->start_time;
    query.warp = (int32_t)warp_index;
    query.id = ((uint64_t)1 << 62) | (uint64_t)TM_KIND_LWT << 48 | (uint64_t)warp_index << 16 | index;
    tx->lwt_pending++;
    tm_push(c, &query);
}

/* Rolls a lane back to its tx_begin: registers from the checkpoint, its
 * private-stack stores undone (newest first), logs dropped. */
static void lane_rollback(simt_core *c, warp *w, uint32_t l)
{
    tx_warp *tx = w->tx;
    tx_lane *lane = &tx->lane[l];
    for (unsigned r = 0; r < 32; r++) w->registers[r * c->lanes + l] = tx->checkpoint[r * c->lanes + l];
    w->uniform_registers = 1; /* x0 only */
    for (uint32_t u = lane->undo_count; u-- > 0;)
        memcpy(w->local + (size_t)l * (size_t)c->params.local_memory + lane->undo[u].offset, &lane->undo[u].old, lane->undo[u].size);
    lane_reset(lane);
    lane->depth = 1;
    lane->attempts++;
}

static void release_token(simt_core *c)
{
    c->tm_tokens_used--;
    c->tm_probes.tx_warps = c->tm_tokens_used;
    if (!c->token_waiters) return;
    for (uint32_t i = 0; i < (uint32_t)c->params.warps; i++)
        if (c->warps[i].waiting_token) {
            c->warps[i].waiting_token = false;
            set_hot(c, i, 0, STALL_NONE);
        }
    c->token_waiters = 0;
}

/* After a commit or an abort left the Transaction entry empty: lanes in the
 * Retry entry start a new attempt under a fresh Transaction entry; with none
 * left the transaction is over and the warp continues after tx_commit. */
static void settle_transaction(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    w->depth = tx->retry_index + 1; /* drop the (empty) Transaction entry and anything above */
    stack_entry *retry = &w->stack[tx->retry_index];
    for (unsigned r = 0; r < 32; r++) w->register_ready[r] = now + 1;
    w->next_issue = now + 1;
    set_hot(c, warp_index, 0, STALL_NONE);
    if (retry->mask) {
        uint64_t again = retry->mask;
        retry->mask = 0;
        push_entry(c, w, tx->begin_pc + 4, TX_NO_RECONVERGE, again, false);
        w->stack[w->depth - 1].kind = ENTRY_TRANSACTION;
        tx->phase = TX_RUNNING;
        tx->attempt_start = now;
        tx->attempt_instructions = 0;
        if (c->params.tm_tcd) request_start_time(c, w, warp_index);
        return;
    }
    tx->phase = TX_IDLE;
    w->depth = tx->retry_index; /* pop the Retry entry: the parent is at tx_commit + 4 */
    release_token(c);
    reconverge(c, w, warp_index, now);
}

/* Aborts the warp's whole running attempt (a doomed transaction: fault or
 * timeout). Only called with no memory access of the warp in flight. */
static void abort_attempt(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t lanes = w->stack[tx->retry_index + 1].mask;
    unsigned count = (unsigned)__builtin_popcountll(lanes);
    c->tm_stats.tm_n_aborts += count;
    if (tx->abort_cause == ABORT_TIMEOUT) {
        c->tm_stats.tm_aborts_timeout += count;
        tx->timeout *= 2;
    } else {
        c->tm_stats.tm_aborts_fault += count;
        if (++tx->fault_aborts > 1000) { /* not doomed: it faults whatever it reads */
            char where[320];
            describe(c, w, tx->fault_pc, where, sizeof where);
            fail(c, "a transaction faulted on 1000 retries in a row (a bad address or jump, not an inconsistent read), last at %s", where);
            return;
        }
    }
    c->tm_stats.tm_wasted_cycles += now - tx->attempt_start;
    c->tm_stats.tm_wasted_instructions += tx->attempt_instructions;
    for (uint64_t m = lanes; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
    w->stack[tx->retry_index].mask |= lanes;
    tx->abort_requested = false;
    settle_transaction(c, w, warp_index, now);
}

static bool begin_transaction(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc, uint64_t mask,
                              uint64_t now)
{
    if (in_transaction(w)) { /* nested: flattened into the outer transaction */
        for (uint64_t m = mask; m; m &= m - 1) w->tx->lane[__builtin_ctzll(m)].depth++;
        return true;
    }
    if (!w->tx) {
        w->tx = calloc(1, sizeof *w->tx);
        if (w->tx) w->tx->checkpoint = calloc(32 * (size_t)c->lanes, sizeof(uint32_t));
        if (!w->tx || !w->tx->checkpoint) {
            fail(c, "out of memory for transaction state");
            return false;
        }
    }
    tx_warp *tx = w->tx;
    c->tm_tokens_used++;
    c->tm_probes.tx_warps = c->tm_tokens_used;
    tx->phase = TX_RUNNING;
    tx->timeout = (uint64_t)c->params.tm_timeout;
    tx->fault_aborts = 0;
    tx->begin_pc = pc;
    tx->commit_pc = k->target;
    tx->attempt_start = now;
    tx->attempt_instructions = 0;
    tx->abort_requested = false;
    memcpy(tx->checkpoint, w->registers, 32 * sizeof(uint32_t) * c->lanes);
    for (uint64_t m = mask; m; m &= m - 1) {
        tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        lane_reset(lane);
        lane->depth = 1;
        lane->attempts = 0;
    }
    /* The parent continues after tx_commit once every lane committed; the
     * Retry entry collects lanes that failed; the Transaction entry runs. */
    w->stack[w->depth - 1].pc = tx->commit_pc + 4;
    tx->retry_index = w->depth;
    if (!push_entry(c, w, pc + 4, TX_NO_RECONVERGE, 0, false)) return false;
    w->stack[w->depth - 1].kind = ENTRY_RETRY;
    if (!push_entry(c, w, pc + 4, TX_NO_RECONVERGE, mask, false)) return false;
    w->stack[w->depth - 1].kind = ENTRY_TRANSACTION;
    if (c->params.tm_tcd) request_start_time(c, w, warp_index);
    return true;
}

static void record_commit(simt_core *c, const tx_lane *lane, uint32_t cid, uint32_t after)
{
    tx_history *h = &c->history;
    simt_tm_record *records = reserve(h->records, &h->capacity, h->count + 1, sizeof *records, 256);
    if (records) h->records = records;
    size_t words_needed = h->word_count + 2 * ((size_t)lane->reads.count + lane->writes.count);
    uint32_t *words = records ? reserve(h->words, &h->word_capacity, words_needed, sizeof *words, 1024) : NULL;
    if (!words) {
        fail(c, "out of memory recording the transaction history");
        return;
    }
    h->words = words;
    h->records[h->count++] = (simt_tm_record){cid, after, lane->reads.count, lane->writes.count, h->word_count};
    for (uint32_t i = 0; i < lane->reads.count; i++) {
        h->words[h->word_count++] = lane->reads.entries[i].address;
        h->words[h->word_count++] = lane->reads.entries[i].value;
    }
    for (uint32_t i = 0; i < lane->writes.count; i++) {
        h->words[h->word_count++] = lane->writes.entries[i].address;
        h->words[h->word_count++] = lane->writes.entries[i].value;
    }
}

/* Every committing lane has its decision acknowledged (or needed none):
 * committed lanes leave with tx_commit's result 1, failed lanes roll back
 * into the Retry entry. */
static void finish_commit(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t aborted = 0;
    c->tm_stats.tm_commit_cycles += now - tx->commit_start;
    simtx_histogram_add(&c->tm_stats.tm_commit_duration, now - tx->commit_start);
    if (c->tm_probes.committing_warps) c->tm_probes.committing_warps--;
    for (uint64_t m = tx->committing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        tx_lane *lane = &tx->lane[l];
        if (lane->passed) {
            tx->fault_aborts = 0; /* progress: the faults were doomed attempts */
            c->tm_stats.tm_n_commits++;
            simtx_histogram_add(&c->tm_stats.tm_read_set, lane->reads.count);
            simtx_histogram_add(&c->tm_stats.tm_write_set, lane->writes.count);
            simtx_histogram_add(&c->tm_stats.tm_aborts_per_tx, lane->attempts);
            if (lane->tcd) c->tm_stats.tm_tcd_commits++;
            if (c->tm_recording && (lane->cid || lane->tcd)) record_commit(c, lane, lane->tcd ? tx->start_time - 1 : lane->cid, lane->tcd);
            if (tx->commit_rd) w->registers[tx->commit_rd * c->lanes + l] = 1;
            w->uniform_registers &= ~(1u << tx->commit_rd);
            lane->depth = 0;
            lane_reset(lane);
        } else {
            aborted |= 1ull << l;
        }
    }
    if (aborted) {
        unsigned count = (unsigned)__builtin_popcountll(aborted), intra = 0;
        for (uint64_t m = aborted; m; m &= m - 1) intra += !tx->lane[__builtin_ctzll(m)].cid; /* failed before taking an ID */
        c->tm_stats.tm_n_aborts += count;
        c->tm_stats.tm_aborts_validation += count - intra;
        c->tm_stats.tm_aborts_intra_warp += intra;
        c->tm_stats.tm_wasted_cycles += now - tx->attempt_start;
        c->tm_stats.tm_wasted_instructions +=
            tx->attempt_instructions * count / (unsigned)__builtin_popcountll(tx->committing);
        for (uint64_t m = aborted; m; m &= m - 1) lane_rollback(c, w, (uint32_t)__builtin_ctzll(m));
        w->stack[tx->retry_index].mask |= aborted;
    }
    /* Committed lanes keep tx_commit's register values; restored lanes got
     * their checkpoint back. */
    settle_transaction(c, w, warp_index, now);
}

/* Tells partition p that `count` consecutive commit IDs from `first` have
 * no entries there (one TM_SKIP). */
static void push_skip(simt_core *c, unsigned p, uint64_t here, uint32_t first, uint32_t count, uint32_t warp_index)
{
    simtx_msg skip;
    simtx_msg_init(&skip, SIMTX_OP_TM_SKIP, here, 0);
    skip.transaction_id = first;
    skip.aux = count;
    skip.warp = (int32_t)warp_index;
    skip.id = tm_id(TM_KIND_ACK, warp_index, 0, p);
    tm_push(c, &skip);
}

/* KILO TM's log walker: per committing lane (one transaction, one commit
 * ID), its read and write log entries go to the partitions owning them,
 * then TM_LOG_DONE with the counts; partitions without entries of a run of
 * consecutive IDs get one TM_SKIP. */
static void send_logs(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    unsigned partitions = (unsigned)c->params.tm_partitions;
    uint64_t interleave = (uint64_t)c->params.tm_interleave;
    for (unsigned p = 0; p < partitions; p++) {
        uint64_t here = tm_partition_address(p, interleave);
        uint32_t skip_first = 0, skip_count = 0;
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            tx_lane *lane = &tx->lane[l];
            if (!lane->cid) continue;
            uint32_t counts[2] = {0, 0};
            for (int kind = 0; kind < 2; kind++) {
                const tx_log *log = kind ? &lane->writes : &lane->reads;
                simtx_msg msg;
                tm_log_init(&msg, kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG, lane->cid, (int)c->params.core_id, (int)warp_index);
                for (uint32_t i = 0; i <= log->count; i++) {
                    bool last = i == log->count;
                    if (!last && tm_partition(c, log->entries[i].address) != p) continue;
                    if (msg.size && (last || tm_entry_count(&msg) == TM_MAX_ENTRIES_PER_MSG)) {
                        msg.lane_mask = 1ull << l;
                        msg.id = tm_id(TM_KIND_ACK, warp_index, l, p);
                        c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                        tm_push(c, &msg);
                        tm_log_init(&msg, kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG, lane->cid, (int)c->params.core_id,
                                    (int)warp_index);
                    }
                    if (last) break;
                    tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value);
                    counts[kind]++;
                }
            }
            if (!counts[0] && !counts[1]) {
                if (skip_count && skip_first + skip_count == lane->cid) skip_count++;
                else {
                    if (skip_count) push_skip(c, p, here, skip_first, skip_count, warp_index);
                    skip_first = lane->cid;
                    skip_count = 1;
                }
                continue;
            }
            lane->involved |= 1ull << p;
            lane->outcomes_pending++;
            simtx_msg done;
            simtx_msg_init(&done, SIMTX_OP_TM_LOG_DONE, here, 0);
            done.transaction_id = lane->cid;
            done.aux = counts[0] | (uint64_t)counts[1] << 32;
            done.lane_mask = 1ull << l;
            done.warp = (int32_t)warp_index;
            done.id = tm_id(TM_KIND_OUTCOME, warp_index, l, p);
            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES;
            tm_push(c, &done);
        }
        if (skip_count) push_skip(c, p, here, skip_first, skip_count, warp_index);
    }
}


/* Warp TM's intra-warp conflict resolution (two phases in a shared-memory
 * ownership table): phase 1, every lane claims the entries its writes hash
 * to; phase 2, a lane whose write entry another lane owns, or whose read
 * entry a writing lane owns, aborts. The model resolves claims by lane
 * priority (the lowest lane wins an entry) and checks lanes in order
 * against the lanes that passed, so the lowest committing lane always
 * proceeds (no livelock); the table hash gives false conflicts as in
 * hardware. Returns the cycles both phases take. */
static uint64_t intra_warp_conflicts(simt_core *c, tx_warp *tx, uint64_t candidates, uint64_t *failed)
{
    uint32_t entries = (uint32_t)c->params.tm_conflict_table / 4;
    if (!c->ownership) {
        c->ownership = calloc(entries, sizeof *c->ownership);
        if (!c->ownership) {
            fail(c, "out of memory for the intra-warp conflict table");
            return 0;
        }
    }
    /* ownership[e]: 1 + lane that writes e and passed; reads marked by bit 7 of the lane byte. */
    uint32_t *table = c->ownership;
    uint32_t max_writes = 0, max_accesses = 0;
    *failed = 0;
    for (uint64_t m = candidates; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        const tx_lane *lane = &tx->lane[l];
        bool conflict = false;
        for (uint32_t i = 0; i < lane->writes.count && !conflict; i++) {
            uint32_t owner = table[(lane->writes.entries[i].address >> 2) % entries];
            conflict = owner != 0; /* written or read by a lane that passed */
        }
        for (uint32_t i = 0; i < lane->reads.count && !conflict; i++) {
            uint32_t owner = table[(lane->reads.entries[i].address >> 2) % entries];
            conflict = owner & 0xffff; /* written by a lane that passed */
        }
        if (lane->writes.count > max_writes) max_writes = lane->writes.count;
        if (lane->reads.count + lane->writes.count > max_accesses) max_accesses = lane->reads.count + lane->writes.count;
        if (conflict) {
            *failed |= 1ull << l;
            continue;
        }
        for (uint32_t i = 0; i < lane->writes.count; i++) table[(lane->writes.entries[i].address >> 2) % entries] |= 1 + l;
        for (uint32_t i = 0; i < lane->reads.count; i++) table[(lane->reads.entries[i].address >> 2) % entries] |= 1u << 16;
    }
    /* Clear only what was touched (the table is reused by the next warp). */
    for (uint64_t m = candidates; m; m &= m - 1) {
        const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        for (uint32_t i = 0; i < lane->writes.count; i++) table[(lane->writes.entries[i].address >> 2) % entries] = 0;
        for (uint32_t i = 0; i < lane->reads.count; i++) table[(lane->reads.entries[i].address >> 2) % entries] = 0;
    }
    return 2 * (uint64_t)c->params.shared_latency + max_writes + max_accesses;
}

static void request_cids(simt_core *c, warp *w, uint32_t warp_index, uint32_t wanted)
{
    tx_warp *tx = w->tx;
    tx->phase = TX_WAIT_CID;
    simtx_msg request;
    simtx_msg_init(&request, SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0);
    request.aux = wanted;
    request.lane_mask = tx->committing;
    request.warp = (int32_t)warp_index;
    request.id = tm_id(TM_KIND_CID, warp_index, 0, 0);
    tm_push(c, &request);
}

/* Warp TM's log walker: the warp's IDs are consecutive, so per partition
 * the entries of up to 16 IDs share a message, and one coalesced
 * TM_LOG_DONE per 16 IDs carries their counts (a window with no entries
 * at a partition is one TM_SKIP). */
static void send_logs_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    uint64_t interleave = (uint64_t)c->params.tm_interleave;
    tx->dones_pending = 0;
    tx->decision_partitions = 0;
    for (unsigned p = 0; p < (unsigned)c->params.tm_partitions; p++) {
        uint64_t here = tm_partition_address(p, interleave);
        for (uint32_t window = 0; window < tx->cid_count; window += TM_MAX_ENTRIES_PER_MSG) {
            uint32_t ids = tx->cid_count - window < TM_MAX_ENTRIES_PER_MSG ? tx->cid_count - window : TM_MAX_ENTRIES_PER_MSG;
            uint32_t base = tx->first_cid + window;
            uint32_t counts[TM_MAX_ENTRIES_PER_MSG][2];
            uint32_t total = 0;
            for (int kind = 0; kind < 2; kind++) {
                simtx_op op = kind ? SIMTX_OP_TM_WRITE_LOG : SIMTX_OP_TM_READ_LOG;
                simtx_msg msg;
                tm_log_init(&msg, op, base, (int)c->params.core_id, (int)warp_index);
                for (uint32_t r = 0; r < ids; r++) {
                    uint32_t l = tx->lane_of_rank[window + r];
                    tx_lane *lane = &tx->lane[l];
                    const tx_log *log = kind ? &lane->writes : &lane->reads;
                    counts[r][kind] = 0;
                    for (uint32_t i = 0; i < log->count; i++) {
                        if (tm_partition(c, log->entries[i].address) != p) continue;
                        if (!tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value)) {
                            msg.id = tm_id(TM_KIND_ACK, warp_index, 0, p);
                            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                            tm_push(c, &msg);
                            tm_log_init(&msg, op, base, (int)c->params.core_id, (int)warp_index);
                            tm_log_append(&msg, lane->cid, log->entries[i].address, log->entries[i].value);
                        }
                        msg.lane_mask |= 1ull << l;
                        counts[r][kind]++;
                        lane->involved |= 1ull << p;
                        total++;
                    }
                }
                if (msg.size) {
                    msg.id = tm_id(TM_KIND_ACK, warp_index, 0, p);
                    c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + msg.size;
                    tm_push(c, &msg);
                }
            }
            if (!total) {
                push_skip(c, p, here, base, ids, warp_index);
                continue;
            }
            simtx_msg done;
            tm_done_init(&done, here, base);
            for (uint32_t r = 0; r < ids; r++) tm_done_append(&done, counts[r][0], counts[r][1]);
            done.warp = (int32_t)warp_index;
            done.id = tm_id(TM_KIND_WARP_OUTCOME, warp_index, window, p);
            c->tm_stats.tm_log_bytes += TM_LOG_HEADER_BYTES + done.size;
            tm_push(c, &done);
            tx->dones_pending++;
            tx->decision_partitions |= 1ull << p;
        }
    }
}

/* Every coalesced outcome is in: one TM_DECISION per partition with entries. */
static void send_decisions_coalesced(simt_core *c, warp *w, uint32_t warp_index)
{
    tx_warp *tx = w->tx;
    uint64_t commit_mask = 0;
    for (uint32_t r = 0; r < tx->cid_count; r++)
        if (tx->lane[tx->lane_of_rank[r]].passed) commit_mask |= 1ull << r;
    tx->acks_pending = 0;
    for (unsigned p = 0; p < (unsigned)c->params.tm_partitions; p++) {
        if (!((tx->decision_partitions >> p) & 1)) continue;
        simtx_msg d;
        tm_decision_init(&d, tm_partition_address(p, (uint64_t)c->params.tm_interleave), tx->first_cid, tx->cid_count, commit_mask);
        d.warp = (int32_t)warp_index;
        d.lane_mask = tx->committing;
        d.id = tm_id(TM_KIND_WARP_DECISION, warp_index, 0, p);
        tx->acks_pending++;
        tm_push(c, &d);
    }
}

/* The intra-warp conflict checks that have taken their time. */
static uint64_t finish_conflict_checks(simt_core *c, uint64_t now)
{
    uint64_t next = SIMTX_NEVER;
    for (uint32_t i = 0; c->conflict_checks && i < (uint32_t)c->params.warps; i++) {
        warp *w = &c->warps[i];
        if (!w->tx || w->tx->phase != TX_CONFLICT_CHECK) continue;
        if (w->tx->check_done_at > now) {
            if (w->tx->check_done_at < next) next = w->tx->check_done_at;
            continue;
        }
        c->conflict_checks--;
        uint32_t wanted = 0;
        for (uint64_t m = w->tx->committing; m; m &= m - 1) {
            const tx_lane *lane = &w->tx->lane[__builtin_ctzll(m)];
            wanted += lane->passed && !lane->tcd && (lane->reads.count || lane->writes.count);
        }
        if (wanted) request_cids(c, w, i, wanted);
        else finish_commit(c, w, i, now);
    }
    return next;
}

/* tx_commit of the outer transaction: lanes with logs take commit IDs; a
 * warp whose lanes logged nothing commits at once. */
static void continue_commit(simt_core *c, warp *w, uint32_t warp_index, uint64_t now);
static uint32_t block_index(const tx_warp *tx, uint32_t block);

static void start_commit(simt_core *c, warp *w, uint32_t warp_index, uint32_t rd, uint64_t mask, uint64_t now)
{
    tx_warp *tx = w->tx;
    tx->committing = mask;
    tx->commit_rd = rd;
    tx->commit_start = now;
    c->tm_stats.tm_core_cycles += now - tx->attempt_start;
    simtx_histogram_add(&c->tm_stats.tm_core_duration, now - tx->attempt_start);
    c->tm_probes.committing_warps++;
    uint32_t wanted = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        lane->passed = true;
        if (lane->reads.count || lane->writes.count) wanted++;
    }
    tx->unresolved = wanted;
    set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
    if (!wanted) {
        finish_commit(c, w, warp_index, now);
        return;
    }
    bool read_only = false;
    for (uint64_t m = mask; m; m &= m - 1) {
        const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        read_only |= lane->reads.count && !lane->writes.count;
    }
    if (c->params.tm_tcd && read_only && tx->block_count) {
        /* Ask again for every block: read-only lanes whose blocks were all
         * last written before the start time commit here. */
        tx->phase = TX_TCD_CHECK;
        for (uint32_t b = 0; b < tx->block_count; b++) query_block(c, w, warp_index, b);
        return;
    }
    continue_commit(c, w, warp_index, now);
}

static uint32_t block_index(const tx_warp *tx, uint32_t block)
{
    for (uint32_t b = 0; b < tx->block_count; b++)
        if (tx->blocks[b].block == block) return b;
    return UINT32_MAX;
}

/* The commit after temporal conflict detection: lanes it committed are
 * done; the others take commit IDs (after Warp TM's conflict check). */
static void continue_commit(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    tx_warp *tx = w->tx;
    uint64_t mask = tx->committing;
    uint32_t wanted = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
        wanted += !lane->tcd && (lane->reads.count || lane->writes.count);
    }
    tx->unresolved = wanted;
    if (!wanted) {
        finish_commit(c, w, warp_index, now);
        return;
    }
    if (c->warp_tm) {
        uint64_t candidates = 0, conflicting = 0;
        for (uint64_t m = mask; m; m &= m - 1) {
            const tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
            if (!lane->tcd && (lane->reads.count || lane->writes.count)) candidates |= 1ull << __builtin_ctzll(m);
        }
        tx->check_done_at = now + intra_warp_conflicts(c, tx, candidates, &conflicting);
        for (uint64_t m = conflicting; m; m &= m - 1) tx->lane[__builtin_ctzll(m)].passed = false;
        tx->phase = TX_CONFLICT_CHECK;
        c->conflict_checks++;
        return;
    }
    request_cids(c, w, warp_index, wanted);
}

static void send_decision(simt_core *c, warp *w, uint32_t warp_index, uint32_t l)
{
    tx_lane *lane = &w->tx->lane[l];
    for (unsigned p = 0; p < (unsigned)c->params.tm_partitions; p++) {
        if (!((lane->involved >> p) & 1)) continue;
        simtx_msg d;
        simtx_msg_init(&d, SIMTX_OP_TM_DECISION, tm_partition_address(p, (uint64_t)c->params.tm_interleave), 0);
        d.transaction_id = lane->cid;
        d.aux = lane->passed ? TM_DECISION_COMMIT : TM_DECISION_ABORT;
        d.lane_mask = 1ull << l;
        d.warp = (int32_t)warp_index;
        d.id = tm_id(TM_KIND_DECISION, warp_index, l, p);
        lane->acks_pending++;
        tm_push(c, &d);
    }
}

/* A response of the TM protocol. */
static void tm_response(simt_core *c, const simtx_msg *msg, uint64_t now)
{
    unsigned kind = (unsigned)(msg->id >> 48) & 0xff;
    uint32_t warp_index = (uint32_t)(msg->id >> 16) & 0xffff, l = (uint32_t)(msg->id >> 8) & 0xff;
    if (msg->status != SIMTX_STATUS_OK) {
        fail(c, "the memory side answered status %u to a TM %s message at 0x%08" PRIx64 " (are commit units attached? see platforms/tm_memory.lua)",
             (unsigned)msg->status, simtx_op_name((simtx_op)msg->op), msg->address);
        return;
    }
    if (kind == TM_KIND_ACK) return;
    if (warp_index >= (uint32_t)c->params.warps || !in_transaction(&c->warps[warp_index]) ||
        (l >= MAX_LANES && kind != TM_KIND_LWT)) {
        fail(c, "unexpected TM response (id 0x%" PRIx64 ")", msg->id);
        return;
    }
    warp *w = &c->warps[warp_index];
    tx_warp *tx = w->tx;
    switch (kind) {
    case TM_KIND_CID: {
        uint32_t cid = (uint32_t)msg->aux;
        tx->first_cid = cid;
        tx->cid_count = 0;
        for (uint64_t m = tx->committing; m; m &= m - 1) {
            tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
            if (lane->passed && !lane->tcd && (lane->reads.count || lane->writes.count)) {
                lane->cid = cid++;
                tx->lane_of_rank[tx->cid_count++] = (uint8_t)__builtin_ctzll(m);
            }
        }
        tx->phase = TX_VALIDATING;
        if (c->warp_tm) send_logs_coalesced(c, w, warp_index);
        else send_logs(c, w, warp_index);
        break;
    }
    case TM_KIND_WARP_OUTCOME: { /* l: the first rank of the window */
        for (uint32_t r = l; r < tx->cid_count && r < l + TM_MAX_ENTRIES_PER_MSG; r++)
            if (!((msg->aux >> (r - l)) & 1)) tx->lane[tx->lane_of_rank[r]].passed = false;
        if (--tx->dones_pending == 0) send_decisions_coalesced(c, w, warp_index);
        break;
    }
    case TM_KIND_WARP_DECISION:
        if (--tx->acks_pending == 0) finish_commit(c, w, warp_index, now);
        break;
    case TM_KIND_START:
        tx->start_time = (uint32_t)msg->aux;
        tx->phase = TX_RUNNING;
        set_hot(c, warp_index, 0, STALL_NONE);
        break;
    case TM_KIND_LWT: {
        uint32_t index = (uint32_t)msg->id & 0xffff;
        if (index < tx->block_count) tx->blocks[index].last_written = (uint32_t)msg->aux;
        if (--tx->lwt_pending) break;
        if (tx->phase == TX_WAIT_LWT) { /* the load that needed the blocks issues again */
            tx->phase = TX_RUNNING;
            set_hot(c, warp_index, 0, STALL_NONE);
        } else if (tx->phase == TX_TCD_CHECK) {
            for (uint64_t m = tx->committing; m; m &= m - 1) {
                tx_lane *lane = &tx->lane[__builtin_ctzll(m)];
                if (!lane->reads.count || lane->writes.count) continue;
                bool clean = true;
                for (uint32_t i = 0; i < lane->reads.count && clean; i++) {
                    uint32_t b = block_index(tx, lane->reads.entries[i].address / TM_LWT_BLOCK_BYTES);
                    clean = b != UINT32_MAX && tx->blocks[b].last_written < tx->start_time;
                }
                lane->tcd = clean;
            }
            continue_commit(c, w, warp_index, now);
        }
        break;
    }
    case TM_KIND_OUTCOME: {
        tx_lane *lane = &tx->lane[l];
        if (msg->aux != TM_OUTCOME_PASS) lane->passed = false;
        if (--lane->outcomes_pending == 0) send_decision(c, w, warp_index, l);
        break;
    }
    case TM_KIND_DECISION: {
        tx_lane *lane = &tx->lane[l];
        if (--lane->acks_pending == 0 && --tx->unresolved == 0) finish_commit(c, w, warp_index, now);
        break;
    }
    default: fail(c, "unexpected TM response kind %u", kind); break;
    }
}

/* TCD: before a transactional load first touches a 128-byte block, ask its
 * partition for the block's last-written time (answered once every ID
 * before the start time retired, so the load then sees all of them).
 * Returns true when queries went out and the load must wait. */
static bool need_block_queries(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint64_t mask)
{
    tx_warp *tx = w->tx;
    const uint32_t *base = reg(c, w, k->insn.rs1);
    uint32_t first_new = tx->block_count;
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t address = base[__builtin_ctzll(m)] + (uint32_t)k->insn.imm;
        rv_window window = rv_window_of(address);
        if (window != RV_WINDOW_GLOBAL && window != RV_WINDOW_PERSISTENT) continue;
        if (address - c->launch->args_address < c->launch->args_size) continue;
        uint32_t block = address / TM_LWT_BLOCK_BYTES;
        if (block_index(tx, block) != UINT32_MAX) continue;
        tx_block *blocks = reserve(tx->blocks, &tx->block_capacity, tx->block_count + 1u, sizeof *blocks, 32);
        if (!blocks) {
            fail(c, "out of memory for temporal conflict detection");
            return true;
        }
        tx->blocks = blocks;
        if (tx->block_count >= 0xffff) return false; /* beyond the id field: the commit validates these */
        tx->blocks[tx->block_count++] = (tx_block){block, UINT32_MAX};
    }
    if (tx->block_count == first_new) return false;
    tx->phase = TX_WAIT_LWT;
    set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
    for (uint32_t b = first_new; b < tx->block_count; b++) query_block(c, w, warp_index, b);
    return true;
}

/* Lanes in a mask of consecutive lanes (not empty). */
static uint32_t lane_run(uint64_t lanes) { return 64u - (uint32_t)__builtin_clzll(lanes) - (uint32_t)__builtin_ctzll(lanes); }

/* A coalesced request: the segment, the lanes in it and the byte range
 * [first, end) they touch within it. */
typedef struct segment {
    uint32_t base, first, end;
    uint64_t lanes;
} segment;

/* Groups the lanes of mask by segment, in order of each segment's first
 * lane, in one pass over the lanes; returns how many segments. A scattered
 * warp touches up to 64 segments: a small hash table finds a lane's. */
static uint32_t coalesce(const simt_core *c, const uint32_t *addresses, uint64_t mask, unsigned size, segment *segments)
{
    enum { TABLE_BITS = 7 }; /* 128 entries for at most 64 segments */
    uint8_t table[1u << TABLE_BITS] = {0}; /* segment index + 1; 0: empty */
    uint32_t count = 0;
    uint32_t segment_mask = ~((uint32_t)c->params.segment_size - 1);
    unsigned segment_shift = (unsigned)__builtin_ctz((uint32_t)c->params.segment_size);
    for (uint64_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint32_t base = addresses[lane] & segment_mask, offset = addresses[lane] - base;
        uint32_t h = ((base >> segment_shift) * 0x9e3779b1u) >> (32 - TABLE_BITS); /* Fibonacci hashing */
        while (table[h] && segments[table[h] - 1].base != base) h = (h + 1) & ((1u << TABLE_BITS) - 1);
        uint32_t k = table[h] ? table[h] - 1u : count;
        if (k == count) {
            segments[count++] = (segment){base, offset, offset + size, 0};
            table[h] = (uint8_t)count;
        }
        segment *s = &segments[k];
        s->lanes |= 1ull << lane;
        if (offset < s->first) s->first = offset;
        if (offset + size > s->end) s->end = offset + size;
    }
    return count;
}

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
CYCLE_STEP warp_access whole_warp_access(const simt_core *c, rv_class cls, unsigned size, uint32_t lowest, uint32_t highest,
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

/* The little-endian value at `address` of the argument block, truncated
 * at its end. */
static uint32_t read_argument(const simt_launch *l, uint32_t address, unsigned size)
{
    uint32_t at = address - l->args_address;
    return read_bytes(l->args + at, size <= l->args_size - at ? size : l->args_size - at);
}

/* Executes a load of the whole warp from the argument block (its rd's
 * uniform bit already clear); addresses: the lanes', read only when
 * lowest != highest. */
CYCLE_STEP void load_arguments(simt_core *c, warp *w, const kernel_insn *k, uint64_t mask, const uint32_t *addresses,
                               uint32_t lowest, uint32_t highest, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    unsigned size = rv_access_size(op);
    if (k->insn.rd && lowest == highest) {
        fill_lanes(c, reg(c, w, k->insn.rd), mask, rv_extend_load(op, read_argument(c->launch, lowest, size)));
        if (mask == c->full_mask) w->uniform_registers |= 1u << k->insn.rd;
    } else if (k->insn.rd) {
        uint32_t *rd = reg(c, w, k->insn.rd);
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            rd[lane] = rv_extend_load(op, read_argument(c->launch, addresses[lane], size));
        }
    }
    c->stats.constant_loads++;
    if (k->insn.rd) w->register_ready[k->insn.rd] = now + (uint64_t)c->params.constant_latency; /* at least 1 */
    c->ldst_free_cycle = now + 1;
}

/* What issuing an instruction did: executed it, found a structural stall
 * (nothing changed), or failed the run (reported). A result rather than a
 * failure flag set through a pointer, which kept the callers' flags in
 * memory. */
typedef enum issue_result { ISSUE_DONE, ISSUE_STALLED, ISSUE_FAILED } issue_result;

/* Whether a global access's responses write registers (or the reservation),
 * so read the lanes' addresses that its pending entry keeps. */
static bool response_reads_lanes(rv_class cls, rv_op op, unsigned rd)
{
    return cls != RV_CLASS_STORE && (rd || op == RV_LR);
}

/* Executes a load, store or atomic (or stalls without changing any state). */
static issue_result execute_memory(simt_core *c, warp *w, uint32_t warp_index, const kernel_insn *k, uint32_t pc,
                                   uint64_t mask, uint64_t now)
{
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    unsigned size = rv_access_size(op);
    uint32_t addresses[MAX_LANES];
    uint64_t global_mask = 0;
    const uint32_t *base = reg(c, w, k->insn.rs1);
    int32_t offset = cls == RV_CLASS_ATOMIC ? 0 : k->insn.imm;
    bool transactional = in_transaction(w);
    uint32_t lowest = UINT32_MAX, highest = 0, address_bits = 0;
    uint32_t lanes = c->lanes; /* a local: the stores below cannot change it */
    bool contiguous = false; /* every lane, a word each, lane l at addresses[0] + 4 l */
    bool uniform_base = (w->uniform_registers >> k->insn.rs1) & 1;
    /* Loads write rd (set again below for an argument the whole warp reads). */
    if (cls != RV_CLASS_STORE) w->uniform_registers &= ~(1u << k->insn.rd);
    if (uniform_base) { /* one address for the warp (the lanes' copies are made below, if needed) */
        lowest = highest = address_bits = base[0] + (uint32_t)offset;
    } else if (mask == c->full_mask) { /* every lane: plain loops */
        /* The usual pattern first, which gives the lowest and highest
         * address without comparing (SSE2 has no unsigned vector minimum):
         * lane l at addresses[0] + 4 l. The addresses are made in the same
         * pass. (One address for the warp mostly comes from a register
         * known to be uniform, above; the comparisons find the others.) */
        uint32_t first = base[0] + (uint32_t)offset, last_of_run = first + 4 * (lanes - 1);
        uint32_t off_stride_bits = 0;
#define FULL_WARP_ADDRESSES(COUNT)                                                                     \
    for (uint32_t lane = 0; lane < (COUNT); lane++) {                                                  \
        uint32_t address = base[lane] + (uint32_t)offset;                                              \
        addresses[lane] = address;                                                                     \
        off_stride_bits |= address ^ (first + (lane << 2)); /* a shift: SSE2 has no 32-bit multiply */ \
    }
        if (lanes == 32) FULL_WARP_ADDRESSES(32) /* the usual warp: a loop of known count, unrolled */
        else FULL_WARP_ADDRESSES(lanes)
#undef FULL_WARP_ADDRESSES
        if (!off_stride_bits && last_of_run > first) { /* not wrapping around */
            address_bits = first; /* as aligned as the others (4 l adds no low bits) */
            lowest = first;
            highest = last_of_run;
            contiguous = size == 4;
        } else {
            for (uint32_t lane = 0; lane < c->lanes; lane++) {
                lowest = addresses[lane] < lowest ? addresses[lane] : lowest;
                highest = addresses[lane] > highest ? addresses[lane] : highest;
                address_bits |= addresses[lane];
            }
        }
    } else {
        for (uint32_t lane = 0; lane < lanes; lane++) addresses[lane] = base[lane] + (uint32_t)offset; /* inactive lanes too: a plain loop */
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t address = addresses[__builtin_ctzll(m)];
            lowest = address < lowest ? address : lowest;
            highest = address > highest ? address : highest;
            address_bits |= address;
        }
    }
    warp_access access = whole_warp_access(c, cls, size, lowest, highest, address_bits);
    if (access == ACCESS_ARGUMENTS) {
        /* Kernel parameters: read-only, served by the core like a constant
         * cache (CUDA's parameter space); usually one address for the warp,
         * read once. Nothing below applies to them. */
        load_arguments(c, w, k, mask, addresses, lowest, highest, now);
        return ISSUE_DONE;
    }
    if (uniform_base) fill_lanes(c, addresses, c->full_mask, lowest);
    if (access == ACCESS_MEMORY) global_mask = mask;
    for (uint64_t m = access == ACCESS_LANE_BY_LANE ? mask : 0; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint32_t address = addresses[lane];
        rv_window window = rv_window_of(address);
        char where[320];
        if (transactional &&
            (window == RV_WINDOW_NONE || rv_window_of(address + size - 1) != window ||
             (window == RV_WINDOW_CODE && cls != RV_CLASS_LOAD) || (address & (size - 1)))) {
            /* A doomed transaction (it read inconsistent data) may compute
             * any address: abort it rather than fail the run. */
            w->tx->abort_requested = true;
            w->tx->abort_cause = ABORT_FAULT;
            w->tx->fault_pc = pc;
            return ISSUE_DONE;
        }
        if (window == RV_WINDOW_NONE || rv_window_of(address + size - 1) != window ||
            (window == RV_WINDOW_CODE && cls != RV_CLASS_LOAD)) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "%s of %u bytes at 0x%08x (thread lane %u) lies outside every window it may use, at %s",
                 cls == RV_CLASS_LOAD ? "load" : cls == RV_CLASS_STORE ? "store" : "atomic", size, address, lane, where);
            return ISSUE_FAILED;
        }
        if (address & (size - 1)) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "misaligned %u-byte access at 0x%08x (lane %u) at %s", size, address, lane, where);
            return ISSUE_FAILED;
        }
        if (address - c->launch->args_address < c->launch->args_size) {
            /* The argument block: read-only, served by the core like a
             * constant cache (CUDA's parameter space). */
            if (cls != RV_CLASS_LOAD) {
                describe(c, w, pc, where, sizeof where);
                fail(c, "%s to the kernel's argument block at 0x%08x (lane %u; it is read-only) at %s",
                     cls == RV_CLASS_STORE ? "store" : "atomic", address, lane, where);
                return ISSUE_FAILED;
            }
            continue;
        }
        if (window == RV_WINDOW_GLOBAL || window == RV_WINDOW_PERSISTENT) global_mask |= 1ull << lane;
    }
    uint64_t failed_sc = 0; /* sc lanes without a matching reservation: fail without an access */
    if (op == RV_SC) {
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            if (!((w->reserved >> lane) & 1) || w->reserved_address[lane] != addresses[lane]) failed_sc |= 1ull << lane;
        }
        global_mask &= ~failed_sc;
    }
    /* Inside a transaction (lazy versioning): stores go to the lane's write
     * log; loads of words the lane wrote or read already are served from
     * its logs; other loads go to memory and are logged on return. */
    uint64_t tx_served = 0;
    if (global_mask && transactional) {
        char where[320];
        if (cls == RV_CLASS_ATOMIC) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "atomic inside a transaction at %s: not supported (use plain loads and stores)", where);
            return ISSUE_FAILED;
        }
        uint32_t *load_rd = reg(c, w, k->insn.rd);
        const uint32_t *store_data = reg(c, w, k->insn.rs2);
        for (uint64_t m = global_mask; m; m &= m - 1) {
            uint32_t lane_index = (uint32_t)__builtin_ctzll(m);
            tx_lane *lane = &w->tx->lane[lane_index];
            uint32_t word = addresses[lane_index] & ~3u, shift = (addresses[lane_index] & 3u) * 8;
            tm_entry *written = log_find(&lane->writes, word);
            if (cls == RV_CLASS_LOAD) {
                tm_entry *seen = written ? written : log_find(&lane->reads, word);
                if (!seen) continue;
                if (k->insn.rd) load_rd[lane_index] = rv_extend_load(op, seen->value >> shift);
            } else {
                uint32_t value = store_data[lane_index];
                if (size < 4) {
                    const tm_entry *base_word = written ? written : log_find(&lane->reads, word);
                    if (!base_word) {
                        describe(c, w, pc, where, sizeof where);
                        fail(c, "%u-byte transactional store to 0x%08x (lane %u) to a word the transaction neither read nor wrote: not supported, at %s",
                             size, addresses[lane_index], lane_index, where);
                        return ISSUE_FAILED;
                    }
                    uint32_t byte_mask = (size == 1 ? 0xffu : 0xffffu) << shift;
                    value = (base_word->value & ~byte_mask) | ((value << shift) & byte_mask);
                }
                if (written) written->value = value;
                else if (!log_append(c, &lane->writes, word, value)) {
                    return ISSUE_FAILED;
                }
            }
            tx_served |= 1ull << lane_index;
        }
        global_mask &= ~tx_served;
    }
    segment segments[MAX_LANES];
    uint32_t segment_mask = ~((uint32_t)c->params.segment_size - 1);
    uint32_t messages;
    if (!global_mask) {
        messages = 0;
    } else if (cls == RV_CLASS_ATOMIC) {
        messages = (uint32_t)__builtin_popcountll(global_mask); /* one request per lane */
    } else if (global_mask == mask && (lowest & segment_mask) == (highest & segment_mask)) {
        /* The usual coalesced access: every lane in one segment. */
        uint32_t segment_base = lowest & segment_mask;
        segments[0] = (segment){segment_base, lowest - segment_base, highest + size - segment_base, mask};
        messages = 1;
    } else {
        messages = coalesce(c, addresses, global_mask, size, segments);
    }
    if (messages && (!c->free_pending_count || c->requests.capacity - c->requests.length < messages)) return ISSUE_STALLED;

    uint32_t *rd = reg(c, w, k->insn.rd);
    const uint32_t *data = reg(c, w, k->insn.rs2);
    uint64_t ready = now + 1;
    uint64_t ldst_cycles = 1;
    /* Shared, local and code-window lanes are served inside the core. */
    uint64_t local_mask = mask & ~global_mask & ~failed_sc & ~tx_served;
    if (tx_served) ready = now + (uint64_t)c->params.local_latency; /* the logs live in local memory */
    for (uint64_t m = failed_sc; m; m &= m - 1)
        if (k->insn.rd) rd[__builtin_ctzll(m)] = 1;
    if (local_mask) {
        const cta_slot *cta = &c->ctas[w->cta_slot];
        uint32_t banks = (uint32_t)c->params.shared_banks;
        /* Distinct words touched and how many fall on each bank (at most
         * 64 words: count by comparing banks instead of clearing a table). */
        uint32_t bank_words[MAX_LANES], word_banks[MAX_LANES];
        uint32_t distinct = 0, worst = 1;
        bool any_shared = false, any_local = false, any_code = false;
        for (uint64_t m = local_mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctzll(m);
            uint32_t address = addresses[lane];
            rv_window window = rv_window_of(address);
            uint8_t *bytes = NULL;
            uint32_t undo_offset = UINT32_MAX;
            char where[320];
            if (window == RV_WINDOW_SHARED) {
                uint32_t shared_offset = address - RV_SHARED_BASE;
                if (shared_offset + size > c->launch->shared_bytes) {
                    describe(c, w, pc, where, sizeof where);
                    fail(c, "shared-memory access at 0x%08x (lane %u) beyond the CTA's %u bytes, at %s", address, lane,
                         c->launch->shared_bytes, where);
                    return ISSUE_FAILED;
                }
                bytes = c->shared + cta->shared_offset + shared_offset;
                any_shared = true;
                /* Bank conflicts: distinct words mapping to one bank serialise. */
                uint32_t word = shared_offset >> 2, k2 = 0;
                while (k2 < distinct && bank_words[k2] != word) k2++;
                if (k2 == distinct) {
                    uint32_t bank = word % banks, same = 1;
                    for (uint32_t j = 0; j < distinct; j++) same += word_banks[j] == bank;
                    bank_words[distinct] = word;
                    word_banks[distinct++] = bank;
                    if (same > worst) worst = same;
                }
            } else if (window == RV_WINDOW_LOCAL) {
                uint32_t local_offset = address - RV_LOCAL_BASE;
                if (local_offset + size > (uint32_t)c->params.local_memory) {
                    describe(c, w, pc, where, sizeof where);
                    fail(c, "local-memory access at 0x%08x (lane %u) beyond the thread's %" PRId64 " bytes (stack overflow?), at %s",
                         address, lane, c->params.local_memory, where);
                    return ISSUE_FAILED;
                }
                if (!w->local) {
                    w->local = calloc((size_t)c->lanes, (size_t)c->params.local_memory);
                    if (!w->local) {
                        fail(c, "out of memory for local memory");
                        return ISSUE_FAILED;
                    }
                }
                bytes = w->local + (size_t)lane * (size_t)c->params.local_memory + local_offset;
                any_local = true;
                if (cls != RV_CLASS_LOAD && transactional) undo_offset = local_offset;
            } else if (address - c->launch->args_address < c->launch->args_size) {
                if (k->insn.rd) rd[lane] = rv_extend_load(op, read_argument(c->launch, address, size));
                any_code = true;
                continue;
            } else { /* code window, loads only */
                uint32_t value = 0;
                if (!kernel_image_read_code(c->launch->image, address, &value, size)) {
                    describe(c, w, pc, where, sizeof where);
                    fail(c, "load at 0x%08x (lane %u) outside the kernel's image in the code window, at %s", address, lane, where);
                    return ISSUE_FAILED;
                }
                if (k->insn.rd) rd[lane] = rv_extend_load(op, value);
                any_code = true;
                continue;
            }
            uint32_t old = 0;
            memcpy(&old, bytes, size);
            /* The private stack is restored if the transaction aborts. */
            if (undo_offset != UINT32_MAX && !undo_append(c, &w->tx->lane[lane], undo_offset, old, size)) {
                return ISSUE_FAILED;
            }
            if (cls == RV_CLASS_LOAD) {
                if (k->insn.rd) rd[lane] = rv_extend_load(op, old);
            } else if (cls == RV_CLASS_STORE) {
                memcpy(bytes, &data[lane], size);
            } else if (op == RV_LR) {
                w->reserved_value[lane] = old;
                if (k->insn.rd) rd[lane] = old;
            } else if (op == RV_SC) {
                bool success = old == w->reserved_value[lane];
                if (success) memcpy(bytes, &data[lane], 4);
                if (k->insn.rd) rd[lane] = success ? 0 : 1;
            } else {
                uint32_t updated = rv_amo_apply(op, old, data[lane]);
                memcpy(bytes, &updated, 4);
                if (k->insn.rd) rd[lane] = old;
            }
        }
        if (any_shared) {
            c->stats.shared_accesses++;
            c->stats.shared_bank_conflict_cycles += worst - 1;
            ldst_cycles = worst;
            ready = now + (uint64_t)c->params.shared_latency + worst - 1;
        }
        if (any_local) {
            c->stats.local_accesses++;
            if (now + (uint64_t)c->params.local_latency > ready) ready = now + (uint64_t)c->params.local_latency;
        }
        if (any_code) {
            c->stats.constant_loads++; /* read-only data and arguments */
            if (now + (uint64_t)c->params.constant_latency > ready) ready = now + (uint64_t)c->params.constant_latency;
        }
    }
    if (messages) {
        uint32_t entry_index = c->free_pending[--c->free_pending_count];
        pending_access *entry = &c->pending[entry_index];
        entry->in_use = true;
        entry->warp = warp_index;
        entry->pc = pc;
        entry->op = (uint8_t)op;
        entry->op_class = (uint8_t)cls;
        entry->rd = k->insn.rd;
        entry->remaining = messages;
        entry->lanes = global_mask;
        entry->transactional = cls == RV_CLASS_LOAD && transactional;
        entry->contiguous = contiguous && op == RV_LW;
        /* Only a response that writes registers reads the addresses (a
         * store's does not), and a contiguous load's follow from its first. */
        if (response_reads_lanes(cls, op, k->insn.rd)) {
            if (entry->contiguous && !entry->transactional) entry->addresses[0] = addresses[0];
            else memcpy(entry->addresses, addresses, sizeof addresses);
        }
        w->pending_memory++;
        if (cls == RV_CLASS_LOAD) c->stats.global_loads++;
        else if (cls == RV_CLASS_STORE) c->stats.global_stores++;
        else c->stats.global_atomics++;
        uint32_t sector = (uint32_t)c->params.sector_size;
        uint64_t atomic_lanes = global_mask; /* the lanes still without a request */
        for (uint32_t s = 0; s < messages; s++) {
            /* Written in place: room for every message was checked above. */
            simtx_msg *msg = msg_queue_push_slot(&c->requests, now + s);
            if (!msg) {
                fail(c, "internal error: memory request %u of %u queued without room", s, messages);
                break;
            }
            uint64_t lanes_of_message;
            if (cls == RV_CLASS_ATOMIC) {
                uint32_t lane = (uint32_t)__builtin_ctzll(atomic_lanes);
                atomic_lanes &= atomic_lanes - 1;
                if (op == RV_LR) {
                    simtx_msg_init(msg, SIMTX_OP_READ, addresses[lane], 4);
                } else {
                    simtx_msg_init(msg, SIMTX_OP_ATOMIC, addresses[lane], 4);
                    msg->atomic_op = (uint8_t)(op == RV_SC ? SIMTX_ATOMIC_CAS : atomic_code(op));
                    memcpy(msg->data, &data[lane], 4);
                    if (op == RV_SC) msg->aux = entry->expected[lane] = w->reserved_value[lane];
                }
                lanes_of_message = 1ull << lane;
            } else {
                lanes_of_message = segments[s].lanes;
                uint32_t first = segments[s].first / sector * sector;
                uint32_t last = (segments[s].end + sector - 1) / sector * sector;
                simtx_msg_init(msg, cls == RV_CLASS_LOAD ? SIMTX_OP_READ : SIMTX_OP_WRITE, segments[s].base + first, last - first);
                if (cls == RV_CLASS_STORE) {
                    msg->byte_enable[0] = msg->byte_enable[1] = 0;
                    memset(msg->data, 0, msg->size);
                    if (contiguous) { /* the message's lanes are one run of words: one copy */
                        uint32_t lane = (uint32_t)__builtin_ctzll(lanes_of_message);
                        uint32_t o = addresses[lane] - (uint32_t)msg->address, bytes = lane_run(lanes_of_message) * 4;
                        memcpy(msg->data + o, &data[lane], bytes);
                        simtx_msg_enable_bytes(msg, o, bytes);
                    }
                    for (uint64_t m = contiguous ? 0 : lanes_of_message; m; m &= m - 1) {
                        uint32_t lane = (uint32_t)__builtin_ctzll(m);
                        uint32_t o = addresses[lane] - (uint32_t)msg->address;
                        if (size == 4) memcpy(msg->data + o, &data[lane], 4);
                        else memcpy(msg->data + o, &data[lane], size);
                        /* aligned, so within one enable word */
                        msg->byte_enable[o >> 6] |= ((1ull << size) - 1) << (o & 63);
                    }
                }
            }
            msg->lane_mask = lanes_of_message;
            msg->core = (int32_t)c->params.core_id;
            msg->warp = (int32_t)warp_index;
            msg->cta = (int32_t)w->cta_slot;
            msg->id = entry_index;
            c->stats.memory_requests++;
        }
        if (messages > ldst_cycles) ldst_cycles = messages;
        if (cls != RV_CLASS_STORE && k->insn.rd) w->register_ready[k->insn.rd] = UINT64_MAX;
    }
    if (cls != RV_CLASS_STORE && k->insn.rd && !(messages)) w->register_ready[k->insn.rd] = ready;
    if (op == RV_LR) { /* the value arrives with the response (or was read above) */
        w->reserved |= mask;
        for (uint64_t m = mask; m; m &= m - 1) w->reserved_address[__builtin_ctzll(m)] = addresses[__builtin_ctzll(m)];
    } else if (op == RV_SC) {
        w->reserved &= ~mask;
    }
    c->ldst_free_cycle = now + ldst_cycles;
    return ISSUE_DONE;
}

/* Whether warp_ready() could register a warp as waiting for request room
 * or a transaction token (the only state it leaves for later cycles that a
 * set_hot of the warp does not). */
static inline bool decode_may_register_waiter(const simt_core *c)
{
    return !c->free_pending_count || c->requests.capacity - c->requests.length < c->lanes ||
           (c->params.tm_warp_tokens && c->tm_tokens_used >= (uint32_t)c->params.tm_warp_tokens);
}

/* Whether a due warp's next instruction may issue now; sets why not. A
 * ready warp's decoded instruction goes to *insn, for issue() (NULL: an
 * abort is due, or the pc is outside the text). */
CYCLE_STEP bool warp_ready(simt_core *c, uint32_t warp_index, uint64_t now, stall_reason *why, uint64_t *when,
                           const kernel_insn **insn)
{
    warp *w = &c->warps[warp_index];
    if (w->at_barrier) {
        *why = STALL_BARRIER;
        return false;
    }
    if (w->tx && w->tx->phase != TX_IDLE) {
        tx_warp *tx = w->tx;
        if (tx->phase != TX_RUNNING) { /* the commit units answer */
            *why = STALL_MEMORY;
            set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
            return false;
        }
        if (!tx->abort_requested && tx->timeout && now - tx->attempt_start > tx->timeout) {
            tx->abort_requested = true;
            tx->abort_cause = ABORT_TIMEOUT;
        }
        if (tx->abort_requested) { /* roll back once no access of the attempt is in flight */
            if (w->pending_memory) {
                *why = STALL_MEMORY;
                return false;
            }
            *insn = NULL;
            return true;
        }
    }
    if (w->next_issue > now) {
        *why = STALL_PIPELINE;
        if (w->next_issue < *when) *when = w->next_issue;
        set_hot(c, warp_index, w->next_issue, STALL_PIPELINE);
        return false;
    }
    const stack_entry *top = &w->stack[w->depth - 1];
    const kernel_insn *k = kernel_image_insn(c->image, top->pc);
    *insn = k;
    if (!k) return true; /* executing it reports the error */
    uint64_t need = w->register_ready[k->insn.rs1];
    if (w->register_ready[k->insn.rs2] > need) need = w->register_ready[k->insn.rs2];
    if (w->register_ready[k->insn.rd] > need) need = w->register_ready[k->insn.rd];
    if (need > now) {
        *why = STALL_SCOREBOARD;
        if (need < *when) *when = need;
        set_hot(c, warp_index, need, STALL_SCOREBOARD); /* a returning load resets it */
        return false;
    }
    rv_class cls = (rv_class)k->op_class;
    /* Only these classes wait for anything more (tx_begin and sc included). */
    const uint32_t gated = 1u << RV_CLASS_LOAD | 1u << RV_CLASS_STORE | 1u << RV_CLASS_ATOMIC | 1u << RV_CLASS_BARRIER |
                           1u << RV_CLASS_FENCE | 1u << RV_CLASS_TX;
    if (!((gated >> cls) & 1)) return true;
    if (k->insn.op == RV_TX_BEGIN && !in_transaction(w) && c->params.tm_warp_tokens &&
        c->tm_tokens_used >= (uint32_t)c->params.tm_warp_tokens) {
        /* No transactional-warp token: sleep until a transaction ends. */
        *why = STALL_MEMORY;
        set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
        if (!w->waiting_token) {
            w->waiting_token = true;
            c->token_waiters++;
            c->tm_stats.tm_token_stalls++;
        }
        return false;
    }
    if (cls == RV_CLASS_LOAD || cls == RV_CLASS_STORE || cls == RV_CLASS_ATOMIC) {
        /* Room for the worst case (one request per lane): otherwise sleep
         * until a response or the socket frees room. */
        if (!c->free_pending_count || c->requests.capacity - c->requests.length < c->lanes) {
            /* Sleep until room frees: release_room_waiter() wakes one
             * waiter per freed entry, so stalled warps are not re-decoded
             * every cycle. */
            *why = STALL_MEMORY;
            set_hot(c, warp_index, UINT64_MAX, STALL_MEMORY);
            warp_set_add(c->room_waiters, warp_index);
            c->room_waiter_count++;
            return false;
        }
        if (c->ldst_free_cycle > now) {
            *why = STALL_MEMORY;
            if (c->ldst_free_cycle < *when) *when = c->ldst_free_cycle;
            return false;
        }
    }
    if (cls == RV_CLASS_BARRIER || cls == RV_CLASS_FENCE || cls == RV_CLASS_TX || k->insn.op == RV_SC) {
        /* Barriers and fences order the warp's memory accesses; sc needs the
         * value its lr read; tx_begin checkpoints registers that loads in
         * flight would still change, tx_commit sends logs those loads fill. */
        if (w->pending_memory) {
            *why = STALL_MEMORY;
            return false;
        }
    }
    return true;
}

static void trace_instruction(simt_core *c, const warp *w, uint32_t warp_index, uint32_t pc, uint64_t mask, uint64_t now)
{
    if (c->params.trace_warp >= 0 && (uint32_t)c->params.trace_warp != warp_index) return;
    char where[200];
    kernel_image_describe_pc(c->launch->image, pc, where, sizeof where);
    fprintf(c->trace, "%" PRIu64 " core %" PRId64 " warp %u cta %u mask %016" PRIx64 " %s\n", now, c->params.core_id, warp_index,
            w->cta_slot, mask, where);
}

/* rd = op(a, b) on every lane of a full warp, b a register. The common
 * ops get a loop each, in which rv_compute's switch folds away (the loop
 * vectorises); lane by lane, rd may be a or b. */
#define FULL_WARP_LOOP(OP, B) for (uint32_t l = 0; l < lanes; l++) rd[l] = rv_compute(OP, a[l], B)
static void compute_full_warp(rv_op op, const uint32_t *a, const uint32_t *b, uint32_t *rd, uint32_t lanes)
{
#define LANES_OF(OP) case OP: FULL_WARP_LOOP(OP, b[l]); break;
    switch (op) {
    LANES_OF(RV_ADD) LANES_OF(RV_SUB) LANES_OF(RV_MUL) LANES_OF(RV_SLL) LANES_OF(RV_SRL) LANES_OF(RV_SRA)
    LANES_OF(RV_AND) LANES_OF(RV_OR) LANES_OF(RV_XOR) LANES_OF(RV_SLT) LANES_OF(RV_SLTU)
    default: FULL_WARP_LOOP(op, b[l]);
    }
#undef LANES_OF
}

/* The same with an immediate: one b for every lane, so that shifts by it
 * vectorise too (SSE2 has no per-lane shift count). */
static void compute_full_warp_immediate(rv_op op, const uint32_t *a, uint32_t b, uint32_t *rd, uint32_t lanes)
{
#define LANES_OF(OP) case OP: FULL_WARP_LOOP(OP, b); break;
    switch (op) {
    LANES_OF(RV_ADDI) LANES_OF(RV_SLLI) LANES_OF(RV_SRLI) LANES_OF(RV_SRAI) LANES_OF(RV_ANDI) LANES_OF(RV_ORI)
    LANES_OF(RV_XORI) LANES_OF(RV_SLTI) LANES_OF(RV_SLTIU)
    default: FULL_WARP_LOOP(op, b);
    }
#undef LANES_OF
}
#undef FULL_WARP_LOOP

/* The lanes of mask that take a conditional branch: a loop per op, so the
 * comparison is not decoded again for every lane. A full warp first takes
 * a plain (vectorised) loop that finds whether its lanes agree, as they
 * mostly do; only a divergent one is gathered lane by lane. */
static uint64_t taken_lanes(rv_op op, const uint32_t *a, const uint32_t *b, uint64_t mask, uint64_t full_mask, uint32_t lanes)
{
    uint64_t taken = 0;
#define TAKEN_LANES(OP)                                                              \
    case OP:                                                                          \
        if (mask == full_mask) {                                                      \
            uint32_t any = 0, all = 1;                                                \
            for (uint32_t l = 0; l < lanes; l++) {                                    \
                uint32_t lane_taken = rv_branch_taken(OP, a[l], b[l]);                \
                any |= lane_taken;                                                    \
                all &= lane_taken;                                                    \
            }                                                                         \
            if (!any || all) return all ? mask : 0;                                   \
        }                                                                             \
        for (uint64_t m = mask; m; m &= m - 1) {                                      \
            uint32_t l = (uint32_t)__builtin_ctzll(m);                                \
            taken |= (uint64_t)rv_branch_taken(OP, a[l], b[l]) << l;                  \
        }                                                                             \
        break;
    switch (op) {
    TAKEN_LANES(RV_BEQ) TAKEN_LANES(RV_BNE) TAKEN_LANES(RV_BLT) TAKEN_LANES(RV_BGE) TAKEN_LANES(RV_BLTU) TAKEN_LANES(RV_BGEU)
    default: break; /* not a branch: never taken */
    }
#undef TAKEN_LANES
    return taken;
}

/* Issues the warp's next instruction, k as warp_ready() decoded it:
 * executes it on every active lane and updates the SIMT stack, unless a
 * structural stall or a failure (reported) stops it. */
CYCLE_STEP issue_result issue(simt_core *c, uint32_t warp_index, const kernel_insn *k, uint64_t now)
{
    warp *w = &c->warps[warp_index];
    stack_entry *top = &w->stack[w->depth - 1];
    uint32_t pc = top->pc;
    uint64_t mask = top->mask;
    if (w->tx && w->tx->phase == TX_RUNNING && w->tx->abort_requested) {
        abort_attempt(c, w, warp_index, now);
        return ISSUE_DONE;
    }
    char where[320];
    if (!k && in_transaction(w)) { /* a doomed transaction jumped anywhere */
        w->tx->abort_requested = true;
        w->tx->abort_cause = ABORT_FAULT;
        w->tx->fault_pc = w->tx->begin_pc;
        return ISSUE_DONE;
    }
    if (!k) {
        describe(c, w, pc, where, sizeof where);
        fail(c, "jumped outside the kernel's text: %s", where);
        return ISSUE_FAILED;
    }
    rv_op op = (rv_op)k->insn.op;
    rv_class cls = (rv_class)k->op_class;
    unsigned rd_index = k->insn.rd;
    /* The operands' lanes, the latency and the next pc are made after the
     * calls of the memory path: made before, they would live across them
     * (stack traffic). */
    if (cls == RV_CLASS_LOAD && c->params.tm_tcd && w->tx && w->tx->phase == TX_RUNNING && need_block_queries(c, w, warp_index, k, mask))
        return ISSUE_DONE; /* the load waits for its blocks' last-written times */
    bool memory = cls == RV_CLASS_LOAD || cls == RV_CLASS_STORE || cls == RV_CLASS_ATOMIC;
    if (memory) {
        /* An argument the whole warp loads from one address (a uniform base
         * register: 57% of vector add's memory instructions) is served here,
         * without the memory path's call. */
        uint32_t uniform_address = reg(c, w, k->insn.rs1)[0] + (uint32_t)k->insn.imm;
        if (cls == RV_CLASS_LOAD && ((w->uniform_registers >> k->insn.rs1) & 1) &&
            whole_warp_access(c, cls, rv_access_size(op), uniform_address, uniform_address, uniform_address) == ACCESS_ARGUMENTS) {
            w->uniform_registers &= ~(1u << rd_index);
            load_arguments(c, w, k, mask, NULL, uniform_address, uniform_address, now);
        } else {
            issue_result result = execute_memory(c, w, warp_index, k, pc, mask, now);
            if (result != ISSUE_DONE) return result;
        }
    }
    uint64_t latency = memory ? 0 : (uint64_t)c->params.alu_latency; /* execute_memory sets its own */
    uint32_t next_pc = pc + 4;
    if (c->trace) trace_instruction(c, w, warp_index, pc, mask, now);
    c->stats.warp_instructions++;
    /* A full warp needs no count (popcount is a library call on baseline x86-64). */
    unsigned active = mask == c->full_mask ? c->lanes : (unsigned)__builtin_popcountll(mask);
    c->stats.thread_instructions += active;
    c->stats.issues_by_active_lanes[active]++;
    if (in_transaction(w)) w->tx->attempt_instructions += active;
    w->next_issue = now + 1;
    switch (cls) {
    case RV_CLASS_ALU:
    case RV_CLASS_MUL:
    case RV_CLASS_DIV: {
        if (cls == RV_CLASS_MUL) latency = (uint64_t)c->params.mul_latency;
        if (cls == RV_CLASS_DIV) latency = (uint64_t)c->params.div_latency;
        if (!rd_index) break;
        bool immediate = (k->insn.raw & 0x7f) == 0x13;
        uint32_t *rd = reg(c, w, rd_index);
        const uint32_t *a = reg(c, w, k->insn.rs1), *b = reg(c, w, k->insn.rs2);
        w->uniform_registers &= ~(1u << rd_index); /* not followed through ALU ops: each would pay for it */
        if (op == RV_LUI || op == RV_AUIPC) {
            uint32_t value = (uint32_t)k->insn.imm + (op == RV_AUIPC ? pc : 0);
            fill_lanes(c, rd, mask, value);
        } else if (mask == c->full_mask) {
            if (immediate) compute_full_warp_immediate(op, a, (uint32_t)k->insn.imm, rd, c->lanes);
            else compute_full_warp(op, a, b, rd, c->lanes);
        } else {
            for (uint64_t m = mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                rd[l] = rv_compute(op, a[l], immediate ? (uint32_t)k->insn.imm : b[l]);
            }
        }
        break;
    }
    case RV_CLASS_CSR:
        w->uniform_registers &= ~(1u << rd_index);
        if (!read_csr(c, w, (unsigned)k->insn.imm, mask, rd_index ? reg(c, w, rd_index) : NULL)) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "read of unknown CSR 0x%x at %s", (unsigned)k->insn.imm, where);
            return ISSUE_FAILED;
        }
        break;
    case RV_CLASS_BRANCH: {
        uint64_t taken = taken_lanes(op, reg(c, w, k->insn.rs1), reg(c, w, k->insn.rs2), mask, c->full_mask, c->lanes);
        w->next_issue = now + (uint64_t)c->params.branch_latency;
        if (taken == mask) next_pc = k->target;
        else if (taken) {
            uint64_t not_taken = mask & ~taken;
            c->stats.divergent_branches++;
            top->pc = k->reconverge;
            if (!push_entry(c, w, pc + 4, k->reconverge, not_taken, false) ||
                !push_entry(c, w, k->target, k->reconverge, taken, false)) {
                return ISSUE_FAILED;
            }
            reconverge(c, w, warp_index, now);
            return ISSUE_DONE;
        }
        break;
    }
    case RV_CLASS_JUMP:
        w->next_issue = now + (uint64_t)c->params.branch_latency;
        if (k->flow != KERNEL_FLOW_RETURN && rd_index) {
            fill_lanes(c, reg(c, w, rd_index), mask, pc + 4);
            w->uniform_registers &= ~(1u << rd_index);
        }
        switch ((kernel_flow)k->flow) {
        case KERNEL_FLOW_JUMP: next_pc = k->target; break;
        case KERNEL_FLOW_CALL:
            top->pc = pc + 4;
            if (!push_entry(c, w, k->target, KERNEL_EXIT_PC, mask, true)) return ISSUE_FAILED;
            w->register_ready[rd_index] = now + latency;
            return ISSUE_DONE;
        case KERNEL_FLOW_TAIL_CALL:
            top->pc = KERNEL_EXIT_PC;
            return push_entry(c, w, k->target, KERNEL_EXIT_PC, mask, true) ? ISSUE_DONE : ISSUE_FAILED;
        case KERNEL_FLOW_RETURN:
            top->pc = KERNEL_EXIT_PC;
            reconverge(c, w, warp_index, now);
            return ISSUE_DONE;
        default:
            describe(c, w, pc, where, sizeof where);
            fail(c, "unresolved jump at %s", where);
            return ISSUE_FAILED;
        }
        break;
    case RV_CLASS_LOAD: case RV_CLASS_STORE: case RV_CLASS_ATOMIC: case RV_CLASS_FENCE:
        break;
    case RV_CLASS_TX:
        if (op == RV_TX_BEGIN) {
            if (in_transaction(w)) { /* nested: flattened */
                for (uint64_t m = mask; m; m &= m - 1) w->tx->lane[__builtin_ctzll(m)].depth++;
                break;
            }
            return begin_transaction(c, w, warp_index, k, pc, mask, now) ? ISSUE_DONE : ISSUE_FAILED;
        } else {
            uint64_t outer = 0;
            if (in_transaction(w))
                for (uint64_t m = mask; m; m &= m - 1)
                    if (w->tx->lane[__builtin_ctzll(m)].depth == 1) outer |= 1ull << __builtin_ctzll(m);
            if (!in_transaction(w) || (outer && (outer != mask || top->kind != ENTRY_TRANSACTION || top->mask != mask))) {
                describe(c, w, pc, where, sizeof where);
                fail(c, "%s at %s", in_transaction(w) ? "tx_commit reached by only part of its transaction's lanes"
                                                      : "tx_commit outside a transaction", where);
                return ISSUE_FAILED;
            }
            if (!outer) { /* the end of a nested transaction */
                for (uint64_t m = mask; m; m &= m - 1) {
                    uint32_t l = (uint32_t)__builtin_ctzll(m);
                    w->tx->lane[l].depth--;
                    if (rd_index) reg(c, w, rd_index)[l] = 1;
                }
                w->uniform_registers &= ~(1u << rd_index);
                break;
            }
            start_commit(c, w, warp_index, rd_index, mask, now);
            return ISSUE_DONE;
        }
    case RV_CLASS_BARRIER: {
        if (in_transaction(w)) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "barrier inside a transaction at %s (it could wait for lanes that retry forever)", where);
            return ISSUE_FAILED;
        }
        cta_slot *cta = &c->ctas[w->cta_slot];
        top->pc = next_pc;
        w->at_barrier = true;
        set_hot(c, warp_index, UINT64_MAX, STALL_BARRIER);
        cta->barrier_arrived++;
        check_barrier(c, w->cta_slot);
        break;
    }
    case RV_CLASS_EXIT:
        if (in_transaction(w)) {
            describe(c, w, pc, where, sizeof where);
            fail(c, "thread exit inside a transaction at %s", where);
            return ISSUE_FAILED;
        }
        /* The lanes leave every entry; the warp ends when no lane is left. */
        for (uint32_t e = 0; e < w->depth; e++) w->stack[e].mask &= ~mask;
        reconverge(c, w, warp_index, now);
        return ISSUE_DONE;
    default:
        describe(c, w, pc, where, sizeof where);
        fail(c, "%s at %s", op == RV_ECALL ? "ecall (system calls are not supported)"
                            : op == RV_EBREAK ? "ebreak" : "illegal instruction", where);
        return ISSUE_FAILED;
    }
    if (rd_index && latency) w->register_ready[rd_index] = now + latency;
    top->pc = next_pc;
    if (top->pc == top->reconverge) reconverge(c, w, warp_index, now);
    return ISSUE_DONE;
}

/* A pending entry or queue room freed: the oldest warp waiting for room
 * may try again (what GTO would pick; LRR sees the same order). Callers
 * check that one waits (mostly none does: no call). */
static void release_room_waiter(simt_core *c)
{
    uint32_t chosen = NO_SLOT;
    for (uint32_t word = 0; word < c->warp_set_words; word++)
        for (uint64_t bits = c->room_waiters[word]; bits; bits &= bits - 1) {
            uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
            if (chosen == NO_SLOT || c->warps[i].age < c->warps[chosen].age) chosen = i;
        }
    warp_set_remove(c->room_waiters, chosen);
    c->room_waiter_count--;
    set_hot(c, chosen, 0, STALL_NONE);
}

/* Sends queued requests while the socket takes them. */
static void send_queued_requests(simt_core *c, uint64_t now)
{
    tm_queue *q = &c->tm_out;
    while (!c->port_blocked && q->length) {
        if (!c->env.send(c->env.context, MEMORY_PORT, &q->messages[q->head])) {
            c->port_blocked = true;
            return;
        }
        q->head = (q->head + 1) % q->capacity;
        q->length--;
    }
    while (!c->port_blocked && !msg_queue_empty(&c->requests) && msg_queue_front_ready(&c->requests) <= now) {
        if (!c->env.send(c->env.context, MEMORY_PORT, msg_queue_front(&c->requests))) {
            c->port_blocked = true;
            return;
        }
        msg_queue_pop(&c->requests);
        if (c->room_waiter_count) release_room_waiter(c);
    }
}

/* The usual case inline: nothing queued (most cycles), or the port blocked. */
static inline void drain_requests(simt_core *c, uint64_t now)
{
    if (!c->port_blocked && (c->tm_out.length || !msg_queue_empty(&c->requests))) send_queued_requests(c, now);
}

static uint64_t simt_core_cycle(void *core, uint64_t now)
{
    simt_core *c = core;
    if (!c->launch) return SIMTX_NEVER;
    /* Account the cycles slept since the last tick to the reason it slept. */
    if (now > c->last_tick + 1 && c->last_stall != STALL_NONE && c->free_warps < (uint32_t)c->params.warps)
        c->stats.stall_cycles[c->last_stall] += now - c->last_tick - 1;
    c->last_tick = now;
    c->stats.ticks++;
    bool dispatched = c->cta_may_fit && dispatch_cta(c, now);
    /* The earliest cycle something can change (an issue, a latency, a
     * conflict check's end): the cycle only lowers it. */
    uint64_t wake = c->conflict_checks ? finish_conflict_checks(c, now) : SIMTX_NEVER;
    drain_requests(c, now);
    unsigned issued = 0;
    stall_reason worst = STALL_IDLE;
    uint32_t schedulers = (uint32_t)c->params.schedulers;
    if (c->earliest_waiting <= now) promote_due_warps(c, now);
    /* No due warp (all wait for memory, say): no scheduler has a choice, skip them. */
    uint64_t any_due = 0;
    for (uint32_t word = 0; word < c->warp_set_words; word++) any_due |= c->due_warps[word];
    if (!any_due) schedulers = 0;
    for (uint32_t s = 0; s < schedulers; s++) {
        /* Scheduler s owns warps s, s + schedulers, ...; only due warps are
         * decoded. */
        const uint64_t *owned = &c->scheduler_warps[(size_t)s * c->warp_set_words];
        uint32_t chosen = NO_SLOT;
        const kernel_insn *insn, *chosen_insn = NULL;
        uint32_t last = c->last_issued[s];
        bool owns_last = last != NO_SLOT;
        stall_reason why;
        /* GTO: the last issued warp while it can issue, then the oldest due
         * warp that can (by dispatch order: slots are reused, so slot order
         * is not age). LRR: the first due warp that can in slot order,
         * starting after the last issued one and wrapping around. */
        if (!c->lrr && owns_last && warp_set_has(c->due_warps, last) && warp_ready(c, last, now, &why, &wake, &insn)) {
            chosen = last;
            chosen_insn = insn;
        }
        /* (warp_ready changes no other warp's membership of the due set, so
         * its words are taken whole.) Once a ready warp is found, younger
         * ones cannot win and need no decode, as long as a decode could not
         * make a warp wait for request room or a transaction token (state
         * that later cycles see): with that room the chosen warp always
         * issues, and what a skipped decode records for a stalled warp
         * (set_hot) is only read in a cycle without an issue, in which no
         * warp is skipped; until then the warp stays due. */
        uint64_t chosen_age = UINT64_MAX; /* none chosen: every warp is older */
        if (!c->lrr && chosen == NO_SLOT)
            for (uint32_t word = 0; word < c->warp_set_words; word++)
                for (uint64_t due = c->due_warps[word] & owned[word]; due; due &= due - 1) {
                    uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(due);
                    uint64_t age = c->warps[i].age;
                    if (age > chosen_age && !decode_may_register_waiter(c)) continue;
                    if (!warp_ready(c, i, now, &why, &wake, &insn)) {
                        if (why > worst) worst = why;
                    } else if (age < chosen_age) {
                        chosen = i;
                        chosen_age = age;
                        chosen_insn = insn;
                    }
                }
        if (c->lrr) {
            uint32_t warp_count = (uint32_t)c->params.warps;
            uint32_t from = owns_last && last + 1 < warp_count ? last + 1 : 0;
            for (uint32_t pass = 0; chosen == NO_SLOT && pass < 2; pass++) {
                uint32_t end = pass ? from : warp_count;
                for (uint32_t i = warp_set_next(c->due_warps, owned, pass ? 0 : from, end); i != NO_SLOT;
                     i = warp_set_next(c->due_warps, owned, i + 1, end)) {
                    if (warp_ready(c, i, now, &why, &wake, &insn)) {
                        chosen = i;
                        chosen_insn = insn;
                        break;
                    }
                    if (why > worst) worst = why;
                }
            }
        }
        if (chosen == NO_SLOT) continue;
        issue_result result = issue(c, chosen, chosen_insn, now);
        if (result == ISSUE_STALLED) {
            worst = STALL_MEMORY;
            if (c->ldst_free_cycle > now && c->ldst_free_cycle < wake) wake = c->ldst_free_cycle;
            continue;
        }
        c->last_issued[s] = chosen;
        issued++;
        if (result == ISSUE_FAILED) return SIMTX_NEVER;
    }
    if (!issued) {
        /* The warps not due stall for their own reasons until their cycles. */
        promote_due_warps(c, now);
        if (c->earliest_waiting < wake) wake = c->earliest_waiting;
        for (int r = STALL_REASONS - 1; r > (int)worst; r--)
            if (c->not_due_reasons[r]) {
                worst = (stall_reason)r;
                break;
            }
    }
    drain_requests(c, now);
    stall_reason reason = STALL_IDLE;
    if (issued) reason = STALL_NONE;
    else if (c->free_warps < (uint32_t)c->params.warps) reason = worst == STALL_IDLE ? STALL_MEMORY : worst;
    if (!issued) c->stats.stall_cycles[reason]++;
    c->last_stall = reason;
    if (c->env.probes_traced) { /* only a waveform reads them */
        c->probes.issued = issued;
        c->probes.stall_reason = reason;
        c->probes.pending_memory = (uint64_t)c->params.max_pending_memory - c->free_pending_count;
    }
    /* Sleep until something can change: an issue, a latency, a dispatch. */
    uint64_t next = wake;
    /* Room is free but warps still wait for it (the released one did not
     * need a request, e.g. a shared access): release the next one. */
    if (c->room_waiter_count && c->free_pending_count && c->requests.capacity - c->requests.length >= c->lanes) {
        release_room_waiter(c);
        next = now + 1;
    }
    /* A CTA that did not fit is retried when one completes (a response or
     * an issue wakes the core then). */
    if (issued || (dispatched && cta_fits(c))) next = now + 1;
    if (!c->port_blocked && c->tm_out.length) next = now + 1;
    if (!c->port_blocked && !msg_queue_empty(&c->requests)) {
        uint64_t ready = msg_queue_front_ready(&c->requests);
        if (ready < next) next = ready;
    }
    if (next <= now) next = now + 1;
    return next;
}

static simtx_accept_result simt_core_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    simt_core *c = core;
    (void)port;
    if (msg->is_response && (msg->id & TM_ID_TAG)) {
        tm_response(c, msg, now);
        return SIMTX_ACCEPTED;
    }
    if (!msg->is_response || msg->id >= (uint64_t)c->params.max_pending_memory || !c->pending[msg->id].in_use) {
        fail(c, "unexpected message on the memory socket (id %" PRIu64 ")", msg->id);
        return SIMTX_ACCEPTED;
    }
    pending_access *entry = &c->pending[msg->id];
    warp *w = &c->warps[entry->warp];
    if (msg->status != SIMTX_STATUS_OK) {
        char where[320];
        describe(c, w, entry->pc, where, sizeof where);
        fail(c, "the memory side answered %s for a request at 0x%08" PRIx64 " (%u bytes) made by %s",
             msg->status == SIMTX_STATUS_ADDRESS_ERROR ? "an address error (no memory there)" : "a command error", msg->address,
             msg->size, where);
        return SIMTX_ACCEPTED;
    }
    rv_op op = (rv_op)entry->op;
    rv_class cls = (rv_class)entry->op_class;
    if (response_reads_lanes(cls, op, entry->rd)) {
        uint32_t *rd = reg(c, w, entry->rd);
        uint64_t lanes = msg->lane_mask & entry->lanes;
        if (entry->contiguous && !entry->transactional) { /* the lanes' words are consecutive: one copy */
            if (lanes) {
                uint32_t lane = (uint32_t)__builtin_ctzll(lanes);
                uint32_t address = entry->addresses[0] + 4 * lane;
                memcpy(&rd[lane], msg->data + (address - (uint32_t)msg->address), lane_run(lanes) * 4);
            }
        } else if (op == RV_LW && !entry->transactional) { /* the common case: a word per lane */
            for (uint64_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctzll(m);
                memcpy(&rd[lane], msg->data + (entry->addresses[lane] - (uint32_t)msg->address), 4);
            }
        } else {
            unsigned size = rv_access_size(op);
            for (uint64_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctzll(m);
                uint32_t offset = entry->addresses[lane] - (uint32_t)msg->address;
                uint32_t value = read_bytes(msg->data + offset, size);
                if (op == RV_LR) w->reserved_value[lane] = value;
                if (op == RV_SC) value = value == entry->expected[lane] ? 0 : 1;
                if (entry->rd) rd[lane] = cls == RV_CLASS_ATOMIC ? value : rv_extend_load(op, value);
                if (entry->transactional) { /* the read log keeps the whole word */
                    uint32_t word = entry->addresses[lane] & ~3u, word_value = 0;
                    memcpy(&word_value, msg->data + (word - (uint32_t)msg->address), 4);
                    tx_lane *tx_lane_state = &w->tx->lane[lane];
                    if (!log_find(&tx_lane_state->reads, word)) log_append(c, &tx_lane_state->reads, word, word_value);
                }
            }
        }
    }
    if (--entry->remaining == 0) {
        if (cls != RV_CLASS_STORE && entry->rd) w->register_ready[entry->rd] = now + 1;
        if (w->depth && !w->at_barrier && !warp_set_has(c->room_waiters, entry->warp)) {
            set_hot(c, entry->warp, 0, STALL_NONE);
            /* Its next decode reads the stack's top entry, long untouched
             * (perf: the core cycle's most sampled load): fetch it now. */
            __builtin_prefetch(&w->stack[w->depth - 1]);
        }
        entry->in_use = false;
        c->free_pending[c->free_pending_count++] = (uint32_t)msg->id;
        if (c->room_waiter_count) release_room_waiter(c);
        w->pending_memory--;
        if (!w->depth && !w->pending_memory) {
            c->ctas[w->cta_slot].draining--;
            check_cta_done(c, w->cta_slot, now);
        }
    }
    return SIMTX_ACCEPTED;
}

static void simt_core_port_free(void *core, unsigned port)
{
    (void)port;
    ((simt_core *)core)->port_blocked = false;
}

/* Host accesses to the global and persistent windows go out of the memory
 * socket; the core holds no global data itself. */
static size_t simt_core_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)data, (void)size;
    rv_window window = rv_window_of((uint32_t)address);
    *forward_port = (address >> 32) == 0 && (window == RV_WINDOW_GLOBAL || window == RV_WINDOW_PERSISTENT) ? MEMORY_PORT : -1;
    return 0;
}

void simt_core_tm_set_recording(simt_core *c, bool on) { c->tm_recording = on; }

size_t simt_core_tm_history(const simt_core *c, const simt_tm_record **records, const uint32_t **words)
{
    *records = c->history.records;
    *words = c->history.words;
    return c->history.count;
}

void simt_core_tm_clear_history(simt_core *c)
{
    c->history.count = 0;
    c->history.word_count = 0;
}

static void simt_core_finish(void *core, uint64_t now)
{
    simt_core *c = core;
    (void)now;
    c->stats.ipc = c->stats.busy_cycles ? (double)c->stats.thread_instructions / (double)c->stats.busy_cycles : 0.0;
    c->stats.simd_efficiency = c->stats.warp_instructions ? (double)c->stats.thread_instructions /
                                                                 ((double)c->stats.warp_instructions * c->lanes)
                                                           : 0.0;
    /* The active_lanes histogram, made again from the whole tally (so
     * finishing twice changes nothing). */
    simtx_histogram *h = &c->stats.active_lanes;
    *h = (simtx_histogram){.count = c->stats.warp_instructions, .sum = c->stats.thread_instructions};
    bool any = false;
    for (uint32_t lanes = 0; lanes <= MAX_LANES; lanes++) {
        uint64_t issues = c->stats.issues_by_active_lanes[lanes];
        if (!issues) continue;
        h->buckets[simtx_histogram_bucket(lanes)] += issues;
        if (!any) h->minimum = lanes;
        h->maximum = lanes;
        any = true;
    }
}

static double simt_core_progress(void *core)
{
    const simt_core *c = core;
    if (!c->launch || !c->launch->total_ctas) return 1.0;
    return (double)c->launch->finished_ctas / (double)c->launch->total_ctas;
}

static bool simt_core_finished(void *core)
{
    const simt_core *c = core;
    return !c->launch || (c->free_ctas == (uint32_t)c->params.ctas && c->launch->next_cta >= c->launch->total_ctas);
}

const simtx_block_info simt_core_block_info = {
    .name = "simt_core",
    .summary = "SIMT core running RV32IMA kernels per lane: IPDOM stack, GTO/LRR warp schedulers, scoreboard, barriers, LD/ST unit with coalescing and shared-memory banks",
    .params = &simt_core_param_table,
    .sockets = simt_core_sockets,
    .socket_count = 1,
    .create = simt_core_create,
    .destroy = simt_core_destroy,
    .accept = simt_core_accept,
    .cycle = simt_core_cycle,
    .port_free = simt_core_port_free,
    .debug_access = simt_core_debug_access,
    .progress = simt_core_progress,
    .finished = simt_core_finished,
    .finish = simt_core_finish,
};
