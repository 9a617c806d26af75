#include "sparse_memory.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)

typedef struct page {
    uint64_t number;
    uint8_t *bytes;
} page;

/* Open addressing keyed by page number; a one-entry cache catches the common
 * run of accesses to one page. */
struct sparse_memory {
    page *slots;
    size_t capacity, count;
    page *last;
};

static size_t slot_of(uint64_t number, size_t capacity)
{
    return (size_t)((number * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
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
    for (size_t i = 0; i < m->capacity; i++) free(m->slots[i].bytes);
    free(m->slots);
    free(m);
}

static void rehash(sparse_memory *m)
{
    size_t capacity = m->capacity * 2;
    page *slots = calloc(capacity, sizeof *slots);
    if (!slots) abort();
    for (size_t i = 0; i < m->capacity; i++) {
        if (!m->slots[i].bytes) continue;
        size_t s = slot_of(m->slots[i].number, capacity);
        while (slots[s].bytes) s = (s + 1) & (capacity - 1);
        slots[s] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->capacity = capacity;
    m->last = NULL;
}

static page *find_page(sparse_memory *m, uint64_t number, bool create)
{
    if (m->last && m->last->number == number) return m->last;
    size_t s = slot_of(number, m->capacity);
    while (m->slots[s].bytes) {
        if (m->slots[s].number == number) return m->last = &m->slots[s];
        s = (s + 1) & (m->capacity - 1);
    }
    if (!create) return NULL;
    if ((m->count + 1) * 2 > m->capacity) { /* at most half full: short probes */
        rehash(m);
        return find_page(m, number, true);
    }
    m->slots[s].number = number;
    m->slots[s].bytes = calloc(1, PAGE_SIZE);
    if (!m->slots[s].bytes) abort();
    m->count++;
    return m->last = &m->slots[s];
}

void sparse_memory_read(sparse_memory *m, uint64_t address, void *data, size_t size)
{
    uint8_t *out = data;
    while (size) {
        size_t offset = address & (PAGE_SIZE - 1);
        size_t n = PAGE_SIZE - offset < size ? PAGE_SIZE - offset : size;
        page *p = find_page(m, address >> PAGE_BITS, false);
        if (p) memcpy(out, p->bytes + offset, n);
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
        size_t offset = address & (PAGE_SIZE - 1);
        size_t n = PAGE_SIZE - offset < size ? PAGE_SIZE - offset : size;
        memcpy(find_page(m, address >> PAGE_BITS, true)->bytes + offset, in, n);
        in += n;
        address += n;
        size -= n;
    }
}

void sparse_memory_write_masked(sparse_memory *m, uint64_t address, const void *data, size_t size,
                                const uint64_t *byte_enable)
{
    const uint8_t *in = data;
    for (size_t i = 0; i < size; i++) {
        if (!((byte_enable[i >> 6] >> (i & 63)) & 1u)) continue;
        uint64_t a = address + i;
        find_page(m, a >> PAGE_BITS, true)->bytes[a & (PAGE_SIZE - 1)] = in[i];
    }
}

size_t sparse_memory_page_count(const sparse_memory *m)
{
    return m->count;
}
