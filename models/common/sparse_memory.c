#include "sparse_memory.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Pages of 64 KiB index the address space; each page's bytes are held in
 * 256-byte chunks allocated on first write. Interleaved memories (six
 * partitions taking every sixth 256-byte block) then hold only their own
 * blocks instead of six full copies of every page they touch. Pages this
 * large keep the page table of a memory of hundreds of MiB small enough to
 * stay in the host's caches (with 4 KiB pages, random accesses missed the
 * table, the page's chunk table and the chunk, one after the other). */
#define PAGE_BITS 16
#define PAGE_SIZE (1u << PAGE_BITS)
#define CHUNK_BITS 8
#define CHUNK_SIZE (1u << CHUNK_BITS)
#define CHUNKS_PER_PAGE (PAGE_SIZE / CHUNK_SIZE)
/* An arena is one huge page of the host (2 MiB, aligned): random accesses
 * across a large memory (a DRAM trace) otherwise miss the host's TLB at
 * nearly every chunk table and chunk. */
#define ARENA_SPAN (2u * 1024u * 1024u)
#define ARENA_BYTES (ARENA_SPAN - 64u) /* with its header */

typedef struct page {
    uint64_t number;
    uint8_t **chunks; /* CHUNKS_PER_PAGE pointers, NULL: all zero; NULL array: free slot */
} page;

/* Chunks and chunk tables come from zeroed arenas, freed together at the end:
 * no per-allocation header, and a memory never gives pages back anyway. The
 * arenas are mapped straight from the system, whose pages come zeroed;
 * calloc clears them itself whenever malloc serves such blocks from its
 * heap (its mmap threshold rises as large blocks are freed), a store per
 * byte, most of which are never written. */
typedef struct arena {
    struct arena *next;
    size_t used;
    _Alignas(max_align_t) uint8_t bytes[ARENA_BYTES];
} arena;

/* Open addressing keyed by page number; a one-entry cache catches the common
 * run of accesses to one page. */
struct sparse_memory {
    page *slots;
    size_t capacity, count;
    page *last;
    arena *arenas;
};

static size_t slot_of(uint64_t number, size_t capacity)
{
    return (size_t)((number * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
}

_Static_assert(sizeof(arena) <= ARENA_SPAN, "an arena fills one huge page");

/* A zeroed arena on a huge-page boundary: mapped one span too large, the
 * ends trimmed. The huge page is a hint the system may not take. */
static arena *map_arena(void)
{
    uint8_t *mapped = mmap(NULL, 2 * ARENA_SPAN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) abort();
    uintptr_t start = ((uintptr_t)mapped + ARENA_SPAN - 1) & ~(uintptr_t)(ARENA_SPAN - 1);
    size_t head = start - (uintptr_t)mapped;
    if (head) munmap(mapped, head);
    munmap((uint8_t *)start + ARENA_SPAN, ARENA_SPAN - head);
#ifdef MADV_HUGEPAGE
    madvise((void *)start, ARENA_SPAN, MADV_HUGEPAGE);
#endif
    return (arena *)start;
}

static void *arena_take(sparse_memory *m, size_t size)
{
    if (!m->arenas || ARENA_BYTES - m->arenas->used < size) {
        arena *a = map_arena();
        a->next = m->arenas;
        m->arenas = a;
    }
    void *bytes = m->arenas->bytes + m->arenas->used;
    m->arenas->used += size;
    return bytes;
}

sparse_memory *sparse_memory_create(void)
{
    sparse_memory *m = calloc(1, sizeof *m);
    if (!m) abort();
    m->capacity = 64;
    m->slots = calloc(m->capacity, sizeof *m->slots);
    if (!m->slots) abort();
    return m;
}

void sparse_memory_destroy(sparse_memory *m)
{
    if (!m) return;
    while (m->arenas) {
        arena *next = m->arenas->next;
        munmap(m->arenas, ARENA_SPAN);
        m->arenas = next;
    }
    free(m->slots);
    free(m);
}

static void rehash(sparse_memory *m)
{
    size_t capacity = m->capacity * 2;
    page *slots = calloc(capacity, sizeof *slots);
    if (!slots) abort();
    for (size_t i = 0; i < m->capacity; i++) {
        if (!m->slots[i].chunks) continue;
        size_t s = slot_of(m->slots[i].number, capacity);
        while (slots[s].chunks) s = (s + 1) & (capacity - 1);
        slots[s] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->capacity = capacity;
    m->last = NULL;
}

/* The slot holding page `number`, or the free slot where it would go. */
static size_t slot_for(const sparse_memory *m, uint64_t number)
{
    size_t s = slot_of(number, m->capacity);
    while (m->slots[s].chunks && m->slots[s].number != number) s = (s + 1) & (m->capacity - 1);
    return s;
}

static page *find_page(sparse_memory *m, uint64_t number, bool create)
{
    if (m->last && m->last->number == number) return m->last;
    size_t s = slot_for(m, number);
    if (m->slots[s].chunks) return m->last = &m->slots[s];
    if (!create) return NULL;
    if ((m->count + 1) * 2 > m->capacity) { /* at most half full: short probes */
        rehash(m);
        return find_page(m, number, true);
    }
    m->slots[s].number = number;
    m->slots[s].chunks = arena_take(m, CHUNKS_PER_PAGE * sizeof(uint8_t *));
    m->count++;
    return m->last = &m->slots[s];
}

/* The entry of address's chunk in its page's chunk table. */
static uint8_t **chunk_entry(const page *p, uint64_t address)
{
    return &p->chunks[(address & (PAGE_SIZE - 1)) >> CHUNK_BITS];
}

/* The chunk holding address, or NULL (reads as zero) unless create. */
static uint8_t *find_chunk(sparse_memory *m, uint64_t address, bool create)
{
    page *p = find_page(m, address >> PAGE_BITS, create);
    if (!p) return NULL;
    uint8_t **chunk = chunk_entry(p, address);
    if (!*chunk && create) *chunk = arena_take(m, CHUNK_SIZE);
    return *chunk;
}

/* Bytes from address to the end of its chunk, at most size. */
static size_t span_in_chunk(uint64_t address, size_t size)
{
    size_t room = CHUNK_SIZE - (size_t)(address & (CHUNK_SIZE - 1));
    return room < size ? room : size;
}

void sparse_memory_read(sparse_memory *m, uint64_t address, void *data, size_t size)
{
    uint8_t *out = data;
    while (size) {
        size_t n = span_in_chunk(address, size);
        const uint8_t *chunk = find_chunk(m, address, false);
        if (chunk) memcpy(out, chunk + (address & (CHUNK_SIZE - 1)), n);
        else memset(out, 0, n);
        out += n;
        address += n;
        size -= n;
    }
}

void sparse_memory_write(sparse_memory *m, uint64_t address, const void *data, size_t size)
{
    const uint8_t *in = data;
    while (size) {
        size_t n = span_in_chunk(address, size);
        memcpy(find_chunk(m, address, true) + (address & (CHUNK_SIZE - 1)), in, n);
        in += n;
        address += n;
        size -= n;
    }
}

/* Whether any and whether all of bits first..first+count-1 of byte_enable
 * are set, a 64-bit word at a time (writes nearly always enable every byte). */
static void enabled_range(const uint64_t *byte_enable, size_t first, size_t count, bool *any, bool *all)
{
    *any = false;
    *all = true;
    for (size_t i = first, end = first + count; i < end;) {
        size_t bit = i & 63, take = end - i < 64 - bit ? end - i : 64 - bit;
        uint64_t wanted = (take == 64 ? UINT64_MAX : (1ull << take) - 1) << bit;
        uint64_t enabled = byte_enable[i >> 6] & wanted;
        *any |= enabled != 0;
        *all &= enabled == wanted;
        i += take;
    }
}

void sparse_memory_write_masked(sparse_memory *m, uint64_t address, const void *data, size_t size,
                                const uint64_t *byte_enable)
{
    const uint8_t *in = data;
    for (size_t done = 0; done < size;) {
        size_t n = span_in_chunk(address + done, size - done);
        bool any, all;
        enabled_range(byte_enable, done, n, &any, &all);
        if (any) {
            uint8_t *bytes = find_chunk(m, address + done, true) + ((address + done) & (CHUNK_SIZE - 1));
            if (all) memcpy(bytes, in + done, n);
            else
                for (size_t i = 0; i < n; i++)
                    if ((byte_enable[(done + i) >> 6] >> ((done + i) & 63)) & 1u) bytes[i] = in[done + i];
        }
        done += n;
    }
}

size_t sparse_memory_page_count(const sparse_memory *m)
{
    return m->count;
}

/* The page holding address, or NULL; unlike find_page it leaves the cache
 * of the last page found alone (a hint must not change the lookups). */
static const page *peek_page(const sparse_memory *m, uint64_t address)
{
    const page *p = &m->slots[slot_for(m, address >> PAGE_BITS)];
    return p->chunks ? p : NULL;
}

void sparse_memory_prefetch_entry(const sparse_memory *m, uint64_t address)
{
    const page *p = peek_page(m, address);
    if (p) __builtin_prefetch(chunk_entry(p, address));
}

void sparse_memory_prefetch_bytes(const sparse_memory *m, uint64_t address, size_t size)
{
    const page *p = peek_page(m, address);
    if (!p) return;
    const uint8_t *chunk = *chunk_entry(p, address);
    if (!chunk) return;
    /* The bytes in this chunk, a cache line at a time (the rest, if any,
     * are in the next chunk: rare for aligned bursts). */
    size_t offset = address & (CHUNK_SIZE - 1), end = offset + span_in_chunk(address, size);
    for (size_t line = offset & ~(size_t)63; line < end; line += 64) __builtin_prefetch(chunk + line);
}
