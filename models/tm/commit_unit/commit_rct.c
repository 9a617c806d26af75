/* commit_rct: EA/PG's reference count table (HPCA'16 Section 4.1), the rct
 * variant of the notify slot (commit_notify.h): per word, the readers and
 * writers among the partition's committing transactions. A word's first
 * reader (writer) and its last one leaving are packed, 4 bytes each, into
 * NOTIFY_KIND_CONFLICT_ADDRESSES broadcasts for the cores' conflict address
 * tables: a broadcast leaves when full or when its oldest entry has waited
 * notify_batch_cycles (every broadcast takes each core's notify link for
 * its flits, so one per update would saturate the links). A word whose set
 * is full is not counted, and nothing is sent for it (Section 4.2):
 * validation, not the table, keeps transactions correct. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit_notify.h"
#include "notify.h"
#include "ref_table.h"

/* A value holds the readers in its low half and the writers in its high half. */
#define WRITER_ONE (UINT32_C(1) << 16)

typedef struct rct {
    commit_notify_env env;
    ref_table table;
    uint32_t pending[NOTIFY_CAT_ENTRIES]; /* update entries not yet sent */
    uint32_t pending_count;
    uint64_t pending_since; /* the cycle the oldest pending entry was made */
    uint64_t batch_cycles, now;
    simtx_msg *ready;     /* full messages the notify queue refused, in order */
    size_t ready_count, ready_capacity;
    struct {
        uint64_t inserts, overflows, updates, messages, bytes;
        simtx_average occupancy;
    } stats;
    uint64_t occupancy_probe;
} rct;

static void *rct_create(const commit_unit_params *p, const commit_notify_env *env, simtx_observer *o, char *error,
                        size_t error_size)
{
    if (p->rct_entries < p->rct_ways) {
        snprintf(error, error_size, "rct_entries %lld must be at least rct_ways (%lld)", (long long)p->rct_entries,
                 (long long)p->rct_ways);
        return NULL;
    }
    rct *r = calloc(1, sizeof *r);
    if (!r || !ref_table_init(&r->table, (uint32_t)p->rct_entries, (uint32_t)p->rct_ways)) {
        if (r) ref_table_release(&r->table);
        free(r);
        snprintf(error, error_size, "out of memory for a reference count table of %lld entries", (long long)p->rct_entries);
        return NULL;
    }
    r->env = *env;
    r->batch_cycles = (uint64_t)p->notify_batch_cycles;
    simtx_observe_counter(o, "rct_inserts", &r->stats.inserts, "words", "words entered into the reference count table");
    simtx_observe_counter(o, "rct_overflows", &r->stats.overflows, "references", "references not counted: the word's set was full (no update sent)");
    simtx_observe_counter(o, "cat_updates", &r->stats.updates, "entries", "conflict-address updates sent to the cores (a word's first or last reader or writer)");
    simtx_observe_counter(o, "cat_update_messages", &r->stats.messages, "messages", "notify broadcasts carrying them");
    simtx_observe_counter(o, "cat_update_bytes", &r->stats.bytes, "bytes", "their payload, 4 bytes per entry");
    simtx_observe_energy(o, "rct_insert", &r->stats.inserts, "a reference count table update (EA/PG)");
    simtx_observe_average(o, "rct_occupancy", &r->stats.occupancy, "entries", "reference count table entries in use, sampled at each change");
    simtx_observe_level_probe(o, "rct_occupancy", &r->occupancy_probe, 16, 0, "reference count table entries in use");
    return r;
}

static void rct_destroy(void *self)
{
    rct *r = self;
    ref_table_release(&r->table);
    free(r->ready);
    free(r);
}

/* Packs the pending entries into a broadcast. */
static void rct_pack(rct *r)
{
    if (!r->pending_count) return;
    if (r->ready_count == r->ready_capacity) {
        size_t capacity = r->ready_capacity ? 2 * r->ready_capacity : 4;
        simtx_msg *ready = realloc(r->ready, capacity * sizeof *ready);
        if (!ready) return; /* keep them pending: sent once memory allows */
        r->ready = ready;
        r->ready_capacity = capacity;
    }
    simtx_msg *msg = &r->ready[r->ready_count++];
    notify_init(msg, NOTIFY_KIND_CONFLICT_ADDRESSES, -1, true);
    msg->size = 4 * r->pending_count;
    memcpy(msg->data, r->pending, msg->size);
    r->stats.messages++;
    r->stats.bytes += msg->size;
    r->pending_count = 0;
}

static void rct_update(rct *r, uint32_t address, bool write, bool add)
{
    if (r->pending_count == NOTIFY_CAT_ENTRIES) rct_pack(r);
    if (r->pending_count == NOTIFY_CAT_ENTRIES) return; /* out of memory: the update is lost, as when the table is full */
    if (!r->pending_count) r->pending_since = r->now;
    r->pending[r->pending_count++] = (address & ~3u) | (write ? NOTIFY_CAT_WRITE : 0) | (add ? NOTIFY_CAT_ADD : 0);
    r->stats.updates++;
}

static void rct_settled(rct *r, uint32_t *value, uint32_t before)
{
    ref_table_settle(&r->table, value, before);
    r->occupancy_probe = r->table.used;
    simtx_average_add(&r->stats.occupancy, (double)r->table.used);
}

static void rct_entered(void *self, uint32_t address, bool write)
{
    rct *r = self;
    uint32_t *value = ref_table_take(&r->table, address / 4);
    if (!value) {
        r->stats.overflows++;
        return;
    }
    uint32_t before = *value, one = write ? WRITER_ONE : 1;
    uint32_t count = write ? before >> 16 : before & 0xffffu;
    if (count == 0xffffu) { /* a saturated count: the reference is not counted */
        r->stats.overflows++;
        return;
    }
    if (!before) r->stats.inserts++;
    *value += one;
    if (!count) rct_update(r, address, write, true);
    rct_settled(r, value, before);
}

static void rct_left(void *self, uint32_t address, bool write)
{
    rct *r = self;
    uint32_t *value = ref_table_find(&r->table, address / 4);
    uint32_t count = value ? (write ? *value >> 16 : *value & 0xffffu) : 0;
    if (!count) return; /* never counted (the set was full) */
    uint32_t before = *value;
    *value -= write ? WRITER_ONE : 1;
    if (count == 1) rct_update(r, address, write, false);
    rct_settled(r, value, before);
}

static bool rct_flush(void *self, uint64_t now)
{
    rct *r = self;
    if (r->pending_count && now >= r->pending_since + r->batch_cycles) rct_pack(r);
    r->now = now + 1; /* the next cycle's updates */
    size_t sent = 0;
    while (sent < r->ready_count) {
        r->ready[sent].aux = now; /* notify.h: the receivers measure the update latency from the send */
        if (!r->env.send(r->env.unit, &r->ready[sent], now)) break;
        sent++;
    }
    if (sent) {
        memmove(r->ready, r->ready + sent, (r->ready_count - sent) * sizeof *r->ready);
        r->ready_count -= sent;
    }
    return r->ready_count || r->pending_count;
}

const commit_notify commit_notify_rct = {
    .name = "rct",
    .create = rct_create,
    .destroy = rct_destroy,
    .entered = rct_entered,
    .left = rct_left,
    .flush = rct_flush,
};
