/* cache_debug: debug (untimed) accesses through the cache: a write keeps the
 * cached copy equal to what the next level will hold, a read is served here
 * only when every byte is cached, and a forwarded read gets the newer bytes
 * held here laid over the next level's answer. */
#include "cache_lines.h"

/* What walk_chunks does with each line-sized chunk. */
typedef enum {
    DEBUG_WRITE_LINES,  /* copy the chunk's bytes into the valid sectors holding them */
    DEBUG_CHECK_CACHED, /* stop (false) at the first chunk not wholly cached */
    DEBUG_READ_LINES,   /* copy the valid sectors' bytes over the chunk */
} debug_walk;

/* Copies bytes [offset, offset + count) of a line that lie in its valid
 * sectors from bytes into the line (to_line) or from the line into bytes. */
static void copy_valid_bytes(const cache *c, unsigned line_index, unsigned offset, unsigned count, uint8_t *bytes, bool to_line)
{
    uint8_t *line = line_data(c, line_index);
    uint32_t sectors = sector_mask(c, offset, count) & c->lines[line_index].valid;
    for (; sectors; sectors &= sectors - 1) {
        unsigned start = (unsigned)__builtin_ctz(sectors) * c->sector_size, end = start + c->sector_size;
        if (start < offset) start = offset;
        if (end > offset + count) end = offset + count;
        if (to_line) memcpy(line + start, bytes + (start - offset), end - start);
        else memcpy(bytes + (start - offset), line + start, end - start);
    }
}

/* Visits [address, address + size) line by line (data holds its bytes);
 * false when a DEBUG_CHECK_CACHED walk met a byte not cached. */
static bool walk_chunks(const cache *c, debug_walk walk, uint64_t address, uint8_t *data, size_t size)
{
    for (size_t done = 0; done < size;) {
        uint64_t at = address + done;
        unsigned offset = offset_in_line(c, at);
        size_t chunk = c->config.line_size - offset;
        if (chunk > size - done) chunk = size - done;
        int index = find_line(c, line_of(c, at));
        if (walk == DEBUG_CHECK_CACHED) {
            if (index < 0 || (sector_mask(c, offset, (unsigned)chunk) & ~c->lines[index].valid)) return false;
        } else if (index >= 0) {
            copy_valid_bytes(c, (unsigned)index, offset, (unsigned)chunk, data + done, walk == DEBUG_WRITE_LINES);
        }
        done += chunk;
    }
    return true;
}

size_t cache_debug_access(cache *c, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    *forward_port = (int)CACHE_DOWNSTREAM_PORT;
    if (is_write) {
        walk_chunks(c, DEBUG_WRITE_LINES, address, data, size);
        return 0;
    }
    if (!c->config.write_back) return 0; /* never newer than the next level */
    /* Served here only when every byte is cached; otherwise the next level
     * answers and cache_debug_overlay puts the newer bytes on top. */
    if (!walk_chunks(c, DEBUG_CHECK_CACHED, address, data, size)) return 0;
    walk_chunks(c, DEBUG_READ_LINES, address, data, size);
    return size;
}

void cache_debug_overlay(const cache *c, uint64_t address, uint8_t *data, size_t size)
{
    walk_chunks(c, DEBUG_READ_LINES, address, data, size);
}
