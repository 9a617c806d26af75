/* Rejected at load time until transactions are implemented. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    gpu_tx_begin();
    ((uint32_t *)args->c)[gpu_global_id_x()] = 1;
    gpu_tx_commit();
}
