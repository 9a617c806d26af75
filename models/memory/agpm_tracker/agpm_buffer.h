/* agpm_buffer: one AGPM buffer (the paper's Figure 6, section IV-B), the
 * engine of both the L1-level and the L2-level buffer: a log way (log
 * updates only) and an all way (every request) side by side, one tag per
 * set for both, `entries / 2` sets indexed by the block number (direct
 * mapped: the paper gives no index or replacement; a new block takes its
 * set, the old one is lost and counted). Each way's entry holds one byte
 * counter per byte of the 128-byte block, a block counter and a
 * path-change mark; counters saturate at 2^counter_bits - 1.
 *
 * Rules (section IV-B): a log update creates the entry in both ways (zeroed,
 * then its bytes +1) when its block has none; otherwise it counts as a hit
 * in both ways. A hit of any other request counts in the all way only; a
 * hit to a block without an entry changes nothing. A hit: each requested
 * byte whose counter is above 0 is incremented; the block counter once per
 * request.
 *
 * Table II's variables are the level's *recorded* counters: the entries it
 * holds plus those that left it during the period with their counts (moved
 * down on a cache eviction, agpm_buffer_move_out, or lost to another block
 * of their set), until the flush. Without that a write-evict L1, whose
 * write hit evicts the line in the cycle it hits, would move every entry
 * it counted out before the period's end and the L1-level variables would
 * read 0. An entry taken out with agpm_buffer_take (into the reservation
 * buffer, which the L2 level's variables add) is not recorded twice. */
#ifndef SIMTX_AGPM_BUFFER_H
#define SIMTX_AGPM_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "agpm.h"

typedef struct agpm_way {
    uint8_t bytes[AGPM_BLOCK_BYTES];
    uint8_t block;
    bool path_changed; /* a log update of the block took another path than the first */
} agpm_way;

/* One set's content: what moves between buffers and the reservation buffer. */
typedef struct agpm_entry {
    uint64_t block; /* the block number (address / 128) */
    bool valid;
    uint8_t first_path; /* agpm_path of the log update that created it */
    agpm_way log, all;
} agpm_entry;

typedef struct agpm_buffer_stats {
    uint64_t fills;      /* entries created by a log update */
    uint64_t hits;       /* requests that found their block's entry */
    uint64_t conflicts;  /* entries lost to another block of their set */
    uint64_t moves_in;   /* entries put in from elsewhere (an L1 eviction, the reservation buffer) */
    uint64_t moves_out;  /* entries taken out (L1 eviction, L2 write-back) */
    uint64_t saturations; /* increments a saturated counter swallowed */
} agpm_buffer_stats;

/* Table II's sums over the buffer's content: t = the byte counters above
 * 1, s = t + the block counters; of the all way and of the log way. */
typedef struct agpm_sums {
    uint64_t t_all, s_all, t_log, s_log;
} agpm_sums;

typedef struct agpm_buffer {
    agpm_sums departed; /* entries that left during the period, their counts kept */
    agpm_entry *sets;
    unsigned set_count;
    uint8_t counter_max;
    unsigned valid_count;
    agpm_buffer_stats stats;
} agpm_buffer;

/* entries: both ways together (2 per set, at least 2); counter_bits 1..8.
 * Returns false when out of memory. */
bool agpm_buffer_init(agpm_buffer *b, unsigned entries, unsigned counter_bits);
void agpm_buffer_release(agpm_buffer *b);

/* A log update writing `mask` (bit i: byte i of the block) by `path`. */
void agpm_buffer_log(agpm_buffer *b, uint64_t block, const uint64_t mask[2], agpm_path path);
/* More bytes of the same log update (its access split over requests):
 * bytes still 0 become 1 in both ways; nothing else changes. A block
 * without an entry gets one, as agpm_buffer_log. */
void agpm_buffer_extend(agpm_buffer *b, uint64_t block, const uint64_t mask[2], agpm_path path);
/* A cache hit of a request (log: it is a log update) on `mask`. */
void agpm_buffer_hit(agpm_buffer *b, uint64_t block, const uint64_t mask[2], bool log);
/* Takes a block's entry out (true, *out filled) or finds none (false). */
bool agpm_buffer_take(agpm_buffer *b, uint64_t block, agpm_entry *out);
/* The same, but the entry's counts stay in this level's sums until the
 * flush (it moves down to the next level's buffer on a cache eviction). */
bool agpm_buffer_move_out(agpm_buffer *b, uint64_t block, agpm_entry *out);
/* Puts an entry in, adding its counters (saturating) to an entry of the
 * same block already there; replaces another block's. */
void agpm_buffer_put(agpm_buffer *b, const agpm_entry *entry);
/* Empties the buffer and its recorded departures (period or kernel end). */
void agpm_buffer_flush(agpm_buffer *b);

/* Adds the level's recorded counters (content and departures) to *sums. */
void agpm_buffer_add_sums(const agpm_buffer *b, agpm_sums *sums);
void agpm_entry_add_sums(const agpm_entry *e, agpm_sums *sums);

/* The size of one way's entry in bits: tag (64-bit addresses less the
 * 7 offset bits), the byte counters, the block counter and the mark, a
 * counter of the same width (the paper's 650 data bits: 130 five-bit
 * counters; the model keeps the mark as one bit). */
static inline unsigned agpm_entry_bits(unsigned counter_bits)
{
    return (64u - 7u) + (AGPM_BLOCK_BYTES + 2u) * counter_bits;
}

#endif
