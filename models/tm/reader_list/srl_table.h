/* srl_table: SI-TM's Scalable Reader List (ISCA'17 section 4.2, Figure 10)
 * of one slice as plain data and rules, without timing or messages: for each
 * word, the running transactions that read it, in 69-bit entries (30-bit
 * word address, 2 type bits, 37 content bits):
 *   type 0  unused;
 *   type 1  1 to 3 10-bit IDs and a 2-bit count;
 *   type 2  root: a 32-bit vector of the leaves present;
 *   type 3  leaf: a 32-bit vector of 32 IDs and the 5-bit leaf number
 *           (bit b of leaf l is ID 32 l + b: bit 11 of leaf 21 is 683).
 * A word holds one type-1 entry, or a root and up to 32 leaves (33 entries:
 * the worst case, 1024 readers). The fourth reader turns the type-1 entry
 * into a root and the leaves of the four IDs. Removing readers frees empty
 * leaves, and the root with its last leaf (a root never turns back into a
 * type-1 entry: the paper has no such transition).
 *
 * Placement. The paper's list is an SCD / ZCache / Cuckoo-style highly
 * associative array; here a set-associative one (slot_table) whose `ways`
 * is a parameter (`ways` = `entries`: fully associative), each entry keyed
 * by (word, position: 0 the type-1 or root entry, 1 + l leaf l), so one
 * word's entries spread over the sets. ZCache's relocations are not
 * modelled: a full set refuses the entry.
 *
 * Overflow (section 4.3): an add that finds no entry is refused (SRL_FULL,
 * nothing changed) and the list stays `overflowed` until an entry is freed;
 * the owner aborts the reader and holds new transactions meanwhile. */
#ifndef SIMTX_SRL_TABLE_H
#define SIMTX_SRL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slot_table.h"

#define SRL_ENTRY_BITS 69
#define SRL_MAX_READERS 1024
#define SRL_LEAVES 32
#define SRL_MAX_ENTRIES_PER_WORD (1 + SRL_LEAVES)

typedef enum srl_type { SRL_UNUSED, SRL_IDS, SRL_ROOT, SRL_LEAF } srl_type;

typedef struct srl_entry {
    uint8_t type;   /* srl_type */
    uint8_t count;  /* SRL_IDS: 1..3 */
    uint8_t leaf;   /* SRL_LEAF: its number */
    uint16_t id[3]; /* SRL_IDS */
    uint32_t bits;  /* SRL_ROOT: leaves present; SRL_LEAF: its 32 IDs */
} srl_entry;

typedef enum srl_result { SRL_OK, SRL_FULL } srl_result;

typedef struct srl_table_stats {
    uint64_t adds, already, removes, absent_removes, full, roots_made, leaves_made, entries_freed;
} srl_table_stats;

typedef struct srl_table {
    slot_table slots;
    srl_entry *entry; /* per slot */
    bool overflowed;
    srl_table_stats stats;
} srl_table;

/* Entries of a list of `bytes` bytes (740 KB: 87,856). */
static inline uint32_t srl_entries_in_bytes(uint64_t bytes)
{
    return (uint32_t)(bytes * 8 / SRL_ENTRY_BITS);
}

bool srl_table_init(srl_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size);
void srl_table_release(srl_table *t);

/* Transaction id (0..1023) reads word. */
srl_result srl_table_add(srl_table *t, uint64_t word, unsigned id);
/* id commits or aborts: it leaves word's list. Clears `overflowed` when an
 * entry is freed. */
void srl_table_remove(srl_table *t, uint64_t word, unsigned id);
/* The readers of word, in ID order, into ids (room for SRL_MAX_READERS);
 * returns their count. */
unsigned srl_table_readers(const srl_table *t, uint64_t word, uint16_t *ids);
/* The entry at a word's position (0: type 1 or root; 1 + l: leaf l), or NULL. */
const srl_entry *srl_table_entry(const srl_table *t, uint64_t word, unsigned position);
/* Entries the word holds. */
unsigned srl_table_word_entries(const srl_table *t, uint64_t word);

/* Figure 10's 39 bits after the address: the type in bits 37-38, the content
 * in bits 0-36 (type 1: IDs at 27, 17, 7, count at 5; type 2: vector at 5;
 * type 3: vector at 5, leaf number at 0). */
uint64_t srl_entry_pack(const srl_entry *e);

static inline uint32_t srl_table_used(const srl_table *t)
{
    return t->slots.count;
}

#endif
