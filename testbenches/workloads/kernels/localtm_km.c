/* GPU-LocalTM K-Means, one iteration (section 5.1.2): each work-item takes
 * one 3-D point, finds its nearest center in parallel (centers copied to
 * the LDS, read outside transactions), then in a transaction adds the
 * point to that center's sums and count (a read-modify-write of four
 * words in one bank). After a barrier the first work-items write each
 * center's sums, count and new position (sum / count) to global memory.
 * Single-precision floats on integer-valued coordinates below 1024: every
 * distance and sum is exact, so any serial order gives the same bits. */
#include "localtm.h"

GPU_KERNEL void localtm_km(const struct localtm_km_args *args)
{
    volatile float *region = LOCALTM_DATA_FLOAT;
    volatile uint32_t *words = LOCALTM_DATA;
    uint32_t t = gpu_thread_x(), threads = gpu_block_dim_x(), k = args->center_count, at = args->coordinates_word;
    const float *centers = (const float *)args->centers;
    for (uint32_t i = t; i < 3u * k; i += threads) region[at + i] = centers[i];
    gpu_sync_threads();
    const float *point = (const float *)args->points + 3u * t;
    float x = point[0], y = point[1], z = point[2];
    uint32_t best = 0;
    float best_distance = 0;
    for (uint32_t c = 0; c < k; c++) {
        float dx = x - region[at + 3u * c], dy = y - region[at + 3u * c + 1u], dz = z - region[at + 3u * c + 2u];
        float distance = dx * dx + dy * dy + dz * dz;
        if (c == 0 || distance < best_distance) best_distance = distance, best = c;
    }
    LOCALTM_TRANSACTION(&words[args->lock_word], {
        region[LOCALTM_KM_SUM_WORD(best, 0u)] += x;
        region[LOCALTM_KM_SUM_WORD(best, 1u)] += y;
        region[LOCALTM_KM_SUM_WORD(best, 2u)] += z;
        words[LOCALTM_KM_SUM_WORD(best, 3u)] += 1u;
    });
    ((uint32_t *)args->assigned)[t] = best;
    gpu_sync_threads();
    float *sums = (float *)args->sums;
    for (uint32_t c = t; c < k; c += threads) {
        uint32_t count = words[LOCALTM_KM_SUM_WORD(c, 3u)];
        for (uint32_t d = 0; d < 3u; d++) {
            float sum = region[LOCALTM_KM_SUM_WORD(c, d)];
            sums[7u * c + d] = sum;
            sums[7u * c + 4u + d] = count ? sum / (float)count : centers[3u * c + d];
        }
        ((uint32_t *)sums)[7u * c + 3u] = count;
    }
}
