#include "agpm_reservation.h"

#include <stdlib.h>
#include <string.h>

bool agpm_reservation_init(agpm_reservation *r, unsigned entries)
{
    memset(r, 0, sizeof *r);
    r->slot_count = entries ? entries : 1;
    r->slots = calloc(r->slot_count, sizeof *r->slots);
    return r->slots != NULL;
}

void agpm_reservation_release(agpm_reservation *r)
{
    free(r->slots);
    r->slots = NULL;
}

void agpm_reservation_put(agpm_reservation *r, const agpm_entry *entry)
{
    agpm_entry *slot = &r->slots[entry->block % r->slot_count];
    if (slot->valid) r->stats.replaced++;
    else r->occupancy++;
    *slot = *entry;
    slot->valid = true;
    r->stats.puts++;
    if (r->occupancy > r->stats.peak) r->stats.peak = r->occupancy;
}

bool agpm_reservation_take(agpm_reservation *r, uint64_t block, agpm_entry *out)
{
    agpm_entry *slot = &r->slots[block % r->slot_count];
    if (!slot->valid || slot->block != block) return false;
    *out = *slot;
    slot->valid = false;
    r->occupancy--;
    r->stats.refills++;
    return true;
}

bool agpm_reservation_recall(agpm_reservation *r, agpm_buffer *level, uint64_t block)
{
    if (!r->occupancy) return false;
    const agpm_entry *held = &level->sets[block % level->set_count];
    if (held->valid && held->block == block) return false;
    agpm_entry e;
    if (!agpm_reservation_take(r, block, &e)) return false;
    agpm_buffer_put(level, &e);
    return true;
}

void agpm_reservation_flush(agpm_reservation *r)
{
    if (!r->occupancy) return;
    for (unsigned s = 0; s < r->slot_count; s++) r->slots[s].valid = false;
    r->occupancy = 0;
}

void agpm_reservation_add_sums(const agpm_reservation *r, agpm_sums *sums)
{
    if (!r->occupancy) return;
    for (unsigned s = 0; s < r->slot_count; s++)
        if (r->slots[s].valid) agpm_entry_add_sums(&r->slots[s], sums);
}
