/* Loads and starts, but thread 0 spins forever without a store: only its
 * stack changes (a volatile local), which no other thread can see. The
 * watchdog must stop it as a livelock; every other thread exits. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    volatile uint32_t spins = 0;
    if (gpu_global_id_x() == 0)
        while (args->n) spins++;
}
