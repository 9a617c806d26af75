/* pm_gemm: GEMM (C = alpha A B + beta C, n x n) on persistent memory,
 * tx_per_cta durable transactions per CTA (durable_common.h). Oracle: every element of
 * C; the durable image checked after the run or after a power failure. */
#include "durable_common.h"

int pm_gemm_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 32, 1, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_gemm", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((count + (size_t)block * run.tx_per_cta - 1) / ((size_t)block * run.tx_per_cta));
    const uint32_t alpha = 3, beta = 2;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *a = malloc(4 * count), *b = malloc(4 * count), *before = malloc(4 * count), *after = malloc(4 * count),
             *owner = malloc(4 * count), *result = malloc(4 * count);
    if (!a || !b || !before || !after || !owner || !result) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        a[i] = (uint32_t)workload_random(&seed) & 0xff;
        b[i] = (uint32_t)workload_random(&seed) & 0xff;
        before[i] = (uint32_t)workload_random(&seed);
        owner[i] = (uint32_t)(i / block);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < n; k++) sum += a[(size_t)i * n + k] * b[(size_t)k * n + j];
            after[(size_t)i * n + j] = alpha * sum + beta * before[(size_t)i * n + j];
        }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, db, dc;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(db = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dc = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, db, b, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dc, before, 4 * count));
    HOST_CHECK(durable_prepare(device, &run, ctas, block, 1));
    struct pm_gemm_args args = {run.region, run.path, run.tx_per_cta, da, db, dc, n, alpha, beta};
    HOST_CHECK(gpu_launch(device, module, "pm_gemm", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(durable_synchronize(device, &run));
    if (!run.crashed) {
        HOST_CHECK(gpu_copy_from_device(device, result, dc, 4 * count));
        for (size_t i = 0; i < count; i++)
            if (result[i] != after[i]) {
                status = workload_fail(context, "pm_gemm: C[%zu][%zu] = %u, expected %u", i / n, i % n, result[i], after[i]);
                goto done;
            }
        if (context->log) fprintf(context->log, "pm_gemm: %zu elements correct\n", count);
    }
    status = durable_check_words(device, context, &run, dc, before, after, owner, count);
done:
    gpu_module_unload(module);
    free(a), free(b), free(before), free(after), free(owner), free(result);
    return status;
}
