/* The saxpy host plugin: simtx run NETLIST --host libsaxpy.so [-- [KERNEL.elf] [N]]
 * fills x and y, runs the kernel and checks every element on the host. */
#include <stdio.h>
#include <stdlib.h>

#include <simtx/host_api.h>

#include "saxpy.h"

/* The kernel ELF when no argument names one (the CMake project defines the one it built). */
#ifndef SAXPY_KERNEL
#define SAXPY_KERNEL "saxpy_O2.elf"
#endif

#define BLOCK 256

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    const char *kernel = argc > 1 ? argv[1] : SAXPY_KERNEL;
    char *end = NULL;
    unsigned long n = argc > 2 ? strtoul(argv[2], &end, 0) : 10000;
    if ((end && *end) || n == 0 || n > (1u << 24)) {
        gpu_set_error(device, "N must be 1..16777216, got '%s'", argv[2]);
        return 2; /* bad input */
    }
    int32_t a = 3, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *result = malloc(n * sizeof *result);
    int status = 1;
    gpu_module *module = NULL;
    if (!x || !y || !result) {
        gpu_set_error(device, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) x[i] = (int32_t)(i * 7 + 1), y[i] = (int32_t)(1000 - i);
    module = gpu_module_load(device, kernel);
    if (!module) {
        status = gpu_last_error_is_input(device) ? 2 : 1;
        goto done;
    }
    uint32_t dx = gpu_malloc(device, n * sizeof *x), dy = gpu_malloc(device, n * sizeof *y);
    struct saxpy_args args = {dx, dy, a, (uint32_t)n};
    if (!dx || !dy || !gpu_copy_to_device(device, dx, x, n * sizeof *x) || !gpu_copy_to_device(device, dy, y, n * sizeof *y) ||
        !gpu_launch(device, module, "saxpy", (gpu_dim3){(uint32_t)(n + BLOCK - 1) / BLOCK, 1, 1}, (gpu_dim3){BLOCK, 1, 1}, &args,
                    sizeof args, 0) ||
        !gpu_synchronize(device) || !gpu_copy_from_device(device, result, dy, n * sizeof *result))
        goto done; /* gpu_last_error says why */
    for (uint32_t i = 0; i < n; i++)
        if (result[i] != a * x[i] + y[i]) {
            gpu_set_error(device, "saxpy: y[%u] = %d, expected %d", i, result[i], a * x[i] + y[i]);
            goto done;
        }
    double instructions = 0;
    if (!gpu_statistic(device, "simt_core:thread_instructions", &instructions)) goto done;
    printf("saxpy: %lu elements correct, %.0f thread instructions\n", n, instructions);
    status = 0;
done:
    gpu_module_unload(module);
    free(x), free(y), free(result);
    return status;
}
