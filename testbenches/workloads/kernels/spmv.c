/* y = A x with A in CSR, one row per thread (integer arithmetic: exact). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void spmv(const struct spmv_args *args)
{
    uint32_t row = gpu_global_id_x();
    if (row >= args->rows) return;
    const uint32_t *offsets = (const uint32_t *)args->row_offsets, *columns = (const uint32_t *)args->columns;
    const int32_t *values = (const int32_t *)args->values, *x = (const int32_t *)args->x;
    int32_t sum = 0;
    for (uint32_t j = offsets[row]; j < offsets[row + 1]; j++) sum += values[j] * x[columns[j]];
    ((int32_t *)args->y)[row] = sum;
}
