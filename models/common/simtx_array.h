/* Growable arrays: one helper for the blocks that keep per-lane or
 * per-transaction lists of unknown length (logs, histories). */
#ifndef SIMTX_ARRAY_H
#define SIMTX_ARRAY_H

#include <stddef.h>
#include <stdlib.h>

/* Room for `needed` items in a growable array (capacity doubling from
 * `first_capacity`): the array, possibly moved, or NULL when out of memory,
 * leaving the array and *capacity as they were. */
static inline void *simtx_array_reserve(void *items, size_t *capacity, size_t needed, size_t item_size, size_t first_capacity)
{
    if (needed <= *capacity) return items;
    size_t grown = *capacity ? *capacity : first_capacity;
    while (grown < needed) grown *= 2;
    void *moved = realloc(items, grown * item_size);
    if (moved) *capacity = grown;
    return moved;
}

#endif
