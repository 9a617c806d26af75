/* The vector_add workload's arguments (testbenches/workloads/kernels/
 * workload_args.h): the persistence kernels here stand in for its kernel
 * (--set workload.kernel=...), so its host program checks their results and
 * the durable image. */
#ifndef SIMTX_TEST_PM_ARGS_H
#define SIMTX_TEST_PM_ARGS_H
#include <stdint.h>
struct vector_add_args { uint32_t a, b, c, n; };
#endif
