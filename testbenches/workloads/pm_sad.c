/* pm_sad: SAD (Parboil's sad, block-matching motion estimation) on
 * persistent memory: a current frame of side n (a multiple of 16) and a
 * reference frame with a border of 8 pixels, pixels 0..255 in 32-bit words;
 * for every 16 x 16 macroblock and every offset in [-8, 8)^2 the output word
 * accumulates the sum of absolute differences, `chunk` macroblock rows
 * (default 4) per durable transaction, each logging the word again
 * (durable_common.h). Oracle: every output word after the run; the durable
 * image against the word's value after each chunk. */
#include "durable_common.h"

int pm_sad_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 128, PM_SAD_MB, 4096);
    uint32_t chunk = (uint32_t)workload_int(context, "chunk", 4, 1, PM_SAD_MB);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_sad", &run) || context->bad_input) return 1;
    if (n % PM_SAD_MB) return workload_bad_option(context, "workload.n must be a multiple of %u, got %u", PM_SAD_MB, n);
    if (run.tx_per_cta != 1) return workload_bad_option(context, "pm_sad: workload.tx_per_cta must be 1 (a CTA per macroblock)");
    uint32_t side = n + 2 * PM_SAD_RANGE, per_row = n / PM_SAD_MB, ctas = per_row * per_row;
    size_t outputs = (size_t)ctas * PM_SAD_POSITIONS;
    uint32_t steps = (PM_SAD_MB + chunk - 1) / chunk;
    int status = 0;
    gpu_module *module = NULL;
    /* values: the outputs after each chunk (values[0 .. outputs-1]: before the first). */
    uint32_t *cur = malloc(4 * (size_t)n * n), *ref = malloc(4 * (size_t)side * side), *values = malloc(4 * outputs * (steps + 1u)),
             *owner = malloc(4 * outputs), *result = malloc(4 * outputs);
    if (!cur || !ref || !values || !owner || !result) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (size_t i = 0; i < (size_t)n * n; i++) cur[i] = (uint32_t)(workload_random(&seed) & 255u);
    for (size_t i = 0; i < (size_t)side * side; i++) ref[i] = (uint32_t)(workload_random(&seed) & 255u);
    for (size_t i = 0; i < outputs; i++) {
        values[i] = (uint32_t)workload_random(&seed);
        owner[i] = (uint32_t)(i / PM_SAD_POSITIONS);
    }
    for (uint32_t mb = 0; mb < ctas; mb++) {
        uint32_t x0 = mb % per_row * PM_SAD_MB, y0 = mb / per_row * PM_SAD_MB;
        for (uint32_t t = 0; t < PM_SAD_POSITIONS; t++) {
            size_t i = (size_t)mb * PM_SAD_POSITIONS + t;
            uint32_t rx = x0 + t % (2 * PM_SAD_RANGE), ry = y0 + t / (2 * PM_SAD_RANGE), sad = values[i], sum = 0;
            for (uint32_t y = 0; y < PM_SAD_MB; y++) {
                for (uint32_t x = 0; x < PM_SAD_MB; x++) {
                    uint32_t c = cur[(size_t)(y0 + y) * n + x0 + x], r = ref[(size_t)(ry + y) * side + rx + x];
                    sum += c > r ? c - r : r - c;
                }
                if ((y + 1) % chunk == 0 || y + 1 == PM_SAD_MB) {
                    sad += sum;
                    sum = 0;
                    values[(size_t)(y / chunk + 1) * outputs + i] = sad;
                }
            }
        }
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t dcur, dref, dout;
    HOST_CHECK(dcur = gpu_malloc_persistent(device, 4 * (size_t)n * n));
    HOST_CHECK(dref = gpu_malloc_persistent(device, 4 * (size_t)side * side));
    HOST_CHECK(dout = gpu_malloc_persistent(device, 4 * outputs));
    HOST_CHECK(gpu_copy_to_device(device, dcur, cur, 4 * (size_t)n * n));
    HOST_CHECK(gpu_copy_to_device(device, dref, ref, 4 * (size_t)side * side));
    HOST_CHECK(gpu_copy_to_device(device, dout, values, 4 * outputs));
    HOST_CHECK(durable_prepare(device, &run, ctas, PM_SAD_POSITIONS, 1));
    struct pm_sad_args args = {run.region, run.path, 1, dcur, dref, dout, n, chunk};
    HOST_CHECK(gpu_launch(device, module, "pm_sad", dim3_1d(ctas), dim3_1d(PM_SAD_POSITIONS), &args, sizeof args, 0));
    HOST_CHECK(durable_synchronize(device, &run));
    if (!run.crashed) {
        const uint32_t *after = values + (size_t)steps * outputs;
        HOST_CHECK(gpu_copy_from_device(device, result, dout, 4 * outputs));
        for (size_t i = 0; i < outputs; i++)
            if (result[i] != after[i]) {
                status = workload_fail(context, "pm_sad: macroblock %zu offset %zu: %u, expected %u", i / PM_SAD_POSITIONS,
                                       i % PM_SAD_POSITIONS, result[i], after[i]);
                goto done;
            }
        if (context->log) fprintf(context->log, "pm_sad: %zu elements correct (%u macroblocks)\n", outputs, ctas);
    }
    status = durable_check_steps(device, context, &run, dout, values, steps, owner, outputs);
done:
    gpu_module_unload(module);
    free(cur), free(ref), free(values), free(owner), free(result);
    return status;
}
