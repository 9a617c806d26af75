/* Fails at run time: a barrier inside a transaction. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    gpu_tx_begin();
    ((uint32_t *)args->c)[gpu_global_id_x()] = 1;
    gpu_sync_threads();
    gpu_tx_commit();
}
