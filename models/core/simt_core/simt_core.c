/* simt_core: the block glue of the SIMT core: parameter, socket and statistic tables, create/destroy, the sockets' dispatch, finish and the block's description. */
#include "simt_core.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "cta.h"
#include "execute.h"
#include "lsu.h"
#include "lsu_socket.h"

#define PARAM(field) offsetof(simt_core_params, field)

static const simtx_param_spec simt_core_param_specs[] = {
    {"core_id", SIMTX_PARAM_INT, "0", "", 0, 1 << 20, NULL, "this core's number (message metadata, traces)", PARAM(core_id)},
    {"lanes", SIMTX_PARAM_INT, "32", "threads", 1, MAX_LANES, NULL, "threads per warp (SIMD width; 32 or 64 usually)", PARAM(lanes)},
    {"warps", SIMTX_PARAM_INT, "48", "warps", 1, 1024, NULL, "warp slots per core", PARAM(warps)},
    {"ctas", SIMTX_PARAM_INT, "8", "CTAs", 1, 1024, NULL, "CTAs resident per core at once", PARAM(ctas)},
    {"registers", SIMTX_PARAM_INT, "32768", "registers", 32, 1 << 24, NULL, "32-bit registers per core (a thread holds the kernel's used registers)", PARAM(registers)},
    {"shared_memory", SIMTX_PARAM_INT, "48KiB", "bytes", 0, 1 << 26, NULL, "shared memory per core, split among resident CTAs (at most the size of the lds on the lds socket)", PARAM(shared_memory)},
    {"local_memory", SIMTX_PARAM_INT, "4KiB", "bytes", 64, 1 << 20, NULL, "local memory (stack) per thread", PARAM(local_memory)},
    {"scheduler", SIMTX_PARAM_ENUM, "gto", "", 0, 0, "gto|lrr", "warp scheduler: greedy-then-oldest or loose round-robin", PARAM(scheduler)},
    {"schedulers", SIMTX_PARAM_INT, "2", "", 1, 16, NULL, "warp schedulers (each issues one instruction per cycle from its share of the warps)", PARAM(schedulers)},
    {"alu_latency", SIMTX_PARAM_INT, "4", "cycles", 1, 1000, NULL, "issue to result of integer ALU ops", PARAM(alu_latency)},
    {"mul_latency", SIMTX_PARAM_INT, "6", "cycles", 1, 1000, NULL, "issue to result of multiplications", PARAM(mul_latency)},
    {"div_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 1000, NULL, "issue to result of divisions and remainders", PARAM(div_latency)},
    {"fp_latency", SIMTX_PARAM_INT, "4", "cycles", 1, 1000, NULL, "issue to result of single-precision adds, multiplies, min/max, sign injections, conversions, moves, comparisons and fcsr accesses", PARAM(fp_latency)},
    {"fma_latency", SIMTX_PARAM_INT, "5", "cycles", 1, 1000, NULL, "issue to result of single-precision fused multiply-adds", PARAM(fma_latency)},
    {"fdiv_latency", SIMTX_PARAM_INT, "39", "cycles", 1, 1000, NULL, "issue to result of single-precision divisions", PARAM(fdiv_latency)},
    {"fsqrt_latency", SIMTX_PARAM_INT, "8", "cycles", 1, 1000, NULL, "issue to result of single-precision square roots", PARAM(fsqrt_latency)},
    {"branch_latency", SIMTX_PARAM_INT, "2", "cycles", 1, 1000, NULL, "cycles before a warp issues again after a branch, jump, call or return", PARAM(branch_latency)},
    {"local_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL, "issue to result of a local-memory (stack) load", PARAM(local_latency)},
    {"constant_latency", SIMTX_PARAM_INT, "8", "cycles", 1, 10000, NULL, "issue to result of a load from the code window (read-only data) or the argument block", PARAM(constant_latency)},
    {"max_pending_memory", SIMTX_PARAM_INT, "64", "instructions", 1, 1 << 16, NULL, "memory instructions in flight per core (to the ldst_unit, the lds or both)", PARAM(max_pending_memory)},
    {"trace_file", SIMTX_PARAM_PATH, "", "", 0, 0, NULL, "write a per-warp instruction trace here; empty: none", PARAM(trace_file)},
    {"trace_warp", SIMTX_PARAM_INT, "-1", "", -1, 1024, NULL, "warp slot to trace; -1: every warp", PARAM(trace_warp)},
    {"tm_warp_tokens", SIMTX_PARAM_INT, "2", "warps", 0, 1024, NULL, "transactional warps at once per core (KILO TM's token count); 0: no limit", PARAM(tm_warp_tokens)},
    {"tm_timeout", SIMTX_PARAM_INT, "100000", "cycles", 0, 1 << 30, NULL, "abort a transaction attempt running longer than this (doomed transactions may loop); 0: never", PARAM(tm_timeout)},
    {"tm_events", SIMTX_PARAM_ENUM, "ldst", "", 0, 0, "ldst|lds",
     "the socket tx.h events take, and whose lanes are transactional inside a transaction: ldst (a tm_unit; global lanes) or lds (an lds policy such as localtm; shared lanes)",
     PARAM(tm_events)},
};

static const simtx_param_table simt_core_param_table = {
    simt_core_param_specs, sizeof simt_core_param_specs / sizeof simt_core_param_specs[0], sizeof(simt_core_params)};

static const simtx_socket_spec simt_core_sockets[] = {
    {"ldst", SIMTX_SOCKET_INITIATOR, NULL, "global and persistent accesses (ldst.h) and transaction events (tx.h), to a tm_unit or the ldst_unit; responses in", false},
    {"lds", SIMTX_SOCKET_INITIATOR, NULL, "shared-memory accesses and CTA clears to the lds (ldst.h), responses in", false},
    {"tx_events", SIMTX_SOCKET_TARGET, NULL, "unsolicited tx.h events from a tm_unit (TX_ABORT, tx.h 6); may stay unbound", true},
};


void core_fail(simt_core *c, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    c->env.fail(c->env.context, message);
}

void core_describe(const simt_core *c, const warp *w, uint32_t pc, char *out, size_t size)
{
    char where[200];
    kernel_image_describe_pc(c->launch->image, pc, where, sizeof where);
    const cta_slot *cta = &c->ctas[w->cta_slot];
    snprintf(out, size, "%s (core %" PRId64 ", CTA (%u,%u,%u), warp %u of the CTA)", where, c->params.core_id, cta->id[0],
             cta->id[1], cta->id[2], w->warp_in_cta);
}

static void simt_core_destroy(void *core);

static void *simt_core_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const simt_core_params *p = params;
    simt_core *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->launch_fence_since = UINT64_MAX;
    c->params = *p;
    c->params.scheduler = NULL;
    c->params.trace_file = NULL;
    c->params.tm_events = NULL;
    c->tx_port = p->tm_events && strcmp(p->tm_events, "lds") == 0 ? LDS_PORT : LDST_PORT;
    c->env = *env;
    c->lanes = (uint32_t)p->lanes;
    c->full_mask = c->lanes == 64 ? UINT64_MAX : (1ull << c->lanes) - 1;
    c->warps = calloc((size_t)p->warps, sizeof *c->warps);
    c->ctas = calloc((size_t)p->ctas, sizeof *c->ctas);
    c->sfence_since = calloc((size_t)p->warps, sizeof *c->sfence_since);
    c->pending = calloc((size_t)p->max_pending_memory, sizeof *c->pending);
    c->free_pending = calloc((size_t)p->max_pending_memory, sizeof *c->free_pending);
    bool scheduled = warp_sched_init(&c->sched, (uint32_t)p->warps, (uint32_t)p->schedulers, !strcmp(p->scheduler, "lrr"));
    if (!c->warps || !scheduled || !c->ctas || !c->sfence_since || !c->pending || !c->free_pending ||
        !msg_queue_init(&c->sockets[LDST_PORT].beats, LSU_QUEUE_BEATS) || !msg_queue_init(&c->sockets[LDS_PORT].beats, LSU_QUEUE_BEATS)) {
        snprintf(error, error_size, "out of memory");
        simt_core_destroy(c);
        return NULL;
    }
    for (uint32_t i = 0; i < (uint32_t)p->warps; i++) {
        warp *w = &c->warps[i];
        w->registers = calloc(WARP_ROWS * c->lanes, sizeof(uint32_t));
        if (!simt_stack_init(&w->stack, 16) || !w->registers) {
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
    simtx_observe_counter(o, "launch_fence_cycles", &c->stats.launch_fence_cycles, "cycles",
                          "cycles from a launch's first cycle to its first CTA: the wait for its invalidating fence");
    simtx_observe_counter(o, "ticks", &c->stats.ticks, "cycles", "cycles the core was evaluated (it sleeps through the others)");
    for (int r = 1; r < STALL_REASONS; r++) {
        char name[48];
        snprintf(name, sizeof name, "stall_%s", warp_sched_stall_names[r]);
        simtx_observe_counter(o, name, &c->stats.stall_cycles[r], "cycles", warp_sched_stall_docs[r]);
    }
    simtx_observe_counter(o, "divergent_branches", &c->stats.divergent_branches, "branches", "branches that split a warp");
    simtx_observe_counter(o, "shared_accesses", &c->stats.shared_accesses, "instructions", "shared-memory load/store/atomic instructions (requests to the lds)");
    simtx_observe_counter(o, "local_accesses", &c->stats.local_accesses, "instructions", "local-memory (stack) load/store instructions");
    simtx_observe_counter(o, "constant_loads", &c->stats.constant_loads, "instructions", "loads served by the core's constant path: read-only data in the code window and the argument block");
    simtx_observe_counter(o, "barriers", &c->stats.barriers, "barriers", "CTA barriers completed");
    /* Energy: each issue (fetch, decode, scheduling, operand collection) and
     * each active lane by the class of its instruction. */
    simtx_observe_energy(o, "warp_issue", &c->stats.warp_instructions, "a warp instruction issued (fetch, decode, schedule, operands)");
    static const char *const lane_events[RV_CLASS_FLOAT + 1][2] = {
        {"alu_lane", "an integer ALU lane"}, {"mul_lane", "an integer multiply lane"}, {"div_lane", "an integer divide lane"},
        {"branch_lane", "a branch lane"}, {"jump_lane", "a jump lane"}, {"load_lane", "a load lane (address and register write)"},
        {"store_lane", "a store lane"}, {"atomic_lane", "an atomic lane"}, {"csr_lane", "a CSR access lane"},
        {"barrier_lane", "a barrier lane"}, {"exit_lane", "an exit lane"}, {"fence_lane", "a fence lane"},
        {"tx_lane", "a transaction-instruction lane"}, {"illegal_lane", "an illegal instruction's lane"},
        {"float_lane", "a single-precision floating-point lane"}};
    for (unsigned k = 0; k <= RV_CLASS_FLOAT; k++) simtx_observe_energy(o, lane_events[k][0], &c->energy_lanes[k], lane_events[k][1]);
    simtx_observe_histogram(o, "active_lanes", &c->stats.active_lanes, "lanes", "active lanes per issued warp instruction");
    simtx_observe_real(o, "ipc", &c->stats.ipc, "instructions/cycle", "thread instructions per busy cycle (GPGPU-Sim's gpu_ipc, per core)");
    simtx_observe_real(o, "simd_efficiency", &c->stats.simd_efficiency, "", "active lanes per warp instruction over lanes per warp");
    simtx_observe_counter(o, "resident_warp_cycles", &c->stats.resident_warp_cycles, "warp-cycles",
                          "resident warps summed over cycles (from a CTA's dispatch to its release)");
    simtx_observe_real(o, "achieved_occupancy", &c->stats.achieved_occupancy, "",
                       "resident warps per busy cycle over the warps a core holds (CUDA's achieved occupancy)");
    simtx_observe_level_probe(o, "active_warps", &c->probes.active_warps, 11, 0, "resident warps");
    simtx_observe_probe(o, "issued", &c->probes.issued, 4, "warp instructions issued this cycle");
    simtx_observe_enum_probe(o, "stall_reason", &c->probes.stall_reason, 3, warp_sched_stall_names, STALL_REASONS,
                             "why no instruction issued this cycle (issued: one did)");
    simtx_observe_level_probe(o, "pending_memory", &c->probes.pending_memory, 16, 0, "memory instructions in flight (pending table entries)");
    simtx_observe_counter(o, "sfences", &c->pm_stats.sfences, "instructions", "sfence (persist barrier) warp instructions issued");
    simtx_observe_counter(o, "sfence_stall_cycles", &c->pm_stats.sfence_stall_cycles, "cycles",
                          "cycles warps waited at an sfence for their earlier accesses (clwb: durable at the NVM controller), summed over warps");
    simtx_observe_counter(o, "tm_wasted_cycles", &c->tm_stats.tm_wasted_cycles, "cycles", "cycles of aborted warp attempts, tx_begin to abort");
    simtx_observe_counter(o, "tm_wasted_instructions", &c->tm_stats.tm_wasted_instructions, "instructions", "thread instructions of aborted attempts");
    simtx_observe_counter(o, "tm_core_cycles", &c->tm_stats.tm_core_cycles, "cycles", "warp attempts' time in the core: TX_BEGIN's answer to tx_commit (a part resumed after a pause: from its attempt's TX_BEGIN)");
    simtx_observe_counter(o, "tm_token_stalls", &c->tm_stats.tm_token_stalls, "events", "tx_begin found no free transactional-warp token");
    simtx_observe_histogram(o, "tm_core_duration", &c->tm_stats.tm_core_duration, "cycles", "per warp attempt: TX_BEGIN's answer to tx_commit (a part resumed after a pause: from its attempt's TX_BEGIN)");
    simtx_observe_level_probe(o, "tm_warps", &c->tm_probes.tx_warps, 11, 0, "warps inside a transaction (holding a token)");
    return c;
}

static void simt_core_destroy(void *core)
{
    simt_core *c = core;
    if (!c) return;
    for (int64_t i = 0; c->warps && i < c->params.warps; i++) {
        free(c->warps[i].registers);
        simt_stack_release(&c->warps[i].stack);
        free(c->warps[i].local);
        tx_client_release_warp(c->warps[i].tx);
    }
    tx_client_release(c);
    for (int64_t i = 0; c->ctas && i < c->params.ctas; i++) free(c->ctas[i].warps);
    if (c->trace) fclose(c->trace);
    msg_queue_release(&c->sockets[LDST_PORT].beats);
    msg_queue_release(&c->sockets[LDS_PORT].beats);
    warp_sched_release(&c->sched);
    free(c->warps), free(c->ctas), free(c->pending), free(c->free_pending), free(c->sfence_since);
    free(c);
}

static simtx_accept_result simt_core_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    simt_core *c = core;
    if (port == TX_EVENTS_PORT) { /* taken at once (tx.h 6's deadlock rule) */
        tx_client_event(c, msg, now);
        return SIMTX_ACCEPTED;
    }
    if (port == c->tx_port && simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) {
        c->visible_events++; /* a transaction's outcome: its stores are visible, or it retries */
        tx_client_response(c, msg, now);
        return SIMTX_ACCEPTED;
    }
    bool ours = (msg->id < (uint64_t)c->params.max_pending_memory && c->pending[msg->id].in_use) ||
                (port == LDST_PORT && msg->id == LDST_LAUNCH_FENCE_ID && c->launch_fence_pending);
    if (!msg->is_response || (!ours && !(port == LDS_PORT && msg->id >= LDST_SHARED_SIZE_CHECK_ID))) {
        core_fail(c, "unexpected message on the %s socket (id %" PRIu64 ")", port == LDS_PORT ? "lds" : "ldst", msg->id);
        return SIMTX_ACCEPTED;
    }
    lsu_socket_response(c, port, msg, now);
    return SIMTX_ACCEPTED;
}

static void simt_core_port_free(void *core, unsigned port)
{
    /* The unit took a refused beat: the woken cycle sends what waits and
     * releases a warp waiting for room. */
    ((simt_core *)core)->sockets[port].blocked = false;
}

/* Host accesses to the global and persistent windows go out of the ldst
 * socket; the core holds no global data itself. */
static size_t simt_core_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)data, (void)size;
    rv_window window = rv_window_of((uint32_t)address);
    *forward_port = (address >> 32) == 0 && (window == RV_WINDOW_GLOBAL || window == RV_WINDOW_PERSISTENT) ? LDST_PORT : -1;
    return 0;
}


static void simt_core_finish(void *core, uint64_t now)
{
    simt_core *c = core;
    (void)now;
    c->stats.ipc = c->stats.busy_cycles ? (double)c->stats.thread_instructions / (double)c->stats.busy_cycles : 0.0;
    c->stats.achieved_occupancy =
        c->stats.busy_cycles ? (double)c->stats.resident_warp_cycles / ((double)c->stats.busy_cycles * (double)c->params.warps) : 0.0;
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

static uint64_t simt_core_visible_changes(void *core)
{
    const simt_core *c = core;
    return c->visible_events + c->stats.barriers;
}

/* The warps still running, with their pcs: what a deadlock or livelock
 * report needs to find the loop (the first few, in slot order). */
static void simt_core_describe_pending(void *core, char *text, size_t size)
{
    const simt_core *c = core;
    enum { SHOWN = 4 };
    uint32_t running = 0;
    size_t used = 0;
    for (uint32_t i = 0; i < (uint32_t)c->params.warps; i++) {
        const warp *w = &c->warps[i];
        if (!w->resident || !w->stack.depth) continue;
        if (running++ >= SHOWN || used >= size) continue;
        char where[320];
        core_describe(c, w, w->stack.entries[w->stack.depth - 1].pc, where, sizeof where);
        used += (size_t)snprintf(text + used, size - used, "%s%s%s", running > 1 ? "; " : "warps at ", where,
                                 w->at_barrier ? " waiting at a barrier" : "");
    }
    if (running > SHOWN && used < size) snprintf(text + used, size - used, "; and %u more warps", running - SHOWN);
}

static bool simt_core_finished(void *core)
{
    const simt_core *c = core;
    return !c->launch || (c->free_ctas == (uint32_t)c->params.ctas && c->launch->next_cta >= c->launch->total_ctas &&
                          !c->launch_fence_pending);
}

const simtx_block_info simt_core_block_info = {
    .name = "simt_core",
    .summary = "SIMT core running RV32IMAF kernels per lane: IPDOM stack, GTO/LRR warp schedulers, scoreboard, barriers; global memory through an ldst_unit block, shared memory through an lds block",
    .params = &simt_core_param_table,
    .sockets = simt_core_sockets,
    .socket_count = sizeof simt_core_sockets / sizeof simt_core_sockets[0],
    .create = simt_core_create,
    .destroy = simt_core_destroy,
    .accept = simt_core_accept,
    .cycle = exec_cycle,
    .port_free = simt_core_port_free,
    .debug_access = simt_core_debug_access,
    .progress = simt_core_progress,
    .finished = simt_core_finished,
    .describe_pending = simt_core_describe_pending,
    .visible_changes = simt_core_visible_changes,
    .finish = simt_core_finish,
};
