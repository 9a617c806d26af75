/* ref_table: a set-associative key -> count table that never evicts (see ref_table.h). */
#include "ref_table.h"

#include <stdlib.h>
#include <string.h>

#define HOST_CACHE_LINE 64

bool ref_table_init(ref_table *t, uint32_t entries, uint32_t ways)
{
    t->ways = ways ? ways : 1;
    t->sets = entries / t->ways ? entries / t->ways : 1;
    t->set_divisor_inverse = UINT64_MAX / t->sets + 1;
    size_t bytes = (size_t)t->sets * t->ways * sizeof *t->entries;
    bytes = (bytes + HOST_CACHE_LINE - 1) / HOST_CACHE_LINE * HOST_CACHE_LINE; /* aligned_alloc's rule */
    t->entries = aligned_alloc(HOST_CACHE_LINE, bytes);
    if (t->entries) memset(t->entries, 0, bytes);
    t->used = 0;
    return t->entries != NULL;
}

void ref_table_release(ref_table *t)
{
    free(t->entries);
    t->entries = NULL;
}
