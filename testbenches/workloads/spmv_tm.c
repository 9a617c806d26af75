/* SpMV with transactional result updates. Oracle: every y[row] equals the
 * host's product (integer, so exact in any order), plus the
 * serializability oracle. */
#include "host_common.h"
#include "tm_check.h"

int spmv_tm_main(gpu_device *device, workload_context *context)
{
    uint32_t row_count = (uint32_t)workload_int(context, "n", 512, 1, 1 << 22);
    uint32_t per_row = (uint32_t)workload_int(context, "per_row", 8, 1, 1024);
    uint32_t per_thread = (uint32_t)workload_int(context, "per_thread", 2, 1, 1024);
    uint32_t loads_inside = (uint32_t)workload_int(context, "loads_inside", 0, 0, 1); /* EA/PG's SpMV: read set 5 */
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "spmv_tm", path, sizeof path);
    if (context->bad_input) return 1;
    uint64_t nonzeros = (uint64_t)row_count * per_row;
    if (nonzeros > (1u << 26)) return workload_fail(context, "spmv_tm: n x per_row must be at most 2^26");
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *rows = malloc(4 * nonzeros), *columns = malloc(4 * nonzeros), *values = malloc(4 * nonzeros);
    uint32_t *x = malloc(4 * (size_t)row_count), *y = malloc(4 * (size_t)row_count), *expected = calloc(row_count, 4);
    if (!rows || !columns || !values || !x || !y || !expected) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t r = 0; r < row_count; r++) x[r] = (uint32_t)(workload_random(&seed) % 100);
    /* Nonzeros in random order, so a warp's lanes hit different rows and
     * threads meet on rows at random. */
    for (uint64_t i = 0; i < nonzeros; i++) {
        rows[i] = (uint32_t)(i / per_row);
        columns[i] = (uint32_t)(workload_random(&seed) % row_count);
        values[i] = (uint32_t)(workload_random(&seed) % 10);
    }
    for (uint64_t i = nonzeros; i > 1; i--) {
        uint64_t j = workload_random(&seed) % i;
        uint32_t t = rows[i - 1];
        rows[i - 1] = rows[j], rows[j] = t;
    }
    for (uint64_t i = 0; i < nonzeros; i++) expected[rows[i]] += values[i] * x[columns[i]];
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_rows, d_columns, d_values, d_x, d_y;
    HOST_CHECK(d_rows = gpu_malloc(device, 4 * nonzeros));
    HOST_CHECK(d_columns = gpu_malloc(device, 4 * nonzeros));
    HOST_CHECK(d_values = gpu_malloc(device, 4 * nonzeros));
    HOST_CHECK(d_x = gpu_malloc(device, 4 * (size_t)row_count));
    HOST_CHECK(d_y = gpu_malloc(device, 4 * (size_t)row_count));
    HOST_CHECK(gpu_copy_to_device(device, d_rows, rows, 4 * nonzeros));
    HOST_CHECK(gpu_copy_to_device(device, d_columns, columns, 4 * nonzeros));
    HOST_CHECK(gpu_copy_to_device(device, d_values, values, 4 * nonzeros));
    HOST_CHECK(gpu_copy_to_device(device, d_x, x, 4 * (size_t)row_count));
    HOST_CHECK(gpu_memset(device, d_y, 0, 4 * (size_t)row_count));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    /* With loads_inside the transactions read the matrix and x as well. */
    if (!tm_check_region(check, device, d_y, 4 * row_count) ||
        (loads_inside && (!tm_check_region(check, device, d_rows, (uint32_t)(4 * nonzeros)) ||
                          !tm_check_region(check, device, d_columns, (uint32_t)(4 * nonzeros)) ||
                          !tm_check_region(check, device, d_values, (uint32_t)(4 * nonzeros)) ||
                          !tm_check_region(check, device, d_x, 4 * row_count)))) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    uint32_t threads = (uint32_t)((nonzeros + per_thread - 1) / per_thread);
    struct spmv_tm_args args = {d_rows, d_columns, d_values, d_x, d_y, (uint32_t)nonzeros, per_thread, loads_inside};
    HOST_CHECK(gpu_launch(device, module, "spmv_tm", dim3_1d((threads + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, y, d_y, 4 * (size_t)row_count));
    for (uint32_t r = 0; r < row_count; r++)
        if (y[r] != expected[r]) {
            status = workload_fail(context, "spmv_tm: y[%u] = %u, expected %u", r, y[r], expected[r]);
            goto done;
        }
    if (context->log) fprintf(context->log, "spmv_tm: %u rows x %u nonzeros each, every row exact\n", row_count, per_row);
    tm_print_statistics(device, context, "spmv_tm");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(rows), free(columns), free(values), free(x), free(y), free(expected);
    return status;
}
