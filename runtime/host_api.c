#include "host_backend.h"
#include "host_printf.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct allocation {
    uint32_t address, size;
    bool in_use;
} allocation;

/* First-fit allocator over one address window. */
typedef struct heap {
    uint32_t base, end, top;
    allocation *blocks;
    size_t count, capacity;
} heap;

struct gpu_device {
    gpu_backend backend;
    heap global, persistent;
    simt_launch launch;
    uint8_t args[GPU_ARGS_MAX];
    bool launch_pending;
    bool crashed; /* a power failure stopped a launch: only the durable image is left */
    unsigned launches;
    char error[1024];
    bool error_is_input; /* the last error is about the kernel file, not the run */
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
    d->global = (heap){GPU_HEAP_BASE, RV_GLOBAL_END, GPU_HEAP_BASE, NULL, 0, 0};
    d->persistent = (heap){RV_PERSISTENT_BASE, RV_PERSISTENT_END, RV_PERSISTENT_BASE, NULL, 0, 0};
    return d;
}

void gpu_device_destroy(gpu_device *d)
{
    if (!d) return;
    free(d->global.blocks);
    free(d->persistent.blocks);
    free(d);
}

bool gpu_last_error_is_input(const gpu_device *d) { return d->error_is_input; }

bool gpu_set_error(gpu_device *d, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    set_error_kind(d, false, format, args);
    va_end(args);
    return false;
}

const char *gpu_last_error(const gpu_device *d) { return d->error; }
unsigned gpu_launch_count(const gpu_device *d) { return d->launches; }

static uint32_t heap_allocate(gpu_device *d, heap *h, size_t bytes, const char *kind)
{
    if (!bytes) bytes = 1;
    uint64_t size = (bytes + 255) & ~(uint64_t)255;
    for (size_t i = 0; i < h->count; i++) { /* reuse a freed block that fits */
        allocation *a = &h->blocks[i];
        if (!a->in_use && a->size >= size) {
            a->in_use = true;
            return a->address;
        }
    }
    if (size > (uint64_t)(h->end - h->top)) {
        set_error(d, "out of %s memory: %zu bytes requested, %u left", kind, bytes, h->end - h->top);
        return 0;
    }
    if (h->count == h->capacity) {
        size_t capacity = h->capacity ? h->capacity * 2 : 16;
        allocation *grown = realloc(h->blocks, capacity * sizeof *grown);
        if (!grown) {
            set_error(d, "out of host memory");
            return 0;
        }
        h->blocks = grown;
        h->capacity = capacity;
    }
    h->blocks[h->count++] = (allocation){h->top, (uint32_t)size, true};
    uint32_t address = h->top;
    h->top += (uint32_t)size;
    return address;
}

uint32_t gpu_malloc(gpu_device *d, size_t bytes) { return heap_allocate(d, &d->global, bytes, "global"); }
uint32_t gpu_malloc_persistent(gpu_device *d, size_t bytes) { return heap_allocate(d, &d->persistent, bytes, "persistent"); }

bool gpu_free(gpu_device *d, uint32_t address)
{
    heap *heaps[2] = {&d->global, &d->persistent};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < heaps[k]->count; i++)
            if (heaps[k]->blocks[i].address == address && heaps[k]->blocks[i].in_use) {
                heaps[k]->blocks[i].in_use = false;
                return true;
            }
    return set_error(d, "gpu_free(0x%x): not an allocated address", address);
}

/* Zero-time copies in aligned 128-byte chunks: routing blocks interleave the
 * address space (at no finer grain than a coalesced request) and route a
 * debug access by its first byte. */
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

bool gpu_copy_to_device(gpu_device *d, uint32_t destination, const void *source, size_t bytes)
{
    return access(d, true, destination, (void *)source, bytes);
}

bool gpu_copy_from_device(gpu_device *d, void *destination, uint32_t source, size_t bytes)
{
    return access(d, false, source, destination, bytes);
}

/* Both directions of the durable image, in the same 128-byte chunks (one
 * NVM controller holds each). */
static bool durable_access(gpu_device *d, const char *function, bool is_write, uint32_t address, uint8_t *data, size_t bytes)
{
    if (address < RV_PERSISTENT_BASE || bytes > RV_PERSISTENT_END - address)
        return set_error(d, "%s(0x%08x, %zu bytes): outside the persistent window", function, address, bytes);
    if (!d->backend.durable_read || (is_write && !d->backend.durable_write))
        return set_error(d, "%s: the platform has no NVM controllers", function);
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

bool gpu_has_durable_image(const gpu_device *d) { return d->backend.durable_read != NULL; }

bool gpu_crashed(const gpu_device *d) { return d->crashed; }

bool gpu_memset(gpu_device *d, uint32_t destination, int value, size_t bytes)
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

gpu_module *gpu_module_load(gpu_device *d, const char *path)
{
    char error[512];
    kernel_image *image = kernel_image_load_file(path, error, sizeof error);
    if (!image) {
        set_input_error(d, "%s", error);
        return NULL;
    }
    for (size_t i = 0; i < image->data_segment_count; i++) {
        const kernel_segment *s = &image->data_segments[i];
        if (s->address + s->memory_size > GPU_ARGS_ADDRESS) {
            set_input_error(d, "kernel '%s': .data/.bss 0x%x..0x%x overlap the argument block at 0x%x", path, s->address,
                      s->address + s->memory_size, GPU_ARGS_ADDRESS);
            kernel_image_destroy(image);
            return NULL;
        }
        if (!gpu_memset(d, s->address, 0, s->memory_size) || !gpu_copy_to_device(d, s->address, s->bytes, s->file_size)) {
            kernel_image_destroy(image);
            return NULL;
        }
    }
    gpu_module *m = calloc(1, sizeof *m);
    if (m) m->path = strdup(path);
    if (!m || !m->path) {
        free(m);
        kernel_image_destroy(image);
        set_error(d, "out of host memory");
        return NULL;
    }
    m->device = d;
    m->image = image;
    return m;
}

void gpu_module_unload(gpu_module *m)
{
    if (!m) return;
    kernel_image_destroy(m->image);
    free(m->path);
    free(m);
}

const kernel_image *gpu_module_image(const gpu_module *m) { return m->image; }

bool gpu_launch(gpu_device *d, gpu_module *m, const char *name, gpu_dim3 grid, gpu_dim3 block, const void *args,
                size_t args_size, uint32_t shared_bytes)
{
    if (d->launch_pending && !gpu_synchronize(d)) return false;
    if (d->crashed) return set_error(d, "launch of '%s': the device lost power", name);
    const kernel_function *f = kernel_image_find_function(m->image, name);
    if (!f) return set_input_error(d, "launch: kernel file '%s' has no kernel '%s'", m->path, name);
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return set_error(d, "launch of '%s': grid and block dimensions must be at least 1", name);
    if ((uint64_t)block.x * block.y * block.z > 65536) return set_error(d, "launch of '%s': more than 65536 threads per CTA", name);
    if ((uint64_t)grid.x * grid.y > (1ull << 40) / grid.z) return set_error(d, "launch of '%s': more than 2^40 CTAs", name);
    if (shared_bytes > (1u << 30)) return set_error(d, "launch of '%s': %u bytes of dynamic shared memory", name, shared_bytes);
    if (args_size > GPU_ARGS_MAX) return set_error(d, "launch of '%s': %zu bytes of arguments (at most %u)", name, args_size, GPU_ARGS_MAX);
    if (args_size && !gpu_copy_to_device(d, GPU_ARGS_ADDRESS, args, args_size)) return false;
    if (!host_printf_clear(d, m->image)) return false;
    simt_launch *l = &d->launch;
    memset(l, 0, sizeof *l);
    l->image = m->image;
    l->entry_pc = f->start;
    l->grid[0] = grid.x, l->grid[1] = grid.y, l->grid[2] = grid.z;
    l->block[0] = block.x, l->block[1] = block.y, l->block[2] = block.z;
    l->args_address = GPU_ARGS_ADDRESS;
    memcpy(d->args, args, args_size);
    l->args = d->args;
    l->args_size = (uint32_t)args_size;
    l->shared_bytes = (m->image->static_shared_bytes + shared_bytes + 3) & ~3u;
    l->registers_per_thread = simt_kernel_registers(m->image);
    l->total_ctas = (uint64_t)grid.x * grid.y * grid.z;
    char error[512];
    if (!d->backend.launch(d->backend.context, l, error, sizeof error)) return set_error(d, "launch of '%s': %s", name, error);
    d->launch_pending = true;
    return true;
}

bool gpu_synchronize(gpu_device *d)
{
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
    if (!d->backend.tm_record || !d->backend.tm_record(d->backend.context, on))
        return set_error(d, "this device cannot record transactions");
    return true;
}

bool gpu_tm_history(gpu_device *d, void (*visit)(void *visit_context, const tm_unit_record *record, const uint32_t *words),
                    void *visit_context)
{
    if (!d->backend.tm_history || !d->backend.tm_history(d->backend.context, visit, visit_context))
        return set_error(d, "this device cannot report transactions");
    return true;
}

/* The query's forms (host_api.h): NAME, TYPE:NAME, INSTANCE_GLOB.NAME.
 * Statistic names hold no '.' or ':', so the first of either splits them. */
bool gpu_statistic(gpu_device *d, const char *query, double *value)
{
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
