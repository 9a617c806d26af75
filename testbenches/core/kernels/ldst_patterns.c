/* Access patterns with known coalescing and bank-conflict costs. */
#include "gpu.h"

struct pattern_args {
    uint32_t data, out, stride;
};

GPU_KERNEL void global_stride(const struct pattern_args *args)
{
    uint32_t t = gpu_thread_x();
    const volatile uint32_t *data = (const volatile uint32_t *)args->data;
    ((volatile uint32_t *)args->out)[t] = data[t * args->stride];
}

GPU_KERNEL void shared_stride(const struct pattern_args *args)
{
    uint32_t t = gpu_thread_x();
    volatile uint32_t *shared = (volatile uint32_t *)GPU_SHARED_BASE;
    shared[t * args->stride] = t;
}

/* A dependent chain of multiplications: each warp can issue only every
 * mul_latency cycles, so the scheduler decides which warps progress. */
GPU_KERNEL void mul_chain(const struct pattern_args *args)
{
    uint32_t x = gpu_thread_x() | 1;
    for (uint32_t i = 0; i < args->stride; i++) x = x * x + i;
    ((volatile uint32_t *)args->out)[gpu_thread_x()] = x;
}

/* Kernel globals: .data is initialised by the loader, .bss cleared. */
static uint32_t table[4] = {11, 22, 33, 44};
static uint32_t counter;

GPU_KERNEL void globals(const struct pattern_args *args)
{
    uint32_t t = gpu_thread_x();
    ((volatile uint32_t *)args->out)[t] = table[t & 3] + gpu_atomic_add(&counter, 0) * 0;
    gpu_atomic_add(&counter, 1);
    if (t == 0) table[0] = 99; /* a store to .data: visible to the host */
}
