/* validate_ideal: the ideal TM of gtx480_idealtm. Validation costs nothing:
 * the unit remembers the value of every word it wrote back and compares the
 * read log with those at once, without L2 reads. This is exact: when an ID
 * validates, every older writer of its read words has retired and no
 * younger one has written back yet, so the last value written back here
 * (or, for a word never written by a transaction, the value the
 * transaction read) is what the L2 holds. */
#include <stdlib.h>

#include "commit_validation.h"

/* The value of every word written back here (open addressing). */
typedef struct ideal_state {
    commit_validation_env env;
    uint64_t *keys; /* word address + 1; 0: empty */
    uint32_t *values;
    size_t capacity, count;
} ideal_state;

static size_t ideal_home(uint64_t word, size_t capacity)
{
    return (size_t)((word * UINT64_C(0x9E3779B97F4A7C15)) >> 20) % capacity;
}

static bool ideal_store(ideal_state *m, uint64_t word, uint32_t value)
{
    if (2 * (m->count + 1) > m->capacity) {
        ideal_state bigger = {.env = m->env};
        bigger.capacity = m->capacity ? m->capacity * 2 : 1024;
        bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
        bigger.values = calloc(bigger.capacity, sizeof *bigger.values);
        if (!bigger.keys || !bigger.values) {
            free(bigger.keys);
            free(bigger.values);
            return false;
        }
        for (size_t i = 0; i < m->capacity; i++)
            if (m->keys[i]) ideal_store(&bigger, m->keys[i] - 1, m->values[i]);
        free(m->keys);
        free(m->values);
        *m = bigger;
    }
    size_t i = ideal_home(word, m->capacity);
    while (m->keys[i] && m->keys[i] != word + 1) i = (i + 1) % m->capacity;
    if (!m->keys[i]) m->count++;
    m->keys[i] = word + 1;
    m->values[i] = value;
    return true;
}

static bool ideal_find(const ideal_state *m, uint64_t word, uint32_t *value)
{
    if (!m->capacity) return false;
    for (size_t i = ideal_home(word, m->capacity); m->keys[i]; i = (i + 1) % m->capacity)
        if (m->keys[i] == word + 1) {
            *value = m->values[i];
            return true;
        }
    return false;
}

static void *ideal_create(const commit_validation_env *env)
{
    ideal_state *self = calloc(1, sizeof *self);
    if (self) self->env = *env;
    return self;
}

static void ideal_destroy(void *self)
{
    ideal_state *m = self;
    if (!m) return;
    free(m->keys);
    free(m->values);
    free(m);
}

static bool ideal_validate(void *self, commit_slot *s, uint64_t *budget, uint64_t now)
{
    ideal_state *m = self;
    (void)budget, (void)now;
    for (; s->validation_issued < s->reads.count; s->validation_issued++, s->validation_returned++) {
        const tm_entry *e = &s->reads.entries[s->validation_issued];
        uint32_t current;
        if (ideal_find(m, e->address / 4, &current) && current != e->value) commit_validation_mismatch(&m->env, s);
    }
    return true;
}

static void ideal_read_returned(void *self, commit_slot *s, uint32_t index, uint32_t value)
{
    (void)self, (void)s, (void)index, (void)value; /* it reads nothing */
}

static bool ideal_written_back(void *self, uint32_t cid, const tm_entry *entry)
{
    return ideal_store(self, entry->address / 4, entry->value);
}

const commit_validation commit_validation_ideal = {
    .name = "ideal",
    .unbounded = true,
    .create = ideal_create,
    .destroy = ideal_destroy,
    .validate = ideal_validate,
    .read_returned = ideal_read_returned,
    .written_back = ideal_written_back,
};
