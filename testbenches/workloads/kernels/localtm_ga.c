/* GPU-LocalTM Genetic Algorithm, knapsack of 8 objects (section 5.1.3):
 * each work-item's transaction reads two solutions, keeps the fitter and
 * turns the weaker into a crossover of both, and writes both back (see
 * localtm_args.h). The words read are logged after the commit so that the
 * host can rebuild a serial order. */
#include "localtm.h"

GPU_KERNEL void localtm_ga(const struct localtm_ga_args *args)
{
    volatile uint32_t *set = LOCALTM_DATA;
    uint32_t t = gpu_thread_x(), threads = gpu_block_dim_x(), solutions = args->solutions;
    for (uint32_t i = t; i < solutions; i += threads) set[i] = ((const uint32_t *)args->initial)[i];
    gpu_sync_threads();
    uint32_t a = ((const uint32_t *)args->first)[t], b = ((const uint32_t *)args->second)[t];
    uint32_t cross = ((const uint32_t *)args->cross)[t], tag = (t + 1u) << 8;
    uint32_t capacity = args->capacity, low = args->weights_low, high = args->weights_high;
    uint32_t read_a = 0, read_b = 0;
    LOCALTM_TRANSACTION(&set[args->lock_word], {
        read_a = set[a];
        read_b = set[b];
        uint32_t new_a, new_b;
        localtm_ga_crossover(read_a & 0xffu, read_b & 0xffu, cross, capacity, low, high, &new_a, &new_b);
        set[a] = new_a | tag;
        set[b] = new_b | tag;
    });
    ((uint32_t *)args->read_log)[2u * t] = read_a;
    ((uint32_t *)args->read_log)[2u * t + 1u] = read_b;
    gpu_sync_threads();
    for (uint32_t i = t; i < solutions; i += threads) ((uint32_t *)args->final_solutions)[i] = set[i];
}
