#include "workload.h"

#include <string.h>

int vector_add_main(gpu_device *device, workload_context *context);
int reduction_main(gpu_device *device, workload_context *context);
int histogram_main(gpu_device *device, workload_context *context);
int ht_main(gpu_device *device, workload_context *context);
int atm_main(gpu_device *device, workload_context *context);
int rbt_main(gpu_device *device, workload_context *context);
int spmv_tm_main(gpu_device *device, workload_context *context);
int list_main(gpu_device *device, workload_context *context);
int bintree_main(gpu_device *device, workload_context *context);
int tx_rollback_main(gpu_device *device, workload_context *context);
int tx_blind_main(gpu_device *device, workload_context *context);
int write_skew_main(gpu_device *device, workload_context *context);
int graphcut_main(gpu_device *device, workload_context *context);
int vacation_main(gpu_device *device, workload_context *context);
int isa_main(gpu_device *device, workload_context *context);
int fisa_main(gpu_device *device, workload_context *context);
int saxpy_main(gpu_device *device, workload_context *context);
int shared_kernels_main(gpu_device *device, workload_context *context);
int freduction_main(gpu_device *device, workload_context *context);
int printf_main(gpu_device *device, workload_context *context);
int spmv_main(gpu_device *device, workload_context *context);
int bfs_main(gpu_device *device, workload_context *context);
int divergence_main(gpu_device *device, workload_context *context);
int chase_main(gpu_device *device, workload_context *context);
int pm_stream_main(gpu_device *device, workload_context *context);
int pm_gemm_main(gpu_device *device, workload_context *context);
int pm_mvt_main(gpu_device *device, workload_context *context);
int pm_kvs_main(gpu_device *device, workload_context *context);
int localtm_basic_main(gpu_device *device, workload_context *context);
int localtm_ht_main(gpu_device *device, workload_context *context);
int localtm_km_main(gpu_device *device, workload_context *context);
int localtm_ga_main(gpu_device *device, workload_context *context);
int pm_atax_main(gpu_device *device, workload_context *context);
int pm_gesummv_main(gpu_device *device, workload_context *context);
int pm_2mm_main(gpu_device *device, workload_context *context);
int pm_sgemm_main(gpu_device *device, workload_context *context);
int pm_bfs_main(gpu_device *device, workload_context *context);
int pm_pathfinder_main(gpu_device *device, workload_context *context);
int pm_sad_main(gpu_device *device, workload_context *context);
int pm_backprop_main(gpu_device *device, workload_context *context);

/* Options: those the host program reads; opt and kernel are every workload's. */
static const workload_info workloads[] = {
    {"vector_add", "c[i] = a[i] + b[i], launches times with new inputs", "n block seed persistent launches", false, vector_add_main},
    {"reduction", "shared-memory tree reduction with barriers, one partial sum per CTA", "n block seed", false, reduction_main},
    {"histogram", "histogram with global atomics", "n bins ctas block seed", false, histogram_main},
    {"ht", "TM: chained hash table insert", "n buckets values block seed check_serializability", true, ht_main},
    {"atm", "TM: transfers between accounts", "n accounts per_thread queries block seed versioned check_serializability", true, atm_main},
    {"rbt", "TM: red-black tree insert then remove, or mixed operations on a prefilled tree", "n prefill removes block seed check_serializability", true, rbt_main},
    {"spmv_tm", "TM: SpMV with transactional updates of the result vector", "n per_row per_thread loads_inside block seed check_serializability", true, spmv_tm_main},
    {"list", "TM: sorted linked-list insert", "n variant prefill spread block seed check_serializability", true, list_main},
    {"bintree", "TM: binary search tree insert, then delete, or mixed operations on a prefilled tree", "n remove removes prefill spread block seed check_serializability", true, bintree_main},
    {"tx_rollback", "TM: rollback of private-stack stores and doomed transactions", "n block doomed expect_doomed check_serializability", true, tx_rollback_main},
    {"tx_blind", "TM: blind write-write conflicts between lanes of a warp, one transaction on each arm of an if", "n block group expect_intra_warp check_serializability", true, tx_blind_main},
    {"write_skew", "TM: write skew (two threads per pair of words, each leaves if both are on call): plain SI fails it", "pairs block check_serializability", true, write_skew_main},
    {"graphcut", "TM: Karger's min-cut contraction on a random connected multigraph (SI-TM's GraphCut)", "vertices edges threads block seed check_serializability", true, graphcut_main},
    {"vacation", "TM: STAMP's Vacation, four red-black-tree tables and per-customer reservation lists (SI-TM's Vacation)", "n relations customers queries user per_thread block seed check_serializability", true, vacation_main},
    {"spmv", "sparse matrix (CSR) times vector, one row per thread", "n per_row block seed", false, spmv_main},
    {"bfs", "frontier-based breadth-first search, one launch per level", "n degree block seed", false, bfs_main},
    {"divergence", "divergence torture kernel checked against the scalar reference interpreter", "n block seed", false, divergence_main},
    {"isa", "instruction coverage: every RV32IMA instruction on edge operands, checked by the host's own arithmetic", "n block seed", false, isa_main},
    {"fisa", "single-precision coverage: every F instruction and rounding mode on edge operands, results and fflags checked by the host's own arithmetic", "n block seed", false, fisa_main},
    {"saxpy", "float y[i] = alpha * x[i] + y[i], and each thread's gpu_clock() around it", "n block seed", false, saxpy_main},
    {"freduction", "float shared-memory tree reduction, one partial sum per CTA", "n block seed", false, freduction_main},
    {"shared_kernels", "two kernels of one module charged their own static shared memory, one with dynamic shared memory; CTAs resident at once", "n block dynamic max_resident min_resident seed", false, shared_kernels_main},
    {"printf", "device printf: a line from every thread, printed by the host runtime after the launch", "n block", false, printf_main},
    {"pm_stream", "durable: StreamTriad, tx_per_cta undo-log transactions per CTA", "n per_thread block seed persist broken tx_per_cta", false, pm_stream_main},
    {"pm_gemm", "durable: GEMM, tx_per_cta undo-log transactions per CTA", "n block seed persist broken tx_per_cta chunk", false, pm_gemm_main},
    {"pm_mvt", "durable: MVT (x1 += A y1), the output persisted every iteration", "n block seed persist broken tx_per_cta chunk", false, pm_mvt_main},
    {"pm_kvs", "durable: batched key-value insert into a set-associative table", "n buckets prefill block seed persist broken tx_per_cta", false, pm_kvs_main},
    {"localtm_basic", "GPU-LocalTM: the paper's Table 1 (mode=table1, lanes=4), a shared counter every thread increments in a transaction, or a store outside the region's data words (outside)", "mode n ctas expect_wg check_serializability", false, localtm_basic_main},
    /* GPU-LocalTM (transactions in the LDS, platforms/si_localtm.lua): mode=serial runs anywhere, so not `transactional`; mode=tm checks serializability on the lds's commit records. */
    {"localtm_ht", "GPU-LocalTM: hash table, each work-item inserts its id (HT2..HT256)", "n buckets mode seed check_serializability", false, localtm_ht_main},
    {"localtm_km", "GPU-LocalTM: K-Means, one iteration, center updates in transactions (KM2..KM256)", "n centers mode seed check_serializability", false, localtm_km_main},
    {"localtm_ga", "GPU-LocalTM: genetic knapsack, each transaction crosses two solutions (GA2..GA256)", "n solutions capacity mode seed check_serializability", false, localtm_ga_main},
    {"pm_atax", "durable: ATAX (tmp += A x, then y += A^T tmp), outputs persisted every iteration; stage 1, 2 or both", "n block stage seed persist broken tx_per_cta chunk", false, pm_atax_main},
    {"pm_gesummv", "durable: GESUMMV (y = alpha A x + beta B x), partial sums persisted every iteration", "n block seed persist broken tx_per_cta", false, pm_gesummv_main},
    {"pm_2mm", "durable: 2MM (tmp += alpha A B, then D = tmp C + beta D); stage 1, 2 or both", "n block stage seed persist broken tx_per_cta", false, pm_2mm_main},
    {"pm_sgemm", "durable: float SGEMM with shared-memory tiles, a transaction per 16x16 tile", "n seed persist broken", false, pm_sgemm_main},
    {"pm_bfs", "durable: BFS on a banded graph, one launch per level, few logs per launch", "n degree window block seed persist broken", false, pm_bfs_main},
    {"pm_pathfinder", "durable: Pathfinder (Rodinia), one launch per row", "n rows block seed persist broken", false, pm_pathfinder_main},
    {"pm_sad", "durable: SAD (Parboil), a CTA per macroblock, chunk rows per transaction", "n chunk seed persist broken", false, pm_sad_main},
    {"pm_backprop", "durable: Backprop (Rodinia), layer forward then weight adjustment; stage 1, 2 or both", "n stage seed persist broken", false, pm_backprop_main},
    {"chase", "one thread chasing pointers, for latency calibration (scripts/calibrate)", "space offsets passes steps base_multiple", false, chase_main},
};

size_t workload_count(void) { return sizeof workloads / sizeof workloads[0]; }
const workload_info *workload_at(size_t index) { return index < workload_count() ? &workloads[index] : NULL; }

const workload_info *workload_find(const char *name)
{
    for (size_t i = 0; i < workload_count(); i++)
        if (!strcmp(workloads[i].name, name)) return &workloads[i];
    return NULL;
}
