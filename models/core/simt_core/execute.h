/* execute: the issue stage: each cycle's orchestration (dispatch, the schedulers' GTO/LRR pick, stall accounting, wake-up), warp readiness and the issue of one instruction (ALU loops, CSRs, branches, jumps). */
#ifndef SIMTX_EXECUTE_H
#define SIMTX_EXECUTE_H

#include "core_internal.h"

/* The block's cycle: dispatches CTAs, issues up to one instruction per
 * scheduler, sends queued requests; returns the next cycle to run. */
uint64_t exec_cycle(void *core, uint64_t now);

/* Pushes a SIMT stack entry; false (reported) on a runaway or no memory. */
bool exec_push(simt_core *c, warp *w, uint32_t pc, uint32_t reconverge, uint64_t mask, bool is_call);
/* Reports a failed stack push at pc. */
void exec_report_stack(simt_core *c, simt_stack_status status, uint32_t pc);

#endif
