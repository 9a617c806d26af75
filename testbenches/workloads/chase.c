/* Pointer chasing for latency calibration (scripts/calibrate): one thread
 * follows a chain through global memory (loads or atomics), shared, local
 * or constant memory. The oracle: the link the chain ends on. */
#include <errno.h>
#include <inttypes.h>

#include "host_common.h"

#define CHASE_MAX_LINKS 4096

/* Parses "o1,o2,..." (bytes, decimal or 0x hex) into offsets; 0 on error. */
static size_t parse_offsets(const char *text, uint32_t *offsets)
{
    size_t count = 0;
    for (const char *p = text; *p;) {
        char *end;
        errno = 0;
        unsigned long long value = strtoull(p, &end, 0);
        if (end == p || errno || value > UINT32_MAX || value % 4 || count == CHASE_MAX_LINKS) return 0;
        offsets[count++] = (uint32_t)value;
        if (*end == ',') end++;
        else if (*end) return 0;
        p = end;
    }
    return count;
}

int chase_main(gpu_device *device, workload_context *context)
{
    static const char *const spaces[] = {"global", "atomic", "shared", "local", "constant"};
    const char *space_name = workload_string(context, "space", "global");
    const char *offset_text = workload_string(context, "offsets", "0");
    uint32_t passes = (uint32_t)workload_int(context, "passes", 1, 1, 1 << 20);
    uint32_t steps = (uint32_t)workload_int(context, "steps", 64, 1, 1 << 24);
    uint32_t base_multiple = (uint32_t)workload_int(context, "base_multiple", 128, 4, 1 << 28);
    char path[1024];
    workload_kernel_path(context, "chase", path, sizeof path);
    if (context->bad_input) return 1;
    uint32_t space = 0;
    while (space < 5 && strcmp(spaces[space], space_name)) space++;
    if (space == 5) return workload_bad_option(context, "workload.space must be global, atomic, shared, local or constant, got '%s'", space_name);
    static uint32_t offsets[CHASE_MAX_LINKS];
    size_t links = parse_offsets(offset_text, offsets);
    if (!links || base_multiple % 4)
        return workload_bad_option(context, "workload.offsets must be 1 to %d comma-separated multiples of 4 below 2^32, base_multiple a multiple of 4",
                             CHASE_MAX_LINKS);
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *image = NULL;
    uint32_t footprint = 4, out, result = 0, expected;
    for (size_t k = 0; k < links; k++)
        if (offsets[k] + 4 > footprint) footprint = offsets[k] + 4;
    HOST_CHECK(module = gpu_module_load(device, path));
    HOST_CHECK(out = gpu_malloc(device, 4));
    struct chase_args args = {0, steps, space, out};
    if (space == CHASE_GLOBAL || space == CHASE_ATOMIC) {
        /* The chain at a base the caller chose the alignment of (the
         * calibration places links on DRAM rows and banks from it). */
        uint32_t buffer;
        HOST_CHECK(buffer = gpu_malloc(device, footprint + base_multiple));
        uint32_t base = buffer + (base_multiple - buffer % base_multiple) % base_multiple;
        if (!(image = calloc(footprint / 4, 4))) {
            status = workload_fail(context, "out of host memory");
            goto done;
        }
        for (size_t k = 0; k < links; k++) image[offsets[k] / 4] = base + offsets[(k + 1) % links];
        HOST_CHECK(gpu_copy_to_device(device, base, image, footprint));
        args.start = base + offsets[0];
        args.steps = (uint32_t)(passes * links);
        expected = base + offsets[args.steps % links];
    } else {
        uint32_t index = 0;
        for (uint32_t i = 0; i < steps; i++) index = (29 * index + 7) % CHASE_IN_CORE_WORDS;
        expected = index;
    }
    HOST_CHECK(gpu_launch(device, module, "chase", dim3_1d(1), dim3_1d(1), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, &result, out, 4));
    if (result != expected) {
        status = workload_fail(context, "chase: the %s chain ended at 0x%" PRIx32 ", expected 0x%" PRIx32, space_name, result, expected);
        goto done;
    }
    if (context->log) fprintf(context->log, "chase: %u %s loads followed\n", args.steps, space_name);
done:
    gpu_module_unload(module);
    free(image);
    return status;
}
