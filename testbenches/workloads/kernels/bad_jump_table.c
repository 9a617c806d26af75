/* Rejected at load time: an indirect jump (what a jump table compiles to). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t target;
    __asm__ volatile("lla %0, 1f\n\tjr %0\n1:" : "=r"(target));
    ((uint32_t *)args->c)[gpu_global_id_x()] = target;
}
