/* One row of Pathfinder (Rodinia's dynamic programming on a grid, pyramid
 * height 1) as a durable transaction per CTA: dst[j] = wall[row][j] + the
 * least of src[j - 1], src[j], src[j + 1], each thread one column, the
 * previous row read through the caches (neighbouring threads share its
 * lines: the AGPM paper's Pathfinder, reason d) rather than Rodinia's
 * shared-memory pyramid. Integer, as Rodinia's. */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_pathfinder(const struct pm_pathfinder_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t cols = args->cols, j = gpu_global_id_x(), active = j < cols;
    volatile uint32_t *dst = (volatile uint32_t *)args->dst;
    const uint32_t *src = (const uint32_t *)args->src, *wall = (const uint32_t *)args->wall;
    if (active) gpu_durable_log(&tx, &dst[j]);
    gpu_durable_begin(&tx);
    if (active) {
        uint32_t best = src[j];
        if (j > 0 && src[j - 1] < best) best = src[j - 1];
        if (j + 1 < cols && src[j + 1] < best) best = src[j + 1];
        gpu_durable_store(&tx, &dst[j], wall[args->row * cols + j] + best);
    }
    gpu_durable_commit(&tx);
}
