/* Shared-memory reduction: one partial sum per CTA, each checked exactly. */
#include "host_common.h"

int reduction_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 26);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "reduction", path, sizeof path);
    if (context->bad_input) return 1;
    if (block & (block - 1)) return workload_bad_option(context, "workload.block must be a power of two for the tree reduction");
    int status = 0;
    gpu_module *module = NULL;
    uint32_t ctas = (n + block - 1) / block;
    uint32_t *input = malloc(sizeof(uint32_t) * n), *sums = malloc(sizeof(uint32_t) * ctas);
    if (!input || !sums) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) input[i] = (uint32_t)workload_random(&seed);
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_input, d_sums;
    HOST_CHECK(d_input = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_sums = gpu_malloc(device, sizeof(uint32_t) * ctas));
    HOST_CHECK(gpu_copy_to_device(device, d_input, input, sizeof(uint32_t) * n));
    struct reduction_args args = {d_input, d_sums, n};
    HOST_CHECK(gpu_launch(device, module, "reduction", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, block * 4));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, sums, d_sums, sizeof(uint32_t) * ctas));
    for (uint32_t c = 0; c < ctas; c++) {
        uint32_t expected = 0;
        for (uint32_t i = c * block; i < n && i < (c + 1) * block; i++) expected += input[i];
        if (sums[c] != expected) {
            status = workload_fail(context, "reduction: CTA %u summed to %u, expected %u", c, sums[c], expected);
            goto done;
        }
    }
    if (context->log) fprintf(context->log, "reduction: %u partial sums correct\n", ctas);
done:
    gpu_module_unload(module);
    free(input), free(sums);
    return status;
}
