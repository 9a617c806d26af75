/* validate_values: value-based validation (KILO TM, Warp TM). Every
 * read-log word is read from the L2, within the unit's words_per_cycle,
 * and compared with the value the transaction saw; any difference fails
 * the ID. */
#include <stdlib.h>

#include "commit_validation.h"

static void *values_create(const commit_validation_env *env)
{
    commit_validation_env *self = malloc(sizeof *self);
    if (self) *self = *env;
    return self;
}

static void values_destroy(void *self) { free(self); }

static bool values_validate(void *self, commit_slot *s, uint64_t *budget, uint64_t now)
{
    const commit_validation_env *env = self;
    while (*budget && s->validation_issued < s->reads.count) {
        if (!env->issue_read(env->unit, s->cid, s->validation_issued, &s->reads.entries[s->validation_issued], now))
            return false;
        s->validation_issued++;
        (*env->validations)++;
        (*budget)--;
    }
    return s->validation_issued == s->reads.count;
}

static void values_read_returned(void *self, commit_slot *s, uint32_t index, uint32_t value)
{
    if (index < s->reads.count && value != s->reads.entries[index].value) commit_validation_mismatch(self, s);
}

static bool values_written_back(void *self, uint32_t cid, const tm_entry *entry)
{
    (void)self, (void)entry;
    return true;
}

const commit_validation commit_validation_values = {
    .name = "values",
    .unbounded = false,
    .create = values_create,
    .destroy = values_destroy,
    .validate = values_validate,
    .read_returned = values_read_returned,
    .written_back = values_written_back,
};
