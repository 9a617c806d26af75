/* pm_stream: StreamTriad (a = b + s c) on persistent memory, tx_per_cta
 * durable transactions per CTA (durable_common.h), transaction r on each
 * thread's elements k with k mod tx_per_cta = r. Oracle: every element of a; the
 * durable image checked after the run or after a power failure. */
#include "durable_common.h"

int pm_stream_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 16384, 1, 1 << 24);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint32_t per_thread = (uint32_t)workload_int(context, "per_thread", 4, 1, 64);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_stream", &run) || context->bad_input) return 1;
    uint32_t threads = (n + per_thread - 1) / per_thread, ctas = (threads + block - 1) / block, stride = ctas * block;
    const uint32_t scalar = 3;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *before = malloc(4 * (size_t)n), *after = malloc(4 * (size_t)n), *b = malloc(4 * (size_t)n), *c = malloc(4 * (size_t)n),
             *owner = malloc(4 * (size_t)n), *result = malloc(4 * (size_t)n);
    if (!before || !after || !b || !c || !owner || !result) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        before[i] = (uint32_t)workload_random(&seed);
        b[i] = (uint32_t)workload_random(&seed);
        c[i] = (uint32_t)workload_random(&seed);
        after[i] = b[i] + scalar * c[i];
        owner[i] = (i % stride) / block * run.tx_per_cta + i / stride % run.tx_per_cta;
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, db, dc;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(db = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(dc = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, da, before, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, db, b, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, dc, c, 4 * (size_t)n));
    HOST_CHECK(durable_prepare(device, &run, ctas, block, (per_thread + run.tx_per_cta - 1) / run.tx_per_cta));
    struct pm_stream_args args = {run.region, run.path, run.tx_per_cta, da, db, dc, n, per_thread, scalar};
    HOST_CHECK(gpu_launch(device, module, "pm_stream", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(durable_synchronize(device, &run));
    if (!run.crashed) {
        HOST_CHECK(gpu_copy_from_device(device, result, da, 4 * (size_t)n));
        for (uint32_t i = 0; i < n; i++)
            if (result[i] != after[i]) {
                status = workload_fail(context, "pm_stream: a[%u] = %u, expected %u", i, result[i], after[i]);
                goto done;
            }
        if (context->log) fprintf(context->log, "pm_stream: %u elements correct\n", n);
    }
    status = durable_check_words(device, context, &run, da, before, after, owner, n);
done:
    gpu_module_unload(module);
    free(before), free(after), free(b), free(c), free(owner), free(result);
    return status;
}
