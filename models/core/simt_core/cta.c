/* cta: launches, the kernel's register analysis, CTA dispatch and release, barriers, warp completion. */
#include "cta.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "lsu_socket.h"

/* The registers the kernel's instructions name, and sp (always set). */
static uint64_t kernel_register_mask(const kernel_image *image)
{
    uint64_t used = 1u << 2;
    size_t count = (image->text_end - image->text_start) / 4;
    for (size_t i = 0; i < count; i++) {
        const rv_insn *insn = &image->insns[i].insn;
        if (insn->op == RV_ILLEGAL) continue;
        used |= 1ull << insn->rd | 1ull << insn->rs1 | 1ull << insn->rs2;
        if (rv_is_fused((rv_op)insn->op)) used |= 1ull << rv_rs3(insn);
    }
    return used;
}

/* The registers the code reachable from entry_pc writes (x0 excepted: no
 * write reaches it). Control flow is static (no indirect jumps), so a walk
 * over the decoded flow finds every instruction a warp can execute. */
static uint64_t kernel_written_registers(const kernel_image *image, uint32_t entry_pc, char *error, size_t error_size)
{
    size_t count = (image->text_end - image->text_start) / 4;
    uint8_t *seen = calloc(count + 1, 1); /* + 1: never a zero-byte allocation */
    uint32_t *work = malloc((count + 1) * sizeof *work);
    if (!seen || !work) {
        free(seen), free(work);
        snprintf(error, error_size, "out of memory for the kernel's registers");
        return UINT64_MAX;
    }
    size_t pending = 0;
    uint64_t written = 0;
    const kernel_insn *entry = kernel_image_insn(image, entry_pc);
    if (entry) work[pending++] = (uint32_t)(entry - image->insns), seen[entry - image->insns] = 1;
    while (pending) {
        const kernel_insn *k = &image->insns[work[--pending]];
        rv_class cls = (rv_class)k->op_class;
        if (cls != RV_CLASS_BRANCH && cls != RV_CLASS_STORE) written |= 1ull << k->insn.rd; /* their rd field is immediate bits */
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
    return written & ~1ull;
}

uint32_t simt_kernel_registers(const kernel_image *image)
{
    return (uint32_t)__builtin_popcountll(kernel_register_mask(image) & ~1ull); /* x0 needs no storage */
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
    uint64_t written = kernel_written_registers(launch->image, launch->entry_pc, error, error_size);
    if (written == UINT64_MAX) return false;
    c->launch = launch;
    c->image = launch->image;
    c->written_registers |= written;
    uint64_t sp_and_a0 = 1u << 2 | 1u << 10;
    c->launch_cleared_registers = kernel_register_mask(launch->image) & c->written_registers & ~sp_and_a0;
    lsu_socket_launch_fence(c); /* CTAs may fit once the L1 has dropped the previous kernel's lines */
    return true;
}

bool cta_fits(const simt_core *c)
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

/* Achieved occupancy's integral, before the resident warp count changes
 * (a CTA's warps count from the cycle of its dispatch to that of its release). */
static void count_residency(simt_core *c, uint64_t now)
{
    c->stats.resident_warp_cycles += ((uint64_t)c->params.warps - c->free_warps) * (now - c->residency_since);
    c->residency_since = now;
}

bool cta_dispatch(simt_core *c, uint64_t now)
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
    /* The lds zeroes the region (its queue keeps room for this beat; if
     * the socket is still full, the next cycle retries). */
    if (l->shared_bytes) {
        if (!lsu_socket_clear(c, offset, l->shared_bytes, slot, now)) return false;
        lsu_socket_send_queued(c, LDS_PORT);
    }
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
    if (c->free_warps == (uint32_t)c->params.warps) c->busy_since = now;
    count_residency(c, now);
    if (c->launch_fence_since != UINT64_MAX) { /* the launch's first CTA: its fence wait ends */
        c->stats.launch_fence_cycles += now - c->launch_fence_since;
        c->launch_fence_since = UINT64_MAX;
    }
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
        warp_sched_set_hot(&c->sched, w_index, 0, STALL_NONE);
        w->age = c->age_counter++;
        for (uint64_t left = c->launch_cleared_registers; left; left &= left - 1)
            memset(reg(c, w, (unsigned)__builtin_ctzll(left)), 0, sizeof(uint32_t) * c->lanes);
        memset(reg(c, w, FCSR_ROW), 0, sizeof(uint32_t) * c->lanes); /* round to nearest, no flags */
        for (int r = 0; r < RV_REGISTERS; r++) w->register_ready[r] = 0;
        w->uniform_registers = UINT64_MAX; /* zero, or sp and a0 below (registers the kernel does not name are never read) */
        uint32_t first_thread = k * c->lanes;
        uint32_t active = threads - first_thread < c->lanes ? threads - first_thread : c->lanes;
        fill_lanes(c, reg(c, w, 2), c->full_mask, RV_LOCAL_BASE + (uint32_t)c->params.local_memory); /* sp */
        fill_lanes(c, reg(c, w, 10), c->full_mask, l->args_address);                                /* a0 */
        simt_stack_start(&w->stack, l->entry_pc, KERNEL_EXIT_PC, active == 64 ? UINT64_MAX : (1ull << active) - 1);
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
        warp_sched_set_hot(&c->sched, cta->warps[k], UINT64_MAX, STALL_IDLE);
    }
    cta->resident = false;
    c->cta_may_fit = true;
    c->free_ctas++;
    count_residency(c, now);
    c->free_warps += cta->warp_count;
    c->free_registers += cta->warp_count * c->lanes * l->registers_per_thread;
    l->finished_ctas++;
    c->stats.ctas_completed++;
    if (c->free_warps == (uint32_t)c->params.warps) c->stats.busy_cycles += now - c->busy_since + 1;
    c->probes.active_warps = (uint32_t)c->params.warps - c->free_warps;
}

/* Counted rather than visiting the warps, whose lines are cold. */
void cta_check_done(simt_core *c, uint32_t slot, uint64_t now)
{
    cta_slot *cta = &c->ctas[slot];
    if (cta->warps_done < cta->warp_count || cta->draining) return;
    release_cta(c, slot, now);
}

void cta_check_barrier(simt_core *c, uint32_t slot)
{
    cta_slot *cta = &c->ctas[slot];
    if (!cta->barrier_arrived || cta->barrier_arrived < cta->warp_count - cta->warps_done) return;
    for (uint32_t k = 0; k < cta->warp_count; k++) {
        warp *w = &c->warps[cta->warps[k]];
        w->at_barrier = false;
        if (!w->stack.depth) continue;
        simt_stack_release_barrier(&w->stack);
        /* A barrier just before a reconvergence point: its entries pop now
         * (lanes stay, so the warp runs on). */
        simt_stack_reconverge(&w->stack, KERNEL_EXIT_PC);
        warp_sched_set_hot(&c->sched, cta->warps[k], 0, STALL_NONE);
    }
    cta->barrier_arrived = 0;
    c->stats.barriers++;
}

bool cta_barrier_arrive(simt_core *c, warp *w, uint32_t warp_index)
{
    if (simt_stack_run_other_leaf(&w->stack)) return true;
    uint32_t barrier_pc = simt_stack_top(&w->stack)->pc - 4, past_pc = 0;
    uint64_t past = simt_stack_lanes_past_barrier(&w->stack, KERNEL_EXIT_PC, &past_pc);
    if (past) {
        char where[320], reconverge[200];
        core_describe(c, w, barrier_pc, where, sizeof where);
        kernel_image_describe_pc(c->image, past_pc, reconverge, sizeof reconverge);
        core_fail(c, "CTA barrier at %s reached by only part of the warp: lanes 0x%" PRIx64 " wait to reconverge with it at %s, "
                     "past the barrier (every thread that has not exited must reach a CTA barrier)",
                  where, past, reconverge);
        return false;
    }
    w->at_barrier = true;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_BARRIER);
    c->ctas[w->cta_slot].barrier_arrived++;
    cta_check_barrier(c, w->cta_slot);
    return true;
}

void cta_reconverge_warp(simt_core *c, warp *w, uint32_t warp_index, uint64_t now)
{
    simt_stack_state state = simt_stack_reconverge(&w->stack, KERNEL_EXIT_PC);
    if (state == SIMT_STACK_RUNNING) {
        /* Lanes left a barrier's entry on top: run the others or wait. */
        if (simt_stack_top(&w->stack)->at_barrier && !w->at_barrier) cta_barrier_arrive(c, w, warp_index);
        return;
    }
    if (state == SIMT_STACK_BROKEN) {
        core_fail(c, "internal: warp %u returned inside a reconvergence region (reconvergence at 0x%x)", warp_index,
                  simt_stack_top(&w->stack)->reconverge);
        w->stack.depth = 0;
    }
    cta_slot *cta = &c->ctas[w->cta_slot];
    cta->warps_done++;
    c->visible_events++;
    if (w->pending_memory) cta->draining++;
    warp_sched_set_hot(&c->sched, warp_index, UINT64_MAX, STALL_MEMORY); /* done; its stores may be in flight */
    cta_check_barrier(c, w->cta_slot);
    cta_check_done(c, w->cta_slot, now);
}
