/* Bad use the loader cannot see: an sfence in a function called inside a
 * transaction (the core refuses it at run time, naming the lane). */
#include "gpu.h"
#include "pm_args.h"

__attribute__((noinline)) static void persist_barrier(void) { gpu_sfence(); }

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) {
        const int32_t *a = (const int32_t *)args->a, *b = (const int32_t *)args->b;
        int32_t *c = (int32_t *)args->c;
        gpu_tx_begin();
        c[i] = a[i] + b[i];
        persist_barrier();
        gpu_tx_commit();
    }
}
