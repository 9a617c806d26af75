/* The host API: a CUDA-runtime-like C interface for workload host programs.
 * Allocate global or persistent memory, copy in and out, load a kernel ELF,
 * launch a kernel over a grid of CTAs, synchronize, read statistics.
 *
 * The device is reached through a small backend (zero-time memory access,
 * launch, run until idle, statistics): the simtx CLI provides one over an
 * elaborated platform (testbenches/workloads/workload_runner.cpp); a unit test may
 * provide its own. Errors: functions return false/0 and gpu_last_error()
 * says why. */
#ifndef SIMTX_HOST_API_H
#define SIMTX_HOST_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simt_core.h"
#include "tm_unit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpu_dim3 {
    uint32_t x, y, z;
} gpu_dim3;

typedef struct gpu_backend {
    void *context;
    /* Zero-time access to the device's memory; false when no memory answers. */
    bool (*access)(void *context, bool is_write, uint32_t address, void *data, size_t size);
    /* Hands a launch to every core. */
    bool (*launch)(void *context, simt_launch *launch, char *error, size_t error_size);
    /* Simulates until no work is left; false with a message on a failed run. */
    bool (*run)(void *context, char *error, size_t error_size);
    /* The sum of every statistic named `name` or ending in ".name". */
    bool (*statistic)(void *context, const char *name, double *value);
    /* Optional (transactional memory): turns commit recording on or off in
     * every tm_unit; visits every recorded commit of every tm_unit, then
     * forgets them. */
    bool (*tm_record)(void *context, bool on);
    bool (*tm_history)(void *context, void (*visit)(void *visit_context, const tm_unit_record *record, const uint32_t *words),
                       void *visit_context);
    /* Optional (persistent memory): zero-time read of the durable image at
     * address, from the NVM controller holding it (media plus write-pending
     * queue; never the caches); false when no NVM controller holds it. */
    bool (*durable_read)(void *context, uint32_t address, void *data, size_t size);
    /* Optional (persistent memory): zero-time write into the durable image
     * (recovery after a power failure). */
    bool (*durable_write)(void *context, uint32_t address, const void *data, size_t size);
    /* Optional (crash injection): whether the last failed run was stopped
     * by an injected power failure rather than an error. */
    bool (*crashed)(void *context);
} gpu_backend;

typedef struct gpu_device gpu_device;
typedef struct gpu_module gpu_module;

/* Reserved at the bottom of the global window: the kernels' .data/.bss and
 * the launch argument block; allocations start above. */
#define GPU_ARGS_ADDRESS 0x100f0000u
#define GPU_ARGS_MAX 0x10000u
#define GPU_HEAP_BASE 0x10100000u

gpu_device *gpu_device_create(const gpu_backend *backend);
void gpu_device_destroy(gpu_device *device);
const char *gpu_last_error(const gpu_device *device);
/* Whether the last error is bad input (a kernel file that cannot be loaded,
 * or that lacks the kernel launched) rather than a failed run. */
bool gpu_last_error_is_input(const gpu_device *device);

/* Device addresses, 256-byte aligned; 0 on failure. */
uint32_t gpu_malloc(gpu_device *device, size_t bytes);
uint32_t gpu_malloc_persistent(gpu_device *device, size_t bytes);
bool gpu_free(gpu_device *device, uint32_t address);
bool gpu_copy_to_device(gpu_device *device, uint32_t destination, const void *source, size_t bytes);
bool gpu_copy_from_device(gpu_device *device, void *destination, uint32_t source, size_t bytes);
bool gpu_memset(gpu_device *device, uint32_t destination, int value, size_t bytes);
/* Persistent memory: copies out what a power failure now would leave of the
 * persistent window (the NVM media and their ADR write-pending queues, not
 * the caches' dirty lines). False outside the persistent window or on a
 * platform without NVM controllers. */
bool gpu_copy_from_durable(gpu_device *device, void *destination, uint32_t source, size_t bytes);
/* Writes into that durable image: a recovery after a power failure rolls
 * back what the image holds. False outside the persistent window or on a
 * platform without NVM controllers. */
bool gpu_copy_to_durable(gpu_device *device, uint32_t destination, const void *source, size_t bytes);
/* Whether the platform keeps the persistent window in NVM controllers (so
 * that gpu_copy_from_durable can answer). */
bool gpu_has_durable_image(const gpu_device *device);
/* Whether a power failure (crash injection: simtx run --crash-at) stopped
 * the last launch: gpu_synchronize then returned false, and from then on
 * only the durable image answers (every other access and launch fails). */
bool gpu_crashed(const gpu_device *device);

/* Loads and verifies a kernel ELF and places its .data/.bss in memory. */
gpu_module *gpu_module_load(gpu_device *device, const char *path);
void gpu_module_unload(gpu_module *module);
const kernel_image *gpu_module_image(const gpu_module *module);

/* Launches kernel `name` of the module; args (args_size bytes) are copied to
 * the device and the kernel receives their address. Asynchronous: returns at
 * once; gpu_synchronize() runs the simulation until the kernel is done. */
bool gpu_launch(gpu_device *device, gpu_module *module, const char *name, gpu_dim3 grid, gpu_dim3 block, const void *args,
                size_t args_size, uint32_t shared_bytes);
bool gpu_synchronize(gpu_device *device);
bool gpu_statistic(gpu_device *device, const char *name, double *value);
/* Transactional memory: record every committed transaction (for the
 * serializability oracle) and hand the records over (each core's words:
 * address, value pairs, reads then writes). False without a TM backend. */
bool gpu_tm_record(gpu_device *device, bool on);
bool gpu_tm_history(gpu_device *device, void (*visit)(void *visit_context, const tm_unit_record *record, const uint32_t *words),
                    void *visit_context);
/* Kernel launches completed so far. */
unsigned gpu_launch_count(const gpu_device *device);

#ifdef __cplusplus
}
#endif
#endif
