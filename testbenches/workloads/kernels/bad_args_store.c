/* Loads fine; writes its own (read-only) argument block at run time. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(struct vector_add_args *args)
{
    if (gpu_global_id_x() == 3) args->n = 0;
}
