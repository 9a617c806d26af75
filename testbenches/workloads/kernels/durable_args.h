/* Argument blocks of the durable workloads (persistent memory, CTA-level
 * undo-log transactions: runtime/kernel/gpu_durable.h), shared by the kernels
 * and their host programs. `path` is the transactions' GPU_PERSIST_* path;
 * each CTA runs `tx_per_cta` transactions one after another on its log, its
 * transaction r on its unit r of outputs (a CTA's block of threads times
 * tx_per_cta covers tx_per_cta blocks of items: unit u = CTA * tx_per_cta +
 * r holds items u * block .. u * block + block - 1, pm_stream aside). */
#ifndef SIMTX_DURABLE_ARGS_H
#define SIMTX_DURABLE_ARGS_H

#include <stdint.h>

#include "gpu_durable_layout.h"

/* a[i] = b[i] + scalar * c[i], per_thread elements per thread, grid-strided. */
/* pm_stream's transaction r takes each thread's elements k with k mod tx_per_cta = r. */
struct pm_stream_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, n, per_thread, scalar; };
/* C = alpha * A * B + beta * C, n x n, one element of C per thread. */
struct pm_gemm_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, n, alpha, beta; };
/* x1[i] += A[i][j] * y1[j] for every j, x1[i] written back (and persisted)
 * every iteration, one row per thread. */
struct pm_mvt_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, y1, x1, n; };
/* Batched insert into a set-associative table of buckets x PM_KVS_WAYS
 * {key, value} slots; a volatile per-bucket count hands out slots. */
#define PM_KVS_WAYS 8u
struct pm_kvs_args { gpu_durable_region region; uint32_t path, tx_per_cta, table, counts, keys, values, n, buckets; };

#endif
