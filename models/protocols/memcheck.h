/* The memory checker's table: the device memory a kernel may access, as
 * the host API keeps it (runtime/host_api.c) and hands it to the cores with
 * each launch (simt_launch.memcheck) when the checker is on (simtx run,
 * unless --no-memcheck). The host API uses the same lookups to refuse host
 * copies outside the live allocations.
 *
 * PARTIES
 *
 *   The host API owns the table: the live allocations (gpu_malloc,
 *   gpu_malloc_persistent) and the loaded modules' .data/.bss, rebuilt on
 *   every change. A core reads it while a launch runs (the host changes it
 *   only between launches) and flags a global or persistent lane access that
 *   no range contains; shared lanes are checked against the CTA's region
 *   (simt_launch.shared_bytes), which needs no table.
 *
 * FIELDS
 *
 *   ranges  disjoint, sorted by address; a range of 0 bytes (gpu_malloc(0))
 *           contains no access but is still a nearest allocation to name.
 */
#ifndef SIMTX_PROTOCOL_MEMCHECK_H
#define SIMTX_PROTOCOL_MEMCHECK_H

#include <stddef.h>
#include <stdint.h>

typedef enum memcheck_kind {
    MEMCHECK_GLOBAL,      /* gpu_malloc */
    MEMCHECK_PERSISTENT,  /* gpu_malloc_persistent */
    MEMCHECK_KERNEL_DATA, /* a loaded module's .data/.bss */
} memcheck_kind;

typedef struct memcheck_range {
    uint32_t address, bytes;
    memcheck_kind kind;
} memcheck_range;

typedef struct memcheck_table {
    const memcheck_range *ranges;
    size_t count;
} memcheck_table;

static inline const char *memcheck_kind_name(memcheck_kind kind)
{
    return kind == MEMCHECK_GLOBAL ? "allocation" : kind == MEMCHECK_PERSISTENT ? "persistent allocation" : "kernel .data/.bss";
}

/* The last range starting at or below address; NULL when none does. */
static inline const memcheck_range *memcheck_floor(const memcheck_table *table, uint32_t address)
{
    size_t low = 0, high = table->count; /* answer: ranges[low - 1] */
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (table->ranges[middle].address <= address) low = middle + 1;
        else high = middle;
    }
    return low ? &table->ranges[low - 1] : NULL;
}

/* The range holding all of [address, address + bytes) (bytes >= 1), or NULL. */
static inline const memcheck_range *memcheck_find(const memcheck_table *table, uint32_t address, uint64_t bytes)
{
    const memcheck_range *range = memcheck_floor(table, address);
    return range && (uint64_t)address + bytes <= (uint64_t)range->address + range->bytes ? range : NULL;
}

/* The range closest to address (by the gap to its first or last byte), or
 * NULL for an empty table: what an error names. */
static inline const memcheck_range *memcheck_nearest(const memcheck_table *table, uint32_t address)
{
    const memcheck_range *below = memcheck_floor(table, address);
    const memcheck_range *above = below ? (below + 1 < table->ranges + table->count ? below + 1 : NULL)
                                        : (table->count ? table->ranges : NULL);
    if (!below || !above) return below ? below : above;
    uint64_t below_end = (uint64_t)below->address + below->bytes;
    uint64_t gap_below = address >= below_end ? address - below_end : 0, gap_above = (uint64_t)above->address - address;
    return gap_below <= gap_above ? below : above;
}

#endif
