/* Loads fine; thread 5 executes an illegal instruction at run time. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i == 5) __builtin_trap();
    if (i < args->n) ((uint32_t *)args->c)[i] = i;
}
