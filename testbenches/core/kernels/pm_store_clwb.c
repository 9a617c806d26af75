/* c = a + b made durable: each store written back by clwb, the sfence
 * waiting for the NVM controllers' acceptance before the thread ends. */
#include "gpu.h"
#include "pm_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) {
        const int32_t *a = (const int32_t *)args->a, *b = (const int32_t *)args->b;
        int32_t *c = (int32_t *)args->c;
        c[i] = a[i] + b[i];
        gpu_clwb(&c[i]);
        gpu_sfence();
    }
}
