/* pm_backprop: Rodinia's backprop on persistent memory (integers mod 2^32),
 * its two kernels as two launches of 16 x 16-thread CTAs, a CTA per 16 of
 * the n inputs, each CTA one durable transaction (durable_common.h):
 * pm_backprop1 (bpnn_layerforward: the CTA's partial sum of each hidden
 * unit) then pm_backprop2 (bpnn_adjust_weights: w += d, oldw = d with d =
 * eta delta in + momentum oldw). Option stage: 1 or 2 runs that kernel
 * alone, 0 both (the second does not read the first's output: delta is an
 * input, as the host computes it in Rodinia). Oracle: every partial sum,
 * every word of w and oldw; each launch's durable image. */
#include "durable_common.h"

int pm_backprop_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, PM_BP_HIDDEN, 1 << 20);
    uint32_t stage = (uint32_t)workload_int(context, "stage", 0, 0, 2);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_backprop", &run) || context->bad_input) return 1;
    if (n % PM_BP_HIDDEN) return workload_bad_option(context, "workload.n must be a multiple of %u, got %u", PM_BP_HIDDEN, n);
    const uint32_t cols = PM_BP_HIDDEN + 1, ctas = n / PM_BP_HIDDEN, eta = 3, momentum = 5;
    size_t weights = (size_t)(n + 1) * cols, partials = (size_t)ctas * PM_BP_HIDDEN;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    /* ws: w then oldw, before (ws) and after (ws + 2 weights) pm_backprop2. */
    uint32_t *in = malloc(4 * (size_t)(n + 1)), *delta = malloc(4 * cols), *ws = malloc(16 * weights), *parts = malloc(8 * partials),
             *owner_w = malloc(8 * weights), *owner_p = malloc(4 * partials);
    if (!in || !delta || !ws || !parts || !owner_w || !owner_p) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint32_t *w0 = ws, *oldw0 = ws + weights, *w1 = ws + 2 * weights, *oldw1 = ws + 3 * weights, *p0 = parts, *p1 = parts + partials;
    for (uint32_t i = 0; i <= n; i++) in[i] = (uint32_t)workload_random(&seed);
    for (uint32_t j = 0; j < cols; j++) delta[j] = (uint32_t)workload_random(&seed);
    for (size_t i = 0; i < 2 * weights; i++) {
        ws[i] = (uint32_t)workload_random(&seed);
        owner_w[i] = 0; /* the bias row and column: no CTA writes them (unchanged, old and new) */
    }
    for (size_t i = 0; i < partials; i++) {
        p0[i] = (uint32_t)workload_random(&seed);
        owner_p[i] = (uint32_t)(i / PM_BP_HIDDEN);
    }
    memcpy(w1, w0, 8 * weights);
    for (uint32_t by = 0; by < ctas; by++)
        for (uint32_t ty = 0; ty < PM_BP_HIDDEN; ty++) {
            uint32_t sum = 0;
            for (uint32_t i = 1; i <= PM_BP_HIDDEN; i++) {
                uint32_t r = by * PM_BP_HIDDEN + i;
                sum += w0[(size_t)r * cols + ty + 1] * in[r];
            }
            p1[by * PM_BP_HIDDEN + ty] = sum;
            uint32_t r = by * PM_BP_HIDDEN + ty + 1;
            for (uint32_t c = 1; c < cols; c++) {
                size_t k = (size_t)r * cols + c;
                uint32_t d = eta * delta[c] * in[r] + momentum * oldw0[k];
                w1[k] = w0[k] + d;
                oldw1[k] = d;
                owner_w[k] = owner_w[weights + k] = by;
            }
        }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t din, ddelta, dw, dpart;
    HOST_CHECK(din = gpu_malloc_persistent(device, 4 * (size_t)(n + 1)));
    HOST_CHECK(ddelta = gpu_malloc_persistent(device, 4 * cols));
    HOST_CHECK(dw = gpu_malloc_persistent(device, 8 * weights));
    HOST_CHECK(dpart = gpu_malloc_persistent(device, 4 * partials));
    HOST_CHECK(gpu_copy_to_device(device, din, in, 4 * (size_t)(n + 1)));
    HOST_CHECK(gpu_copy_to_device(device, ddelta, delta, 4 * cols));
    HOST_CHECK(gpu_copy_to_device(device, dw, w0, 8 * weights));
    HOST_CHECK(gpu_copy_to_device(device, dpart, p0, 4 * partials));
    struct pm_backprop_args args = {{0, 0, 0, 0}, 0, 1, din, dw, dw + (uint32_t)(4 * weights), ddelta, dpart, n, eta, momentum};
    gpu_dim3 grid = dim3_1d(ctas), block = dim3_1d(PM_BP_HIDDEN * PM_BP_HIDDEN);
    durable_launch launch = {"pm_backprop1", grid, block, &args, sizeof args, 0, 1, "partial sum", dpart, p0, p1, owner_p, partials, stage == 1, 1};
    if (stage != 2 && (status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    if (!crashed && stage != 1) {
        launch = (durable_launch){"pm_backprop2", grid, block, &args, sizeof args, 0, 2, "weight", dw, w0, w1, owner_w, 2 * weights, true, 1};
        if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed))) goto done;
    }
    if (!crashed && context->log)
        fprintf(context->log, "pm_backprop: %zu elements correct\n", (stage != 2 ? partials : 0) + (stage != 1 ? 2 * weights : 0));
done:
    gpu_module_unload(module);
    free(in), free(delta), free(ws), free(parts), free(owner_w), free(owner_p);
    return status;
}
