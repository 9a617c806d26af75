/* Unit tests of SI-TM's Scalable Reader List (models/tm/reader_list/
 * srl_table.h) with the paper's Figure 10 and section 4.3: one to three
 * IDs in a type-1 entry, the fourth reader making the root and its leaves,
 * ID 683 as bit 11 of leaf 21, 1024 readers in 33 entries, the capacity of
 * 740 KB of 69-bit entries (87,856; 2,662 worst-case words, filled to the
 * last entry), and overflow refusing without a change and then draining. */
#include "srl_table.h"
#include "test_support.h"

#include <stdio.h>

static srl_table make(uint32_t entries, uint32_t ways)
{
    srl_table t;
    char error[200] = "";
    CHECK(srl_table_init(&t, entries, ways, error, sizeof error));
    return t;
}

static void figure10(void)
{
    srl_table t = make(64, 64);
    uint16_t ids[SRL_MAX_READERS];
    const uint64_t w = 0x200040;
    /* Type 1: one to three IDs and their count. */
    CHECK_EQUAL(srl_table_add(&t, w, 700), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, w, 5), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, w, 5), SRL_OK); /* already listed */
    CHECK_EQUAL(srl_table_add(&t, w, 40), SRL_OK);
    const srl_entry *head = srl_table_entry(&t, w, 0);
    CHECK_EQUAL(head->type, SRL_IDS);
    CHECK_EQUAL(head->count, 3);
    CHECK_EQUAL(srl_table_word_entries(&t, w), 1);
    CHECK_EQUAL(srl_entry_pack(head), (UINT64_C(1) << 37) | (UINT64_C(700) << 27) | (UINT64_C(5) << 17) |
                                          (UINT64_C(40) << 7) | (UINT64_C(3) << 5));
    CHECK_EQUAL(srl_table_readers(&t, w, ids), 3);
    CHECK(ids[0] == 5 && ids[1] == 40 && ids[2] == 700);
    /* The fourth reader (683) turns the entry into a root and makes the
     * leaves of the four IDs: 5 -> leaf 0, 40 -> 1, 683 and 700 -> 21. */
    CHECK_EQUAL(srl_table_add(&t, w, 683), SRL_OK);
    head = srl_table_entry(&t, w, 0);
    CHECK_EQUAL(head->type, SRL_ROOT);
    CHECK_EQUAL(head->bits, (1u << 0) | (1u << 1) | (1u << 21));
    CHECK_EQUAL(srl_table_word_entries(&t, w), 4);
    CHECK_EQUAL(t.stats.roots_made, 1);
    const srl_entry *leaf21 = srl_table_entry(&t, w, 1 + 21);
    CHECK_EQUAL(leaf21->type, SRL_LEAF);
    CHECK_EQUAL(leaf21->leaf, 21);
    CHECK_EQUAL(leaf21->bits, (1u << 11) | (1u << (700 - 672)));
    CHECK_EQUAL(32 * 21 + 11, 683); /* bit 11 of leaf 21 */
    CHECK_EQUAL(srl_entry_pack(leaf21) >> 37, 3);
    CHECK_EQUAL(srl_entry_pack(leaf21) & 31, 21);
    CHECK_EQUAL(srl_entry_pack(leaf21) >> 5 & 0xffffffffu, leaf21->bits);
    CHECK_EQUAL(srl_table_readers(&t, w, ids), 4);
    CHECK(ids[0] == 5 && ids[1] == 40 && ids[2] == 683 && ids[3] == 700);
    /* Four readers in one group make a root and one leaf. */
    const uint64_t v = 0x300000;
    for (unsigned id = 1; id <= 4; id++) CHECK_EQUAL(srl_table_add(&t, v, id), SRL_OK);
    CHECK_EQUAL(srl_table_word_entries(&t, v), 2);
    CHECK_EQUAL(srl_table_entry(&t, v, 1)->bits, 0x1eu);
    /* Leaving frees empty leaves, and the root with the last. */
    srl_table_remove(&t, w, 5);
    CHECK_EQUAL(srl_table_word_entries(&t, w), 3);
    srl_table_remove(&t, w, 683);
    CHECK_EQUAL(srl_table_word_entries(&t, w), 3); /* 700 keeps leaf 21 */
    srl_table_remove(&t, w, 700);
    srl_table_remove(&t, w, 40);
    CHECK_EQUAL(srl_table_word_entries(&t, w), 0);
    srl_table_remove(&t, w, 40);
    CHECK_EQUAL(t.stats.absent_removes, 1);
    CHECK_EQUAL(srl_table_used(&t), 2);
    srl_table_release(&t);
}

static void all_readers(void)
{
    /* 1024 readers of one word: the root and 32 leaves, 33 entries. */
    srl_table t = make(64, 64);
    uint16_t ids[SRL_MAX_READERS];
    for (unsigned id = 0; id < SRL_MAX_READERS; id++) CHECK_EQUAL(srl_table_add(&t, 0x77, (id * 37) % 1024), SRL_OK);
    CHECK_EQUAL(srl_table_word_entries(&t, 0x77), SRL_MAX_ENTRIES_PER_WORD);
    CHECK_EQUAL(srl_table_entry(&t, 0x77, 0)->bits, 0xffffffffu);
    CHECK_EQUAL(srl_table_readers(&t, 0x77, ids), 1024);
    bool in_order = true;
    for (unsigned i = 0; i < 1024; i++) in_order &= ids[i] == i;
    CHECK(in_order);
    for (unsigned id = 0; id < SRL_MAX_READERS; id++) srl_table_remove(&t, 0x77, id);
    CHECK_EQUAL(srl_table_used(&t), 0);
    srl_table_release(&t);
}

static void capacity(void)
{
    /* Section 4.3: 740 KB of 69-bit entries = 87,856; 33 per word at worst
     * gives 2,662 words. */
    uint32_t entries = srl_entries_in_bytes(740 * 1024);
    CHECK_EQUAL(entries, 87856);
    CHECK_EQUAL(entries / SRL_MAX_ENTRIES_PER_WORD, 2662);
    srl_table t = make(entries, entries); /* fully associative */
    unsigned refused = 0;
    for (uint64_t w = 0; w < 2662; w++)
        for (unsigned id = 0; id < SRL_MAX_READERS; id++) refused += srl_table_add(&t, 0x100000 + w, id) != SRL_OK;
    CHECK_EQUAL(refused, 0);
    CHECK_EQUAL(srl_table_used(&t), 2662 * 33);
    /* The 2,663rd word fits its type-1 entry and 9 leaves in the 10 entries
     * left, and its reader in a tenth leaf is refused. */
    uint64_t last = 0x100000 + 2662;
    unsigned id = 0;
    while (srl_table_add(&t, last, id) == SRL_OK) id++;
    CHECK_EQUAL(id, 9 * 32);
    CHECK_EQUAL(srl_table_used(&t), entries);
    CHECK(t.overflowed);
    /* The Writer Table's 3000 words fit with three readers each. */
    srl_table u = make(entries, entries);
    for (uint64_t w = 0; w < 3000; w++)
        for (unsigned r = 0; r < 3; r++) CHECK_EQUAL(srl_table_add(&u, w, r * 100), SRL_OK);
    CHECK_EQUAL(srl_table_used(&u), 3000);
    srl_table_release(&u);
    srl_table_release(&t);
}

static void overflow(void)
{
    /* Three free entries: the fourth reader needs a root and four leaves
     * (IDs in groups 0, 1, 2, 3): refused, nothing changed, `overflowed`. */
    srl_table t = make(4, 4);
    uint16_t ids[SRL_MAX_READERS];
    CHECK_EQUAL(srl_table_add(&t, 0x10, 1), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, 0x10, 33), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, 0x10, 65), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, 0x10, 97), SRL_FULL);
    CHECK(t.overflowed);
    CHECK_EQUAL(srl_table_entry(&t, 0x10, 0)->type, SRL_IDS);
    CHECK_EQUAL(srl_table_readers(&t, 0x10, ids), 3);
    CHECK_EQUAL(srl_table_used(&t), 1);
    /* Three groups fit (root + 3 leaves in 4 entries). */
    srl_table_remove(&t, 0x10, 65);
    CHECK_EQUAL(srl_table_add(&t, 0x10, 64), SRL_OK);
    CHECK_EQUAL(srl_table_add(&t, 0x10, 2), SRL_OK); /* group 0 again: root + leaves 0, 1, 2 */
    CHECK_EQUAL(srl_table_used(&t), 4);
    CHECK_EQUAL(srl_table_add(&t, 0x20, 5), SRL_FULL); /* another word: no entry */
    /* A reader leaves and frees leaf 1: the other word gets its entry. */
    srl_table_remove(&t, 0x10, 33);
    CHECK(!t.overflowed);
    CHECK_EQUAL(srl_table_add(&t, 0x20, 5), SRL_OK);
    CHECK_EQUAL(t.stats.full, 2);
    srl_table_release(&t);
}

int main(void)
{
    figure10();
    all_readers();
    capacity();
    overflow();
    return simtx_test_summary();
}
