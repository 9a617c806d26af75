/* Computes a + b but thread 5 also stores 100 MiB past c: the run passes
 * when the memory checker is off (--no-memcheck). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) ((uint32_t *)args->c)[i] = ((const uint32_t *)args->a)[i] + ((const uint32_t *)args->b)[i];
    if (i == 5) *(volatile uint32_t *)(args->c + (100u << 20)) = i;
}
