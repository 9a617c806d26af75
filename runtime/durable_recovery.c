#include "durable_recovery.h"

#include <stdlib.h>

#include "simt_core.h"

bool gpu_durable_region_create(gpu_device *device, uint32_t ctas, uint32_t threads, uint32_t entries, gpu_durable_region *region)
{
    uint64_t log_bytes = (uint64_t)ctas * threads * entries * GPU_DURABLE_ENTRY_BYTES;
    uint64_t flag_bytes = (uint64_t)ctas * GPU_DURABLE_FLAG_STRIDE;
    region->entries = entries;
    region->threads = threads;
    region->log = gpu_malloc_persistent(device, (size_t)log_bytes);
    region->flags = region->log ? gpu_malloc_persistent(device, (size_t)flag_bytes) : 0;
    return region->log && region->flags && gpu_memset(device, region->log, 0, (size_t)log_bytes) &&
           gpu_memset(device, region->flags, 0, (size_t)flag_bytes);
}

static bool roll_back(gpu_device *device, const gpu_durable_region *region, uint32_t cta, gpu_durable_recovery *report)
{
    size_t words = (size_t)region->entries * region->threads * 2;
    uint32_t *log = malloc(words * sizeof *log);
    if (!log) return false;
    uint32_t base = region->log + cta * region->entries * region->threads * GPU_DURABLE_ENTRY_BYTES;
    bool ok = gpu_copy_from_durable(device, log, base, words * sizeof *log);
    /* A thread's entries end at the first with address 0: any past it are
     * an earlier transaction's (the CTA's log is reused). */
    for (uint32_t t = 0; ok && t < region->threads; t++)
        for (uint32_t k = 0, ended = 0; k < region->entries; k++) {
            uint32_t *entry = &log[((size_t)k * region->threads + t) * 2];
            ended |= !entry[0];
            if (ended) entry[0] = 0;
        }
    for (uint32_t k = region->entries; ok && k-- > 0;)
        for (uint32_t t = 0; ok && t < region->threads; t++) {
            const uint32_t *entry = &log[((size_t)k * region->threads + t) * 2];
            if (!entry[0]) continue;
            if (entry[0] < RV_PERSISTENT_BASE || entry[0] > RV_PERSISTENT_END - 4 || (entry[0] & 3)) {
                report->bad_entries++;
                continue;
            }
            ok = gpu_copy_to_durable(device, entry[0], &entry[1], 4);
            report->entries_undone++;
        }
    free(log);
    uint32_t idle = GPU_DURABLE_IDLE;
    return ok && gpu_copy_to_durable(device, region->flags + cta * GPU_DURABLE_FLAG_STRIDE, &idle, 4);
}

bool gpu_durable_recover(gpu_device *device, const gpu_durable_region *region, uint32_t ctas, uint8_t *states,
                         gpu_durable_recovery *report)
{
    *report = (gpu_durable_recovery){0, 0, 0, 0, 0, 0};
    for (uint32_t cta = 0; cta < ctas; cta++) {
        uint32_t state;
        if (!gpu_copy_from_durable(device, &state, region->flags + cta * GPU_DURABLE_FLAG_STRIDE, 4)) return false;
        if (states) states[cta] = (uint8_t)state;
        if (state == GPU_DURABLE_IDLE) report->idle++;
        else if (state == GPU_DURABLE_COMPLETE) report->complete++;
        else if (state == GPU_DURABLE_IN_TX) {
            if (!roll_back(device, region, cta, report)) return false;
            report->rolled_back++;
        } else {
            report->bad_states++; /* nothing to trust in this CTA's log */
        }
    }
    return true;
}
