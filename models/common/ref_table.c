/* ref_table: a set-associative key -> count table that never evicts (see ref_table.h). */
#include "ref_table.h"

#include <stdlib.h>

bool ref_table_init(ref_table *t, uint64_t entries, uint64_t ways)
{
    t->ways = ways ? ways : 1;
    t->sets = entries / t->ways ? entries / t->ways : 1;
    t->entries = calloc(t->sets * t->ways, sizeof *t->entries);
    t->used = 0;
    return t->entries != NULL;
}

void ref_table_release(ref_table *t)
{
    free(t->entries);
    t->entries = NULL;
}
