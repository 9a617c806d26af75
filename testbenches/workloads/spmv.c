/* SpMV (CSR), rows of random length, checked row by row. */
#include "host_common.h"

int spmv_main(gpu_device *device, workload_context *context)
{
    uint32_t rows = (uint32_t)workload_int(context, "n", 2048, 1, 1 << 24);
    uint32_t per_row = (uint32_t)workload_int(context, "per_row", 8, 1, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "spmv", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *offsets = malloc(sizeof(uint32_t) * (rows + 1)), *columns = NULL;
    int32_t *values = NULL, *x = malloc(sizeof(int32_t) * rows), *y = malloc(sizeof(int32_t) * rows);
    if (!offsets || !x || !y) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    offsets[0] = 0;
    for (uint32_t r = 0; r < rows; r++) offsets[r + 1] = offsets[r] + (uint32_t)(workload_random(&seed) % (2 * per_row + 1));
    uint32_t nonzeros = offsets[rows];
    columns = malloc(sizeof(uint32_t) * (nonzeros + 1));
    values = malloc(sizeof(int32_t) * (nonzeros + 1));
    if (!columns || !values) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t j = 0; j < nonzeros; j++) {
        columns[j] = (uint32_t)(workload_random(&seed) % rows);
        values[j] = (int32_t)(workload_random(&seed) % 2001) - 1000;
    }
    for (uint32_t r = 0; r < rows; r++) x[r] = (int32_t)(workload_random(&seed) % 2001) - 1000;
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_offsets, d_columns, d_values, d_x, d_y;
    HOST_CHECK(d_offsets = gpu_malloc(device, sizeof(uint32_t) * (rows + 1)));
    HOST_CHECK(d_columns = gpu_malloc(device, sizeof(uint32_t) * (nonzeros + 1)));
    HOST_CHECK(d_values = gpu_malloc(device, sizeof(int32_t) * (nonzeros + 1)));
    HOST_CHECK(d_x = gpu_malloc(device, sizeof(int32_t) * rows));
    HOST_CHECK(d_y = gpu_malloc(device, sizeof(int32_t) * rows));
    HOST_CHECK(gpu_copy_to_device(device, d_offsets, offsets, sizeof(uint32_t) * (rows + 1)));
    HOST_CHECK(gpu_copy_to_device(device, d_columns, columns, sizeof(uint32_t) * nonzeros));
    HOST_CHECK(gpu_copy_to_device(device, d_values, values, sizeof(int32_t) * nonzeros));
    HOST_CHECK(gpu_copy_to_device(device, d_x, x, sizeof(int32_t) * rows));
    struct spmv_args args = {d_offsets, d_columns, d_values, d_x, d_y, rows};
    HOST_CHECK(gpu_launch(device, module, "spmv", dim3_1d((rows + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, y, d_y, sizeof(int32_t) * rows));
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t expected = 0;
        for (uint32_t j = offsets[r]; j < offsets[r + 1]; j++) expected += (uint32_t)values[j] * (uint32_t)x[columns[j]];
        if ((uint32_t)y[r] != expected) {
            status = workload_fail(context, "spmv: y[%u] = %d, expected %d", r, y[r], (int32_t)expected);
            goto done;
        }
    }
    if (context->log) fprintf(context->log, "spmv: %u rows (%u nonzeros) correct\n", rows, nonzeros);
done:
    gpu_module_unload(module);
    free(offsets), free(columns), free(values), free(x), free(y);
    return status;
}
