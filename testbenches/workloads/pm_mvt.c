/* pm_mvt: MVT's first kernel (x1 += A y1, n x n) on persistent memory,
 * tx_per_cta durable transactions per CTA, x1 persisted every iteration
 * (durable_common.h); option chunk (default n): a row walked in
 * transactions of chunk iterations, each logging its word again. Oracle:
 * every element of x1; the durable image checked after the run or after a
 * power failure, against x1 after each chunk. */
#include "durable_common.h"

int pm_mvt_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 4096);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    uint32_t chunk = (uint32_t)workload_int(context, "chunk", n, 1, n);
    durable_run run;
    if (durable_options(context, "pm_mvt", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((n + (uint64_t)block * run.tx_per_cta - 1) / ((uint64_t)block * run.tx_per_cta));
    uint32_t steps = (n + chunk - 1) / chunk;
    int status = 0;
    gpu_module *module = NULL;
    /* values: x1 after each chunk (values[0 .. n-1]: before the first). */
    uint32_t *a = malloc(4 * count), *y1 = malloc(4 * (size_t)n), *values = malloc(4 * (size_t)n * (steps + 1u)),
             *owner = malloc(4 * (size_t)n), *result = malloc(4 * (size_t)n);
    uint32_t *before = values, *after = values ? values + (size_t)steps * n : NULL;
    if (!a || !y1 || !values || !owner || !result) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) a[i] = (uint32_t)workload_random(&seed);
    for (uint32_t i = 0; i < n; i++) {
        y1[i] = (uint32_t)workload_random(&seed);
        before[i] = (uint32_t)workload_random(&seed);
        owner[i] = i / block;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = before[i];
        for (uint32_t j = 0; j < n; j++) {
            x += a[(size_t)i * n + j] * y1[j];
            if ((j + 1) % chunk == 0 || j + 1 == n) values[(size_t)(j / chunk + 1) * n + i] = x;
        }
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, dy1, dx1;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dy1 = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(dx1 = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dy1, y1, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, dx1, before, 4 * (size_t)n));
    HOST_CHECK(durable_prepare(device, &run, ctas, block, 1));
    struct pm_mvt_args args = {run.region, run.path, run.tx_per_cta, da, dy1, dx1, n, chunk};
    HOST_CHECK(gpu_launch(device, module, "pm_mvt", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(durable_synchronize(device, &run));
    if (!run.crashed) {
        HOST_CHECK(gpu_copy_from_device(device, result, dx1, 4 * (size_t)n));
        for (uint32_t i = 0; i < n; i++)
            if (result[i] != after[i]) {
                status = workload_fail(context, "pm_mvt: x1[%u] = %u, expected %u", i, result[i], after[i]);
                goto done;
            }
        if (context->log) fprintf(context->log, "pm_mvt: %u elements correct\n", n);
    }
    status = durable_check_steps(device, context, &run, dx1, values, steps, owner, n);
done:
    gpu_module_unload(module);
    free(a), free(y1), free(values), free(owner), free(result);
    return status;
}
