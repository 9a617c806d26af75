/* c = a + b by non-temporal stores, between two loads of c[i]: the first
 * leaves a copy of the old line in the caches, which the non-temporal store
 * must drop, so the second load reads the new value; that value is stored
 * to c[i] again (a plain store), so a stale copy shows as a wrong sum. */
#include "gpu.h"
#include "pm_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i < args->n) {
        const int32_t *a = (const int32_t *)args->a, *b = (const int32_t *)args->b;
        volatile int32_t *c = (volatile int32_t *)args->c;
        int32_t before = c[i];
        gpu_store_nontemporal((uint32_t *)&c[i], (uint32_t)(a[i] + b[i]));
        int32_t after = c[i];
        c[i] = after + (before & 0); /* keeps the first load */
    }
}
