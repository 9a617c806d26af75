/* validate_write_write: SI-TM's commit-unit check (ISCA'17 section 5):
 * write sets only, first committer wins. The core's write_set commit
 * (tmu_commit_per_tx.c) sends, in place of a read log, each word the ID
 * writes here with the ID's snapshot point as its value (tm_lazy.h,
 * WRITE-WRITE VALIDATION): the ID sees every ID up to that point. Hazard
 * detection makes the ID wait until the last older live writer of each of
 * those words retired, so when it validates, every older committed write
 * of the words has been written back here: the ID fails when one of them
 * came from an ID after its snapshot point. No L2 reads and no L2
 * bandwidth: the checks are table lookups, done at once. The last
 * committed writer of each word is kept without loss (a growing table);
 * hardware would bound it with a conservative floor. No read-write
 * conflicts are looked at: under snapshot isolation the loop detection at
 * the tables handles those. */
#include <stdlib.h>

#include "assoc_table.h"
#include "commit_validation.h"

typedef struct write_write_state {
    commit_validation_env env;
    assoc_table last; /* word -> the last ID whose write of it was written back here */
} write_write_state;

static void *write_write_create(const commit_validation_env *env)
{
    write_write_state *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->env = *env;
    if (!assoc_table_init(&self->last, 4096, 4, true)) {
        free(self);
        return NULL;
    }
    return self;
}

static void write_write_destroy(void *self)
{
    write_write_state *m = self;
    if (!m) return;
    assoc_table_release(&m->last);
    free(m);
}

static bool write_write_validate(void *self, commit_slot *s, uint64_t *budget, uint64_t now)
{
    write_write_state *m = self;
    (void)now, (void)budget; /* table lookups, not L2 bandwidth: all at once (the stage sleeps unless an L2 access woke it) */
    while (s->validation_issued < s->reads.count) {
        const tm_entry *e = &s->reads.entries[s->validation_issued];
        uint32_t last = assoc_table_find(&m->last, e->address / 4, 0);
        if (last > e->value && last < s->cid) commit_validation_mismatch(&m->env, s); /* committed after the snapshot */
        s->validation_issued++;
        s->validation_returned++;
        (*m->env.validations)++;
    }
    return s->validation_issued == s->reads.count;
}

static void write_write_read_returned(void *self, commit_slot *s, uint32_t index, uint32_t value)
{
    (void)self, (void)s, (void)index, (void)value; /* it issues no reads */
}

static bool write_write_written_back(void *self, uint32_t cid, const tm_entry *entry)
{
    write_write_state *m = self;
    bool evicted = false;
    return assoc_table_store(&m->last, entry->address / 4, cid, 0, &evicted);
}

const commit_validation commit_validation_write_write = {
    .name = "write_write",
    .unbounded = false,
    .create = write_write_create,
    .destroy = write_write_destroy,
    .validate = write_write_validate,
    .read_returned = write_write_read_returned,
    .written_back = write_write_written_back,
};
