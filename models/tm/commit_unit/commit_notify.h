/* commit_notify: the commit unit's notify slot, chosen once at creation by
 * the `notify` parameter: what the unit tells the cores about its
 * committing transactions over the notify network (models/protocols/
 * notify.h). The hazard stage reports each log entry as it enters, the
 * outcome stages each entry as it leaves; no stage asks which policy runs.
 *
 *   none  nothing (KILO TM, Warp TM)
 *   rct   EA/PG's reference count table (commit_rct.c): the readers and
 *         writers of each word among committing transactions; a word's
 *         first and last reference are broadcast to every core's conflict
 *         address table. */
#ifndef SIMTX_COMMIT_NOTIFY_H
#define SIMTX_COMMIT_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commit_unit.h"

typedef struct commit_notify_env {
    void *unit;
    /* Queues a notification for the notify socket; false when its queue is
     * full (the policy keeps it and tries again next cycle). */
    bool (*send)(void *unit, const simtx_msg *msg, uint64_t now);
} commit_notify_env;

typedef struct commit_notify {
    const char *name;
    void *(*create)(const commit_unit_params *p, const commit_notify_env *env, simtx_observer *o, char *error,
                    size_t error_size);
    void (*destroy)(void *self);
    /* A read (write) log entry of a committing ID entered hazard detection. */
    void (*entered)(void *self, uint32_t address, bool write);
    /* Its ID's outcome is known: the entry leaves. */
    void (*left)(void *self, uint32_t address, bool write);
    /* The end of a cycle: send what is pending. True while some is left. */
    bool (*flush)(void *self, uint64_t now);
} commit_notify;

extern const commit_notify commit_notify_none;
extern const commit_notify commit_notify_rct;

#endif
