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

/* Keys are word addresses of a 32-bit address space (address / 4), the
 * width of the notify protocol's entries, so an entry is 8 bytes and an
 * 8-way set one host cache line. */
typedef struct ref_entry {
    uint32_t key;
    uint32_t value; /* 0: a free entry */
} ref_entry;

typedef struct ref_table {
    ref_entry *entries; /* a set's ways side by side, sets aligned to host cache lines */
    uint64_t set_divisor_inverse; /* key mod sets without a division (sets is rarely a power of two) */
    uint32_t sets, ways;
    uint64_t used;
} ref_table;

/* entries / ways sets (at least one); false when out of memory. */
bool ref_table_init(ref_table *table, uint32_t entries, uint32_t ways);
void ref_table_release(ref_table *table);

/* The first entry of key's set: key mod sets by multiplication (Lemire,
 * Kaser and Kurz, "Faster remainder by direct computation", 2019). */
static inline ref_entry *ref_table_set(const ref_table *table, uint32_t key)
{
    uint64_t fraction = table->set_divisor_inverse * key;
    uint32_t set = (uint32_t)(((unsigned __int128)fraction * table->sets) >> 64);
    return &table->entries[(size_t)set * table->ways];
}

/* The key's value, or NULL when absent. */
static inline uint32_t *ref_table_find(ref_table *table, uint32_t key)
{
    ref_entry *set = ref_table_set(table, key);
    for (uint32_t w = 0; w < table->ways; w++)
        if (set[w].value && set[w].key == key) return &set[w].value;
    return NULL;
}

/* The key's value, taking a free entry of its set when absent (value 0:
 * the caller sets it non-zero, or the entry stays free); NULL when the set
 * is full. One pass over the set finds the key or the first free way. */
static inline uint32_t *ref_table_take(ref_table *table, uint32_t key)
{
    ref_entry *set = ref_table_set(table, key), *free_entry = NULL;
    for (uint32_t w = 0; w < table->ways; w++) {
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
