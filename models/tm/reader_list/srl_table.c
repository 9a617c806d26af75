/* srl_table: see srl_table.h. */
#include "srl_table.h"

#include <stdlib.h>

static uint64_t key_of(uint64_t word, unsigned position)
{
    return word << 6 | position;
}

bool srl_table_init(srl_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size)
{
    *t = (srl_table){0};
    if (!slot_table_init(&t->slots, entries, ways, error, error_size)) return false;
    t->entry = calloc(entries, sizeof *t->entry);
    if (!t->entry) {
        slot_table_release(&t->slots);
        return false;
    }
    return true;
}

void srl_table_release(srl_table *t)
{
    slot_table_release(&t->slots);
    free(t->entry);
    t->entry = NULL;
}

static srl_entry *at(const srl_table *t, uint64_t word, unsigned position)
{
    uint32_t slot = slot_table_find(&t->slots, key_of(word, position));
    return slot == SLOT_NONE ? NULL : &t->entry[slot];
}

const srl_entry *srl_table_entry(const srl_table *t, uint64_t word, unsigned position)
{
    return at(t, word, position);
}

static srl_entry *take(srl_table *t, uint64_t word, unsigned position)
{
    uint32_t slot = slot_table_insert(&t->slots, key_of(word, position));
    if (slot == SLOT_NONE) return NULL;
    t->entry[slot] = (srl_entry){0};
    return &t->entry[slot];
}

static void give_back(srl_table *t, uint64_t word, unsigned position)
{
    slot_table_remove(&t->slots, slot_table_find(&t->slots, key_of(word, position)));
    t->stats.entries_freed++;
    t->overflowed = false;
}

static srl_result refuse(srl_table *t)
{
    t->stats.full++;
    t->overflowed = true;
    return SRL_FULL;
}

/* The fourth reader: the type-1 entry becomes a root, and the leaves of the
 * four IDs are made; all or nothing. */
static srl_result grow(srl_table *t, uint64_t word, srl_entry *head, unsigned id)
{
    uint16_t ids[4] = {head->id[0], head->id[1], head->id[2], (uint16_t)id};
    uint32_t leaves = 0;
    for (unsigned i = 0; i < 4; i++) leaves |= UINT32_C(1) << (ids[i] / 32);
    /* Room for every new leaf first, so that a refusal changes nothing. */
    unsigned needed = (unsigned)__builtin_popcount(leaves), room = 0;
    uint32_t sets_seen[SRL_LEAVES];
    for (unsigned l = 0; l < SRL_LEAVES; l++) {
        if (!(leaves >> l & 1)) continue;
        uint64_t key = key_of(word, 1 + l);
        uint32_t set = slot_table_set(&t->slots, key), claimed = 0;
        for (unsigned k = 0; k < room; k++) claimed += sets_seen[k] == set;
        if (t->slots.free_count[set] > claimed) sets_seen[room++] = set;
    }
    if (room < needed) return refuse(t);
    srl_entry root = {.type = SRL_ROOT, .bits = leaves};
    for (unsigned l = 0; l < SRL_LEAVES; l++) {
        if (!(leaves >> l & 1)) continue;
        srl_entry *leaf = take(t, word, 1 + l);
        leaf->type = SRL_LEAF;
        leaf->leaf = (uint8_t)l;
        for (unsigned i = 0; i < 4; i++)
            if (ids[i] / 32 == l) leaf->bits |= UINT32_C(1) << (ids[i] % 32);
        t->stats.leaves_made++;
    }
    *head = root; /* the slot of the type-1 entry becomes the root */
    t->stats.roots_made++;
    return SRL_OK;
}

srl_result srl_table_add(srl_table *t, uint64_t word, unsigned id)
{
    t->stats.adds++;
    srl_entry *head = at(t, word, 0);
    if (!head) {
        head = take(t, word, 0);
        if (!head) return refuse(t);
        *head = (srl_entry){.type = SRL_IDS, .count = 1, .id = {(uint16_t)id}};
        return SRL_OK;
    }
    if (head->type == SRL_IDS) {
        for (unsigned i = 0; i < head->count; i++)
            if (head->id[i] == id) {
                t->stats.already++;
                return SRL_OK;
            }
        if (head->count < 3) {
            head->id[head->count++] = (uint16_t)id;
            return SRL_OK;
        }
        return grow(t, word, head, id);
    }
    unsigned l = id / 32;
    uint32_t bit = UINT32_C(1) << (id % 32);
    if (head->bits >> l & 1) {
        srl_entry *leaf = at(t, word, 1 + l);
        if (leaf->bits & bit) t->stats.already++;
        leaf->bits |= bit;
        return SRL_OK;
    }
    srl_entry *leaf = take(t, word, 1 + l);
    if (!leaf) return refuse(t);
    *leaf = (srl_entry){.type = SRL_LEAF, .leaf = (uint8_t)l, .bits = bit};
    at(t, word, 0)->bits |= UINT32_C(1) << l;
    t->stats.leaves_made++;
    return SRL_OK;
}

void srl_table_remove(srl_table *t, uint64_t word, unsigned id)
{
    srl_entry *head = at(t, word, 0);
    if (head && head->type == SRL_IDS) {
        for (unsigned i = 0; i < head->count; i++) {
            if (head->id[i] != id) continue;
            head->id[i] = head->id[--head->count];
            head->id[head->count] = 0;
            t->stats.removes++;
            if (head->count == 0) give_back(t, word, 0);
            return;
        }
    } else if (head && head->bits >> (id / 32) & 1) {
        srl_entry *leaf = at(t, word, 1 + id / 32);
        uint32_t bit = UINT32_C(1) << (id % 32);
        if (leaf->bits & bit) {
            leaf->bits &= ~bit;
            t->stats.removes++;
            if (leaf->bits == 0) {
                head->bits &= ~(UINT32_C(1) << (id / 32));
                give_back(t, word, 1 + id / 32);
                if (head->bits == 0) give_back(t, word, 0);
            }
            return;
        }
    }
    t->stats.absent_removes++;
}

unsigned srl_table_readers(const srl_table *t, uint64_t word, uint16_t *ids)
{
    const srl_entry *head = at(t, word, 0);
    if (!head) return 0;
    unsigned n = 0;
    if (head->type == SRL_IDS) {
        for (unsigned i = 0; i < head->count; i++) ids[n++] = head->id[i];
        for (unsigned i = 1; i < n; i++) /* ID order */
            for (unsigned j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
                uint16_t x = ids[j];
                ids[j] = ids[j - 1];
                ids[j - 1] = x;
            }
        return n;
    }
    for (unsigned l = 0; l < SRL_LEAVES; l++) {
        if (!(head->bits >> l & 1)) continue;
        const srl_entry *leaf = at(t, word, 1 + l);
        for (unsigned b = 0; b < 32; b++)
            if (leaf->bits >> b & 1) ids[n++] = (uint16_t)(32 * l + b);
    }
    return n;
}

unsigned srl_table_word_entries(const srl_table *t, uint64_t word)
{
    const srl_entry *head = at(t, word, 0);
    if (!head) return 0;
    return head->type == SRL_IDS ? 1 : 1 + (unsigned)__builtin_popcount(head->bits);
}

uint64_t srl_entry_pack(const srl_entry *e)
{
    uint64_t content = 0;
    switch (e->type) {
    case SRL_IDS:
        content = (uint64_t)(e->id[0] & 0x3ff) << 27 | (uint64_t)(e->id[1] & 0x3ff) << 17 |
                  (uint64_t)(e->id[2] & 0x3ff) << 7 | (uint64_t)(e->count & 3) << 5;
        break;
    case SRL_ROOT: content = (uint64_t)e->bits << 5; break;
    case SRL_LEAF: content = (uint64_t)e->bits << 5 | (e->leaf & 31); break;
    default: break;
    }
    return (uint64_t)(e->type & 3) << 37 | content;
}
