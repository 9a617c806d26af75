/* Loads and runs fine but computes a - b: the vector_add oracle must fail. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) ((uint32_t *)args->c)[i] = ((const uint32_t *)args->a)[i] - ((const uint32_t *)args->b)[i];
}
