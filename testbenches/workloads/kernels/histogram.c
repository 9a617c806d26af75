/* Histogram: per-CTA bins in static shared memory (shared atomics), then
 * one global atomic add per bin and CTA; and the largest value through a
 * compare-and-swap loop (lr/sc). */
#include "gpu.h"
#include "workload_args.h"

#define MAX_BINS 256
GPU_SHARED(static uint32_t, local_bins[MAX_BINS]);

GPU_KERNEL void histogram(const struct histogram_args *args)
{
    uint32_t t = gpu_thread_x(), threads = gpu_block_dim_x();
    uint32_t bin_count = args->bin_count;
    for (uint32_t b = t; b < bin_count; b += threads) local_bins[b] = 0;
    gpu_sync_threads();
    const uint32_t *input = (const uint32_t *)args->input;
    uint32_t stride = threads * gpu_grid_dim_x(), mine = 0;
    for (uint32_t i = gpu_global_id_x(); i < args->n; i += stride) {
        gpu_atomic_add(&local_bins[input[i] % bin_count], 1);
        if (input[i] > mine) mine = input[i];
    }
    /* The largest value through a compare-and-swap loop (lr/sc). */
    uint32_t *maximum = (uint32_t *)args->maximum;
    uint32_t seen = __atomic_load_n(maximum, __ATOMIC_RELAXED);
    while (mine > seen && !__atomic_compare_exchange_n(maximum, &seen, mine, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    gpu_sync_threads();
    uint32_t *bins = (uint32_t *)args->bins;
    for (uint32_t b = t; b < bin_count; b += threads)
        if (local_bins[b]) gpu_atomic_add(&bins[b], local_bins[b]);
}
