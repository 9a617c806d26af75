/* The host API's side facing the simulator: how a gpu_device reaches the
 * platform (zero-time memory access, launch, run until idle, statistics,
 * commit records). The simtx CLI provides one over an elaborated platform
 * (testbenches/workloads/workload_runner.cpp); a unit test may provide its
 * own. Not installed: host programs see only host_api.h. */
#ifndef SIMTX_HOST_BACKEND_H
#define SIMTX_HOST_BACKEND_H

#include "host_api.h"
#include "simt_core.h"
#include "tm_unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One statistic of one block instance, as the backend lists them. */
typedef struct gpu_statistic_entry {
    const char *instance;   /* "sm0" */
    const char *block_type; /* "simt_core" */
    const char *name;       /* "thread_instructions" */
    double value;
} gpu_statistic_entry;

/* One commit a local-memory TM (GPU-LocalTM, in an lds) recorded: space
 * names the CTA instance whose shared memory it touched (its own address
 * space), order its place in that space's commit order; words are the
 * commit's (byte offset, value) pairs, reads then writes. */
typedef struct gpu_lds_commit {
    uint64_t space;
    uint32_t order, read_count, write_count;
} gpu_lds_commit;

typedef struct gpu_backend {
    void *context;
    /* Zero-time access to the device's memory; false when no memory answers. */
    bool (*access)(void *context, bool is_write, uint32_t address, void *data, size_t size);
    /* Hands a launch to every core. */
    bool (*launch)(void *context, simt_launch *launch, char *error, size_t error_size);
    /* Simulates until no work is left; false with a message on a failed run. */
    bool (*run)(void *context, char *error, size_t error_size);
    /* The index-th statistic of the platform (current values); false past
     * the last. Optional. */
    bool (*statistic_at)(void *context, size_t index, gpu_statistic_entry *entry);
    /* Optional (transactional memory): turns commit recording on or off in
     * every tm_unit (false when the platform has none); visits every recorded commit of every tm_unit, then
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
    /* Optional (versioned memory, models/protocols/version.h): false when the
     * platform has no Version Index Table slice; else the slices' version
     * stride, alignment and slots per region, and the lowest address above
     * every registered region's versions and relocated area. */
    bool (*version_layout)(void *context, uint64_t *stride, uint64_t *align, unsigned *versions, uint64_t *free_from);
    /* Registers a region at every slice at zero time (what VERSION_REGISTER
     * does); false with the slice's reason (table full, layout). */
    bool (*version_register)(void *context, uint32_t base, uint32_t size, uint32_t relocated, char *error, size_t error_size);
} gpu_backend;

/* Optional (GPU-LocalTM, transactions in the lds), given after
 * gpu_device_create with the backend's context: `record` turns commit
 * recording on or off in every lds that keeps commit records (false when
 * none does); `history` visits every recorded commit, then forgets them. */
typedef bool (*gpu_lds_record_fn)(void *context, bool on);
typedef bool (*gpu_lds_history_fn)(void *context, void (*visit)(void *visit_context, const gpu_lds_commit *commit, const uint32_t *words),
                                   void *visit_context);

gpu_device *gpu_device_create(const gpu_backend *backend);
void gpu_device_destroy(gpu_device *device);
void gpu_device_set_lds_backend(gpu_device *device, gpu_lds_record_fn record, gpu_lds_history_fn history);
const kernel_image *gpu_module_image(const gpu_module *module);
/* The memory checker (on in simtx run unless --no-memcheck): each launch from now on hands
 * the cores the live allocations (simt_launch.memcheck, memcheck.h), and a
 * kernel access outside them fails the run. */
void gpu_device_set_memcheck(gpu_device *device, bool on);
/* Commit recording for the serializability oracle (host_serializability.c):
 * each core's words are address, value pairs, reads then writes. False
 * without a TM backend. */
bool gpu_tm_record(gpu_device *device, bool on);
bool gpu_tm_history(gpu_device *device, void (*visit)(void *visit_context, const tm_unit_record *record, const uint32_t *words),
                    void *visit_context);
/* The lds's commit records (GPU-LocalTM), when gpu_tm_record turned them
 * on; true with no visit when the platform has none. */
bool gpu_lds_history(gpu_device *device, void (*visit)(void *visit_context, const gpu_lds_commit *commit, const uint32_t *words),
                     void *visit_context);

#ifdef __cplusplus
}
#endif
#endif
