/* SpMV with transactional updates of the result vector: the matrix in
 * coordinate form (row, column, value per nonzero), each thread takes
 * per_thread consecutive nonzeros and adds value * x[column] to y[row] in a
 * transaction (threads sharing a row conflict); with loads_inside the
 * nonzero's loads are inside the transaction. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void spmv_tm(const struct spmv_tm_args *args)
{
    uint32_t t = gpu_global_id_x();
    const uint32_t *rows = (const uint32_t *)args->rows, *columns = (const uint32_t *)args->columns;
    const uint32_t *values = (const uint32_t *)args->values, *x = (const uint32_t *)args->x;
    uint32_t *y = (uint32_t *)args->y;
    for (uint32_t k = 0; k < args->per_thread; k++) {
        uint32_t i = t * args->per_thread + k;
        if (i >= args->nonzeros) return;
        uint32_t row = 0, product = 0;
        if (!args->loads_inside) row = rows[i], product = values[i] * x[columns[i]];
        gpu_tx_begin();
        /* loads_inside: the nonzero's loads are in the transaction too (EA/PG's
         * SpMV: read set 5, write set 1). */
        if (args->loads_inside) row = rows[i], product = values[i] * x[columns[i]];
        y[row] += product;
        gpu_tx_commit();
    }
}
