/* gpu.h: intrinsics for simtx kernels (C compiled for RV32IMAF, run in SIMT).
 *
 * Every intrinsic is always_inline: at -O0 a plain static inline would become
 * a call, and a call per thread id read would distort instruction counts.
 * Thread, CTA, warp and lane ids come from custom read-only CSRs
 * (0xCC0..0xCCF, the user read-only custom range). Barriers and the
 * transactional/persistence ops use the custom-0 opcode (0x0b) written
 * numerically, because clang 14 rejects the name CUSTOM_0; the non-temporal
 * store uses custom-1 (0x2b). sfence is a custom op, not `fence`: clang emits
 * `fence rw,w` for release atomics, which must not mean a persist barrier.
 */
#ifndef SIMTX_GPU_H
#define SIMTX_GPU_H

#include <stdint.h>

#define GPU_INLINE static inline __attribute__((always_inline))

/* CSR numbers: keep in sync with models/core/simt_core/rv32.h. */
#define GPU_CSR_TID_X 0xcc0
#define GPU_CSR_TID_Y 0xcc1
#define GPU_CSR_TID_Z 0xcc2
#define GPU_CSR_NTID_X 0xcc3
#define GPU_CSR_NTID_Y 0xcc4
#define GPU_CSR_NTID_Z 0xcc5
#define GPU_CSR_CTAID_X 0xcc6
#define GPU_CSR_CTAID_Y 0xcc7
#define GPU_CSR_CTAID_Z 0xcc8
#define GPU_CSR_NCTAID_X 0xcc9
#define GPU_CSR_NCTAID_Y 0xcca
#define GPU_CSR_NCTAID_Z 0xccb
#define GPU_CSR_WARP_ID 0xccc
#define GPU_CSR_LANE_ID 0xccd
#define GPU_CSR_WARP_SIZE 0xcce
#define GPU_CSR_DYNAMIC_SHARED 0xccf

#define GPU_STRINGIFY_(x) #x
#define GPU_STRINGIFY(x) GPU_STRINGIFY_(x)
#define GPU_READ_CSR(csr)                                                  \
    ({                                                                     \
        uint32_t gpu_csr_value_;                                           \
        __asm__ volatile("csrr %0, " GPU_STRINGIFY(csr) : "=r"(gpu_csr_value_)); \
        gpu_csr_value_;                                                    \
    })

GPU_INLINE uint32_t gpu_thread_x(void) { return GPU_READ_CSR(GPU_CSR_TID_X); }
GPU_INLINE uint32_t gpu_thread_y(void) { return GPU_READ_CSR(GPU_CSR_TID_Y); }
GPU_INLINE uint32_t gpu_thread_z(void) { return GPU_READ_CSR(GPU_CSR_TID_Z); }
GPU_INLINE uint32_t gpu_block_dim_x(void) { return GPU_READ_CSR(GPU_CSR_NTID_X); }
GPU_INLINE uint32_t gpu_block_dim_y(void) { return GPU_READ_CSR(GPU_CSR_NTID_Y); }
GPU_INLINE uint32_t gpu_block_dim_z(void) { return GPU_READ_CSR(GPU_CSR_NTID_Z); }
GPU_INLINE uint32_t gpu_block_x(void) { return GPU_READ_CSR(GPU_CSR_CTAID_X); }
GPU_INLINE uint32_t gpu_block_y(void) { return GPU_READ_CSR(GPU_CSR_CTAID_Y); }
GPU_INLINE uint32_t gpu_block_z(void) { return GPU_READ_CSR(GPU_CSR_CTAID_Z); }
GPU_INLINE uint32_t gpu_grid_dim_x(void) { return GPU_READ_CSR(GPU_CSR_NCTAID_X); }
GPU_INLINE uint32_t gpu_grid_dim_y(void) { return GPU_READ_CSR(GPU_CSR_NCTAID_Y); }
GPU_INLINE uint32_t gpu_grid_dim_z(void) { return GPU_READ_CSR(GPU_CSR_NCTAID_Z); }
GPU_INLINE uint32_t gpu_warp_id(void) { return GPU_READ_CSR(GPU_CSR_WARP_ID); }
GPU_INLINE uint32_t gpu_lane_id(void) { return GPU_READ_CSR(GPU_CSR_LANE_ID); }
GPU_INLINE uint32_t gpu_warp_size(void) { return GPU_READ_CSR(GPU_CSR_WARP_SIZE); }
/* The core's cycle count (CUDA's clock64()): the cycle and cycleh CSRs,
 * the high word read again until it did not change between the reads. */
GPU_INLINE uint64_t gpu_clock(void)
{
    uint32_t high, low;
    do {
        high = GPU_READ_CSR(0xc80);
        low = GPU_READ_CSR(0xc00);
    } while (GPU_READ_CSR(0xc80) != high);
    return (uint64_t)high << 32 | low;
}
/* blockIdx.x * blockDim.x + threadIdx.x */
GPU_INLINE uint32_t gpu_global_id_x(void) { return gpu_block_x() * gpu_block_dim_x() + gpu_thread_x(); }

/* __syncthreads(): every thread of the CTA waits here; also orders the
 * CTA's earlier shared and global accesses before its later ones. */
GPU_INLINE void gpu_sync_threads(void) { __asm__ volatile(".insn r 0x0b, 0, 0, x0, x0, x0" ::: "memory"); }
/* Ends the calling thread at once (like returning from the kernel). */
GPU_INLINE void gpu_exit(void) { __asm__ volatile(".insn r 0x0b, 1, 0, x0, x0, x0" ::: "memory"); }

/* Transactions run in the core's tm_unit and commit at the commit units: a
 * transactional kernel needs a platform with both (gtx480_kilotm.lua,
 * gtx480_warptm.lua, gtx480_idealtm.lua). An aborted transaction's lanes
 * get their registers and stack back and run it again from gpu_tx_begin.
 *
 * The rules a kernel must follow (the loader refuses a kernel breaking the
 * first; the core stops the run at the others, naming lane and pc):
 *  - every gpu_tx_begin() is followed, on every path in the same function,
 *    by its gpu_tx_commit() (no early return, break or goto out of it);
 *  - nothing inside but loads, stores, arithmetic and calls: no atomics,
 *    barriers or persistence ops (persist after gpu_tx_commit());
 *  - nested pairs are flattened into the outer transaction.
 *
 * Both are macros, not functions: each written call site gets an asm
 * statement of its own (its site number in an assembler comment), so that
 * clang cannot merge the identical begins of two transactions, one in
 * each arm of an if, into one begin above the branch (or their commits
 * into one below it): -O1 and above did, leaving one begin with two
 * commits, which the loader refuses. One written site inlined twice (a
 * static helper holding a whole transaction, called from both arms) is
 * still one site: mark such a helper __attribute__((noinline)). */
#define GPU_TX_SITE_ " # site " GPU_STRINGIFY(__COUNTER__)
#define gpu_tx_begin() __asm__ volatile(".insn r 0x0b, 2, 0, x0, x0, x0" GPU_TX_SITE_ ::: "memory")
/* Yields non-zero when the transaction committed. */
#define gpu_tx_commit()                                                                              \
    ({                                                                                               \
        uint32_t gpu_tx_committed_;                                                                  \
        __asm__ volatile(".insn r 0x0b, 3, 0, %0, x0, x0" GPU_TX_SITE_ : "=r"(gpu_tx_committed_)::"memory"); \
        gpu_tx_committed_;                                                                           \
    })

/* Persistence (the persistent window, gpu_malloc_persistent; on a platform
 * with NVM controllers a write is durable once a controller's write-pending
 * queue holds it, ADR). Each op acts on the persistent window only: an
 * address outside it fails the run naming the lane and the instruction;
 * inside a transaction each fails the run too (persist after tx_commit).
 * The window is memory only where the netlist maps it: gpu_pm.lua and
 * gtx480_pm.lua route it to NVM controllers, simt_1core.lua keeps it in its
 * one memory (no durable image); elsewhere (gtx480*.lua) no memory answers
 * there: a host copy fails at once, a kernel's access when its line
 * reaches the DRAM controller (the caches may hold it until then).
 *
 * gpu_clwb: writes the line holding address back from every cache level to
 * the memory controller; complete (for gpu_sfence) once the controller has
 * accepted it, i.e. durable. The line stays cached. A plain store alone is
 * durable only once its line is evicted from the L2 (write-back).
 * gpu_store_nontemporal: a 4-byte store that bypasses the caches (their
 * copies of the line are dropped, written back first if dirty) straight
 * into the controller's WPQ; complete once accepted (durable).
 * gpu_sfence: the persist barrier, per warp: the warp issues nothing more
 * until all its earlier memory instructions have completed (clwbs and
 * non-temporal stores: durable; plain stores: taken by the L2, not
 * durable). The AGPM paper's CTA-level ordering is gpu_sfence in every warp
 * followed by gpu_sync_threads() (which also waits for the warp's earlier
 * accesses before it arrives, so every warp's clwbs are durable when the
 * CTA leaves it).
 * gpu_persist_log: a 4-byte log update of a durable transaction (AGPM's
 * log-update instruction): complete once durable, like a non-temporal store;
 * its request is flagged SIMTX_FLAG_PM_LOG so that a path selector between
 * the LD/ST unit and the L1 may send it the temporal way instead (store,
 * then a clean of its line, complete once the clean is). Without a
 * selector it is a non-temporal store. Persistent window only, outside
 * transactions, like the others.
 * gpu_persist_log_name: the same for the log entry's word naming the data it
 * logs (its address): flagged SIMTX_FLAG_PM_LOG_NAMES too, so that AGPM's
 * buffers track the logged data's block (the paper's locality between a
 * log update and the data update that follows it), not the log's. */
GPU_INLINE void gpu_clwb(const void *address) { __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, x0" ::"r"(address) : "memory"); }
GPU_INLINE void gpu_sfence(void) { __asm__ volatile(".insn r 0x0b, 5, 0, x0, x0, x0" ::: "memory"); }
GPU_INLINE void gpu_store_nontemporal(uint32_t *address, uint32_t value)
{
    __asm__ volatile(".insn s 0x2b, 2, %1, 0(%0)" ::"r"(address), "r"(value) : "memory");
}
GPU_INLINE void gpu_persist_log(uint32_t *address, uint32_t value)
{
    __asm__ volatile(".insn s 0x2b, 3, %1, 0(%0)" ::"r"(address), "r"(value) : "memory");
}
GPU_INLINE void gpu_persist_log_name(uint32_t *address, const volatile void *logged)
{
    __asm__ volatile(".insn s 0x2b, 4, %1, 0(%0)" ::"r"(address), "r"(logged) : "memory");
}

/* Atomics through the A extension, executed at the memory side (global) or
 * in the core (shared memory). Each returns the old value. */
#define GPU_AMO(name, insn)                                                           \
    GPU_INLINE uint32_t name(volatile uint32_t *address, uint32_t value)              \
    {                                                                                 \
        uint32_t old;                                                                 \
        __asm__ volatile(insn " %0, %2, (%1)" : "=r"(old) : "r"(address), "r"(value) : "memory"); \
        return old;                                                                   \
    }
GPU_AMO(gpu_atomic_add, "amoadd.w")
GPU_AMO(gpu_atomic_exchange, "amoswap.w")
GPU_AMO(gpu_atomic_and, "amoand.w")
GPU_AMO(gpu_atomic_or, "amoor.w")
GPU_AMO(gpu_atomic_xor, "amoxor.w")
GPU_AMO(gpu_atomic_min, "amomin.w")
GPU_AMO(gpu_atomic_max, "amomax.w")
GPU_AMO(gpu_atomic_min_unsigned, "amominu.w")
GPU_AMO(gpu_atomic_max_unsigned, "amomaxu.w")
#undef GPU_AMO

/* Address windows (see kernel.ld and models/core/simt_core/README.md). */
#define GPU_SHARED_BASE 0x80000000u
#define GPU_SHARED(type, name) __attribute__((section(".shared"))) type name

/* Dynamic shared memory (CUDA's `extern __shared__` array): the bytes the
 * launch asked for (gpu_launch's shared_bytes, the third <<<>>> argument),
 * per CTA, zeroed at the CTA's start. They follow the kernel's own static
 * GPU_SHARED variables in the CTA's region, word aligned; the CTA owns
 * exactly static + dynamic bytes (an access past them fails the run, and
 * the sum decides how many CTAs a core holds at once). Same address in
 * every thread of the launch:
 *   float *tile = (float *)gpu_dynamic_shared();  // block * 4 bytes asked */
GPU_INLINE void *gpu_dynamic_shared(void) { return (void *)(uintptr_t)GPU_READ_CSR(GPU_CSR_DYNAMIC_SHARED); }

/* A kernel: `GPU_KERNEL void name(const struct my_args *args)`. */
#define GPU_KERNEL __attribute__((used, noinline))

#endif
