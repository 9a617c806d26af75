/* pm_2mm: 2MM (n x n: tmp += alpha A B, then D = tmp C + beta D) on
 * persistent memory in two launches, pm_2mm1 then pm_2mm2, one output per
 * thread and transaction, tx_per_cta durable transactions per CTA
 * (durable_common.h). Option stage: 1 or 2 runs that kernel alone (2 on the
 * host's exact tmp), 0 both. Oracle: every element of tmp and D (integers
 * mod 2^32); each launch's durable image checked after it or after a power
 * failure (which ends the workload). */
#include "durable_common.h"

int pm_2mm_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 32, 1, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint32_t stage = (uint32_t)workload_int(context, "stage", 0, 0, 2);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_2mm", &run) || context->bad_input) return 1;
    size_t count = (size_t)n * n;
    uint32_t ctas = (uint32_t)((count + (size_t)block * run.tx_per_cta - 1) / ((size_t)block * run.tx_per_cta));
    const uint32_t alpha = 3, beta = 2;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    uint32_t *a = malloc(4 * count), *b = malloc(4 * count), *c = malloc(4 * count), *tmp0 = malloc(4 * count), *tmp1 = malloc(4 * count),
             *d0 = malloc(4 * count), *d1 = malloc(4 * count), *owner = malloc(4 * count);
    if (!a || !b || !c || !tmp0 || !tmp1 || !d0 || !d1 || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        a[i] = (uint32_t)workload_random(&seed) & 0xff;
        b[i] = (uint32_t)workload_random(&seed) & 0xff;
        c[i] = (uint32_t)workload_random(&seed) & 0xff;
        tmp0[i] = (uint32_t)workload_random(&seed);
        d0[i] = (uint32_t)workload_random(&seed);
        owner[i] = (uint32_t)(i / block);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < n; k++) sum += a[(size_t)i * n + k] * b[(size_t)k * n + j];
            tmp1[(size_t)i * n + j] = tmp0[(size_t)i * n + j] + alpha * sum;
        }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < n; k++) sum += tmp1[(size_t)i * n + k] * c[(size_t)k * n + j];
            d1[(size_t)i * n + j] = beta * d0[(size_t)i * n + j] + sum;
        }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t da, db, dc, dtmp, dd;
    HOST_CHECK(da = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(db = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dc = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dtmp = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(dd = gpu_malloc_persistent(device, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, da, a, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, db, b, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dc, c, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dtmp, stage == 2 ? tmp1 : tmp0, 4 * count));
    HOST_CHECK(gpu_copy_to_device(device, dd, d0, 4 * count));
    struct pm_2mm_args args = {{0, 0, 0, 0}, 0, run.tx_per_cta, da, db, dc, dtmp, dd, n, alpha, beta};
    durable_launch launch = {"pm_2mm1", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "tmp", dtmp, tmp0, tmp1, owner, count, stage == 1, 1};
    if (stage != 2 && (status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    if (!crashed && stage != 1) {
        launch = (durable_launch){"pm_2mm2", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "D", dd, d0, d1, owner, count, true, 1};
        if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    }
    if (!crashed && context->log) fprintf(context->log, "pm_2mm: %zu elements correct\n", (stage == 0 ? 2 : 1) * count);
done:
    gpu_module_unload(module);
    free(a), free(b), free(c), free(tmp0), free(tmp1), free(d0), free(d1), free(owner);
    return status;
}
