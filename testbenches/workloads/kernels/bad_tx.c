/* Rejected at load time: the transaction does not end on every path (its
 * tx_begin has no post-dominating tx_commit). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    gpu_tx_begin();
    ((uint32_t *)args->c)[i] = 1;
    if (i & 1) gpu_tx_commit();
}
