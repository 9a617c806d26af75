/* pm_atax: ATAX (y = A^T (A x), n x n) on persistent memory in two launches,
 * pm_atax1 (tmp += A x) then pm_atax2 (y += A^T tmp), each output persisted
 * every iteration, tx_per_cta durable transactions per CTA
 * (durable_common.h). Option stage: 1 or 2 runs that kernel alone (2 on the
 * host's exact tmp), 0 both. Option chunk (default n): each output's loop in
 * transactions of chunk iterations, each logging it again. Oracle: every
 * element of tmp and y (integers
 * mod 2^32); each launch's durable image checked after it or after a power
 * failure (which ends the workload). */
#include "durable_common.h"

int pm_atax_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 4096);
    uint32_t block = (uint32_t)workload_int(context, "block", 32, 1, 1024);
    uint32_t stage = (uint32_t)workload_int(context, "stage", 0, 0, 2);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    uint32_t chunk = (uint32_t)workload_int(context, "chunk", n, 1, n);
    durable_run run;
    if (durable_options(context, "pm_atax", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((n + (uint64_t)block * run.tx_per_cta - 1) / ((uint64_t)block * run.tx_per_cta));
    uint32_t steps = (n + chunk - 1) / chunk;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    /* tmp and y after each chunk (tmps[0 .. n-1], ys[0 .. n-1]: before the first). */
    uint32_t *a = malloc(4 * count), *x = malloc(4 * (size_t)n), *tmps = malloc(4 * (size_t)n * (steps + 1u)),
             *ys = malloc(4 * (size_t)n * (steps + 1u)), *owner = malloc(4 * (size_t)n);
    if (!a || !x || !tmps || !ys || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint32_t *tmp0 = tmps, *tmp1 = tmps + (size_t)steps * n, *y0 = ys, *y1 = ys + (size_t)steps * n;
    for (size_t i = 0; i < count; i++) a[i] = (uint32_t)workload_random(&seed);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (uint32_t)workload_random(&seed);
        tmp0[i] = (uint32_t)workload_random(&seed);
        y0[i] = (uint32_t)workload_random(&seed);
        owner[i] = i / block;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = tmp0[i];
        for (uint32_t j = 0; j < n; j++) {
            t += a[(size_t)i * n + j] * x[j];
            if ((j + 1) % chunk == 0 || j + 1 == n) tmps[(size_t)(j / chunk + 1) * n + i] = t;
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t v = y0[j];
        for (uint32_t i = 0; i < n; i++) {
            v += a[(size_t)i * n + j] * tmp1[i];
            if ((i + 1) % chunk == 0 || i + 1 == n) ys[(size_t)(i / chunk + 1) * n + j] = v;
        }
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, dx, dtmp, dy;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dx = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(dtmp = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(dy = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dx, x, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, dtmp, stage == 2 ? tmp1 : tmp0, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, dy, y0, 4 * (size_t)n));
    struct pm_atax_args args = {{0, 0, 0, 0}, 0, run.tx_per_cta, da, dx, dtmp, dy, n, chunk};
    durable_launch launch = {"pm_atax1", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "tmp", dtmp, tmp0, tmp1, owner, n, stage == 1, steps};
    if (stage != 2 && (status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    if (!crashed && stage != 1) {
        launch = (durable_launch){"pm_atax2", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "y", dy, y0, y1, owner, n, true, steps};
        if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    }
    if (!crashed && context->log) fprintf(context->log, "pm_atax: %u elements correct\n", (stage == 0 ? 2 : 1) * n);
done:
    gpu_module_unload(module);
    free(a), free(x), free(tmps), free(ys), free(owner);
    return status;
}
