/* Float shared-memory reduction (kernels/freduction.c): one partial sum per
 * CTA. The oracle adds in the kernel's order (the same tree, in float), so
 * every partial sum must be bit-equal: IEEE-754 makes each addition's result
 * unique, hence no tolerance. As a check of the oracle itself, each sum is
 * also within the tree's error bound of the double-precision sum
 * (log2(block) roundings: |error| <= log2(block) * 2^-24 * sum |x|). */
#include <math.h>

#include "host_common.h"

int freduction_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 26);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "freduction", path, sizeof path);
    if (context->bad_input) return 1;
    if (block & (block - 1)) return workload_bad_option(context, "workload.block must be a power of two for the tree reduction");
    int status = 0;
    gpu_module *module = NULL;
    uint32_t ctas = (n + block - 1) / block;
    float *input = malloc(sizeof(float) * n), *sums = malloc(sizeof(float) * ctas), *tree = malloc(sizeof(float) * block);
    if (!input || !sums || !tree) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t r = workload_random(&seed); /* 24 random bits, exponents over 2^-8..2^7: additions that round */
        input[i] = ldexpf((float)(int32_t)(r & 0xffffff) - 0x800000, (int)((r >> 24) % 16) - 31);
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_input, d_sums;
    HOST_CHECK(d_input = gpu_malloc(device, sizeof(float) * n));
    HOST_CHECK(d_sums = gpu_malloc(device, sizeof(float) * ctas));
    HOST_CHECK(gpu_copy_to_device(device, d_input, input, sizeof(float) * n));
    struct freduction_args args = {d_input, d_sums, n};
    HOST_CHECK(gpu_launch(device, module, "freduction", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, block * 4));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, sums, d_sums, sizeof(float) * ctas));
    unsigned levels = 0;
    while ((1u << levels) < block) levels++;
    for (uint32_t c = 0; c < ctas && !status; c++) {
        double exact = 0, magnitude = 0;
        for (uint32_t t = 0; t < block; t++) {
            uint32_t i = c * block + t;
            tree[t] = i < n ? input[i] : 0.0f;
            exact += tree[t], magnitude += fabs(tree[t]);
        }
        for (uint32_t stride = block / 2; stride > 0; stride >>= 1)
            for (uint32_t t = 0; t < stride; t++) tree[t] += tree[t + stride];
        if (memcmp(&sums[c], &tree[0], sizeof(float)))
            status = workload_fail(context, "freduction: CTA %u summed to %a, expected %a (the same tree in float)", c,
                                   (double)sums[c], (double)tree[0]);
        else if (fabs(sums[c] - exact) > levels * ldexp(magnitude, -24))
            status = workload_fail(context, "freduction: CTA %u: %a is further from the exact sum %a than the tree's bound", c,
                                   (double)sums[c], exact);
    }
    if (!status && context->log) fprintf(context->log, "freduction: %u partial sums correct (bit-equal to the host's tree)\n", ctas);
done:
    gpu_module_unload(module);
    free(input), free(sums), free(tree);
    return status;
}
