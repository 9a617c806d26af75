/* pm_pathfinder: Pathfinder (Rodinia: the cheapest path from the top row of
 * a rows x n grid of costs 0..9 to each column of the bottom row, moving
 * down, down-left or down-right) on persistent memory, one launch per row
 * after the first, ping-ponging between two result rows, each CTA's columns
 * one durable transaction (durable_common.h). Oracle: the row after each
 * launch, against the host's own dynamic programme; each launch's durable
 * image checked after it or after a power failure (which ends the workload). */
#include "durable_common.h"

int pm_pathfinder_main(gpu_device *device, workload_context *context)
{
    uint32_t cols = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 22);
    uint32_t rows = (uint32_t)workload_int(context, "rows", 8, 2, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_pathfinder", &run) || context->bad_input) return 1;
    size_t count = (size_t)rows * cols;
    uint32_t ctas = (cols + block - 1) / block;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    uint32_t *wall = malloc(4 * count), *row[2] = {malloc(4 * (size_t)cols), malloc(4 * (size_t)cols)}, *after = malloc(4 * (size_t)cols),
             *owner = malloc(4 * (size_t)cols);
    if (!wall || !row[0] || !row[1] || !after || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) wall[i] = (uint32_t)(workload_random(&seed) % 10);
    for (uint32_t j = 0; j < cols; j++) {
        row[0][j] = wall[j];
        row[1][j] = (uint32_t)workload_random(&seed); /* what the second result row holds before its first launch */
        owner[j] = j / block;
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t dwall, drow[2];
    HOST_CHECK(dwall = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(drow[0] = gpu_malloc_persistent(device, 4 * (size_t)cols));
    HOST_CHECK(drow[1] = gpu_malloc_persistent(device, 4 * (size_t)cols));
    HOST_CHECK(gpu_copy_to_device(device, dwall, wall, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, drow[0], row[0], 4 * (size_t)cols));
    HOST_CHECK(gpu_copy_to_device(device, drow[1], row[1], 4 * (size_t)cols));
    for (uint32_t r = 1; r < rows; r++) {
        const uint32_t *src = row[(r - 1) % 2];
        for (uint32_t j = 0; j < cols; j++) {
            uint32_t best = src[j];
            if (j > 0 && src[j - 1] < best) best = src[j - 1];
            if (j + 1 < cols && src[j + 1] < best) best = src[j + 1];
            after[j] = wall[(size_t)r * cols + j] + best;
        }
        struct pm_pathfinder_args args = {{0, 0, 0, 0}, 0, 1, dwall, drow[(r - 1) % 2], drow[r % 2], cols, r};
        durable_launch launch = {"pm_pathfinder", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "result", drow[r % 2],
                                 row[r % 2], after, owner, cols, r + 1 == rows, 1};
        if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed)) || crashed) goto done;
        memcpy(row[r % 2], after, 4 * (size_t)cols);
    }
    if (context->log) fprintf(context->log, "pm_pathfinder: %u elements correct (%u rows)\n", cols, rows);
done:
    gpu_module_unload(module);
    free(wall), free(row[0]), free(row[1]), free(after), free(owner);
    return status;
}
