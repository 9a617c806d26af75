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

/* How every argument block below starts (durable_common.c fills it in for a
 * workload's every launch). */
typedef struct durable_args_head { gpu_durable_region region; uint32_t path; } durable_args_head;

/* a[i] = b[i] + scalar * c[i], per_thread elements per thread, grid-strided. */
/* pm_stream's transaction r takes each thread's elements k with k mod tx_per_cta = r. */
struct pm_stream_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, n, per_thread, scalar; };
/* C = alpha * A * B + beta * C, n x n, one element of C per thread. */
struct pm_gemm_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, n, alpha, beta, chunk; };
/* x1[i] += A[i][j] * y1[j] for every j, x1[i] written back (and persisted)
 * every iteration, one row per thread. */
struct pm_mvt_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, y1, x1, n, chunk; };
/* Batched insert into a set-associative table of buckets x PM_KVS_WAYS
 * {key, value} slots; a volatile per-bucket count hands out slots. */
#define PM_KVS_WAYS 8u
struct pm_kvs_args { gpu_durable_region region; uint32_t path, tx_per_cta, table, counts, keys, values, n, buckets; };
/* ATAX (PolyBench, n x n): pm_atax1 tmp[i] += A[i][j] * x[j], a row per
 * thread; pm_atax2 y[j] += A[i][j] * tmp[i], a column per thread; the output
 * written back (and persisted) every iteration, as MVT's. */
struct pm_atax_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, x, tmp, y, n, chunk; };
/* GESUMMV (PolyBench, n x n): a row per thread, tmp[i] += A[i][j] x[j] and
 * y[i] += B[i][j] x[j] both persisted every iteration, then y[i] = alpha
 * tmp[i] + beta y[i]; out holds tmp (n words) then y (n words). */
struct pm_gesummv_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, x, out, n, alpha, beta; };
/* 2MM (PolyBench, n x n): pm_2mm1 tmp += alpha A B; pm_2mm2 D = tmp C + beta
 * D; one output per thread and transaction. */
struct pm_2mm_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, tmp, d, n, alpha, beta; };
/* SGEMM (Parboil's kind, float): C = alpha A B + beta C, n x n, a
 * PM_SGEMM_TILE x PM_SGEMM_TILE CTA per tile of C, tiles of A and B staged in
 * shared memory (2 * TILE * TILE floats of dynamic shared memory). */
#define PM_SGEMM_TILE 16u
struct pm_sgemm_args { gpu_durable_region region; uint32_t path, tx_per_cta, a, b, c, n, alpha, beta; };
/* One BFS level, pulled: every unvisited node v with a neighbour at `level`
 * gets level + 1 (CSR row_offsets / columns, a symmetric graph). */
#define PM_BFS_UNVISITED 0xffffffffu
struct pm_bfs_args { gpu_durable_region region; uint32_t path, tx_per_cta, row_offsets, columns, levels, n, level; };
/* One Pathfinder row (Rodinia, pyramid height 1): dst[j] = wall[row][j] +
 * min(src[j - 1], src[j], src[j + 1]) (clamped at the edges). */
struct pm_pathfinder_args { gpu_durable_region region; uint32_t path, tx_per_cta, wall, src, dst, cols, row; };

/* SAD (Parboil's sad, mb_sad_calc's kind): for every PM_SAD_MB x PM_SAD_MB
 * macroblock of the current frame (side n) and every search offset (dx, dy)
 * in [-PM_SAD_RANGE, PM_SAD_RANGE)^2, out += |cur - ref| over the
 * macroblock's pixels, `chunk` of its rows per transaction; the reference
 * frame has a border of PM_SAD_RANGE pixels (side n + 2 PM_SAD_RANGE). A CTA
 * per macroblock, a thread per offset (thread t: dx = t mod 2 RANGE - RANGE,
 * dy = t / 2 RANGE - RANGE); out[mb * PM_SAD_POSITIONS + t]. */
#define PM_SAD_MB 16u
#define PM_SAD_RANGE 8u
#define PM_SAD_POSITIONS (4u * PM_SAD_RANGE * PM_SAD_RANGE)
struct pm_sad_args { gpu_durable_region region; uint32_t path, tx_per_cta, cur, ref, out, n, chunk; };

/* Backprop (Rodinia's, integers mod 2^32): `n` inputs plus the bias
 * (in[0]), PM_BP_HIDDEN hidden units; weights w and oldw of (n + 1) rows of
 * PM_BP_HIDDEN + 1 words (Rodinia's layout: row 0 and column 0 the bias).
 * CTAs of PM_BP_HIDDEN x PM_BP_HIDDEN threads (tx the hidden unit, ty a row
 * of the CTA's PM_BP_HIDDEN inputs). pm_backprop1 (bpnn_layerforward):
 * thread (0, ty) writes partial[by * HIDDEN + ty] = the sum over the CTA's
 * rows r of w[r][ty + 1] in[r]. pm_backprop2 (bpnn_adjust_weights): thread
 * (tx, ty) of row r = by * HIDDEN + ty + 1, column tx + 1: d = eta
 * delta[tx + 1] in[r] + momentum oldw[r][tx + 1]; w += d; oldw = d. */
#define PM_BP_HIDDEN 16u
struct pm_backprop_args { gpu_durable_region region; uint32_t path, tx_per_cta, in, w, oldw, delta, partial, n, eta, momentum; };

#endif
