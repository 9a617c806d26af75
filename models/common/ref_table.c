/* ref_table: a set-associative key -> count table that never evicts (see ref_table.h). */
#include "ref_table.h"

#include <stdlib.h>

bool ref_table_init(ref_table *t, uint64_t entries, uint64_t ways)
{
    t->ways = ways ? ways : 1;
    t->sets = entries / t->ways ? entries / t->ways : 1;
    t->keys = calloc(t->sets * t->ways, sizeof *t->keys);
    t->values = calloc(t->sets * t->ways, sizeof *t->values);
    t->used = 0;
    return t->keys && t->values;
}

void ref_table_release(ref_table *t)
{
    free(t->keys);
    free(t->values);
    t->keys = NULL;
    t->values = NULL;
}

uint32_t *ref_table_take(ref_table *t, uint64_t key)
{
    uint32_t *found = ref_table_find(t, key);
    if (found) return found;
    uint64_t base = (key % t->sets) * t->ways;
    for (uint64_t w = 0; w < t->ways; w++)
        if (!t->values[base + w]) {
            t->keys[base + w] = key;
            return &t->values[base + w];
        }
    return NULL;
}
