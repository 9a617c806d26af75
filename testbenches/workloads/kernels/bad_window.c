/* Loads fine; stores outside every address window at run time. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    volatile uint32_t *nowhere = (volatile uint32_t *)(0x90000000u + 4 * i);
    if (i < args->n) *nowhere = i;
}
