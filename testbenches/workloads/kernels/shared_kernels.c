/* Two kernels of different static shared-memory needs in one module, and
 * dynamic shared memory. Each kernel is charged the .shared variables its
 * own code reaches (models/core/simt_core/kernel_shared.h): shared_small
 * 32 bytes (small_counts, defined first, at the window's base), and
 * shared_large 8 KB more (large_table, after it). shared_small also takes
 * the launch's dynamic bytes (gpu_dynamic_shared, after its 32 static
 * bytes): its CTA tile. */
#include "gpu.h"
#include "workload_args.h"

GPU_SHARED(uint32_t, small_counts[SHARED_KERNELS_SMALL_WORDS]);
GPU_SHARED(uint32_t, large_table[SHARED_KERNELS_LARGE_WORDS]);

/* A CTA is resident from its first barrier to its last: counted in
 * *resident, the most at once in *peak. */
static inline void arrive(const struct shared_kernels_args *args)
{
    if (gpu_thread_x() == 0) {
        uint32_t before = gpu_atomic_add((volatile uint32_t *)args->resident, 1);
        gpu_atomic_max_unsigned((volatile uint32_t *)args->peak, before + 1);
    }
    gpu_sync_threads();
}

static inline void leave(const struct shared_kernels_args *args)
{
    gpu_sync_threads();
    if (gpu_thread_x() == 0) gpu_atomic_add((volatile uint32_t *)args->resident, (uint32_t)-1);
}

/* out[i] = the CTA's input reversed (through the dynamic tile) plus how
 * many threads of the CTA share t % 8 (counted in small_counts). */
GPU_KERNEL void shared_small(const struct shared_kernels_args *args)
{
    uint32_t *tile = (uint32_t *)gpu_dynamic_shared();
    const uint32_t *input = (const uint32_t *)args->input;
    uint32_t *out = (uint32_t *)args->output;
    uint32_t t = gpu_thread_x(), block = gpu_block_dim_x(), i = gpu_global_id_x();
    arrive(args);
    tile[t] = i < args->n ? input[i] : 0;
    gpu_atomic_add(&small_counts[t % SHARED_KERNELS_SMALL_WORDS], 1);
    gpu_sync_threads();
    if (i < args->n) out[i] = tile[block - 1 - t] + small_counts[t % SHARED_KERNELS_SMALL_WORDS];
    leave(args);
}

/* out[i] = input[i] + large_table[2047 - t], the table filled by the whole
 * CTA with 3 k + the CTA's index. */
GPU_KERNEL void shared_large(const struct shared_kernels_args *args)
{
    const uint32_t *input = (const uint32_t *)args->input;
    uint32_t *out = (uint32_t *)args->output;
    uint32_t t = gpu_thread_x(), block = gpu_block_dim_x(), i = gpu_global_id_x();
    arrive(args);
    for (uint32_t k = t; k < SHARED_KERNELS_LARGE_WORDS; k += block) large_table[k] = 3 * k + gpu_block_x();
    gpu_sync_threads();
    if (i < args->n) out[i] = input[i] + large_table[(SHARED_KERNELS_LARGE_WORDS - 1 - t) % SHARED_KERNELS_LARGE_WORDS];
    leave(args);
}
