/* simt_core: a SIMT core that runs real RV32IMAF kernels, one interpreter
 * lane per thread, warps reconverging through an IPDOM SIMT stack, with a
 * warp scheduler (GTO or loose round-robin), a scoreboard with configurable
 * pipeline latencies, CTA barriers, and an LD/ST unit (coalescing into
 * segments, per-thread local memory, global traffic over its `memory`
 * socket, atomics executed at the memory side, shared memory in the lds
 * block on its `lds` socket). */
#ifndef SIMTX_SIMT_CORE_H
#define SIMTX_SIMT_CORE_H

#include "kernel_image.h"
#include "memcheck.h"
#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_core_params {
    int64_t core_id;
    int64_t lanes, warps, ctas, registers, shared_memory, local_memory;
    char *scheduler;
    int64_t schedulers;
    int64_t alu_latency, mul_latency, div_latency, branch_latency, local_latency, constant_latency;
    int64_t fp_latency, fma_latency, fdiv_latency, fsqrt_latency;
    int64_t max_pending_memory;
    char *trace_file;
    int64_t trace_warp;
    int64_t tm_warp_tokens, tm_timeout;
    char *tm_events; /* the socket tx.h events take: ldst (a tm_unit) or lds (GPU-LocalTM) */
} simt_core_params;


/* One kernel launch, shared by the host API and every core: cores take CTAs
 * from next_cta in turn (occupancy permitting) and count finished ones. */
typedef struct simt_launch {
    const kernel_image *image;
    uint32_t entry_pc;
    uint32_t grid[3], block[3];
    uint32_t args_address;
    const uint8_t *args; /* a copy of the argument block, read-only for the kernel */
    uint32_t args_size;
    uint32_t shared_bytes;    /* per CTA: static .shared plus the launch's dynamic bytes */
    uint32_t dynamic_shared_offset; /* where the dynamic bytes start in the CTA's region (after the
                                       kernel's static .shared, word aligned): CSR 0xccf */
    uint32_t registers_per_thread;
    uint64_t total_ctas, next_cta, finished_ctas;
    const memcheck_table *memcheck; /* the memory checker's live ranges, or NULL: unchecked */
} simt_launch;

typedef struct simt_core simt_core;

/* Hands a launch to an idle core (the host then wakes it). The launch must
 * outlive the run. Returns false if the launch cannot fit this core at all,
 * with a message. */
bool simt_core_start_launch(simt_core *core, simt_launch *launch, char *error, size_t error_size);
/* Forgets the launch (the host is about to free it); the core must be idle
 * or the run over. */
void simt_core_end_launch(simt_core *core);
/* Number of registers a kernel's threads use (for occupancy). */
uint32_t simt_kernel_registers(const kernel_image *image);


extern const simtx_block_info simt_core_block_info;

#ifdef __cplusplus
}
#endif
#endif
