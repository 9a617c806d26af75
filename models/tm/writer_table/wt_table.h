/* wt_table: SI-TM's Writer Table (ISCA'17 section 4.2-4.3) of one slice as
 * plain data and rules, without timing or messages: word address -> the ID
 * of its single writer among running transactions, 40-bit entries (30-bit
 * word address, 10-bit ID), 3000 in the paper (15 KB) split over the slices.
 *
 * The single-writer rule. The paper says both "if there already exists a
 * writer, the new writer is aborted" and "otherwise, the writer with a
 * larger ID will abort" (section 5). Here the NEW writer always loses: it is
 * the transaction whose access found the conflict, so its own answer carries
 * the verdict (no message to another core), and the writer in the table,
 * which got there first, has usually done more work. The owner always ends
 * on its own (it commits or aborts), so the loser's retry progresses.
 *
 * Overflow (section 4.3): a word whose set is full is refused (WT_FULL);
 * the table stays `overflowed` until an entry is freed. Its owner aborts the
 * transaction that needed the entry and holds new transactions while it is
 * overflowed; the running ones commit or abort and free entries, so the
 * table drains. A transaction whose own entries fill the set it needs can
 * never run: wt_table_claim says so (WT_TOO_BIG), and the owner fails the
 * run with the word rather than loop. */
#ifndef SIMTX_WT_TABLE_H
#define SIMTX_WT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slot_table.h"

#define WT_ENTRY_BITS 40 /* 30-bit word address + 10-bit writer ID */

typedef enum wt_result {
    WT_OWNER,    /* the ID is the word's writer (now, or already) */
    WT_CONFLICT, /* another running transaction writes the word: the requester aborts */
    WT_FULL,     /* no entry: the requester aborts and waits */
    WT_TOO_BIG,  /* no entry, and every way of the set is the requester's own */
} wt_result;

typedef struct wt_table_stats {
    uint64_t claims, owned_already, conflicts, full, releases, stale_releases;
} wt_table_stats;

typedef struct wt_table {
    slot_table slots;
    uint16_t *writer; /* per slot */
    bool overflowed;  /* a claim was refused since the last release */
    wt_table_stats stats;
} wt_table;

/* entries and ways of the slice; returns false with a message naming the parameter. */
bool wt_table_init(wt_table *t, uint32_t entries, uint32_t ways, char *error, size_t error_size);
void wt_table_release(wt_table *t);

/* Transaction id (0..1023) writes `word` (a word address). On WT_CONFLICT,
 * *owner is the word's writer. */
wt_result wt_table_claim(wt_table *t, uint64_t word, unsigned id, unsigned *owner);

/* The word's writer, or -1. */
int wt_table_writer(const wt_table *t, uint64_t word);

/* id commits or aborts: its entry for word goes (a word it does not own is
 * counted stale and left). Clears `overflowed`. */
void wt_table_drop(wt_table *t, uint64_t word, unsigned id);

static inline uint32_t wt_table_used(const wt_table *t)
{
    return t->slots.count;
}

#endif
