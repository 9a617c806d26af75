#include "nvm_wpq.h"

#include <stdlib.h>
#include <string.h>

bool nvm_wpq_init(nvm_wpq *wpq, unsigned capacity)
{
    memset(wpq, 0, sizeof *wpq);
    wpq->entries = calloc(capacity, sizeof *wpq->entries);
    wpq->order = calloc(capacity, sizeof *wpq->order);
    wpq->capacity = capacity;
    return wpq->entries && wpq->order;
}

void nvm_wpq_release(nvm_wpq *wpq)
{
    free(wpq->entries);
    free(wpq->order);
    wpq->entries = NULL;
    wpq->order = NULL;
}

nvm_wpq_entry *nvm_wpq_insert(nvm_wpq *wpq, const simtx_msg *write, unsigned bank, uint64_t now)
{
    if (nvm_wpq_full(wpq)) return NULL;
    nvm_wpq_entry *entry = wpq->entries;
    while (entry->valid) entry++;
    *entry = (nvm_wpq_entry){.address = write->address, .seq = wpq->next_seq++, .arrival = now,
                             .byte_enable = {write->byte_enable[0], write->byte_enable[1]},
                             .size = write->size, .bank = bank, .valid = true};
    memcpy(entry->data, write->data, write->size);
    wpq->count++;
    return entry;
}

void nvm_wpq_remove(nvm_wpq *wpq, nvm_wpq_entry *entry)
{
    entry->valid = false;
    wpq->count--;
}

static bool byte_enabled(const nvm_wpq_entry *entry, size_t i)
{
    return (entry->byte_enable[i / 64] >> (i % 64)) & 1u;
}

static bool overlaps(const nvm_wpq_entry *entry, uint64_t address, size_t size)
{
    return entry->valid && entry->address < address + size && address < entry->address + entry->size;
}

/* The overlapping entries, oldest first (insertion sort: the queue is short). */
static unsigned overlapping(const nvm_wpq *wpq, uint64_t address, size_t size, nvm_wpq_entry **found)
{
    unsigned n = 0;
    for (unsigned i = 0; i < wpq->capacity; i++) {
        nvm_wpq_entry *entry = &wpq->entries[i];
        if (!overlaps(entry, address, size)) continue;
        unsigned j = n++;
        while (j > 0 && found[j - 1]->seq > entry->seq) {
            found[j] = found[j - 1];
            j--;
        }
        found[j] = entry;
    }
    return n;
}

bool nvm_wpq_overlay(const nvm_wpq *wpq, uint64_t address, uint8_t *data, size_t size)
{
    if (!wpq->count || !size) return false;
    nvm_wpq_entry **found = wpq->order;
    unsigned n = overlapping(wpq, address, size, found);
    uint64_t covered[SIMTX_MSG_MAX_DATA / 64] = {0};
    for (unsigned k = 0; k < n; k++) {
        const nvm_wpq_entry *entry = found[k];
        uint64_t first = entry->address > address ? entry->address : address;
        uint64_t end = entry->address + entry->size < address + size ? entry->address + entry->size : address + size;
        for (uint64_t a = first; a < end; a++) {
            if (!byte_enabled(entry, (size_t)(a - entry->address))) continue;
            size_t offset = (size_t)(a - address);
            data[offset] = entry->data[a - entry->address];
            if (offset < SIMTX_MSG_MAX_DATA) covered[offset / 64] |= UINT64_C(1) << (offset % 64);
        }
    }
    if (size > SIMTX_MSG_MAX_DATA) return false;
    for (size_t i = 0; i < size; i++)
        if (!((covered[i / 64] >> (i % 64)) & 1u)) return false;
    return true;
}

void nvm_wpq_patch(nvm_wpq *wpq, uint64_t address, const uint8_t *data, size_t size)
{
    for (unsigned i = 0; i < wpq->capacity; i++) {
        nvm_wpq_entry *entry = &wpq->entries[i];
        if (!overlaps(entry, address, size)) continue;
        uint64_t first = entry->address > address ? entry->address : address;
        uint64_t end = entry->address + entry->size < address + size ? entry->address + entry->size : address + size;
        for (uint64_t a = first; a < end; a++)
            if (byte_enabled(entry, (size_t)(a - entry->address))) entry->data[a - entry->address] = data[a - address];
    }
}
