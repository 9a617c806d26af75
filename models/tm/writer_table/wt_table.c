/* wt_table: see wt_table.h. */
#include "wt_table.h"

#include <stdlib.h>

bool wt_table_init(wt_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size)
{
    *t = (wt_table){0};
    if (!slot_table_init(&t->slots, entries, ways, error, error_size)) return false;
    t->writer = calloc(entries, sizeof *t->writer);
    if (!t->writer) {
        slot_table_release(&t->slots);
        return false;
    }
    return true;
}

void wt_table_release(wt_table *t)
{
    slot_table_release(&t->slots);
    free(t->writer);
    t->writer = NULL;
}

wt_result wt_table_claim(wt_table *t, uint64_t word, unsigned id, unsigned *owner)
{
    t->stats.claims++;
    uint32_t slot = slot_table_find(&t->slots, word);
    if (slot != SLOT_NONE) {
        if (t->writer[slot] == id) {
            t->stats.owned_already++;
            return WT_OWNER;
        }
        if (owner) *owner = t->writer[slot];
        t->stats.conflicts++;
        return WT_CONFLICT;
    }
    slot = slot_table_insert(&t->slots, word);
    if (slot == SLOT_NONE) {
        t->stats.full++;
        t->overflowed = true;
        /* Every way of the word's set held by the requester: it cannot run. */
        uint32_t set = slot_table_set(&t->slots, word), mine = 0;
        for (uint32_t w = 0; w < t->slots.ways; w++) mine += t->writer[set * t->slots.ways + w] == id;
        return mine == t->slots.ways ? WT_TOO_BIG : WT_FULL;
    }
    t->writer[slot] = (uint16_t)id;
    return WT_OWNER;
}

int wt_table_writer(const wt_table *t, uint64_t word)
{
    uint32_t slot = slot_table_find(&t->slots, word);
    return slot == SLOT_NONE ? -1 : t->writer[slot];
}

void wt_table_drop(wt_table *t, uint64_t word, unsigned id)
{
    uint32_t slot = slot_table_find(&t->slots, word);
    if (slot == SLOT_NONE || t->writer[slot] != id) {
        t->stats.stale_releases++;
        return;
    }
    slot_table_remove(&t->slots, slot);
    t->stats.releases++;
    t->overflowed = false;
}
