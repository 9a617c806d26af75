/* y[i] = alpha * x[i] + y[i] in single precision, and each thread's
 * gpu_clock() before and after (four words: start low, high, end low, high). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void saxpy(const struct saxpy_args *args)
{
    uint64_t start = gpu_clock();
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    const float *x = (const float *)args->x;
    float *y = (float *)args->y;
    y[i] = args->alpha * x[i] + y[i];
    uint64_t end = gpu_clock();
    uint32_t *clocks = (uint32_t *)args->clocks + 4 * i;
    clocks[0] = (uint32_t)start, clocks[1] = (uint32_t)(start >> 32);
    clocks[2] = (uint32_t)end, clocks[3] = (uint32_t)(end >> 32);
}
