/* Histogram with shared and global atomics, checked bin by bin, and the
 * maximum found with lr/sc, checked exactly. */
#include "host_common.h"

int histogram_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 8192, 1, 1 << 26);
    uint32_t bin_count = (uint32_t)workload_int(context, "bins", 64, 1, 256);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint32_t ctas = (uint32_t)workload_int(context, "ctas", 16, 1, 1 << 20);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "histogram", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *input = malloc(sizeof(uint32_t) * n), bins[256], expected[256] = {0};
    if (!input) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        /* Skewed data: many hits on a few bins make atomics collide. */
        uint64_t r = workload_random(&seed);
        input[i] = (uint32_t)(r % 4 == 0 ? r % 3 : r >> 8);
        expected[input[i] % bin_count]++;
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_input, d_bins, expected_maximum = 0, maximum = 0;
    for (uint32_t i = 0; i < n; i++)
        if (input[i] > expected_maximum) expected_maximum = input[i];
    HOST_CHECK(d_input = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_bins = gpu_malloc(device, sizeof(uint32_t) * (bin_count + 1)));
    HOST_CHECK(gpu_copy_to_device(device, d_input, input, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_memset(device, d_bins, 0, sizeof(uint32_t) * (bin_count + 1)));
    struct histogram_args args = {d_input, d_bins, n, bin_count, d_bins + 4 * bin_count};
    HOST_CHECK(gpu_launch(device, module, "histogram", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, bins, d_bins, sizeof(uint32_t) * bin_count));
    HOST_CHECK(gpu_copy_from_device(device, &maximum, d_bins + 4 * bin_count, sizeof maximum));
    if (maximum != expected_maximum) {
        status = workload_fail(context, "histogram: the compare-and-swap maximum is %u, expected %u", maximum, expected_maximum);
        goto done;
    }
    for (uint32_t b = 0; b < bin_count; b++)
        if (bins[b] != expected[b]) {
            status = workload_fail(context, "histogram: bin %u holds %u, expected %u", b, bins[b], expected[b]);
            goto done;
        }
    if (context->log) fprintf(context->log, "histogram: %u bins of %u values correct\n", bin_count, n);
done:
    gpu_module_unload(module);
    free(input);
    return status;
}
