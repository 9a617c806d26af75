/* slot_table: a set-associative table of hardware size that never evicts,
 * keyed by 64-bit keys, giving each present key a slot index into the
 * caller's own entry arrays (SI-TM's writer table: word -> writer; its
 * reader list: (word, entry index) -> a Figure 10 entry).
 *
 * A key may live only in its set's ways (key hash mod sets); a full set
 * refuses the key: the caller's overflow. `ways` = `entries` (one set) is a
 * fully associative table. Lookups go through a hash index beside the ways
 * (hardware compares the set's ways at once; the index only makes a wide
 * set as cheap to simulate as a narrow one). Unlike ref_table, keys are
 * 64-bit and sets may be as wide as the table. */
#ifndef SIMTX_SLOT_TABLE_H
#define SIMTX_SLOT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SLOT_NONE UINT32_MAX

typedef struct slot_table {
    uint32_t entries, sets, ways;
    uint64_t *keys;      /* per slot (slot = set * ways + way) */
    uint8_t *used;       /* per slot */
    uint32_t *free_ways; /* per set: its free slots, a stack */
    uint32_t *free_count;
    uint32_t *index;     /* open addressing: slot + 1, 0 empty, UINT32_MAX removed */
    uint64_t index_mask;
    uint64_t removed;    /* removed marks in the index */
    uint32_t count, peak;
} slot_table;

/* entries / ways sets (ways 1..entries, dividing entries); returns false
 * with a message naming the parameter. */
bool slot_table_init(slot_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size);
void slot_table_release(slot_table *t);

/* The key's set. */
uint32_t slot_table_set(const slot_table *t, uint64_t key);
/* The key's slot, or SLOT_NONE. */
uint32_t slot_table_find(const slot_table *t, uint64_t key);
/* Takes a slot of the key's set for a key not present; SLOT_NONE when the
 * set is full. */
uint32_t slot_table_insert(slot_table *t, uint64_t key);
/* Frees a used slot. */
void slot_table_remove(slot_table *t, uint32_t slot);
/* Free slots in the key's set. */
static inline uint32_t slot_table_room(const slot_table *t, uint64_t key)
{
    return t->free_count[slot_table_set(t, key)];
}

#ifdef __cplusplus
}
#endif
#endif
