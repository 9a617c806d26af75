/* A scalar reference interpreter: runs one thread of a kernel alone, to the
 * end, following its real jump targets (no SIMT stack, no timing). Oracles
 * use it: a SIMT run must leave the same memory as running every thread by
 * itself. Barriers are refused (a thread alone cannot meet its CTA). */
#ifndef SIMTX_RV32_REFERENCE_H
#define SIMTX_RV32_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rv_reference_thread {
    uint32_t thread[3], block_dim[3], block[3], grid_dim[3];
    uint32_t warp_size;
    uint32_t args_address;
    uint32_t local_bytes;
} rv_reference_thread;

/* Global/persistent/shared memory of the reference: read or write size bytes. */
typedef bool (*rv_reference_access)(void *context, bool is_write, uint32_t address, void *data, unsigned size);

/* Runs the thread from entry_pc until it returns or exits. Returns false with
 * a message on a fault or when max_steps instructions were not enough. */
bool rv_reference_run(const kernel_image *image, uint32_t entry_pc, const rv_reference_thread *thread,
                      rv_reference_access access, void *context, uint64_t max_steps, uint64_t *steps, char *error,
                      size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
