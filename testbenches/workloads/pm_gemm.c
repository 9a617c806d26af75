/* pm_gemm: GEMM (C = alpha A B + beta C, n x n) on persistent memory,
 * tx_per_cta durable transactions per CTA (durable_common.h); option chunk
 * (default n): the k loop in transactions of chunk iterations, each logging
 * the output again. Oracle: every element of C; the durable image checked
 * after the run or after a power failure, against C after each chunk. */
#include "durable_common.h"

int pm_gemm_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 32, 1, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    uint32_t chunk = (uint32_t)workload_int(context, "chunk", n, 1, n);
    durable_run run;
    if (durable_options(context, "pm_gemm", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((count + (size_t)block * run.tx_per_cta - 1) / ((size_t)block * run.tx_per_cta));
    const uint32_t alpha = 3, beta = 2;
    uint32_t steps = (n + chunk - 1) / chunk;
    int status = 0;
    gpu_module *module = NULL;
    /* values: C after each chunk (values[0 .. count-1]: before the first). */
    uint32_t *a = malloc(4 * count), *b = malloc(4 * count), *values = malloc(4 * count * (steps + 1u)), *owner = malloc(4 * count),
             *result = malloc(4 * count);
    uint32_t *before = values, *after = values ? values + (size_t)steps * count : NULL;
    if (!a || !b || !values || !owner || !result) {
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
            uint32_t value = beta * before[(size_t)i * n + j];
            for (uint32_t start = 0; start < n; start += chunk) {
                uint32_t sum = 0;
                for (uint32_t k = start; k < n && k < start + chunk; k++) sum += a[(size_t)i * n + k] * b[(size_t)k * n + j];
                value += alpha * sum;
                values[(size_t)(start / chunk + 1) * count + (size_t)i * n + j] = value;
            }
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
    struct pm_gemm_args args = {run.region, run.path, run.tx_per_cta, da, db, dc, n, alpha, beta, chunk};
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
    status = durable_check_steps(device, context, &run, dc, values, steps, owner, count);
done:
    gpu_module_unload(module);
    free(a), free(b), free(values), free(owner), free(result);
    return status;
}
