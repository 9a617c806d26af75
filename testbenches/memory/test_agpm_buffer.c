/* The AGPM buffer engine (models/memory/agpm_tracker/agpm_buffer.c,
 * agpm_reservation.c) on the worked sequence of one 128-byte block at the
 * L1 level: a log write, a data hit, a partially overlapping log hit, a
 * non-PM hit on a block without an entry, saturation, the L1 -> L2 move,
 * the reservation buffer's round trip and the flush; with Table II's sums
 * and the reason they give. */
#include <string.h>

#include "agpm_buffer.h"
#include "agpm_reason.h"
#include "agpm_reservation.h"
#include "test_support.h"

static void bytes(uint64_t mask[2], unsigned first, unsigned count)
{
    mask[0] = mask[1] = 0;
    for (unsigned b = first; b < first + count; b++) mask[b >> 6] |= UINT64_C(1) << (b & 63);
}

static agpm_sums sums_of(const agpm_buffer *b)
{
    agpm_sums s = {0};
    agpm_buffer_add_sums(b, &s);
    return s;
}

static const agpm_rules paper = {0.25, 100};

static agpm_reason l1_reason(const agpm_sums *s)
{
    agpm_vars v = {.l1d_t_all = s->t_all, .l1d_s_all = s->s_all, .l1d_t_log = s->t_log, .l1d_s_log = s->s_log, .log = 1000};
    return agpm_classify(&v, false, &paper);
}

int main(void)
{
    agpm_buffer l1, l2;
    agpm_reservation reservation;
    CHECK(agpm_buffer_init(&l1, 1024, 5));
    CHECK(agpm_buffer_init(&l2, 1024, 5));
    CHECK(agpm_reservation_init(&reservation, 256));
    CHECK_EQUAL(l1.set_count, 512);
    CHECK_EQUAL(agpm_entry_bits(5), 707); /* the paper's entry: 57-bit tag, 130 five-bit counters */
    const uint64_t B = 0x1000; /* block number */
    uint64_t m[2];

    /* 1. A log update of bytes 0-3: the entry in both ways, those bytes 1. */
    bytes(m, 0, 4);
    agpm_buffer_log(&l1, B, m, AGPM_PATH_NON_TEMPORAL);
    agpm_entry *e = &l1.sets[B % l1.set_count];
    CHECK(e->valid);
    CHECK_EQUAL(e->all.bytes[0], 1);
    CHECK_EQUAL(e->log.bytes[3], 1);
    CHECK_EQUAL(e->all.bytes[4], 0);
    CHECK_EQUAL(e->all.block, 0);
    CHECK_EQUAL(l1.stats.fills, 1);
    agpm_sums s = sums_of(&l1);
    CHECK_EQUAL(s.t_all, 0);
    CHECK_EQUAL(s.s_all, 0);

    /* 2. A data load hitting bytes 0-3: all way 2 and block 1, log way unchanged. */
    agpm_buffer_hit(&l1, B, m, false);
    CHECK_EQUAL(e->all.bytes[2], 2);
    CHECK_EQUAL(e->all.block, 1);
    CHECK_EQUAL(e->log.bytes[2], 1);
    CHECK_EQUAL(e->log.block, 0);
    s = sums_of(&l1);
    CHECK_EQUAL(s.t_all, 8);
    CHECK_EQUAL(s.s_all, 9);
    CHECK_EQUAL(s.t_log, 0);
    CHECK_EQUAL(s.s_log, 0);
    CHECK_EQUAL(l1_reason(&s), AGPM_REASON_A);

    /* 3. A log update of bytes 2-5 (partial overlap) by the other path: a
     * hit in both ways; bytes 4-5 were 0 and stay 0; the mark is set. */
    bytes(m, 2, 4);
    agpm_buffer_log(&l1, B, m, AGPM_PATH_TEMPORAL);
    CHECK_EQUAL(e->all.bytes[2], 3);
    CHECK_EQUAL(e->all.bytes[3], 3);
    CHECK_EQUAL(e->all.bytes[4], 0);
    CHECK_EQUAL(e->all.bytes[5], 0);
    CHECK_EQUAL(e->all.block, 2);
    CHECK_EQUAL(e->log.bytes[2], 2);
    CHECK_EQUAL(e->log.bytes[0], 1);
    CHECK_EQUAL(e->log.block, 1);
    CHECK(e->log.path_changed);
    s = sums_of(&l1);
    CHECK_EQUAL(s.t_all, 10);
    CHECK_EQUAL(s.s_all, 12);
    CHECK_EQUAL(s.t_log, 4);
    CHECK_EQUAL(s.s_log, 5);
    CHECK_EQUAL(l1_reason(&s), AGPM_REASON_B); /* 4/10 = 0.4 > 0.25 */

    /* 4. A non-PM hit on a block without an entry changes nothing. */
    agpm_buffer_hit(&l1, B + 1, m, false);
    agpm_sums same = sums_of(&l1);
    CHECK(!memcmp(&same, &s, sizeof s));
    CHECK_EQUAL(l1.stats.hits, 2);
    CHECK_EQUAL(l1.valid_count, 1);

    /* 5. Saturation at 31 (five bits): byte 2 and the block counter. */
    bytes(m, 2, 1);
    for (int i = 0; i < 40; i++) agpm_buffer_hit(&l1, B, m, false);
    CHECK_EQUAL(e->all.bytes[2], 31);
    CHECK_EQUAL(e->all.block, 31);
    CHECK_EQUAL(e->log.bytes[2], 2);
    CHECK(l1.stats.saturations > 0);

    /* 6. L1 eviction: the entry moves to the L2-level buffer; its counts
     * stay the L1 level's until the flush (a write-evict L1's write hit
     * evicts the line it counts in the same cycle). */
    agpm_sums before_move = sums_of(&l1);
    agpm_entry moved;
    CHECK(agpm_buffer_move_out(&l1, B, &moved));
    CHECK_EQUAL(l1.valid_count, 0);
    agpm_sums recorded = sums_of(&l1);
    CHECK(!memcmp(&recorded, &before_move, sizeof recorded));
    CHECK_EQUAL(recorded.t_all, 31 + 3 + 2 + 2);
    agpm_entry again;
    CHECK(!agpm_buffer_take(&l1, B, &again));
    CHECK(!agpm_buffer_take(&l2, B, &again));
    agpm_buffer_put(&l2, &moved);
    agpm_sums at_l2 = sums_of(&l2);
    CHECK_EQUAL(at_l2.t_all, 31 + 3 + 2 + 2);
    CHECK_EQUAL(at_l2.t_log, 4);
    CHECK_EQUAL(l2.stats.moves_in, 1);
    /* A second move of the same block adds (saturating). */
    agpm_buffer_put(&l2, &moved);
    CHECK_EQUAL(l2.sets[B % l2.set_count].all.bytes[2], 31);
    CHECK_EQUAL(l2.sets[B % l2.set_count].all.bytes[0], 4);
    CHECK_EQUAL(l2.sets[B % l2.set_count].log.bytes[2], 4);

    /* 7. L2 write-back: the entry leaves for the reservation buffer; a
     * re-fetch brings it back with its counters. */
    agpm_entry out;
    CHECK(agpm_buffer_take(&l2, B, &out));
    agpm_reservation_put(&reservation, &out);
    CHECK_EQUAL(reservation.occupancy, 1);
    agpm_sums held = {0};
    agpm_reservation_add_sums(&reservation, &held);
    CHECK_EQUAL(held.t_log, 4 + 4 + 2 + 2); /* bytes 2-3 at 4, 0-1 at 2 after two moves */
    CHECK(!agpm_reservation_take(&reservation, B + 256, &out)); /* same slot, another block */
    CHECK(agpm_reservation_take(&reservation, B, &out));
    CHECK_EQUAL(reservation.occupancy, 0);
    CHECK_EQUAL(reservation.stats.refills, 1);
    agpm_buffer_put(&l2, &out);
    CHECK_EQUAL(l2.sets[B % l2.set_count].log.bytes[2], 4);

    /* 8. A conflicting block takes the set; a flush empties everything. */
    bytes(m, 0, 4);
    agpm_buffer_log(&l2, B + l2.set_count, m, AGPM_PATH_NON_TEMPORAL);
    CHECK_EQUAL(l2.stats.conflicts, 1);
    agpm_sums lost = sums_of(&l2); /* the lost entry's counts stay recorded */
    CHECK_EQUAL(lost.t_log, 4 + 4 + 2 + 2);
    agpm_reservation_put(&reservation, &out);
    agpm_buffer_flush(&l2);
    agpm_reservation_flush(&reservation);
    agpm_sums none = sums_of(&l2);
    CHECK_EQUAL(none.s_all, 0);
    CHECK_EQUAL(l2.valid_count, 0);
    CHECK_EQUAL(reservation.occupancy, 0);
    CHECK(!agpm_reservation_take(&reservation, B, &out));

    /* 9. A log update split over two requests (the coalescer): the second
     * half's bytes join the entry as the same update, no hit. The flush
     * forgets the L1 level's departed entries too. */
    agpm_buffer_flush(&l1);
    none = sums_of(&l1);
    CHECK_EQUAL(none.s_all, 0);
    bytes(m, 0, 64);
    agpm_buffer_log(&l1, B, m, AGPM_PATH_NON_TEMPORAL);
    bytes(m, 60, 68);
    agpm_buffer_extend(&l1, B, m, AGPM_PATH_NON_TEMPORAL);
    e = &l1.sets[B % l1.set_count];
    CHECK_EQUAL(e->all.bytes[63], 1);
    CHECK_EQUAL(e->log.bytes[127], 1);
    CHECK_EQUAL(e->all.block, 0);
    s = sums_of(&l1);
    CHECK_EQUAL(s.s_all, 0);
    CHECK_EQUAL(s.s_log, 0);

    /* 10. A word logged again after its line's clwb (the L2 level, another
     * SM: the line stays cached, so its next use is a hit, not a re-fetch).
     * The write-back put the entry in the reservation buffer; the next log
     * update of the block recalls it and hits the logged bytes: l2_t_log
     * (Table II: non-zero for every re-logging kernel, SAD1's reason c). */
    agpm_buffer_flush(&l2);
    agpm_reservation_flush(&reservation);
    bytes(m, 8, 4);
    agpm_buffer_log(&l2, B, m, AGPM_PATH_TEMPORAL);
    agpm_buffer_hit(&l2, B, m, false); /* the data update hits the L2 line */
    CHECK(agpm_buffer_take(&l2, B, &out)); /* its clwb writes the line back */
    agpm_reservation_put(&reservation, &out);
    CHECK(!agpm_reservation_recall(&reservation, &l2, B + 256)); /* not held: nothing */
    CHECK(agpm_reservation_recall(&reservation, &l2, B));
    CHECK(!agpm_reservation_recall(&reservation, &l2, B)); /* already back */
    CHECK_EQUAL(reservation.occupancy, 0);
    agpm_buffer_log(&l2, B, m, AGPM_PATH_TEMPORAL);
    agpm_sums again_l2 = sums_of(&l2);
    CHECK_EQUAL(again_l2.t_log, 8); /* bytes 8-11 at 2 in the log way */
    CHECK_EQUAL(again_l2.s_log, 9);
    CHECK_EQUAL(again_l2.t_all, 12); /* at 3 in the all way: log, hit, log */
    agpm_vars c = {.l2_t_all = again_l2.t_all, .l2_s_all = again_l2.s_all, .l2_t_log = again_l2.t_log, .l2_s_log = again_l2.s_log,
                   .log = 1000};
    CHECK_EQUAL(agpm_classify(&c, false, &paper), AGPM_REASON_C);
    /* An entry still in the buffer is not replaced by the held copy. */
    CHECK(agpm_buffer_take(&l2, B, &out));
    agpm_reservation_put(&reservation, &out);
    agpm_buffer_log(&l2, B, m, AGPM_PATH_TEMPORAL); /* a fresh entry (no recall first) */
    CHECK(!agpm_reservation_recall(&reservation, &l2, B));
    CHECK_EQUAL(reservation.occupancy, 1);

    agpm_buffer_release(&l1);
    agpm_buffer_release(&l2);
    agpm_reservation_release(&reservation);
    return simtx_test_summary();
}
