/* Divergence torture: the SIMT run must leave exactly the memory that
 * running every thread alone in the scalar reference interpreter leaves. */
#include "host_common.h"
#include "rv32_reference.h"
#include "sparse_memory.h"

static bool reference_access(void *context, bool is_write, uint32_t address, void *data, unsigned size)
{
    if (is_write) sparse_memory_write(context, address, data, size);
    else sparse_memory_read(context, address, data, size);
    return true;
}

int divergence_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 1024, 1, 1 << 22);
    uint32_t block = (uint32_t)workload_int(context, "block", 96, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "divergence", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    sparse_memory *reference = sparse_memory_create();
    uint32_t *input = malloc(sizeof(uint32_t) * n), *output = malloc(16 * n), *expected = malloc(16 * n);
    if (!input || !output || !expected || !reference) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) input[i] = (uint32_t)workload_random(&seed);
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_input, d_output;
    HOST_CHECK(d_input = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_output = gpu_malloc(device, 16 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_input, input, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_memset(device, d_output, 0x5a, 16 * n));
    struct divergence_args args = {d_input, d_output, n};
    uint32_t ctas = (n + block - 1) / block;
    HOST_CHECK(gpu_launch(device, module, "divergence", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, output, d_output, 16 * n));
    /* The reference: same initial memory, every thread alone. */
    sparse_memory_write(reference, GPU_ARGS_ADDRESS, &args, sizeof args);
    sparse_memory_write(reference, d_input, input, sizeof(uint32_t) * n);
    memset(expected, 0x5a, 16 * n);
    sparse_memory_write(reference, d_output, expected, 16 * n);
    const kernel_function *entry = kernel_image_find_function(gpu_module_image(module), "divergence");
    uint64_t total_steps = 0;
    for (uint32_t c = 0; c < ctas; c++)
        for (uint32_t t = 0; t < block; t++) {
            rv_reference_thread thread = {{t, 0, 0}, {block, 1, 1}, {c, 0, 0}, {ctas, 1, 1}, 32, GPU_ARGS_ADDRESS, 4096};
            char error[512];
            uint64_t steps;
            if (!rv_reference_run(gpu_module_image(module), entry->start, &thread, reference_access, reference, 1000000, &steps,
                                  error, sizeof error)) {
                status = workload_fail(context, "divergence: thread %u of CTA %u: %s", t, c, error);
                goto done;
            }
            total_steps += steps;
        }
    sparse_memory_read(reference, d_output, expected, 16 * n);
    for (uint32_t w = 0; w < 4 * n; w++)
        if (output[w] != expected[w]) {
            status = workload_fail(context, "divergence: output word %u (thread %u) is 0x%08x, the reference left 0x%08x", w, w / 4,
                                   output[w], expected[w]);
            goto done;
        }
    /* Every thread must also have executed exactly the reference's instructions. */
    double simt_instructions = 0;
    HOST_CHECK(gpu_statistic(device, "simt_core:thread_instructions", &simt_instructions));
    if ((uint64_t)simt_instructions != total_steps) {
        status = workload_fail(context, "divergence: the SIMT cores executed %.0f thread instructions, the reference %llu",
                               simt_instructions, (unsigned long long)total_steps);
        goto done;
    }
    /* Read between kernels, the active-lanes histogram (its sum) is current. */
    double active_lanes = 0;
    HOST_CHECK(gpu_statistic(device, "simt_core:active_lanes", &active_lanes));
    if (active_lanes != simt_instructions) {
        status = workload_fail(context, "divergence: the active-lanes histogram sums to %.0f lanes, not the %.0f thread instructions",
                               active_lanes, simt_instructions);
        goto done;
    }
    if (context->log)
        fprintf(context->log, "divergence: %u threads match the scalar reference (%llu reference instructions)\n", n,
                (unsigned long long)total_steps);
done:
    gpu_module_unload(module);
    sparse_memory_destroy(reference);
    free(input), free(output), free(expected);
    return status;
}
