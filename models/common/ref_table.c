/* ref_table: a set-associative key -> count table that never evicts (see ref_table.h). */
#include "ref_table.h"

#include <stdlib.h>

bool ref_table_init(ref_table *t, uint32_t entries, uint32_t ways)
{
    t->ways = ways ? ways : 1;
    t->sets = entries / t->ways ? entries / t->ways : 1;
    t->set_divisor_inverse = UINT64_MAX / t->sets + 1;
    t->entries = calloc((size_t)t->sets * t->ways, sizeof *t->entries);
    t->live = calloc(t->sets, sizeof *t->live);
    t->used = 0;
    if (t->entries && t->live) return true;
    ref_table_release(t);
    return false;
}

void ref_table_release(ref_table *t)
{
    free(t->entries);
    free(t->live);
    t->entries = NULL;
    t->live = NULL;
}

/* The set's last live entry takes the freed one's place. */
void ref_table_free_entry(ref_table *t, ref_entry *entry)
{
    size_t set = (size_t)(entry - t->entries) / t->ways;
    ref_entry *last = &t->entries[set * t->ways + --t->live[set]];
    *entry = *last;
    *last = (ref_entry){0, 0};
    t->used--;
}
