/* Float saxpy (kernels/saxpy.c), and the cycle counter a kernel reads. The
 * oracle: C allows a * x + y to be contracted into one fused multiply-add
 * (clang contracts it at some optimisation levels), so each y must equal
 * exactly one of the two IEEE-754 evaluations, fmaf(a, x, y) or
 * (a * x) + y rounded twice; no other tolerance. The clocks: every thread's
 * end is after its start by at least the two loads' latency plus the
 * multiply-add's, and within the run. */
#include <math.h>

#include "host_common.h"

/* A float in [-2^8, 2^8) with a random exponent and 24 random bits. */
static float random_float(uint64_t *seed)
{
    uint64_t r = workload_random(seed);
    return ldexpf((float)(int32_t)(r & 0xffffff) - 0x800000, (int)((r >> 24) % 16) - 31);
}

int saxpy_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 24);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "saxpy", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n), *result = malloc(sizeof(float) * n);
    uint32_t *clocks = malloc(16 * (size_t)n);
    if (!x || !y || !result || !clocks) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    float alpha = random_float(&seed);
    for (uint32_t i = 0; i < n; i++) x[i] = random_float(&seed), y[i] = random_float(&seed);
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_x, d_y, d_clocks;
    HOST_CHECK(d_x = gpu_malloc(device, sizeof(float) * n));
    HOST_CHECK(d_y = gpu_malloc(device, sizeof(float) * n));
    HOST_CHECK(d_clocks = gpu_malloc(device, 16 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, d_x, x, sizeof(float) * n));
    HOST_CHECK(gpu_copy_to_device(device, d_y, y, sizeof(float) * n));
    struct saxpy_args args = {d_x, d_y, d_clocks, n, alpha};
    HOST_CHECK(gpu_launch(device, module, "saxpy", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, result, d_y, sizeof(float) * n));
    HOST_CHECK(gpu_copy_from_device(device, clocks, d_clocks, 16 * (size_t)n));
    uint32_t fused = 0;
    uint64_t first = UINT64_MAX, last = 0;
    for (uint32_t i = 0; i < n && !status; i++) {
        volatile float product = alpha * x[i];
        float twice_rounded = product + y[i], contracted = fmaf(alpha, x[i], y[i]);
        if (memcmp(&result[i], &twice_rounded, 4) && memcmp(&result[i], &contracted, 4)) {
            status = workload_fail(context, "saxpy: y[%u] = %a, expected %a (a * x + y) or %a (fused)", i, (double)result[i],
                                   (double)twice_rounded, (double)contracted);
            break;
        }
        fused += !memcmp(&result[i], &contracted, 4) && memcmp(&result[i], &twice_rounded, 4);
        uint64_t start = clocks[4 * i] | (uint64_t)clocks[4 * i + 1] << 32, end = clocks[4 * i + 2] | (uint64_t)clocks[4 * i + 3] << 32;
        /* Two global loads and a multiply-add lie between the reads: more than 8 cycles on any platform here. */
        if (end <= start + 8 || end - start > 10000000)
            status = workload_fail(context, "saxpy: thread %u read gpu_clock() %llu, then %llu: not plausible", i,
                                   (unsigned long long)start, (unsigned long long)end);
        if (start < first) first = start;
        if (end > last) last = end;
    }
    if (!status && context->log)
        fprintf(context->log, "saxpy: %u results correct (%u only as a fused multiply-add); gpu_clock() from %llu to %llu\n", n,
                fused, (unsigned long long)first, (unsigned long long)last);
done:
    gpu_module_unload(module);
    free(x), free(y), free(result), free(clocks);
    return status;
}
