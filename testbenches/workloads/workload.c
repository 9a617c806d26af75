#include "workload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
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
int chase_main(gpu_device *device, workload_context *context);

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
    {"chase", "one thread chasing pointers, for latency calibration (options: space=global|atomic|shared|local|constant, offsets, passes, steps, base_multiple)", chase_main},
};

size_t workload_count(void) { return sizeof workloads / sizeof workloads[0]; }
const workload_info *workload_at(size_t index) { return index < workload_count() ? &workloads[index] : NULL; }

const workload_info *workload_find(const char *name)
{
    for (size_t i = 0; i < workload_count(); i++)
        if (!strcmp(workloads[i].name, name)) return &workloads[i];
    return NULL;
}

int workload_fail(workload_context *context, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(context->error, context->error_size, format, args);
    va_end(args);
    return 1;
}

static workload_option *find_option(workload_context *context, const char *name)
{
    for (size_t i = 0; i < context->option_count; i++)
        if (!strcmp(context->options[i].name, name)) {
            context->options[i].used = true;
            return &context->options[i];
        }
    return NULL;
}

int64_t workload_int(workload_context *context, const char *name, int64_t default_value, int64_t minimum, int64_t maximum)
{
    workload_option *option = find_option(context, name);
    if (!option) return default_value;
    char *end;
    errno = 0;
    long long value = strtoll(option->value, &end, 0);
    if (errno || end == option->value || *end || value < minimum || value > maximum) {
        if (!context->bad_option)
            workload_fail(context, "workload.%s: expected an integer in [%lld, %lld], got '%s'", name, (long long)minimum,
                          (long long)maximum, option->value);
        context->bad_option = true;
        return default_value;
    }
    return value;
}

const char *workload_string(workload_context *context, const char *name, const char *default_value)
{
    workload_option *option = find_option(context, name);
    return option ? option->value : default_value;
}

void workload_kernel_path(workload_context *context, const char *base, char *path, size_t path_size)
{
    const char *opt = workload_string(context, "opt", "O2");
    const char *kernel = workload_string(context, "kernel", NULL);
    if (strcmp(opt, "O0") && strcmp(opt, "O1") && strcmp(opt, "O2") && strcmp(opt, "O3") && strcmp(opt, "Os")) {
        if (!context->bad_option) workload_fail(context, "workload.opt: expected O0, O1, O2, O3 or Os, got '%s'", opt);
        context->bad_option = true;
        opt = "O2";
    }
    if (kernel) snprintf(path, path_size, "%s", kernel);
    else snprintf(path, path_size, "%s/%s_%s.elf", context->kernel_dir, base, opt);
}

uint64_t workload_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
