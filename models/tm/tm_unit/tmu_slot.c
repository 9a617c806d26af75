/* tmu_slot: per-warp storage the policy slots keep in their own state
 * (tmu_slot_warps), so that a slot's per-warp fields never enter the
 * shared tmu_warp and tmu_lane. */
#include <stdlib.h>
#include <string.h>

#include "tmu_internal.h"

void *tmu_slot_warp(tmu *u, tmu_slot_warps *s, uint32_t warp)
{
    if (warp < s->count && s->items[warp]) return s->items[warp];
    if (warp >= s->count) {
        size_t capacity = s->count;
        void **items = simtx_array_reserve(s->items, &capacity, (size_t)warp + 1, sizeof *items, 64);
        if (!items) {
            tmu_fail(u, "out of memory for a policy slot's warp state");
            return NULL;
        }
        memset(items + s->count, 0, (capacity - s->count) * sizeof *items);
        s->items = items;
        s->count = capacity;
    }
    s->items[warp] = calloc(1, s->size);
    if (!s->items[warp]) tmu_fail(u, "out of memory for a policy slot's warp state");
    return s->items[warp];
}

void tmu_slot_warps_release(tmu_slot_warps *s)
{
    for (size_t i = 0; i < s->count; i++) {
        if (s->items[i] && s->release) s->release(s->items[i]);
        free(s->items[i]);
    }
    free(s->items);
    s->items = NULL;
    s->count = 0;
}

tmu_slot_warps *tmu_slot_warps_new(size_t size, void (*release)(void *item))
{
    tmu_slot_warps *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->size = size;
    s->release = release;
    return s;
}

void tmu_slot_warps_free(void *s)
{
    if (!s) return;
    tmu_slot_warps_release(s);
    free(s);
}
