/* pm_gesummv: GESUMMV (y = alpha A x + beta B x, n x n) on persistent
 * memory, tx_per_cta durable transactions per CTA, both partial sums
 * persisted every iteration (durable_common.h). Oracle: every element of tmp
 * and y (integers mod 2^32); the durable image checked after the run or
 * after a power failure. */
#include "durable_common.h"

int pm_gesummv_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 4096);
    uint32_t block = (uint32_t)workload_int(context, "block", 32, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_gesummv", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((n + (uint64_t)block * run.tx_per_cta - 1) / ((uint64_t)block * run.tx_per_cta));
    const uint32_t alpha = 3, beta = 5;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    /* before, after and owner: tmp's n words, then y's. */
    uint32_t *a = malloc(4 * count), *b = malloc(4 * count), *x = malloc(4 * (size_t)n), *before = malloc(8 * (size_t)n),
             *after = malloc(8 * (size_t)n), *owner = malloc(8 * (size_t)n);
    if (!a || !b || !x || !before || !after || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        a[i] = (uint32_t)workload_random(&seed);
        b[i] = (uint32_t)workload_random(&seed);
    }
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (uint32_t)workload_random(&seed);
        before[i] = (uint32_t)workload_random(&seed);
        before[n + i] = (uint32_t)workload_random(&seed);
        owner[i] = owner[n + i] = i / block;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = before[i], v = before[n + i];
        for (uint32_t j = 0; j < n; j++) {
            t += a[(size_t)i * n + j] * x[j];
            v += b[(size_t)i * n + j] * x[j];
        }
        after[i] = t;
        after[n + i] = alpha * t + beta * v;
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, db, dx, dout;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(db = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dx = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(dout = gpu_malloc_persistent(device, 8 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, db, b, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dx, x, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, dout, before, 8 * (size_t)n));
    struct pm_gesummv_args args = {{0, 0, 0, 0}, 0, run.tx_per_cta, da, db, dx, dout, n, alpha, beta};
    durable_launch launch = {"pm_gesummv", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 2, "tmp then y", dout, before, after, owner, 2 * (size_t)n, true, 1};
    if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    if (!crashed && context->log) fprintf(context->log, "pm_gesummv: %u elements correct\n", 2 * n);
done:
    gpu_module_unload(module);
    free(a), free(b), free(x), free(before), free(after), free(owner);
    return status;
}
