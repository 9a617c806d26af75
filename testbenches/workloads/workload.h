/* Workloads: host programs (CUDA-runtime-like, through host_api.h) with
 * their kernels and exact host-side oracles. The CLI runs one with
 *   simtx run NETLIST --workload NAME [--set workload.OPTION=VALUE ...]
 * Options every workload reads: opt (O0|O1|O2|O3|Os, default O2) picks the
 * kernel build; kernel=PATH replaces the kernel ELF; seed (default: the
 * run's --seed) seeds the inputs. The runner refuses an option a workload
 * does not declare before it starts. */
#ifndef SIMTX_WORKLOAD_H
#define SIMTX_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct workload_option {
    const char *name, *value;
} workload_option;

typedef struct workload_context {
    workload_option *options;
    size_t option_count;
    const char *kernel_dir;
    FILE *log; /* one summary line per workload; may be NULL */
    char *error;
    size_t error_size;
    bool bad_input; /* the error is bad input (an option, the kernel file), not a failed run */
    uint64_t seed; /* default of the `seed` option: the run's --seed */
} workload_context;

/* Returns 0 when the oracle passed; otherwise writes context->error. */
typedef int (*workload_main)(gpu_device *device, workload_context *context);

typedef struct workload_info {
    const char *name;
    const char *summary;
    const char *options; /* the options it reads, space-separated, besides WORKLOAD_COMMON_OPTIONS */
    bool transactional;  /* its kernels use transactional memory: the platform needs commit units */
    workload_main main;
} workload_info;

#define WORKLOAD_COMMON_OPTIONS "opt kernel"

const workload_info *workload_find(const char *name);
size_t workload_count(void);
const workload_info *workload_at(size_t index);

/* Option access; a malformed value sets context->error and bad_input. */
int64_t workload_int(workload_context *context, const char *name, int64_t default_value, int64_t minimum, int64_t maximum);
const char *workload_string(workload_context *context, const char *name, const char *default_value);
/* The kernel ELF: option kernel, else <kernel_dir>/<base>_<opt>.elf. */
void workload_kernel_path(workload_context *context, const char *base, char *path, size_t path_size);
/* Reports a bad option value (bad input: exit status 2) and returns 1. */
int workload_bad_option(workload_context *context, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Writes the error text and returns 1. */
int workload_fail(workload_context *context, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* A small deterministic generator for inputs (splitmix64). */
uint64_t workload_random(uint64_t *state);

#ifdef __cplusplus
}
#endif
#endif
