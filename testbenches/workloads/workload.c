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
int spmv_main(gpu_device *device, workload_context *context);
int bfs_main(gpu_device *device, workload_context *context);
int divergence_main(gpu_device *device, workload_context *context);

static const workload_info workloads[] = {
    {"vector_add", "c[i] = a[i] + b[i] (options: n, block)", vector_add_main},
    {"reduction", "shared-memory tree reduction with barriers, one partial sum per CTA (options: n, block)", reduction_main},
    {"histogram", "histogram with global atomics (options: n, bins, block)", histogram_main},
    {"ht", "TM: chained hash table insert (options: n, buckets, block, check_serializability)", ht_main},
    {"atm", "TM: transfers between accounts (options: n, accounts, per_thread, block, check_serializability)", atm_main},
    {"rbt", "TM: red-black tree insert then remove (options: n, block)", rbt_main},
    {"spmv_tm", "TM: SpMV with transactional updates of the result vector (options: n, per_row, per_thread, block)", spmv_tm_main},
    {"list", "TM: sorted linked-list insert (options: n, variant=inside|outside, block)", list_main},
    {"bintree", "TM: binary search tree insert, then delete (options: n, remove, prefill, block)", bintree_main},
    {"tx_rollback", "TM: rollback of private-stack stores and doomed transactions (options: n, block, doomed=fault|loop, expect_doomed)", tx_rollback_main},
    {"spmv", "sparse matrix (CSR) times vector, one row per thread (options: n rows, per_row, block)", spmv_main},
    {"bfs", "frontier-based breadth-first search, one launch per level (options: n nodes, degree, block)", bfs_main},
    {"divergence", "divergence torture kernel checked against the scalar reference interpreter (options: n, block)", divergence_main},
};

size_t workload_count(void) { return sizeof workloads / sizeof workloads[0]; }
const workload_info *workload_at(size_t index) { return index < workload_count() ? &workloads[index] : NULL; }

const workload_info *workload_find(const char *name)
{
    for (size_t i = 0; i < workload_count(); i++)
        if (!strcmp(workloads[i].name, name)) return &workloads[i];
    return NULL;
}
