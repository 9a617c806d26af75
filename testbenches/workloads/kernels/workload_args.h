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
struct write_skew_args { uint32_t words, left, pairs; };
/* GraphCut: an edge's outcome. */
enum { GRAPHCUT_UNREACHED, GRAPHCUT_MERGED, GRAPHCUT_SELF_LOOP, GRAPHCUT_STOPPED };
struct graphcut_args { uint32_t edges, order, parent, vertices, outcome, edge_count, threads; };
/* Vacation (STAMP): tables 0-2 are the resources (car, flight, room), 3 the
 * customers; an operation is VACATION_OP_WORDS(queries) words: {action,
 * customer, count, then count x (type, id, add, price)}; its outcome
 * `queries` words (vacation.c says what they hold). */
enum { VACATION_CAR, VACATION_FLIGHT, VACATION_ROOM, VACATION_CUSTOMER, VACATION_TABLES };
enum { VACATION_MAKE_RESERVATION, VACATION_DELETE_CUSTOMER, VACATION_UPDATE_TABLES };
#define VACATION_OP_WORDS(queries) (3 + 4 * (queries))
/* An outcome word: a code in bits 0-3, units removed or reservations
 * cancelled from bit 4; slot 0 of a reservation also the customer-added flag. */
enum { VACATION_OUT_NONE, VACATION_OUT_RESERVED, VACATION_OUT_REFUSED, VACATION_OUT_ADDED_ITEM, VACATION_OUT_ADDED_UNITS,
       VACATION_OUT_REMOVED_UNITS, VACATION_OUT_REMOVED_ITEM, VACATION_OUT_CUSTOMER_DELETED };
#define VACATION_OUT_CUSTOMER_ADDED 0x80000000u
struct vacation_args {
    uint32_t nodes, payload, roots, reservations, ops, outcomes;
    uint32_t threads, per_thread, queries, slots, spare_nodes, reservation_spares;
};
struct isa_args { uint32_t a, b, in, out, global, shared_out, n; };
struct fisa_args { uint32_t a, b, c, out, n; };
struct saxpy_args { uint32_t x, y, clocks, n; float alpha; };
struct freduction_args { uint32_t input, partial_sums, n; };
struct printf_args { uint32_t n; };
/* shared_kernels: resident and peak count CTAs between their first and
 * last barrier (global atomics), for the occupancy check. */
struct shared_kernels_args { uint32_t input, output, resident, peak, n; };
#define SHARED_KERNELS_SMALL_WORDS 8u
#define SHARED_KERNELS_LARGE_WORDS 2048u

#endif
