/* Rejected at load time: a call through a function pointer (may diverge). */
#include "gpu.h"
#include "workload_args.h"

__attribute__((noinline)) static uint32_t twice(uint32_t v) { return 2 * v; }
__attribute__((noinline)) static uint32_t square(uint32_t v) { return v * v; }
static uint32_t (*volatile operations[2])(uint32_t) = {twice, square};

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    ((uint32_t *)args->c)[i] = operations[i & 1](i);
}
