/* commit_validation: the commit unit's validation policy slot, chosen once
 * at creation by the `validation` parameter. The stages call it where an
 * ID's read log is checked and where a committed write reaches the L2; no
 * stage asks which policy it runs.
 *
 *   values  KILO TM / Warp TM: each read-log word is read from the L2 and
 *           compared with the value the transaction saw (validate_values.c).
 *   ideal   the upper bound of gtx480_idealtm: no L2 reads, no per-cycle
 *           limits, tables that grow instead of evicting (validate_ideal.c).
 *   write_write  SI-TM: the written words only, first committer wins
 *           (validate_write_write.c; the core's write_set commit). */
#ifndef SIMTX_COMMIT_VALIDATION_H
#define SIMTX_COMMIT_VALIDATION_H

#include <stdbool.h>
#include <stdint.h>

#include "commit_ring.h"

/* What a policy may use of its commit unit. */
typedef struct commit_validation_env {
    void *unit;
    /* Sends validation read `index` of ID cid to the L2; false when the
     * output is full (try again next cycle). */
    bool (*issue_read)(void *unit, uint32_t cid, uint32_t index, const tm_entry *entry, uint64_t now);
    uint64_t *validations;     /* statistic: validation reads sent to the L2 */
    uint64_t *mismatches;      /* statistic: words found changed */
    bool ignore_mismatches;    /* TEST ONLY: a deliberately broken validation */
} commit_validation_env;

typedef struct commit_validation {
    const char *name;
    /* No per-cycle limits in the stages, and the address tables grow
     * instead of evicting (exact, unbounded). */
    bool unbounded;
    void *(*create)(const commit_validation_env *env);
    void (*destroy)(void *self);
    /* Continues validating s (its reads from s->validation_issued on), using
     * up to *budget words of L2 bandwidth. True when every read is issued or
     * checked; false when it must continue next cycle. */
    bool (*validate)(void *self, commit_slot *s, uint64_t *budget, uint64_t now);
    /* The L2 answered validation read `index` of s with value. */
    void (*read_returned)(void *self, commit_slot *s, uint32_t index, uint32_t value);
    /* A committed write of ID cid was issued to the L2; false when out of memory. */
    bool (*written_back)(void *self, uint32_t cid, const tm_entry *entry);
} commit_validation;

extern const commit_validation commit_validation_values;
extern const commit_validation commit_validation_ideal;
extern const commit_validation commit_validation_write_write;

/* A word's value differs from the one the transaction saw. */
static inline void commit_validation_mismatch(const commit_validation_env *env, commit_slot *s)
{
    (*env->mismatches)++;
    if (!env->ignore_mismatches) s->validation_failed = true;
}

#endif
