/* Argument blocks shared by the kernels (RV32) and their host programs:
 * device pointers are 32-bit addresses on both sides. */
#ifndef SIMTX_WORKLOAD_ARGS_H
#define SIMTX_WORKLOAD_ARGS_H

#include <stdint.h>

struct vector_add_args { uint32_t a, b, c, n; };
struct reduction_args { uint32_t input, partial_sums, n; };
struct histogram_args { uint32_t input, bins, n, bin_count, maximum; };
struct spmv_args { uint32_t row_offsets, columns, values, x, y, rows; };
struct bfs_args { uint32_t row_offsets, columns, levels, frontier_in, frontier_out, frontier_size, out_size, level, nodes; };
struct divergence_args { uint32_t input, output, n; };
/* Latency calibration: one thread chases pointers through one space. */
enum { CHASE_GLOBAL, CHASE_ATOMIC, CHASE_SHARED, CHASE_LOCAL, CHASE_CONSTANT };
#define CHASE_IN_CORE_WORDS 64 /* the chain's length in shared, local and constant memory */
struct chase_args { uint32_t start, steps, space, out; };
/* Transactional workloads. */
struct ht_args { uint32_t keys, buckets, nodes, n, bucket_count; };
struct tx_rollback_args { uint32_t counter, pair, out, n, doomed_fault; };
struct list_args { uint32_t keys, nodes, n, search_outside; };
struct bintree_args { uint32_t keys, nodes, n, remove; };
struct bintree_mixed_args { uint32_t keys, ops, nodes, n; };
struct spmv_tm_args { uint32_t rows, columns, values, x, y, nonzeros, per_thread, loads_inside; };
struct rbt_args { uint32_t keys, nodes, root, n, remove, ops; };
struct atm_args { uint32_t accounts, sources, destinations, amounts, threads, per_thread; };
struct tx_blind_args { uint32_t odd, even, n, group; };
struct isa_args { uint32_t a, b, in, out, global, shared_out, n; };
struct fisa_args { uint32_t a, b, c, out, n; };
struct saxpy_args { uint32_t x, y, clocks, n; float alpha; };
struct freduction_args { uint32_t input, partial_sums, n; };
struct printf_args { uint32_t n; };

#endif
