/* Fails at run time: lanes that skip a CTA barrier in a function wait at its
 * return (to reconverge with the lanes at the barrier), past the barrier
 * (the SIMT core README's barrier semantics). */
#include "gpu.h"
#include "workload_args.h"

__attribute__((noinline)) static void first_lanes_wait(volatile uint32_t *c, uint32_t i)
{
    if (gpu_thread_x() < 3) {
        c[i] = 1;
        gpu_sync_threads();
    }
}

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    first_lanes_wait((volatile uint32_t *)args->c, i);
    if (i < args->n) ((uint32_t *)args->c)[i] = ((const uint32_t *)args->a)[i] + ((const uint32_t *)args->b)[i];
}
