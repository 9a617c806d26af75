/* ref_table: a set-associative key -> count table of hardware size that
 * never evicts: a key whose set is full is not taken (the caller counts the
 * overflow and goes on without it). EA/PG's reference count table (word ->
 * readers and writers among committing transactions) and conflict address
 * table (word -> written / read bits) are two of them; both tolerate a
 * missing key because validation, not the table, decides correctness.
 *
 * A set keeps its live entries first (a freed entry takes the set's last
 * one), so a lookup reads only the live ways: hardware compares all ways at
 * once, and where a way sits is invisible since nothing is ever evicted. */
#ifndef SIMTX_REF_TABLE_H
#define SIMTX_REF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtx_assert.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Keys are word addresses of a 32-bit address space (address / 4), the
 * width of the notify protocol's entries, so an entry is 8 bytes. */
typedef struct ref_entry {
    uint32_t key;
    uint32_t value; /* 0: a free entry */
} ref_entry;

typedef struct ref_table {
    ref_entry *entries;           /* a set's ways side by side, its live ones first */
    uint8_t *live;                /* per set: its live entries */
    uint64_t set_divisor_inverse; /* key mod sets without a division (sets is rarely a power of two) */
    uint32_t sets, ways;
    uint64_t used;
} ref_table;

/* entries / ways sets (at least one), ways at most 255; false when out of memory. */
bool ref_table_init(ref_table *table, uint32_t entries, uint32_t ways);
void ref_table_release(ref_table *table);

/* key's set: key mod sets by multiplication (Lemire, Kaser and Kurz,
 * "Faster remainder by direct computation", 2019). */
static inline uint32_t ref_table_set(const ref_table *table, uint32_t key)
{
    uint64_t fraction = table->set_divisor_inverse * key;
    return (uint32_t)(((unsigned __int128)fraction * table->sets) >> 64);
}

/* The key's value, or NULL when absent. */
static inline uint32_t *ref_table_find(ref_table *table, uint32_t key)
{
    uint32_t set = ref_table_set(table, key);
    ref_entry *ways = &table->entries[(size_t)set * table->ways];
    simtx_assert("ref_table", table->live[set] <= table->ways); /* else the scan runs into the next set, or past the table */
    for (unsigned w = 0, live = table->live[set]; w < live; w++)
        if (ways[w].key == key) return &ways[w].value;
    return NULL;
}

/* The key's value, or a free entry of its set keyed to it when absent
 * (value 0: the caller sets it non-zero, or the entry stays free); NULL
 * when the set is full. */
static inline uint32_t *ref_table_take(ref_table *table, uint32_t key)
{
    uint32_t set = ref_table_set(table, key);
    ref_entry *ways = &table->entries[(size_t)set * table->ways];
    unsigned live = table->live[set];
    for (unsigned w = 0; w < live; w++)
        if (ways[w].key == key) return &ways[w].value;
    if (live == table->ways) return NULL;
    ways[live] = (ref_entry){key, 0};
    return &ways[live].value;
}

void ref_table_free_entry(ref_table *table, ref_entry *entry);

/* Call after a value found or taken changed, before the next lookup in its
 * table: a taken entry whose value became non-zero becomes live, a live
 * one whose value became 0 is freed. */
static inline void ref_table_settle(ref_table *table, uint32_t *value, uint32_t before)
{
    if (!before && *value) {
        table->live[(size_t)((ref_entry *)((char *)value - offsetof(ref_entry, value)) - table->entries) / table->ways]++;
        table->used++;
    } else if (before && !*value) {
        ref_table_free_entry(table, (ref_entry *)((char *)value - offsetof(ref_entry, value)));
    }
}

#ifdef __cplusplus
}
#endif
#endif
