/* Fails at run time: a transaction that faults on every attempt (not a
 * doomed one: the bad address does not depend on what it reads). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    gpu_tx_begin();
    *(volatile uint32_t *)(0x90000000u + args->n) = 1;
    gpu_tx_commit();
}
