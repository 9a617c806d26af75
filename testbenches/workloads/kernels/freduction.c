/* Tree reduction of floats in shared memory (dynamic shared bytes =
 * block * 4): one partial sum per CTA. The block size must be a power of
 * two. The float twin of reduction.c. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void freduction(const struct freduction_args *args)
{
    float *partial = (float *)GPU_SHARED_BASE;
    const float *input = (const float *)args->input;
    uint32_t t = gpu_thread_x(), i = gpu_global_id_x();
    partial[t] = i < args->n ? input[i] : 0.0f;
    gpu_sync_threads();
    for (uint32_t stride = gpu_block_dim_x() / 2; stride > 0; stride >>= 1) {
        if (t < stride) partial[t] += partial[t + stride];
        gpu_sync_threads();
    }
    if (t == 0) ((float *)args->partial_sums)[gpu_block_x()] = partial[0];
}
