/* The host API: a CUDA-runtime-like C interface for host programs that drive
 * kernels on a simtx platform. Allocate global or persistent memory, copy in
 * and out, load a kernel ELF, launch a kernel over a grid of CTAs,
 * synchronize, read statistics, check transactional runs for
 * serializability.
 *
 * This header is the whole interface a host program needs (it is installed
 * as <simtx/host_api.h>); a host program is either built into simtx (the
 * workloads of testbenches/workloads) or a host plugin that `simtx run
 * NETLIST --host PLUGIN.so [-- ARGS]` loads (docs/sdk.md): a shared library
 * exporting simtx_host_main (below). How the device is reached is internal
 * (host_backend.h).
 *
 * Errors: every call checks its arguments against the device first (the
 * live allocations, the loaded modules, the platform's memories, NVM
 * controllers and tm_units) and a refused call leaves the allocations and
 * device memory as they were. It then returns false (bool), 0 (an address:
 * never a device address) or NULL (a pointer), and gpu_last_error() names
 * the call, its arguments and the reason, e.g. "gpu_copy_to_device(0x10100000,
 * 4096 bytes): the range is larger than the rest of its allocation (nearest:
 * allocation 0x10100000 of 256 bytes)". A NULL device fails every call
 * without a message. */
#ifndef SIMTX_HOST_API_H
#define SIMTX_HOST_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpu_dim3 {
    uint32_t x, y, z;
} gpu_dim3;

typedef struct gpu_device gpu_device;
typedef struct gpu_module gpu_module;

/* Reserved at the bottom of the global window: the kernels' .data/.bss and
 * the launch argument block; allocations start above. */
#define GPU_ARGS_ADDRESS 0x100f0000u
#define GPU_ARGS_MAX 0x10000u
#define GPU_HEAP_BASE 0x10100000u

const char *gpu_last_error(const gpu_device *device);
/* Whether the last error is bad input (a kernel file that cannot be loaded,
 * or that lacks the kernel launched) rather than a failed run. */
bool gpu_last_error_is_input(const gpu_device *device);
/* Sets the text gpu_last_error returns (a host program's own failure, e.g.
 * its oracle's, which simtx then reports); returns false. */
bool gpu_set_error(gpu_device *device, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Device addresses, 256-byte aligned, never overlapping; 0 when the size
 * exceeds the window or the memory the platform has. Live are the bytes
 * asked for (copies and, with the memory checker, kernels may touch those),
 * until gpu_free(address). */
uint32_t gpu_malloc(gpu_device *device, size_t bytes);
uint32_t gpu_malloc_persistent(gpu_device *device, size_t bytes);
bool gpu_free(gpu_device *device, uint32_t address);
/* Versioned global memory (SI-TM: a transaction's loads read its snapshot;
 * platforms/gtx480_warptm_versioned.lua): allocates like gpu_malloc and
 * registers the buffer as a region at every Version Index Table slice
 * before the next launch. The buffer lies at a whole-DRAM-row boundary,
 * its size rounded up to whole rows in every partition; its older versions
 * and their relocated area take address space above it (versions x the
 * version stride, plus versions - 1 x the rounded size), which no other
 * allocation uses. 0 on a platform without VIT slices, for more than one
 * version stride of bytes, or when the table is full (42 regions): the
 * error names the allocation. It lives until the device ends (a region
 * cannot be unregistered): gpu_free refuses it. */
uint32_t gpu_malloc_versioned(gpu_device *device, size_t bytes);
/* Copies and memset: the device range must lie inside one live allocation
 * (or a loaded module's .data/.bss); 0 bytes do nothing. */
bool gpu_copy_to_device(gpu_device *device, uint32_t destination, const void *source, size_t bytes);
bool gpu_copy_from_device(gpu_device *device, void *destination, uint32_t source, size_t bytes);
bool gpu_memset(gpu_device *device, uint32_t destination, int value, size_t bytes);
/* Persistent memory: copies out what a power failure now would leave of the
 * persistent window (the NVM media and their ADR write-pending queues, not
 * the caches' dirty lines). False outside one persistent allocation or on
 * a platform without NVM controllers. */
bool gpu_copy_from_durable(gpu_device *device, void *destination, uint32_t source, size_t bytes);
/* Writes into that durable image: a recovery after a power failure rolls
 * back what the image holds. False outside one persistent allocation or on
 * a platform without NVM controllers. */
bool gpu_copy_to_durable(gpu_device *device, uint32_t destination, const void *source, size_t bytes);
/* Whether the platform keeps the persistent window in NVM controllers (so
 * that gpu_copy_from_durable can answer). */
bool gpu_has_durable_image(const gpu_device *device);
/* The persistent window's bounds: [*base, *base + *size) is where
 * gpu_malloc_persistent allocates (on every platform; only one with NVM
 * controllers keeps a durable image of it). */
void gpu_persistent_window(const gpu_device *device, uint32_t *base, uint32_t *size);
/* Whether a power failure (crash injection: simtx run --crash-at) stopped
 * the last launch: gpu_synchronize then returned false, and from then on
 * only the durable image answers (every other access and launch fails). */
bool gpu_crashed(const gpu_device *device);

/* Loads and verifies a kernel ELF and places its .data/.bss in memory. A
 * relative path that names no file from the working folder is looked up
 * beside the host plugin (where simtx_add_host_plugin puts the kernels of
 * its KERNELS), so an installed plugin finds its own kernels. */
gpu_module *gpu_module_load(gpu_device *device, const char *path);
void gpu_module_unload(gpu_module *module);

/* Launches kernel `name` of the module; args (args_size bytes) are copied to
 * the device and the kernel receives their address. shared_bytes: dynamic
 * shared memory per CTA (CUDA's third <<<>>> argument), after the kernel's
 * own static shared variables; the kernel finds it with
 * gpu_dynamic_shared() (gpu.h). A CTA that fits no core (warps, registers,
 * static + dynamic shared memory) is refused before the launch, as bad
 * input. Asynchronous: returns at once; gpu_synchronize() runs the
 * simulation until the kernel is done. */
bool gpu_launch(gpu_device *device, gpu_module *module, const char *name, gpu_dim3 grid, gpu_dim3 block, const void *args,
                size_t args_size, uint32_t shared_bytes);
bool gpu_synchronize(gpu_device *device);
/* Kernel launches completed so far. */
unsigned gpu_launch_count(const gpu_device *device);

/* A statistic summed over the blocks that report it, so far in the run.
 * `query` takes one of three forms:
 *   "NAME"            every block reporting NAME; refused (false, with the
 *                     block types named) when blocks of more than one type
 *                     report it, e.g. hits: the L1s and the L2 slices
 *   "TYPE:NAME"       the blocks of one type: "l1_cache:hits",
 *                     "simt_core:thread_instructions", "tm_unit:commits"
 *   "INSTANCE.NAME"   the instances matching a glob: "sm*.tm_n_commits",
 *                     "cu0.tm_n_commits"
 * Counters add up; an average gives the sum of its instances' means, a
 * histogram the sum of its samples. False when nothing matches. Statistic
 * names and their blocks: `simtx describe TYPE`. */
bool gpu_statistic(gpu_device *device, const char *query, double *value);

/* Transactional memory: the serializability oracle. It records every
 * committed transaction (addresses and values read, then written), replays
 * them in commit order on a snapshot of memory and compares every read and
 * the final memory with the replay.
 *
 * Register, before the launch, EVERY region a transaction reads or writes
 * (the replay's initial image is these snapshots; a transaction reading
 * outside them fails the check: "transaction 5 read 0x10200000,
 * which the initial image cannot supply"). Memory the
 * transactions touch must not be written outside transactions while the
 * check runs (the host's own copies included).
 *
 *   gpu_serializability *check = gpu_serializability_begin(device);
 *   gpu_serializability_region(check, d_table, bytes);  // every region read
 *   ... gpu_launch, gpu_synchronize (one launch or several) ...
 *   size_t commits;
 *   if (!gpu_serializability_end(check, &commits)) fail(gpu_last_error(device));
 *
 * begin is NULL (gpu_last_error says why) on a platform without tm_unit
 * blocks or while another check runs on the device; a region must lie in
 * live allocations; end frees the check and returns false with the first violation,
 * e.g. "serializability oracle: transaction 7 (#3 in commit order) read
 * 0x10100040 = 0x0 but the serial replay has 0x1". */
typedef struct gpu_serializability gpu_serializability;
gpu_serializability *gpu_serializability_begin(gpu_device *device);
bool gpu_serializability_region(gpu_serializability *check, uint32_t address, uint32_t bytes);
bool gpu_serializability_end(gpu_serializability *check, size_t *commit_count);
/* As end, saying which checks ran. Transactions that took snapshots (SI-TM)
 * are checked by verification/si_check.h: each read against its snapshot,
 * first committer wins where reads were not validated, and an acyclic
 * dependency graph (a violation: "snapshot-isolation checker: dependency
 * cycle (write skew, 2 transactions): commit 12 -rw 0x10100040-> commit 13
 * -rw 0x10100044-> commit 12"); the commit-order replay runs when every
 * read was validated at commit. */
typedef struct gpu_serializability_report {
    size_t commits;                       /* committed transactions checked */
    bool replayed;                        /* replayed in commit-ID order, consistent */
    bool snapshots_checked;               /* the snapshot-isolation checker passed */
    uint64_t edges_wr, edges_ww, edges_rw; /* its dependency graph */
    /* Reads of transactions validated at commit that did not come from their
     * snapshot (harmless to the result, but the snapshot was not one), and
     * the first of them. */
    uint64_t validated_torn_reads;
    char torn_note[320];
} gpu_serializability_report;
bool gpu_serializability_finish(gpu_serializability *check, gpu_serializability_report *report);
/* Drops a check on an error path (no verdict; recording off). NULL is allowed. */
void gpu_serializability_discard(gpu_serializability *check);

/* The run's seed (simtx run --seed, default 1): a plugin that makes random
 * choices draws them from it, so that its command line reproduces the run. */
uint64_t gpu_seed(const gpu_device *device);

/* A plugin's options, set like a built-in workload's with
 * `simtx run ... --host PLUGIN.so --set workload.NAME=VALUE` (and by sweeps'
 * "workload_options"). Declare them by exporting, with C linkage,
 *   const simtx_host_option simtx_host_options[] = {
 *       {"threads", 512, 1, 1 << 20, "threads that transfer"},
 *       {NULL, 0, 0, 0, NULL}};
 * simtx checks every --set workload.NAME=VALUE against them before the
 * simulation starts (an unknown NAME, a VALUE that is no integer in
 * minimum..maximum: exit 2, named). */
typedef struct simtx_host_option {
    const char *name;
    int64_t default_value, minimum, maximum;
    const char *doc;
} simtx_host_option;
#define SIMTX_HOST_OPTIONS simtx_host_options
/* A declared option's value: --set's, else its default. False (with
 * gpu_last_error) for a name the plugin did not declare. */
bool gpu_option(gpu_device *device, const char *name, int64_t *value);

/* A host plugin's entry point, exported with C linkage:
 *   int simtx_host_main(gpu_device *device, int argc, char **argv)
 * argv[0] is the plugin's path, argv[1..] the arguments after `--`. Return 0
 * when the run and the program's oracle passed; 1 for a failed run or
 * oracle (simtx exits 1 with gpu_last_error's text); 2 for bad input such
 * as a wrong argument (simtx exits 2 with it). The device is simtx's: the
 * platform is elaborated before the call and finished after it. */
#define SIMTX_HOST_MAIN simtx_host_main
typedef int (*simtx_host_main_function)(gpu_device *device, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
