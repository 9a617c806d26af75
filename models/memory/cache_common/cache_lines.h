/* cache_lines: the line store: geometry, tag search, sector and byte-enable
 * masks, LRU ranks and victim choice, a line's data and its valid and dirty
 * sectors. Static inline: the lookup and fill paths inline these steps. */
#ifndef SIMTX_CACHE_LINES_H
#define SIMTX_CACHE_LINES_H

#include <string.h>

#include "cache_monitor.h"
#include "partition_interleave.h"

/* ---- geometry ---- */

/* Lines are almost always a power of two: shift rather than divide. */
CACHE_STEP uint64_t line_of(const cache *c, uint64_t address)
{
    return c->line_shift ? address >> c->line_shift : address / c->config.line_size;
}
CACHE_STEP unsigned offset_in_line(const cache *c, uint64_t address)
{
    return (unsigned)(c->line_shift ? address & (c->config.line_size - 1u) : address % c->config.line_size);
}

CACHE_STEP unsigned set_of(const cache *c, uint64_t line_address)
{
    uint64_t index_line = line_address;
    if (c->lines_per_chunk) {
        /* Index with the partition's own address space: the bits choosing the
         * partition would otherwise leave most sets unused. Counted in lines
         * (the interleave is a multiple of the line size). */
        index_line = partition_local_address(line_address, c->lines_per_chunk, c->config.partition_count);
    }
    return (unsigned)(c->sets_power_of_two ? index_line & (c->sets - 1u) : index_line % c->sets);
}

CACHE_STEP int find_line(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *tags = &c->tags[first];
    for (unsigned way = 0; way < c->config.associativity; way++)
        if (tags[way] == line_address) return (int)(first + way);
    return -1;
}

/* find_line for a lookup, remembering its answer. */
CACHE_STEP int lookup_line(cache *c, uint64_t line_address)
{
    if (c->searched && c->searched_line == line_address) return c->searched_index;
    c->searched = true;
    c->searched_line = line_address;
    c->searched_index = find_line(c, line_address);
    return c->searched_index;
}

CACHE_STEP bool line_present(const cache *c, unsigned line_index) { return c->tags[line_index] != NO_LINE; }

CACHE_STEP uint8_t *line_data(const cache *c, unsigned line_index)
{
    return c->data + (size_t)line_index * c->config.line_size;
}

/* Sectors first..last (inclusive, last < 32) as a mask. */
CACHE_STEP uint32_t sector_range(unsigned first, unsigned last)
{
    return (uint32_t)((UINT64_C(2) << last) - (UINT64_C(1) << first));
}

/* Sectors touched by bytes [offset, offset + size) of a line. */
CACHE_STEP uint32_t sector_mask(const cache *c, unsigned offset, unsigned size)
{
    if (!size) size = 1;
    unsigned first = offset / c->sector_size, last = (offset + size - 1) / c->sector_size;
    if (last >= c->config.sectors) last = c->config.sectors - 1;
    return first <= last ? sector_range(first, last) : 0;
}

/* The byte-enable bits of msg bytes [first, first + count), count <= 64,
 * as the low bits of the result. */
CACHE_STEP uint64_t enable_bits(const simtx_msg *msg, unsigned first, unsigned count)
{
    unsigned word = first >> 6, shift = first & 63;
    uint64_t bits = msg->byte_enable[word] >> shift;
    if (shift && word + 1 < 2) bits |= msg->byte_enable[word + 1] << (64 - shift);
    return count < 64 ? bits & ((UINT64_C(1) << count) - 1) : bits;
}

/* True when every msg byte of [first, first + count) is enabled. */
CACHE_STEP bool bytes_enabled(const simtx_msg *msg, unsigned first, unsigned count)
{
    for (unsigned done = 0; done < count; done += 64) {
        unsigned n = count - done < 64 ? count - done : 64;
        uint64_t want = n < 64 ? (UINT64_C(1) << n) - 1 : UINT64_MAX;
        if (enable_bits(msg, first + done, n) != want) return false;
    }
    return true;
}

/* Sectors a write replaces entirely (every byte of the sector enabled). */
CACHE_STEP uint32_t fully_written_sectors(const cache *c, const simtx_msg *msg, unsigned offset)
{
    /* The sectors lying wholly inside [offset, offset + size). */
    unsigned first = (offset + c->sector_size - 1) / c->sector_size, end = (offset + msg->size) / c->sector_size;
    if (end > c->config.sectors) end = c->config.sectors;
    if (first >= end) return 0;
    if ((msg->byte_enable[0] & msg->byte_enable[1]) == UINT64_MAX) return sector_range(first, end - 1); /* every byte enabled */
    uint32_t mask = 0;
    for (unsigned s = first; s < end; s++)
        if (bytes_enabled(msg, s * c->sector_size - offset, c->sector_size)) mask |= UINT32_C(1) << s;
    return mask;
}

/* A line not waiting for a fill was used: its LRU stamp. */
CACHE_STEP void touch(cache *c, unsigned line_index) { c->victim_ranks[line_index] = ++c->use_clock; }

CACHE_STEP void invalidate(cache *c, unsigned line_index)
{
    c->tags[line_index] = NO_LINE;
    c->victim_ranks[line_index] = 0;
    c->searched = false;
    c->lines[line_index].valid = c->lines[line_index].dirty = 0;
}

/* A present line leaves the cache other than by replacement (write-evict,
 * flush, a pass-through acting on it, a fence dropping all lines). */
CACHE_STEP void drop_line(cache *c, unsigned line_index, const simtx_msg *cause)
{
    monitor(c, SIMTX_OP_MONITOR_EVICT, line_index, cause, c->lines[line_index].dirty ? MONITOR_DIRTY : 0);
    invalidate(c, line_index);
}

/* ---- line allocation ---- */

/* The way to replace in the set of line_address: the first empty one, else
 * the least recently used line not waiting for a fill; -1 when every way
 * waits. */
CACHE_STEP int choose_victim(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *ranks = &c->victim_ranks[first];
    int victim = -1;
    uint64_t victim_rank = UINT64_MAX;
    for (unsigned way = 0; way < c->config.associativity; way++) {
        uint64_t rank = ranks[way];
        if (rank < victim_rank) {
            if (!rank) return (int)(first + way); /* empty: nothing ranks lower */
            victim = (int)(first + way);
            victim_rank = rank;
        }
    }
    return victim;
}

/* True when every way of line_address's set waits for a fill (no victim). */
CACHE_STEP bool set_all_filling(const cache *c, uint64_t line_address)
{
    unsigned first = set_of(c, line_address) * c->config.associativity;
    const uint64_t *ranks = &c->victim_ranks[first];
    for (unsigned way = 0; way < c->config.associativity; way++)
        if (ranks[way] != UINT64_MAX) return false;
    return true;
}

/* ---- data ---- */

/* Writes a request's enabled bytes into the line's sectors that are valid or
 * that it overwrites whole (which become valid); bytes of other sectors are
 * dropped (only write-through caches meet them: the next level has them). */
CACHE_STEP void apply_write(cache *c, unsigned line_index, const simtx_msg *msg)
{
    cache_line *line = &c->lines[line_index];
    unsigned offset = offset_in_line(c, msg->address);
    uint32_t full = fully_written_sectors(c, msg, offset);
    uint32_t touched = sector_mask(c, offset, msg->size);
    uint32_t writable = (line->valid | full) & touched;
    uint8_t *data = line_data(c, line_index);
    /* Every byte enabled and every touched sector written: one copy. */
    bool whole = writable == touched && bytes_enabled(msg, 0, msg->size);
    if (whole) memcpy(data + offset, msg->data, msg->size);
    /* Otherwise sector by sector: a whole enabled span is one copy. */
    for (uint32_t left = whole ? 0 : writable; left; left &= left - 1) {
        unsigned sector = (unsigned)__builtin_ctz(left);
        unsigned start = sector * c->sector_size, end = start + c->sector_size;
        if (start < offset) start = offset;
        if (end > offset + msg->size) end = offset + msg->size;
        if (bytes_enabled(msg, start - offset, end - start)) {
            memcpy(data + start, msg->data + (start - offset), end - start);
            continue;
        }
        for (unsigned at = start; at < end; at++)
            if (simtx_msg_byte_enabled(msg, at - offset)) data[at] = msg->data[at - offset];
    }
    line->valid |= writable;
    if (c->config.write_back) line->dirty |= writable;
}

CACHE_STEP void read_line(const cache *c, unsigned line_index, simtx_msg *msg)
{
    memcpy(msg->data, line_data(c, line_index) + offset_in_line(c, msg->address), msg->size);
}

#endif
