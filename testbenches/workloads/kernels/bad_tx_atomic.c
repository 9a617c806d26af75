/* Fails at run time: an atomic inside a transaction (not supported). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    gpu_tx_begin();
    gpu_atomic_add((volatile uint32_t *)args->c, 1);
    gpu_tx_commit();
}
