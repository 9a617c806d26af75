/* Argument blocks of the durable workloads (persistent memory, CTA-level
 * undo-log transactions: runtime/kernel/gpu_durable.h), shared by the kernels
 * and their host programs. `path` is the transactions' GPU_PERSIST_* path. */
#ifndef SIMTX_DURABLE_ARGS_H
#define SIMTX_DURABLE_ARGS_H

#include <stdint.h>

#include "gpu_durable_layout.h"

/* a[i] = b[i] + scalar * c[i], per_thread elements per thread, grid-strided. */
struct pm_stream_args { gpu_durable_region region; uint32_t path, a, b, c, n, per_thread, scalar; };
/* C = alpha * A * B + beta * C, n x n, one element of C per thread. */
struct pm_gemm_args { gpu_durable_region region; uint32_t path, a, b, c, n, alpha, beta; };
/* x1[i] += A[i][j] * y1[j] for every j, x1[i] written back (and persisted)
 * every iteration, one row per thread. */
struct pm_mvt_args { gpu_durable_region region; uint32_t path, a, y1, x1, n; };
/* Batched insert into a set-associative table of buckets x PM_KVS_WAYS
 * {key, value} slots; a volatile per-bucket count hands out slots. */
#define PM_KVS_WAYS 8u
struct pm_kvs_args { gpu_durable_region region; uint32_t path, table, counts, keys, values, n, buckets; };

#endif
