/* slot_table: see slot_table.h. */
#include "slot_table.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t key)
{
    key ^= key >> 33;
    key *= UINT64_C(0xff51afd7ed558ccd);
    key ^= key >> 33;
    key *= UINT64_C(0xc4ceb9fe1a85ec53);
    key ^= key >> 33;
    return key;
}

bool slot_table_init(slot_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size)
{
    *t = (slot_table){0};
    if (entries == 0 || entries > (1u << 30)) {
        snprintf(error, error_size, "entries must be 1..2^30 (got %u)", entries);
        return false;
    }
    if (ways == 0 || ways > entries || entries % ways) {
        snprintf(error, error_size, "ways must divide entries (%u) (got %u)", entries, ways);
        return false;
    }
    uint64_t index_size = 2;
    while (index_size < 2 * (uint64_t)entries) index_size *= 2;
    t->entries = entries;
    t->ways = ways;
    t->sets = entries / ways;
    t->keys = calloc(entries, sizeof *t->keys);
    t->used = calloc(entries, 1);
    t->free_ways = malloc(entries * sizeof *t->free_ways);
    t->free_count = malloc(t->sets * sizeof *t->free_count);
    t->index = calloc(index_size, sizeof *t->index);
    t->index_mask = index_size - 1;
    if (!t->keys || !t->used || !t->free_ways || !t->free_count || !t->index) {
        slot_table_release(t);
        snprintf(error, error_size, "out of memory for %u entries", entries);
        return false;
    }
    for (uint32_t s = 0; s < t->sets; s++) {
        t->free_count[s] = ways;
        for (uint32_t w = 0; w < ways; w++) t->free_ways[s * ways + w] = s * ways + (ways - 1 - w);
    }
    return true;
}

void slot_table_release(slot_table *t)
{
    free(t->keys);
    free(t->used);
    free(t->free_ways);
    free(t->free_count);
    free(t->index);
    *t = (slot_table){0};
}

uint32_t slot_table_set(const slot_table *t, uint64_t key)
{
    return t->sets == 1 ? 0 : (uint32_t)(mix(key ^ UINT64_C(0x9e3779b97f4a7c15)) % t->sets);
}

uint32_t slot_table_find(const slot_table *t, uint64_t key)
{
    for (uint64_t i = mix(key) & t->index_mask;; i = (i + 1) & t->index_mask) {
        uint32_t v = t->index[i];
        if (v == 0) return SLOT_NONE;
        if (v != UINT32_MAX && t->keys[v - 1] == key) return v - 1;
    }
}

/* Rebuilds the index without its removed marks. */
static void rebuild(slot_table *t)
{
    for (uint64_t i = 0; i <= t->index_mask; i++) t->index[i] = 0;
    for (uint32_t s = 0; s < t->entries; s++) {
        if (!t->used[s]) continue;
        uint64_t i = mix(t->keys[s]) & t->index_mask;
        while (t->index[i]) i = (i + 1) & t->index_mask;
        t->index[i] = s + 1;
    }
    t->removed = 0;
}

uint32_t slot_table_insert(slot_table *t, uint64_t key)
{
    uint32_t set = slot_table_set(t, key);
    if (t->free_count[set] == 0) return SLOT_NONE;
    uint32_t slot = t->free_ways[set * t->ways + --t->free_count[set]];
    t->keys[slot] = key;
    t->used[slot] = 1;
    uint64_t i = mix(key) & t->index_mask;
    while (t->index[i] != 0 && t->index[i] != UINT32_MAX) i = (i + 1) & t->index_mask;
    if (t->index[i] == UINT32_MAX) t->removed--;
    t->index[i] = slot + 1;
    if (++t->count > t->peak) t->peak = t->count;
    return slot;
}

void slot_table_remove(slot_table *t, uint32_t slot)
{
    if (slot >= t->entries || !t->used[slot]) return;
    for (uint64_t i = mix(t->keys[slot]) & t->index_mask;; i = (i + 1) & t->index_mask) {
        if (t->index[i] == slot + 1) {
            t->index[i] = UINT32_MAX;
            t->removed++;
            break;
        }
        if (t->index[i] == 0) break; /* not indexed: cannot happen */
    }
    t->used[slot] = 0;
    uint32_t set = slot / t->ways;
    t->free_ways[set * t->ways + t->free_count[set]++] = slot;
    t->count--;
    if (t->removed > t->entries / 2) rebuild(t);
}
