/* Fuzz target: the host API (runtime/host_api.c, host_serializability.c)
 * driven by a random sequence of calls against a model of what each must
 * do, on an in-test device (a sparse memory that may end early, with or
 * without a durable image and commit recording). The model checks that
 * allocations never overlap and lie in their window and in the device's
 * memory, that every call outside the live allocations is refused with a
 * message, that a copy reads back what was written, and that nothing
 * crashes. A broken invariant aborts (a finding).
 *
 * Input: byte 0 picks the device (bit 0 durable image, bit 1 commit
 * recording, bits 2..7 where memory ends: GPU_HEAP_BASE + n x 4 MiB, 0:
 * never); then each call is an opcode byte and its arguments (sizes and
 * addresses: a class byte and 4 bytes; missing bytes read as 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_backend.h"
#include "sparse_memory.h"

#define MAX_CALLS 96
#define MAX_LIVE 64
#define SHADOWED 65536u /* allocations up to this size keep a copy of their contents */

typedef struct device_state {
    sparse_memory *memory;
    uint32_t memory_end; /* 0: global memory never ends */
} device_state;

typedef struct model_allocation {
    uint32_t address, bytes;
    bool persistent;
    uint8_t *shadow; /* what the device holds, for allocations up to SHADOWED bytes */
} model_allocation;

typedef struct input {
    const uint8_t *data;
    size_t size, at;
} input;

static uint8_t next_byte(input *in) { return in->at < in->size ? in->data[in->at++] : 0; }

static uint32_t next_word(input *in)
{
    uint32_t word = 0;
    for (int i = 0; i < 4; i++) word |= (uint32_t)next_byte(in) << (8 * i);
    return word;
}

static void invariant(bool holds, const char *what)
{
    if (holds) return;
    fprintf(stderr, "fuzz_host_api: broken invariant: %s\n", what);
    abort();
}

static bool in_memory(const device_state *state, uint32_t address, size_t size)
{
    bool persistent = address >= RV_PERSISTENT_BASE && address + (uint64_t)size <= RV_PERSISTENT_END;
    return persistent || !state->memory_end || address + (uint64_t)size <= state->memory_end;
}

static bool device_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    device_state *state = context;
    if (!in_memory(state, address, size)) return false;
    if (is_write) sparse_memory_write(state->memory, address, data, size);
    else sparse_memory_read(state->memory, address, data, size);
    return true;
}

static bool durable_read(void *context, uint32_t address, void *data, size_t size)
{
    return device_access(context, false, address, data, size);
}

static bool durable_write(void *context, uint32_t address, const void *data, size_t size)
{
    return device_access(context, true, address, (void *)(uintptr_t)data, size);
}

static bool record(void *context, bool on) { return (void)context, (void)on, true; }

static bool no_history(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    return (void)context, (void)visit, (void)visit_context, true;
}

static size_t next_size(input *in)
{
    uint8_t kind = next_byte(in);
    uint32_t word = next_word(in);
    switch (kind % 5) {
    case 0: return word % 4097;
    case 1: return word % (SHADOWED + 1);
    case 2: return word % (1u << 26);
    case 3: return word;
    default: return SIZE_MAX - (word & 0xff);
    }
}

/* An address near a live allocation (its start, inside, just past its end) or any. */
static uint32_t next_address(input *in, const model_allocation *live, size_t count)
{
    uint8_t kind = next_byte(in);
    uint32_t word = next_word(in);
    if (!count || kind % 4 == 3) return word;
    const model_allocation *a = &live[word % count];
    int32_t offset = (int32_t)(word >> 16 & 0x3ff) - 512;
    return kind % 4 == 0 ? a->address : kind % 4 == 1 ? a->address + (uint32_t)offset : a->address + a->bytes + (uint32_t)offset;
}

/* The live allocation holding [address, address + bytes), or NULL. */
static model_allocation *holder(model_allocation *live, size_t count, uint32_t address, size_t bytes)
{
    for (size_t i = 0; i < count; i++)
        if (address >= live[i].address && address - live[i].address <= live[i].bytes &&
            bytes <= live[i].bytes - (address - live[i].address))
            return &live[i];
    return NULL;
}

/* A durable copy needs the durable image and an address in the persistent
 * window (even for 0 bytes), and its bytes in a persistent allocation. */
static bool durable_expected(bool durable, uint32_t address, size_t bytes, const model_allocation *a)
{
    return durable && address >= RV_PERSISTENT_BASE && address < RV_PERSISTENT_END && (!bytes || (a && a->persistent));
}

static void forget(model_allocation *live, size_t *count, model_allocation *a)
{
    free(a->shadow);
    *a = live[--*count];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size, 0};
    uint8_t device_kind = next_byte(&in);
    device_state state = {sparse_memory_create(), device_kind >> 2 ? GPU_HEAP_BASE + (uint32_t)(device_kind >> 2) * (4u << 20) : 0};
    bool durable = device_kind & 1, recording = device_kind & 2;
    gpu_backend backend = {&state, device_access, NULL, NULL, NULL, recording ? record : NULL, recording ? no_history : NULL,
                           durable ? durable_read : NULL, durable ? durable_write : NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    static uint8_t buffer[SHADOWED + 8192], readback[SHADOWED + 8192];
    model_allocation live[MAX_LIVE];
    size_t count = 0;
    gpu_serializability *check = NULL;
    for (int call = 0; call < MAX_CALLS && in.at < in.size; call++) {
        uint8_t op = next_byte(&in);
        switch (op % 10) {
        case 0:
        case 1: { /* gpu_malloc, gpu_malloc_persistent */
            bool persistent = op % 10 == 1;
            size_t bytes = next_size(&in);
            uint32_t address = persistent ? gpu_malloc_persistent(device, bytes) : gpu_malloc(device, bytes);
            uint32_t base = persistent ? RV_PERSISTENT_BASE : GPU_HEAP_BASE, end = persistent ? RV_PERSISTENT_END : RV_GLOBAL_END;
            if (!address) {
                invariant(gpu_last_error(device)[0] != '\0', "a refused allocation says why");
                break;
            }
            invariant(bytes <= end - base, "an allocation larger than its window is refused");
            invariant(address % 256 == 0 && address >= base && address - base <= end - base - bytes, "an allocation lies in its window");
            invariant(in_memory(&state, address, bytes ? bytes : 1), "an allocation lies in the device's memory");
            for (size_t i = 0; i < count; i++)
                invariant(address + (uint64_t)(bytes ? bytes : 1) <= live[i].address ||
                              live[i].address + (uint64_t)(live[i].bytes ? live[i].bytes : 1) <= address,
                          "allocations do not overlap");
            if (count == MAX_LIVE) {
                invariant(gpu_free(device, address), "a fresh allocation can be freed");
                break;
            }
            /* Its contents are what the device holds (a reused block keeps old bytes). */
            uint8_t *shadow = bytes <= SHADOWED ? malloc(bytes ? bytes : 1) : NULL;
            if (shadow) invariant(gpu_copy_from_device(device, shadow, address, bytes), "a fresh allocation can be read");
            live[count++] = (model_allocation){address, (uint32_t)bytes, persistent, shadow};
            break;
        }
        case 2: { /* gpu_free */
            uint32_t address = next_address(&in, live, count);
            model_allocation *a = NULL;
            for (size_t i = 0; i < count; i++)
                if (live[i].address == address) a = &live[i];
            invariant(gpu_free(device, address) == (a != NULL), "gpu_free succeeds exactly on a live allocation's address");
            if (a) forget(live, &count, a);
            break;
        }
        case 3:
        case 4:
        case 5: { /* gpu_copy_to_device, gpu_memset, gpu_copy_to_durable */
            uint32_t address = next_address(&in, live, count);
            size_t bytes = next_size(&in) % (SHADOWED + 8192);
            uint8_t fill = next_byte(&in);
            memset(buffer, fill, bytes);
            for (size_t i = 0; i < bytes; i += 97) buffer[i] = (uint8_t)(i >> 3);
            model_allocation *a = holder(live, count, address, bytes);
            bool expected = op % 10 == 5 ? durable_expected(durable, address, bytes, a) : !bytes || a;
            bool done = op % 10 == 3 ? gpu_copy_to_device(device, address, buffer, bytes)
                        : op % 10 == 4 ? gpu_memset(device, address, fill, bytes)
                                       : gpu_copy_to_durable(device, address, buffer, bytes);
            invariant(done == expected, "a copy succeeds exactly inside one live allocation (persistent for the durable image)");
            if (!done) invariant(gpu_last_error(device)[0] != '\0', "a refused copy says why");
            if (done && bytes && a->shadow) {
                if (op % 10 == 4) memset(buffer, fill, bytes);
                memcpy(a->shadow + (address - a->address), buffer, bytes);
            }
            break;
        }
        case 6:
        case 7: { /* gpu_copy_from_device, gpu_copy_from_durable: what was written reads back */
            uint32_t address = next_address(&in, live, count);
            size_t bytes = next_size(&in) % (SHADOWED + 8192);
            model_allocation *a = holder(live, count, address, bytes);
            bool from_durable = op % 10 == 7;
            bool expected = from_durable ? durable_expected(durable, address, bytes, a) : !bytes || a;
            bool done = from_durable ? gpu_copy_from_durable(device, readback, address, bytes)
                                     : gpu_copy_from_device(device, readback, address, bytes);
            invariant(done == expected, "a read succeeds exactly inside one live allocation (persistent for the durable image)");
            if (done && bytes && a->shadow)
                invariant(!memcmp(readback, a->shadow + (address - a->address), bytes), "a read returns what was written there");
            break;
        }
        case 8: { /* the serializability check: begin, a region, end or discard */
            uint8_t step = next_byte(&in);
            if (!check) {
                check = gpu_serializability_begin(device);
                invariant((check != NULL) == recording, "a check begins exactly where commits can be recorded");
                break;
            }
            invariant(gpu_serializability_begin(device) == NULL, "one check at a time");
            if (step % 3 == 0) {
                uint32_t address = next_address(&in, live, count);
                size_t bytes = next_size(&in) % (SHADOWED + 1);
                bool expected = !bytes || holder(live, count, address, bytes);
                invariant(gpu_serializability_region(check, address, (uint32_t)bytes) == expected,
                          "a region is registered exactly inside one live allocation");
            } else if (step % 3 == 1) {
                size_t commits = 1;
                invariant(gpu_serializability_end(check, &commits) && commits == 0, "no commits: serializable, 0 replayed");
                check = NULL;
            } else {
                gpu_serializability_discard(check);
                check = NULL;
            }
            break;
        }
        default: { /* calls with arguments that are never valid */
            invariant(!gpu_launch(device, NULL, "k", (gpu_dim3){1, 1, 1}, (gpu_dim3){1, 1, 1}, NULL, 0, 0), "a launch needs a module");
            invariant(!gpu_copy_to_device(device, next_address(&in, live, count), NULL, 1 + next_byte(&in)), "a copy needs a buffer");
            invariant(!gpu_free(device, 0), "0 is never allocated");
            break;
        }
        }
    }
    gpu_serializability_discard(check);
    for (size_t i = 0; i < count; i++) free(live[i].shadow);
    gpu_device_destroy(device);
    sparse_memory_destroy(state.memory);
    return 0;
}
