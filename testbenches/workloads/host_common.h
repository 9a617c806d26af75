/* Helpers for workload host programs. */
#ifndef SIMTX_WORKLOAD_HOST_COMMON_H
#define SIMTX_WORKLOAD_HOST_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "kernels/workload_args.h"

/* Evaluates a host-API call; on failure reports gpu_last_error (bad input
 * when the host API says so: a kernel file it cannot load) and jumps to the
 * host program's `done` label with status 1. */
#define HOST_CHECK(call)                                                        \
    do {                                                                        \
        if (!(call)) {                                                          \
            status = workload_fail(context, "%s", gpu_last_error(device));      \
            context->bad_input |= gpu_last_error_is_input(device);              \
            goto done;                                                          \
        }                                                                       \
    } while (0)

static inline gpu_dim3 dim3_1d(uint32_t x) { return (gpu_dim3){x, 1, 1}; }

#endif
