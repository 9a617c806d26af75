/* assoc_table: a set-associative key -> value table (see assoc_table.h). */
#include "assoc_table.h"

#include <stdlib.h>

bool assoc_table_init(assoc_table *t, uint64_t entries, uint64_t ways, bool grow)
{
    t->ways = ways;
    t->sets = entries / ways ? entries / ways : 1;
    t->keys = calloc(t->sets * ways, sizeof *t->keys);
    t->values = calloc(t->sets * ways, sizeof *t->values);
    t->floor = 0;
    t->grow = grow;
    return t->keys && t->values;
}

void assoc_table_release(assoc_table *t)
{
    free(t->keys);
    free(t->values);
    t->keys = NULL;
    t->values = NULL;
}

/* Twice the sets, the live entries re-placed. */
static bool assoc_table_double(assoc_table *t, uint32_t stale_below)
{
    assoc_table bigger;
    if (!assoc_table_init(&bigger, t->sets * t->ways * 2, t->ways, true)) {
        assoc_table_release(&bigger);
        return false;
    }
    for (uint64_t i = 0; i < t->sets * t->ways; i++) {
        bool evicted = false;
        if (t->values[i] && t->values[i] >= stale_below &&
            !assoc_table_store(&bigger, t->keys[i], t->values[i], stale_below, &evicted)) {
            assoc_table_release(&bigger);
            return false;
        }
    }
    bigger.floor = t->floor;
    assoc_table_release(t);
    *t = bigger;
    return true;
}

bool assoc_table_store(assoc_table *t, uint64_t key, uint32_t value, uint32_t stale_below, bool *evicted)
{
    for (;;) {
        uint64_t base = (key % t->sets) * t->ways;
        uint64_t free_way = UINT64_MAX, victim = 0;
        for (uint64_t w = 0; w < t->ways; w++) {
            uint32_t v = t->values[base + w];
            bool live = v && v >= stale_below;
            if (live && t->keys[base + w] == key) {
                if (value > v) t->values[base + w] = value;
                return true;
            }
            if (!live && free_way == UINT64_MAX) free_way = w;
            if (t->values[base + w] < t->values[base + victim]) victim = w;
        }
        if (free_way != UINT64_MAX) {
            t->keys[base + free_way] = key;
            t->values[base + free_way] = value;
            return true;
        }
        if (t->grow) {
            if (!assoc_table_double(t, stale_below)) return false;
            continue;
        }
        if (t->values[base + victim] > t->floor) t->floor = t->values[base + victim];
        t->keys[base + victim] = key;
        t->values[base + victim] = value;
        *evicted = true;
        return true;
    }
}
