/* tmu_history: the commit records of the serializability oracle: per
 * committed transaction its commit ID, its snapshot point if its attempt
 * took one, and its read and write logs. */
#include <stdlib.h>

#include "tmu_internal.h"

void tmu_record_commit(tmu *u, uint32_t warp, const tmu_lane *lane, uint32_t cid, uint32_t after)
{
    uint32_t snapshot = 0, flags = lane->unvalidated ? TM_UNIT_RECORD_UNVALIDATED : 0;
    if (tmu_snapshot_point(u, warp, &snapshot)) flags |= TM_UNIT_RECORD_SNAPSHOT;
    tmu_history *h = &u->history;
    tm_unit_record *records = simtx_array_reserve(h->records, &h->capacity, h->count + 1, sizeof *records, 256);
    if (records) h->records = records;
    size_t words_needed = h->word_count + 2 * ((size_t)lane->reads.count + lane->writes.count);
    uint32_t *words = records ? simtx_array_reserve(h->words, &h->word_capacity, words_needed, sizeof *words, 1024) : NULL;
    if (!words) {
        tmu_fail(u, "out of memory recording the transaction history");
        return;
    }
    h->words = words;
    h->records[h->count++] = (tm_unit_record){cid, after, lane->reads.count, lane->writes.count, h->word_count, snapshot, flags};
    for (uint32_t i = 0; i < lane->reads.count; i++) {
        h->words[h->word_count++] = lane->reads.entries[i].address;
        h->words[h->word_count++] = lane->reads.entries[i].value;
    }
    for (uint32_t i = 0; i < lane->writes.count; i++) {
        h->words[h->word_count++] = lane->writes.entries[i].address;
        h->words[h->word_count++] = lane->writes.entries[i].value;
    }
}

void tmu_history_release(tmu *u)
{
    free(u->history.records);
    free(u->history.words);
}
