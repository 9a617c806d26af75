/* tmu_cat: EA/PG's conflict address table (HPCA'16 Section 4.1): per word,
 * whether committing transactions write (TMU_CAT_WRITTEN) or read
 * (TMU_CAT_READ) it, kept from the commit units' reference-count updates
 * (protocols/notify.h, NOTIFY_KIND_CONFLICT_ADDRESSES). A word whose set is
 * full is not taken (Section 4.2); Early-Abort and Pause-and-Go then miss
 * it, and validation still decides. */
#include <string.h>

#include "notify.h"
#include "tmu_internal.h"

void tmu_cat_notify(tmu *u, const simtx_msg *msg, uint64_t now)
{
    if (msg->id != NOTIFY_KIND_CONFLICT_ADDRESSES) return; /* a kind this unit does not act on */
    uint64_t made = (uint64_t)((double)msg->aux * u->params.notify_clock_ratio); /* in this block's cycles */
    simtx_histogram_add(&u->stats.cat_update_latency, now > made ? now - made : 0);
    if (!u->cat.entries && !ref_table_init(&u->cat, (uint32_t)u->params.cat_entries, (uint32_t)u->params.cat_ways)) {
        tmu_fail(u, "out of memory for a conflict address table of %lld entries", (long long)u->params.cat_entries);
        return;
    }
    for (uint32_t i = 0; i + 4 <= msg->size; i += 4) {
        uint32_t entry;
        memcpy(&entry, msg->data + i, 4);
        uint32_t bit = entry & NOTIFY_CAT_WRITE ? TMU_CAT_WRITTEN : TMU_CAT_READ;
        bool add = entry & NOTIFY_CAT_ADD;
        uint32_t *value = add ? ref_table_take(&u->cat, entry >> 2) : ref_table_find(&u->cat, entry >> 2);
        u->stats.cat_updates++;
        if (!value) {
            u->stats.cat_overflows += add;
            continue;
        }
        uint32_t before = *value;
        *value = add ? before | bit : before & ~bit;
        ref_table_settle(&u->cat, value, before);
    }
    u->probes.cat_occupancy = u->cat.used;
}

uint32_t tmu_cat_bits(tmu *u, uint32_t address)
{
    u->stats.cat_lookups++;
    const uint32_t *value = u->cat.entries ? ref_table_find(&u->cat, address >> 2) : NULL;
    u->stats.cat_hits += value != NULL;
    return value ? *value : 0;
}

void tmu_cat_release(tmu *u) { ref_table_release(&u->cat); }
