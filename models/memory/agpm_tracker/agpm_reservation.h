/* agpm_reservation: the reservation buffer (the paper's Figure 6, "in GPU
 * memory" beside the NVM): L2-level entries whose line the L2 wrote back
 * wait here until the block is fetched again (then they return to the L2
 * buffer) or the period or kernel ends (flushed). The paper gives neither
 * its size nor its organisation: `entries` slots, direct mapped by block
 * number; an entry landing on an occupied slot replaces it (counted). */
#ifndef SIMTX_AGPM_RESERVATION_H
#define SIMTX_AGPM_RESERVATION_H

#include "agpm_buffer.h"

typedef struct agpm_reservation {
    agpm_entry *slots;
    unsigned slot_count, occupancy;
    struct {
        uint64_t puts, refills, replaced, peak;
    } stats;
} agpm_reservation;

bool agpm_reservation_init(agpm_reservation *r, unsigned entries);
void agpm_reservation_release(agpm_reservation *r);
void agpm_reservation_put(agpm_reservation *r, const agpm_entry *entry);
/* Takes the block's entry back out (true) or finds none. */
bool agpm_reservation_take(agpm_reservation *r, uint64_t block, agpm_entry *out);
/* The block is used again at the L2 level (a log update of it, a hit or a
 * miss of its line): its entry, if held here and not already in `level`,
 * returns to `level` (true). A line the L2 cleaned (clwb) stays cached, so
 * its next use is a hit, not a re-fetch: without this the entry of a word
 * logged again after its clwb would never meet the new log update. */
bool agpm_reservation_recall(agpm_reservation *r, agpm_buffer *level, uint64_t block);
void agpm_reservation_flush(agpm_reservation *r);
void agpm_reservation_add_sums(const agpm_reservation *r, agpm_sums *sums);

#endif
