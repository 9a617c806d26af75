#include "host_backend.h"
#include "memcheck.h"
#include "host_printf.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A block of a heap: capacity bytes reserved (a multiple of 256), the
 * first `bytes` of them live while in use (what copies and kernels may
 * touch). */
typedef struct allocation {
    uint32_t address, capacity, bytes;
    bool in_use;
    bool versioned; /* registered at the Version Index Table: never freed */
} allocation;

/* First-fit allocator over one address window. */
typedef struct heap {
    uint32_t base, end, top;
    memcheck_kind kind;
    allocation *blocks;
    size_t count, capacity;
} heap;

struct gpu_device {
    gpu_backend backend;
    heap global, persistent;
    gpu_module **modules; /* loaded, not yet unloaded: what gpu_launch accepts */
    size_t module_count, module_capacity;
    /* Every live range (memcheck.h), rebuilt on each change: the copies'
     * bounds, and the memory checker's table when it is on. */
    memcheck_range *live;
    size_t live_count;
    memcheck_table table;
    bool memcheck;
    bool recording; /* a serializability check is running */
    bool recording_tm, recording_lds; /* which of the tm_units and the ldss record for it */
    gpu_lds_record_fn lds_record;     /* host_backend.h: GPU-LocalTM's commit records, or NULL */
    gpu_lds_history_fn lds_history;
    simt_launch launch;
    uint8_t args[GPU_ARGS_MAX];
    bool launch_pending;
    bool crashed; /* a power failure stopped a launch: only the durable image is left */
    unsigned launches;
    char error[1024];
    bool error_is_input; /* the last error is about the kernel file, not the run */
    uint64_t seed;
    char **option_names; /* a host plugin's declared options, with their values */
    int64_t *option_values;
    size_t option_count;
    char *plugin_folder; /* relative kernel paths are looked up here too */
};

struct gpu_module {
    gpu_device *device;
    kernel_image *image;
    char *path; /* for messages */
};

static bool set_error_kind(gpu_device *d, bool is_input, const char *format, va_list args)
{
    vsnprintf(d->error, sizeof d->error, format, args);
    d->error_is_input = is_input;
    return false;
}

static bool set_error(gpu_device *d, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool set_error(gpu_device *d, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    set_error_kind(d, false, format, args);
    va_end(args);
    return false;
}

/* An error in the kernel file (unreadable, malformed, rejected by the load
 * checks, without the kernel launched): bad input, not a failed run. */
static bool set_input_error(gpu_device *d, const char *format, ...) __attribute__((format(printf, 2, 3)));
static bool set_input_error(gpu_device *d, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    set_error_kind(d, true, format, args);
    va_end(args);
    return false;
}

gpu_device *gpu_device_create(const gpu_backend *backend)
{
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->backend = *backend;
    d->global = (heap){GPU_HEAP_BASE, RV_GLOBAL_END, GPU_HEAP_BASE, MEMCHECK_GLOBAL, NULL, 0, 0};
    d->persistent = (heap){RV_PERSISTENT_BASE, RV_PERSISTENT_END, RV_PERSISTENT_BASE, MEMCHECK_PERSISTENT, NULL, 0, 0};
    d->seed = 1;
    return d;
}

static void free_run(gpu_device *d)
{
    for (size_t i = 0; i < d->option_count; i++) free(d->option_names[i]);
    free(d->option_names);
    free(d->option_values);
    free(d->plugin_folder);
    d->option_names = NULL;
    d->option_values = NULL;
    d->option_count = 0;
    d->plugin_folder = NULL;
}

bool gpu_device_set_run(gpu_device *d, uint64_t seed, const char *const *names, const int64_t *values, size_t count, const char *plugin_folder)
{
    free_run(d);
    d->seed = seed;
    d->option_names = calloc(count ? count : 1, sizeof *d->option_names);
    d->option_values = malloc((count ? count : 1) * sizeof *d->option_values);
    d->plugin_folder = plugin_folder ? strdup(plugin_folder) : NULL;
    if (!d->option_names || !d->option_values || (plugin_folder && !d->plugin_folder)) return gpu_set_error(d, "out of host memory");
    for (size_t i = 0; i < count; i++) {
        if (!(d->option_names[i] = strdup(names[i]))) return gpu_set_error(d, "out of host memory");
        d->option_values[i] = values[i];
        d->option_count = i + 1;
    }
    return true;
}

uint64_t gpu_seed(const gpu_device *d) { return d ? d->seed : 0; }

void gpu_persistent_window(const gpu_device *d, uint32_t *base, uint32_t *size)
{
    (void)d; /* one address map for every device (rv32.h) */
    if (base) *base = RV_PERSISTENT_BASE;
    if (size) *size = RV_PERSISTENT_END - RV_PERSISTENT_BASE;
}

bool gpu_option(gpu_device *d, const char *name, int64_t *value)
{
    if (!d) return false;
    if (!name || !value) return gpu_set_error(d, "gpu_option: NULL name or value");
    for (size_t i = 0; i < d->option_count; i++)
        if (!strcmp(d->option_names[i], name)) {
            *value = d->option_values[i];
            return true;
        }
    return gpu_set_error(d, "gpu_option: '%s' is no option the host plugin declares (simtx_host_options)", name);
}

void gpu_device_destroy(gpu_device *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->module_count; i++) d->modules[i]->device = NULL; /* an unload after this frees only the module */
    free(d->modules);
    free(d->global.blocks);
    free(d->persistent.blocks);
    free(d->live);
    free_run(d);
    free(d);
}

void gpu_device_set_memcheck(gpu_device *d, bool on) { d->memcheck = on; }

bool gpu_last_error_is_input(const gpu_device *d) { return d && d->error_is_input; }

bool gpu_set_error(gpu_device *d, const char *format, ...)
{
    if (!d || !format) return false;
    va_list args;
    va_start(args, format);
    set_error_kind(d, false, format, args);
    va_end(args);
    return false;
}

const char *gpu_last_error(const gpu_device *d) { return d ? d->error : "no device (NULL)"; }
unsigned gpu_launch_count(const gpu_device *d) { return d ? d->launches : 0; }

static int by_address(const void *a, const void *b)
{
    const memcheck_range *x = a, *y = b;
    return x->address < y->address ? -1 : x->address > y->address;
}

/* Rebuilds the sorted table of live ranges: allocations in use and the
 * loaded modules' segments (two modules may share theirs: merged). */
static bool rebuild_live(gpu_device *d)
{
    size_t count = 0;
    for (size_t i = 0; i < d->module_count; i++) count += d->modules[i]->image->data_segment_count;
    const heap *heaps[2] = {&d->global, &d->persistent};
    for (int k = 0; k < 2; k++) count += heaps[k]->count;
    memcheck_range *live = malloc((count ? count : 1) * sizeof *live);
    if (!live) return set_error(d, "out of host memory");
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < heaps[k]->count; i++)
            if (heaps[k]->blocks[i].in_use)
                live[n++] = (memcheck_range){heaps[k]->blocks[i].address, heaps[k]->blocks[i].bytes, heaps[k]->kind};
    for (size_t i = 0; i < d->module_count; i++)
        for (size_t j = 0; j < d->modules[i]->image->data_segment_count; j++) {
            const kernel_segment *s = &d->modules[i]->image->data_segments[j];
            if (s->memory_size) live[n++] = (memcheck_range){s->address, s->memory_size, MEMCHECK_KERNEL_DATA};
        }
    qsort(live, n, sizeof *live, by_address);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        memcheck_range *last = merged ? &live[merged - 1] : NULL;
        uint64_t last_end = last ? (uint64_t)last->address + last->bytes : 0;
        if (last && live[i].address < last_end) { /* overlapping segments: only kernel data can (allocations lie above) */
            uint64_t end = (uint64_t)live[i].address + live[i].bytes;
            if (end > last_end) last->bytes = (uint32_t)(end - last->address);
        } else
            live[merged++] = live[i];
    }
    free(d->live);
    d->live = live;
    d->live_count = merged;
    d->table = (memcheck_table){d->live, d->live_count};
    return true;
}

/* Where a range of bytes at address lies outside every live range, says so
 * and names the nearest one. */
static bool check_live(gpu_device *d, const char *function, uint32_t address, size_t bytes, bool persistent_only)
{
    const memcheck_range *range = memcheck_find(&d->table, address, bytes);
    if (range && (!persistent_only || range->kind == MEMCHECK_PERSISTENT)) return true;
    if (range)
        return set_error(d, "%s(0x%08x, %zu bytes): the range lies in a %s, not in a persistent allocation", function, address,
                         bytes, memcheck_kind_name(range->kind));
    const memcheck_range *nearest = memcheck_nearest(&d->table, address);
    if (!nearest) return set_error(d, "%s(0x%08x, %zu bytes): no live allocation (nothing is allocated)", function, address, bytes);
    bool inside = address - nearest->address < nearest->bytes;
    return set_error(d, "%s(0x%08x, %zu bytes): the range is %s (nearest: %s 0x%08x of %u bytes)", function, address, bytes,
                     inside ? "larger than the rest of its allocation" : "outside every live allocation",
                     memcheck_kind_name(nearest->kind), nearest->address, nearest->bytes);
}

/* Whether device memory answers every 1 MiB of [address, address + bytes)
 * and its last byte: memory ends where the platform's memories do, below
 * the window's end (a zero-time read, no simulated traffic). */
static bool memory_answers(gpu_device *d, uint32_t address, uint32_t bytes, uint32_t *missing)
{
    uint8_t byte;
    for (uint64_t offset = 0;; offset += 1u << 20) {
        uint32_t probe = offset < bytes ? address + (uint32_t)offset : address + bytes - 1;
        if (!d->backend.access(d->backend.context, false, probe, &byte, 1)) {
            *missing = probe;
            return false;
        }
        if (offset >= bytes) return true;
    }
}

/* Adds a block at or above the heap's top, which moves past it. */
static bool heap_append(gpu_device *d, heap *h, allocation block)
{
    if (h->count == h->capacity) {
        size_t grown_capacity = h->capacity ? h->capacity * 2 : 16;
        allocation *grown = realloc(h->blocks, grown_capacity * sizeof *grown);
        if (!grown) return set_error(d, "out of host memory");
        h->blocks = grown;
        h->capacity = grown_capacity;
    }
    h->blocks[h->count++] = block;
    if (!rebuild_live(d)) {
        h->count--;
        return false;
    }
    h->top = block.address + block.capacity;
    return true;
}

static uint32_t heap_allocate(gpu_device *d, heap *h, size_t bytes, const char *function, const char *kind)
{
    if (!d) return 0;
    if (d->crashed) return set_error(d, "%s(%zu bytes): the device lost power", function, bytes);
    if (bytes > h->end - h->base)
        return set_error(d, "%s(%zu bytes): out of %s memory: larger than the %u-byte window", function, bytes, kind, h->end - h->base);
    uint32_t capacity = bytes ? (uint32_t)((bytes + 255) & ~(uint64_t)255) : 256;
    for (size_t i = 0; i < h->count; i++) { /* reuse a freed block that fits */
        allocation *a = &h->blocks[i];
        if (!a->in_use && a->capacity >= capacity) {
            *a = (allocation){a->address, a->capacity, (uint32_t)bytes, true, false};
            if (rebuild_live(d)) return a->address;
            a->in_use = false;
            return 0;
        }
    }
    if (capacity > h->end - h->top) {
        set_error(d, "%s(%zu bytes): out of %s memory: %u bytes left", function, bytes, kind, h->end - h->top);
        return 0;
    }
    uint32_t missing;
    if (!memory_answers(d, h->top, capacity, &missing))
        return set_error(d, "%s(%zu bytes): out of %s memory: the device's memory ends before 0x%08x", function, bytes, kind,
                         missing);
    return heap_append(d, h, (allocation){h->top, capacity, (uint32_t)bytes, true, false}) ? h->top - capacity : 0;
}

uint32_t gpu_malloc(gpu_device *d, size_t bytes) { return heap_allocate(d, d ? &d->global : NULL, bytes, "gpu_malloc", "global"); }
uint32_t gpu_malloc_persistent(gpu_device *d, size_t bytes)
{
    return heap_allocate(d, d ? &d->persistent : NULL, bytes, "gpu_malloc_persistent", "persistent");
}

uint32_t gpu_malloc_versioned(gpu_device *d, size_t bytes)
{
    if (!d) return 0;
    const char *function = "gpu_malloc_versioned";
    if (d->crashed) return set_error(d, "%s(%zu bytes): the device lost power", function, bytes);
    uint64_t stride, align, free_from;
    unsigned versions;
    if (!d->backend.version_layout || !d->backend.version_register || !d->backend.version_layout(d->backend.context, &stride, &align, &versions, &free_from))
        return set_input_error(d, "%s(%zu bytes): the platform has no Version Index Table (vit blocks; "
                                  "platforms/gtx480_warptm_versioned.lua has them)", function, bytes);
    /* Whole rows in every partition, and 256-byte aligned as every allocation. */
    uint64_t unit = align ? align : 256;
    while (unit % 256) unit *= 2;
    uint64_t size = bytes ? ((uint64_t)bytes + unit - 1) / unit * unit : unit;
    if (bytes > stride || size > stride)
        return set_error(d, "%s(%zu bytes): larger than the version stride (%" PRIu64 " bytes: one DRAM row index in every partition)",
                         function, bytes, stride);
    heap *h = &d->global;
    if (stride > h->end || free_from > h->end) /* (keeps the sums below from wrapping) */
        return set_error(d, "%s(%zu bytes): out of global memory: no room above the registered regions' versions", function, bytes);
    uint64_t base = (h->top > free_from ? h->top : free_from) + unit - 1;
    base -= base % unit;
    /* Its versions 1.. lie at base + k x stride; their contents, at the relocated area above them. */
    uint64_t relocated = base + versions * stride + unit - 1;
    relocated -= relocated % unit;
    uint64_t end = relocated + (versions - 1) * size;
    if (end > h->end)
        return set_error(d, "%s(%zu bytes): out of global memory: its versions and relocated area need 0x%" PRIx64 "..0x%" PRIx64
                         ", past the window's end 0x%08x", function, bytes, base, end, h->end);
    uint32_t missing;
    if (!memory_answers(d, (uint32_t)base, (uint32_t)(end - base), &missing))
        return set_error(d, "%s(%zu bytes): out of global memory: the device's memory ends before 0x%08x", function, bytes, missing);
    char why[400];
    if (!d->backend.version_register(d->backend.context, (uint32_t)base, (uint32_t)size, (uint32_t)relocated, why, sizeof why))
        return set_error(d, "%s(%zu bytes): %s", function, bytes, why);
    return heap_append(d, h, (allocation){(uint32_t)base, (uint32_t)(end - base), (uint32_t)bytes, true, true}) ? (uint32_t)base : 0;
}

bool gpu_free(gpu_device *d, uint32_t address)
{
    if (!d) return false;
    heap *heaps[2] = {&d->global, &d->persistent};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < heaps[k]->count; i++)
            if (heaps[k]->blocks[i].address == address && heaps[k]->blocks[i].in_use) {
                if (heaps[k]->blocks[i].versioned)
                    return set_error(d, "gpu_free(0x%08x): a versioned allocation lives until the device ends (the Version Index Table "
                                        "cannot unregister a region)", address);
                heaps[k]->blocks[i].in_use = false;
                return rebuild_live(d);
            }
    return set_error(d, "gpu_free(0x%08x): not the address of a live allocation", address);
}

/* Zero-time copies in aligned 128-byte chunks: routing blocks interleave the
 * address space (at no finer grain than a coalesced request) and route a
 * debug access by its first byte. Unchecked: the callers check the range. */
#define HOST_CHUNK 128u
static bool access(gpu_device *d, bool is_write, uint32_t address, void *data, size_t bytes)
{
    if (d->crashed) return set_error(d, "the device lost power: only the durable image is left (0x%08x)", address);
    uint8_t *p = data;
    while (bytes) {
        size_t chunk = bytes < HOST_CHUNK - (address & (HOST_CHUNK - 1)) ? bytes : HOST_CHUNK - (address & (HOST_CHUNK - 1));
        if (!d->backend.access(d->backend.context, is_write, address, p, chunk))
            return set_error(d, "no device memory answers at 0x%08x (%s)", address, is_write ? "write" : "read");
        address += (uint32_t)chunk;
        p += chunk;
        bytes -= chunk;
    }
    return true;
}

/* A host copy's arguments: a host buffer unless nothing is copied, and a
 * device range inside one live range (of persistent memory for the durable
 * image). */
static bool check_copy(gpu_device *d, const char *function, uint32_t address, const void *host, size_t bytes, bool persistent_only)
{
    if (!d) return false;
    if (!bytes) return true;
    if (!host) return set_error(d, "%s(0x%08x, %zu bytes): the host buffer is NULL", function, address, bytes);
    return check_live(d, function, address, bytes, persistent_only);
}

bool gpu_copy_to_device(gpu_device *d, uint32_t destination, const void *source, size_t bytes)
{
    return check_copy(d, "gpu_copy_to_device", destination, source, bytes, false) &&
           (!bytes || access(d, true, destination, (void *)source, bytes));
}

bool gpu_copy_from_device(gpu_device *d, void *destination, uint32_t source, size_t bytes)
{
    return check_copy(d, "gpu_copy_from_device", source, destination, bytes, false) &&
           (!bytes || access(d, false, source, destination, bytes));
}

/* Both directions of the durable image, in the same 128-byte chunks (one
 * NVM controller holds each). */
static bool durable_access(gpu_device *d, const char *function, bool is_write, uint32_t address, uint8_t *data, size_t bytes)
{
    if (!d) return false;
    if (address < RV_PERSISTENT_BASE || address >= RV_PERSISTENT_END || bytes > RV_PERSISTENT_END - address)
        return set_error(d, "%s(0x%08x, %zu bytes): outside the persistent window", function, address, bytes);
    if (!d->backend.durable_read || (is_write && !d->backend.durable_write))
        return set_error(d, "%s: the platform has no NVM controllers", function);
    if (!check_copy(d, function, address, data, bytes, true)) return false;
    while (bytes) {
        size_t chunk = bytes < HOST_CHUNK - (address & (HOST_CHUNK - 1)) ? bytes : HOST_CHUNK - (address & (HOST_CHUNK - 1));
        bool done = is_write ? d->backend.durable_write(d->backend.context, address, data, chunk)
                             : d->backend.durable_read(d->backend.context, address, data, chunk);
        if (!done) return set_error(d, "no NVM controller holds 0x%08x", address);
        address += (uint32_t)chunk;
        data += chunk;
        bytes -= chunk;
    }
    return true;
}

bool gpu_copy_from_durable(gpu_device *d, void *destination, uint32_t source, size_t bytes)
{
    return durable_access(d, "gpu_copy_from_durable", false, source, destination, bytes);
}

bool gpu_copy_to_durable(gpu_device *d, uint32_t destination, const void *source, size_t bytes)
{
    return durable_access(d, "gpu_copy_to_durable", true, destination, (uint8_t *)(uintptr_t)source, bytes);
}

bool gpu_has_durable_image(const gpu_device *d) { return d && d->backend.durable_read != NULL; }

bool gpu_crashed(const gpu_device *d) { return d && d->crashed; }

/* Fills without checking the range (the loader's segments, gpu_memset's checked one). */
static bool fill(gpu_device *d, uint32_t destination, int value, size_t bytes)
{
    uint8_t block[4096];
    memset(block, value, sizeof block);
    while (bytes) {
        size_t chunk = bytes < sizeof block ? bytes : sizeof block;
        if (!access(d, true, destination, block, chunk)) return false;
        destination += (uint32_t)chunk;
        bytes -= chunk;
    }
    return true;
}

bool gpu_memset(gpu_device *d, uint32_t destination, int value, size_t bytes)
{
    return check_copy(d, "gpu_memset", destination, &value, bytes, false) && fill(d, destination, value, bytes);
}

/* Whether m is a module of d that is still loaded. */
static bool module_loaded(const gpu_device *d, const gpu_module *m)
{
    for (size_t i = 0; i < d->module_count; i++)
        if (d->modules[i] == m) return true;
    return false;
}

/* 0 when path names something (stat's answer; `access` is this file's memory access). */
static int access_file(const char *path)
{
    struct stat status;
    return stat(path, &status);
}

gpu_module *gpu_module_load(gpu_device *d, const char *path)
{
    if (!d) return NULL;
    if (!path) {
        set_input_error(d, "gpu_module_load: the path is NULL");
        return NULL;
    }
    char error[512], beside_plugin[4096];
    if (path[0] != '/' && d->plugin_folder && access_file(path) != 0 &&
        (size_t)snprintf(beside_plugin, sizeof beside_plugin, "%s/%s", d->plugin_folder, path) < sizeof beside_plugin &&
        access_file(beside_plugin) == 0)
        path = beside_plugin;
    kernel_image *image = kernel_image_load_file(path, error, sizeof error);
    if (!image) {
        set_input_error(d, "%s", error);
        return NULL;
    }
    for (size_t i = 0; i < image->data_segment_count; i++) {
        const kernel_segment *s = &image->data_segments[i];
        if (s->address < RV_GLOBAL_BASE || (uint64_t)s->address + s->memory_size > GPU_ARGS_ADDRESS) {
            set_input_error(d, "kernel '%s': .data/.bss 0x%x..0x%llx lie outside 0x%x..0x%x (below the argument block)", path,
                            s->address, (unsigned long long)s->address + s->memory_size, RV_GLOBAL_BASE, GPU_ARGS_ADDRESS);
            kernel_image_destroy(image);
            return NULL;
        }
        if (!fill(d, s->address, 0, s->memory_size) || !access(d, true, s->address, (void *)(uintptr_t)s->bytes, s->file_size)) {
            kernel_image_destroy(image);
            return NULL;
        }
    }
    gpu_module *m = calloc(1, sizeof *m);
    if (m) m->path = strdup(path);
    gpu_module **grown = d->module_count == d->module_capacity
                             ? realloc(d->modules, (d->module_capacity ? 2 * d->module_capacity : 4) * sizeof *grown)
                             : d->modules;
    if (grown && grown != d->modules) d->module_capacity = d->module_capacity ? 2 * d->module_capacity : 4;
    if (grown) d->modules = grown;
    if (!m || !m->path || !grown) {
        if (m) free(m->path);
        free(m);
        kernel_image_destroy(image);
        set_error(d, "out of host memory");
        return NULL;
    }
    m->device = d;
    m->image = image;
    d->modules[d->module_count++] = m;
    if (!rebuild_live(d)) {
        gpu_module_unload(m);
        return NULL;
    }
    return m;
}

void gpu_module_unload(gpu_module *m)
{
    if (!m) return;
    gpu_device *d = m->device;
    if (d) {
        if (d->launch_pending) gpu_synchronize(d); /* the running kernel is this module's, perhaps */
        for (size_t i = 0; i < d->module_count; i++)
            if (d->modules[i] == m) {
                d->modules[i] = d->modules[--d->module_count];
                break;
            }
    }
    kernel_image_destroy(m->image);
    m->image = NULL;
    if (d) rebuild_live(d);
    free(m->path);
    free(m);
}

const kernel_image *gpu_module_image(const gpu_module *m) { return m->image; }

bool gpu_launch(gpu_device *d, gpu_module *m, const char *name, gpu_dim3 grid, gpu_dim3 block, const void *args,
                size_t args_size, uint32_t shared_bytes)
{
    if (!d) return false;
    if (d->launch_pending && !gpu_synchronize(d)) return false;
    if (!name) return set_error(d, "gpu_launch: the kernel name is NULL");
    if (d->crashed) return set_error(d, "launch of '%s': the device lost power", name);
    if (!m || !module_loaded(d, m)) return set_error(d, "launch of '%s': the module is not one loaded on this device", name);
    const kernel_function *f = kernel_image_find_function(m->image, name);
    if (!f) return set_input_error(d, "launch: kernel file '%s' has no kernel '%s'", m->path, name);
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return set_error(d, "launch of '%s': grid and block dimensions must be at least 1", name);
    if ((uint64_t)block.x * block.y * block.z > 65536) return set_error(d, "launch of '%s': more than 65536 threads per CTA", name);
    if ((uint64_t)grid.x * grid.y > (1ull << 40) / grid.z) return set_error(d, "launch of '%s': more than 2^40 CTAs", name);
    if (shared_bytes > (1u << 30)) return set_error(d, "launch of '%s': %u bytes of dynamic shared memory", name, shared_bytes);
    if (args_size > GPU_ARGS_MAX) return set_error(d, "launch of '%s': %zu bytes of arguments (at most %u)", name, args_size, GPU_ARGS_MAX);
    if (args_size && !args) return set_error(d, "launch of '%s': %zu bytes of arguments from NULL", name, args_size);
    if (args_size && !access(d, true, GPU_ARGS_ADDRESS, (void *)(uintptr_t)args, args_size)) return false;
    if (!host_printf_clear(d, m->image)) return false;
    simt_launch *l = &d->launch;
    memset(l, 0, sizeof *l);
    l->image = m->image;
    l->entry_pc = f->start;
    l->grid[0] = grid.x, l->grid[1] = grid.y, l->grid[2] = grid.z;
    l->block[0] = block.x, l->block[1] = block.y, l->block[2] = block.z;
    l->args_address = GPU_ARGS_ADDRESS;
    if (args_size) memcpy(d->args, args, args_size);
    l->args = d->args;
    l->args_size = (uint32_t)args_size;
    /* The dynamic bytes follow the static ones, word aligned (gpu.h gpu_dynamic_shared). */
    uint32_t static_bytes = f->static_shared_bytes; /* this kernel's own (kernel_shared.h) */
    l->dynamic_shared_offset = (static_bytes + 3) & ~3u;
    l->shared_bytes = (l->dynamic_shared_offset + shared_bytes + 3) & ~3u;
    l->registers_per_thread = simt_kernel_registers(m->image);
    l->total_ctas = (uint64_t)grid.x * grid.y * grid.z;
    l->memcheck = d->memcheck ? &d->table : NULL;
    char error[512];
    /* A shape the platform cannot hold (a CTA larger than a core's warps,
     * registers or shared memory) is bad input, refused before any CTA runs. */
    if (!d->backend.launch(d->backend.context, l, error, sizeof error))
        return set_input_error(d, "launch of '%s' (shared memory per CTA: %u static + %u dynamic bytes): %s", name, static_bytes,
                               shared_bytes, error);
    d->launch_pending = true;
    return true;
}

bool gpu_synchronize(gpu_device *d)
{
    if (!d) return false;
    if (!d->launch_pending) return true;
    d->launch_pending = false;
    char error[1024];
    if (!d->backend.run(d->backend.context, error, sizeof error)) {
        d->crashed = d->backend.crashed && d->backend.crashed(d->backend.context);
        return set_error(d, "%s", error);
    }
    if (d->launch.finished_ctas != d->launch.total_ctas)
        return set_error(d, "the kernel stopped with %llu of %llu CTAs finished", (unsigned long long)d->launch.finished_ctas,
                         (unsigned long long)d->launch.total_ctas);
    d->launches++;
    return host_printf_flush(d, d->launch.image, stdout); /* after the launch, as CUDA prints */
}

bool gpu_tm_record(gpu_device *d, bool on)
{
    if (on && d->recording) return set_error(d, "a serializability check is already running on this device (end it first)");
    bool tm = d->backend.tm_record && d->backend.tm_record(d->backend.context, on);
    bool lds = d->lds_record && d->lds_record(d->backend.context, on);
    if (!tm && !lds)
        return set_error(d, "this device cannot record transactions (the platform has no tm_unit blocks and no lds keeping commit records)");
    d->recording = on;
    d->recording_tm = tm && on;
    d->recording_lds = lds && on;
    return true;
}

bool gpu_tm_history(gpu_device *d, void (*visit)(void *visit_context, const tm_unit_record *record, const uint32_t *words),
                    void *visit_context)
{
    if (!d->recording_tm) return true; /* only ldss record (GPU-LocalTM) */
    if (!d->backend.tm_history || !d->backend.tm_history(d->backend.context, visit, visit_context))
        return set_error(d, "this device cannot report transactions");
    return true;
}

void gpu_device_set_lds_backend(gpu_device *d, gpu_lds_record_fn record, gpu_lds_history_fn history)
{
    if (!d) return;
    d->lds_record = record;
    d->lds_history = history;
}

bool gpu_lds_history(gpu_device *d, void (*visit)(void *visit_context, const gpu_lds_commit *commit, const uint32_t *words),
                     void *visit_context)
{
    if (!d->recording_lds) return true;
    if (!d->lds_history || !d->lds_history(d->backend.context, visit, visit_context))
        return set_error(d, "this device cannot report the lds's transactions");
    return true;
}

/* The query's forms (host_api.h): NAME, TYPE:NAME, INSTANCE_GLOB.NAME.
 * Statistic names hold no '.' or ':', so the first of either splits them. */
bool gpu_statistic(gpu_device *d, const char *query, double *value)
{
    if (!d) return false;
    if (!query || !value) return set_error(d, "gpu_statistic: the %s is NULL", query ? "value pointer" : "query");
    *value = 0;
    if (!d->backend.statistic_at) return set_error(d, "no statistic named '%s': the device reports none", query);
    const char *separator = strpbrk(query, ".:");
    const char *name = separator ? separator + 1 : query;
    size_t qualifier_length = separator ? (size_t)(separator - query) : 0;
    char qualifier[256];
    if (qualifier_length >= sizeof qualifier) return set_error(d, "statistic '%s': qualifier too long", query);
    memcpy(qualifier, query, qualifier_length);
    qualifier[qualifier_length] = '\0';
    bool by_type = separator && *separator == ':', by_instance = separator && *separator == '.';
    const char *first_type = NULL, *other_type = NULL;
    bool found = false;
    gpu_statistic_entry entry;
    for (size_t i = 0; d->backend.statistic_at(d->backend.context, i, &entry); i++) {
        if (strcmp(entry.name, name)) continue;
        if (by_type && strcmp(entry.block_type, qualifier)) continue;
        if (by_instance && fnmatch(qualifier, entry.instance, 0)) continue;
        found = true;
        *value += entry.value;
        if (!first_type) first_type = entry.block_type;
        else if (strcmp(first_type, entry.block_type) && !other_type) other_type = entry.block_type;
    }
    if (!found) return set_error(d, "no statistic matches '%s'", query);
    if (!separator && other_type) {
        *value = 0;
        return set_error(d, "statistic '%s' is reported by blocks of types %s and %s: qualify it, e.g. '%s:%s' or 'INSTANCE*.%s'",
                         query, first_type, other_type, first_type, query, query);
    }
    return true;
}
