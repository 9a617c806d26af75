/* gpu_malloc_versioned (host_api.h) on a fake platform whose Version Index
 * Table holds two regions, one registered before the run at the heap's
 * start: the buffer lands on a row boundary above that region's versions,
 * is registered once with its relocated area above its own versions, and
 * no later allocation meets either; refused without a VIT (bad input),
 * beyond the version stride, and when the table is full (the slice's
 * reason, the heap unchanged); gpu_free refuses it. */
#include <inttypes.h>
#include <stdio.h>

#include "host_backend.h"
#include "test_support.h"

#define STRIDE 0x60000u
#define ALIGN 0x3000u
#define VERSIONS 8u
#define CAPACITY 2u

typedef struct fake_vit {
    uint32_t base[CAPACITY], size[CAPACITY], relocated[CAPACITY];
    unsigned count;
} fake_vit;

static bool any_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    (void)context, (void)is_write, (void)address, (void)data, (void)size;
    return true;
}

static bool fake_layout(void *context, uint64_t *stride, uint64_t *align, unsigned *versions, uint64_t *free_from)
{
    const fake_vit *v = context;
    *stride = STRIDE, *align = ALIGN, *versions = VERSIONS, *free_from = 0;
    for (unsigned i = 0; i < v->count; i++) {
        uint64_t end = v->base[i] + (uint64_t)VERSIONS * STRIDE, relocated_end = v->relocated[i] + (uint64_t)(VERSIONS - 1) * v->size[i];
        if (end > *free_from) *free_from = end;
        if (relocated_end > *free_from) *free_from = relocated_end;
    }
    return true;
}

static bool fake_register(void *context, uint32_t base, uint32_t size, uint32_t relocated, char *error, size_t error_size)
{
    fake_vit *v = context;
    if (v->count == CAPACITY) {
        snprintf(error, error_size, "versioned allocation 0x%" PRIx32 " (%" PRIu32 " bytes) refused: the Version Index Table holds %u regions, all in use",
                 base, size, CAPACITY);
        return false;
    }
    v->base[v->count] = base, v->size[v->count] = size, v->relocated[v->count] = relocated;
    v->count++;
    return true;
}

int main(void)
{
    gpu_backend plain = {NULL, any_access, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&plain);
    CHECK_EQUAL(gpu_malloc_versioned(device, 4000), 0u);
    CHECK_CONTAINS(gpu_last_error(device), "gpu_malloc_versioned(4000 bytes): the platform has no Version Index Table");
    CHECK(gpu_last_error_is_input(device));
    gpu_device_destroy(device);

    fake_vit vit = {{GPU_HEAP_BASE - GPU_HEAP_BASE % ALIGN}, {STRIDE}, {0x4800000}, 1};
    gpu_backend backend = {&vit, any_access, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, fake_layout, fake_register};
    device = gpu_device_create(&backend);
    uint32_t plain_before = gpu_malloc(device, 256);
    CHECK_EQUAL(plain_before, GPU_HEAP_BASE);
    uint32_t buffer = gpu_malloc_versioned(device, 4000);
    CHECK_EQUAL(vit.count, 2u);
    CHECK_EQUAL(buffer, vit.base[1]);
    CHECK_EQUAL(buffer % ALIGN, 0u);
    CHECK(buffer >= vit.base[0] + VERSIONS * STRIDE);
    CHECK_EQUAL(vit.size[1], ALIGN);
    CHECK(vit.relocated[1] >= buffer + VERSIONS * STRIDE && vit.relocated[1] % ALIGN == 0);
    uint32_t after = gpu_malloc(device, 256);
    CHECK(after >= vit.relocated[1] + (VERSIONS - 1) * ALIGN);
    uint8_t data[4000] = {1};
    CHECK(gpu_copy_to_device(device, buffer, data, sizeof data));
    CHECK(!gpu_copy_to_device(device, buffer, data, sizeof data + 1)); /* the bytes asked for, not the rounded size */
    CHECK(!gpu_free(device, buffer));
    CHECK_CONTAINS(gpu_last_error(device), "a versioned allocation lives until the device ends");

    CHECK_EQUAL(gpu_malloc_versioned(device, STRIDE + 1), 0u);
    CHECK_CONTAINS(gpu_last_error(device), "larger than the version stride");
    CHECK_EQUAL(gpu_malloc_versioned(device, 100), 0u);
    CHECK_CONTAINS(gpu_last_error(device), "gpu_malloc_versioned(100 bytes): versioned allocation 0x");
    CHECK_CONTAINS(gpu_last_error(device), "holds 2 regions, all in use");
    CHECK(!gpu_last_error_is_input(device));
    CHECK_EQUAL(gpu_malloc(device, 256), after + 256); /* the refusals left the heap as it was */
    gpu_device_destroy(device);
    return simtx_test_summary();
}
