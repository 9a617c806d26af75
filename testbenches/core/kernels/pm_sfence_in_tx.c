/* Bad use: an sfence inside a transaction (the run must fail naming it). */
#include "gpu.h"
#include "pm_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) {
        const int32_t *a = (const int32_t *)args->a, *b = (const int32_t *)args->b;
        int32_t *c = (int32_t *)args->c;
        gpu_tx_begin();
        c[i] = a[i] + b[i];
        gpu_sfence();
        gpu_tx_commit();
    }
}
