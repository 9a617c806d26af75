/* assoc_table: a set-associative key -> value table of hardware size, for
 * the tables a TM commit unit keeps per partition (the last-writer history:
 * word -> commit ID; the last-written-time table: block -> commit ID; later
 * reference counts, conflict addresses, writer and version indices).
 *
 * Values are ordered stamps (commit IDs, times): 0 means empty, a store
 * keeps the larger of the old and new value, and values below the caller's
 * `stale_below` count as free (entries of retired IDs need no clearing).
 * A full set evicts its smallest value, which raises `floor`: a miss can
 * then answer the floor, the conservative answer. A growing table (ideal
 * hardware) doubles instead of evicting, so it never loses an entry. */
#ifndef SIMTX_ASSOC_TABLE_H
#define SIMTX_ASSOC_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct assoc_table {
    uint64_t *keys;
    uint32_t *values; /* 0: empty */
    uint64_t sets, ways;
    uint32_t floor; /* the largest value evicted so far */
    bool grow;      /* double instead of evicting */
} assoc_table;

/* entries / ways sets (at least one); false when out of memory. */
bool assoc_table_init(assoc_table *table, uint64_t entries, uint64_t ways, bool grow);
void assoc_table_release(assoc_table *table);

/* The value stored for key (>= stale_below), or 0 when absent. */
static inline uint32_t assoc_table_find(const assoc_table *table, uint64_t key, uint32_t stale_below)
{
    uint64_t base = (key % table->sets) * table->ways;
    for (uint64_t w = 0; w < table->ways; w++) {
        uint32_t v = table->values[base + w];
        if (v && v >= stale_below && table->keys[base + w] == key) return v;
    }
    return 0;
}

/* Records key -> max(old, value). *evicted is set when another key lost its
 * entry (the floor then covers it; never for a growing table). Returns
 * false only when a growing table is out of memory. */
bool assoc_table_store(assoc_table *table, uint64_t key, uint32_t value, uint32_t stale_below, bool *evicted);

#ifdef __cplusplus
}
#endif
#endif
