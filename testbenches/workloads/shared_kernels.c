/* Static shared memory charged per kernel, dynamic shared memory as a
 * launch parameter, and the residency both decide (kernels/shared_kernels.c).
 * One module holds shared_small (32 static bytes) and shared_large (8 KB
 * more); shared_small's launch adds `dynamic` bytes (its tile, at least
 * block x 4). Oracles: every output word exactly, each kernel's static
 * charge (32 and 32 + 8192 bytes: the loader's per-kernel charge, not the
 * module's 8224 for both), and shared_small's CTAs resident at once
 * between min_resident and max_resident when given (0: unchecked). */
#include "host_common.h"
#include "host_backend.h"

int shared_kernels_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 24);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 8, 1024);
    uint32_t dynamic = (uint32_t)workload_int(context, "dynamic", block * 4, 0, 1 << 30);
    uint32_t max_resident = (uint32_t)workload_int(context, "max_resident", 0, 0, 1 << 20);
    uint32_t min_resident = (uint32_t)workload_int(context, "min_resident", 0, 0, 1 << 20);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "shared_kernels", path, sizeof path);
    if (context->bad_input) return 1;
    if (dynamic < block * 4) return workload_bad_option(context, "workload.dynamic (%u bytes) must hold the tile of block x 4 = %u bytes", dynamic, block * 4);
    int status = 0;
    gpu_module *module = NULL;
    uint32_t ctas = (n + block - 1) / block;
    uint32_t *input = malloc(sizeof(uint32_t) * n), *output = malloc(sizeof(uint32_t) * n);
    if (!input || !output) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) input[i] = (uint32_t)workload_random(&seed) >> 4;
    HOST_CHECK(module = gpu_module_load(device, path));
    const kernel_function *small = kernel_image_find_function(gpu_module_image(module), "shared_small");
    const kernel_function *large = kernel_image_find_function(gpu_module_image(module), "shared_large");
    uint32_t small_bytes = 4 * SHARED_KERNELS_SMALL_WORDS, large_bytes = small_bytes + 4 * SHARED_KERNELS_LARGE_WORDS;
    if (!small || !large || small->static_shared_bytes != small_bytes || large->static_shared_bytes != large_bytes) {
        status = workload_fail(context, "static shared memory charged %u bytes to shared_small (expected %u), %u to shared_large (expected %u)",
                               small ? small->static_shared_bytes : 0, small_bytes, large ? large->static_shared_bytes : 0, large_bytes);
        goto done;
    }
    uint32_t d_input, d_output, d_counters;
    HOST_CHECK(d_input = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_output = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_counters = gpu_malloc(device, 8));
    HOST_CHECK(gpu_copy_to_device(device, d_input, input, sizeof(uint32_t) * n));
    struct shared_kernels_args args = {d_input, d_output, d_counters, d_counters + 4, n};
    uint32_t peaks[2] = {0, 0};
    for (unsigned k = 0; k < 2; k++) {
        uint32_t zero[2] = {0, 0};
        HOST_CHECK(gpu_copy_to_device(device, d_counters, zero, sizeof zero));
        HOST_CHECK(gpu_launch(device, module, k ? "shared_large" : "shared_small", dim3_1d(ctas), dim3_1d(block), &args, sizeof args,
                              k ? 0 : dynamic));
        HOST_CHECK(gpu_synchronize(device));
        HOST_CHECK(gpu_copy_from_device(device, output, d_output, sizeof(uint32_t) * n));
        uint32_t counters[2];
        HOST_CHECK(gpu_copy_from_device(device, counters, d_counters, sizeof counters));
        peaks[k] = counters[1];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = i / block, t = i % block, expected;
            if (!k) {
                uint32_t mirror = c * block + block - 1 - t, lane_class = t % SHARED_KERNELS_SMALL_WORDS;
                uint32_t sharing = block / SHARED_KERNELS_SMALL_WORDS + (lane_class < block % SHARED_KERNELS_SMALL_WORDS);
                expected = (mirror < n ? input[mirror] : 0) + sharing;
            } else {
                expected = input[i] + 3 * ((SHARED_KERNELS_LARGE_WORDS - 1 - t) % SHARED_KERNELS_LARGE_WORDS) + c;
            }
            if (output[i] != expected) {
                status = workload_fail(context, "%s: out[%u] = %u, expected %u", k ? "shared_large" : "shared_small", i, output[i], expected);
                goto done;
            }
        }
        /* The bounds are shared_small's (its dynamic bytes vary); both end with none counted. */
        if (counters[0] != 0 || !peaks[k] || (!k && max_resident && peaks[k] > max_resident) || (!k && min_resident && peaks[k] < min_resident)) {
            status = workload_fail(context, "%s: %u CTAs resident at once (expected %u..%u), %u still counted at the end",
                                   k ? "shared_large" : "shared_small", peaks[k], min_resident ? min_resident : 1, max_resident ? max_resident : ctas,
                                   counters[0]);
            goto done;
        }
    }
    if (context->log)
        fprintf(context->log,
                "shared_kernels: %u words correct per kernel; shared_small %u static + %u dynamic bytes per CTA, at most %u CTAs resident at once; "
                "shared_large %u static bytes, at most %u\n",
                n, small_bytes, dynamic, peaks[0], large_bytes, peaks[1]);
done:
    gpu_module_unload(module);
    free(input), free(output);
    return status;
}
