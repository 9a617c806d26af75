/* vector_add with a CTA barrier on each side of a divergent branch whose
 * reconvergence lies past both barriers (each side ends the kernel): a
 * warp's even and odd lanes reach different barriers at different times.
 * Each lane hands its sum to its partner (lane ^ 1) through shared memory,
 * so the result is right only if a barrier waits for every thread of the
 * CTA, not for the first lanes of each warp (per-thread barrier semantics;
 * the SIMT core README). Needs an even block of at most 1024 threads. */
#include "gpu.h"
#include "workload_args.h"

GPU_SHARED(static uint32_t, sums[1024]);
GPU_SHARED(static uint32_t, parts[1024]);

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    const uint32_t *a = (const uint32_t *)args->a, *b = (const uint32_t *)args->b;
    uint32_t *c = (uint32_t *)args->c;
    uint32_t t = gpu_thread_x(), i = gpu_global_id_x(), n = args->n;
    if (t & 1) { /* odd lanes: the whole sum, read back whole */
        sums[t] = i < n ? a[i] + b[i] : 0;
        gpu_sync_threads();
        if ((i ^ 1) < n) c[i ^ 1] = sums[t ^ 1] + parts[t ^ 1];
        return;
    }
    /* even lanes: the sum in two parts, read back as one */
    sums[t] = i < n ? a[i] : 0;
    parts[t] = i < n ? b[i] : 0;
    gpu_sync_threads();
    if ((i ^ 1) < n) c[i ^ 1] = sums[t ^ 1];
}
