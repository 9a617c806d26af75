/* Device printf (kernels/printf.c): two launches of n threads and then of
 * one thread; the host runtime prints each launch's lines after it (CTest
 * checks the output: every line, the second launch's buffer empty again,
 * and the count of dropped records when n overflows the buffer). */
#include "host_common.h"

int printf_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 8, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 4, 1, 1024);
    char path[1024];
    workload_kernel_path(context, "printf", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    HOST_CHECK(module = gpu_module_load(device, path));
    struct printf_args args = {n};
    HOST_CHECK(gpu_launch(device, module, "hello", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    fputs("printf: second launch\n", stdout);
    args.n = 1;
    HOST_CHECK(gpu_launch(device, module, "hello", dim3_1d(1), dim3_1d(1), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    if (context->log) fprintf(context->log, "printf: 2 launches printed\n");
done:
    gpu_module_unload(module);
    return status;
}
