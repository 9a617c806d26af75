/* lds: a SIMT core's shared memory (the local data share) as a block of its
 * own: banks, bank-conflict timing, loads, stores, atomics and lr/sc, served
 * over the core <-> LD/ST protocol (models/protocols/ldst.h). */
#ifndef SIMTX_LDS_H
#define SIMTX_LDS_H

#include <stdbool.h>

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lds_params {
    int64_t size;        /* bytes of shared memory */
    int64_t banks;       /* banks accessed in parallel */
    int64_t bank_width;  /* bytes of one bank word */
    int64_t latency;     /* start to result of a conflict-free access */
    int64_t queue_depth; /* requests held (assembling, waiting or answering) */
    char *policy;        /* how an access acts on the storage: plain or localtm */
    /* localtm (lds_localtm.c) */
    bool perfect;        /* Perfect GPU-LocalTM: the same behaviour, no added cycles */
    bool broken_filters; /* a deliberately wrong design for the oracles: filters ignore other wavefronts */
    int64_t filter_bits, max_work_items, max_wavefronts;
    char *conflict_resolution; /* serial_wins: a serialised work-item beats TX-mode holders; requester_loses: never */
    char *filter_hash; /* row: bit = (word / banks) % filter_bits (section 3.3's example); word: word % filter_bits */
    int64_t filter_cycles, new_cycles, own_cycles, false_own_cycles, begin_cycles, commit_cycles;
} lds_params;

extern const simtx_block_info lds_block_info;

/* Commit records for the serializability oracle, kept by a policy that
 * serves transactions (localtm), in its commit order: one per committed
 * work-item, its words as (byte offset in the CTA's region, value) pairs,
 * reads then writes. GPU-LocalTM's reads are the value of each word at the
 * work-item's first access to it (its backup: no other work-item could
 * change the word until the commit), its writes the values at the commit.
 * instance: the CTA dispatch this lds served (each clear of a region starts
 * one), so a region reused by a later CTA is another space. */
typedef struct lds_commit_record {
    uint32_t instance, order, read_count, write_count;
    size_t first_word;
} lds_commit_record;

/* Turns recording on or off; false when the policy keeps no records. */
bool lds_set_recording(void *lds, bool on);
size_t lds_history(const void *lds, const lds_commit_record **records, const uint32_t **words);
void lds_clear_history(void *lds);

#ifdef __cplusplus
}
#endif

#endif
