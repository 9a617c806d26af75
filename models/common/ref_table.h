/* ref_table: a set-associative key -> count table of hardware size that
 * never evicts: a key whose set is full is not taken (the caller counts the
 * overflow and goes on without it). EA/PG's reference count table (word ->
 * readers and writers among committing transactions) and conflict address
 * table (word -> written / read bits) are two of them; both tolerate a
 * missing key because validation, not the table, decides correctness. */
#ifndef SIMTX_REF_TABLE_H
#define SIMTX_REF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_entry {
    uint64_t key;
    uint32_t value; /* 0: a free entry */
} ref_entry;

typedef struct ref_table {
    ref_entry *entries; /* a set's ways side by side: a lookup reads one or two host cache lines */
    uint64_t sets, ways, used;
} ref_table;

/* entries / ways sets (at least one); false when out of memory. */
bool ref_table_init(ref_table *table, uint64_t entries, uint64_t ways);
void ref_table_release(ref_table *table);

/* The key's value, or NULL when absent. */
static inline uint32_t *ref_table_find(ref_table *table, uint64_t key)
{
    ref_entry *set = &table->entries[(key % table->sets) * table->ways];
    for (uint64_t w = 0; w < table->ways; w++)
        if (set[w].value && set[w].key == key) return &set[w].value;
    return NULL;
}

/* The key's value, taking a free entry of its set when absent (value 0:
 * the caller sets it non-zero, or the entry stays free); NULL when the set
 * is full. One pass over the set finds the key or the first free way. */
static inline uint32_t *ref_table_take(ref_table *table, uint64_t key)
{
    ref_entry *set = &table->entries[(key % table->sets) * table->ways], *free_entry = NULL;
    for (uint64_t w = 0; w < table->ways; w++) {
        if (!set[w].value) {
            if (!free_entry) free_entry = &set[w];
        } else if (set[w].key == key) {
            return &set[w].value;
        }
    }
    if (free_entry) free_entry->key = key;
    return free_entry ? &free_entry->value : NULL;
}

/* Call after a value changed: an entry whose value became 0 is freed. */
static inline void ref_table_settle(ref_table *table, uint32_t *value, uint32_t before)
{
    if (before && !*value) table->used--;
    else if (!before && *value) table->used++;
}

#ifdef __cplusplus
}
#endif
#endif
