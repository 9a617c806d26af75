/* pm_sgemm: SGEMM (C = alpha A B + beta C, n x n floats, n a multiple of
 * PM_SGEMM_TILE) on persistent memory with shared-memory tiles, one durable
 * transaction per CTA and tile of C (durable_common.h). Inputs are small
 * integers (A, B in 0..7, C in 0..255; alpha 2, beta 3), so every float the
 * kernel forms is an exact integer and the oracle is exact (bit-equal).
 * Oracle: every element of C; the durable image checked after the run or
 * after a power failure. */
#include "durable_common.h"

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

int pm_sgemm_main(gpu_device *device, workload_context *context)
{
    const uint32_t tile = PM_SGEMM_TILE;
    uint32_t n = (uint32_t)workload_int(context, "n", 64, tile, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_sgemm", &run) || context->bad_input) return 1;
    if (n % tile) return workload_bad_option(context, "workload.n: expected a multiple of the tile (%u), got %u", tile, n);
    size_t count = (size_t)n * n;
    uint32_t tiles = n / tile;
    const uint32_t alpha = 2, beta = 3;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    uint32_t *a = malloc(4 * count), *b = malloc(4 * count), *before = malloc(4 * count), *after = malloc(4 * count), *owner = malloc(4 * count);
    if (!a || !b || !before || !after || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        a[i] = float_bits((float)(workload_random(&seed) & 7));
        b[i] = float_bits((float)(workload_random(&seed) & 7));
        before[i] = float_bits((float)(workload_random(&seed) & 0xff));
        owner[i] = (uint32_t)(i / n / tile * tiles + i % n / tile);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint64_t sum = 0; /* exact: the floats are integers below 2^24 */
            for (uint32_t k = 0; k < n; k++) {
                float x, y;
                memcpy(&x, &a[(size_t)i * n + k], 4), memcpy(&y, &b[(size_t)k * n + j], 4);
                sum += (uint64_t)x * (uint64_t)y;
            }
            float c;
            memcpy(&c, &before[(size_t)i * n + j], 4);
            after[(size_t)i * n + j] = float_bits((float)(alpha * sum + beta * (uint64_t)c));
        }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, db, dc;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(db = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dc = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, db, b, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dc, before, 4 * count));
    struct pm_sgemm_args args = {{0, 0, 0, 0}, 0, 1, da, db, dc, n, alpha, beta};
    durable_launch launch = {"pm_sgemm", {tiles, tiles, 1}, {tile, tile, 1}, &args, sizeof args, 2 * tile * tile * 4, 1, "C", dc,
                             before, after, owner, count, true, 1};
    if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    if (!crashed && context->log) fprintf(context->log, "pm_sgemm: %zu elements correct\n", count);
done:
    gpu_module_unload(module);
    free(a), free(b), free(before), free(after), free(owner);
    return status;
}
