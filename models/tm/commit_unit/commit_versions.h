/* commit_versions: the commit unit's versions slot, chosen once at creation
 * by the `version_close` parameter: whether the unit marks SI-TM's version
 * boundaries for the VIT slice behind it (models/protocols/version.h).
 *
 *   none   nothing (every design without versioned memory)
 *   close  once IDs retire, VERSION_CLOSE at the newest retired ID goes
 *          downstream, but only when no later ID's write-back has gone
 *          before it: when one has, the slot fences write-back at the
 *          newest ID already writing (later IDs wait) and closes there once
 *          it retires, so the version closed at P holds exactly the writes
 *          of IDs <= P (version.h, VERSION BOUNDARIES). A VERSION_ACQUIRE
 *          for a later timestamp is held until a CLOSE covers it, so a
 *          slice never serves a snapshot whose IDs have not all been
 *          written back here. */
#ifndef SIMTX_COMMIT_VERSIONS_H
#define SIMTX_COMMIT_VERSIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "simtx_msg.h"

typedef struct commit_versions_env {
    void *unit;
    /* Queues a request downstream; false (nothing queued) when the queue is full. */
    bool (*send)(void *unit, const simtx_msg *msg, uint64_t now);
    /* The id of the unit's own CLOSE at `newest` (its answer is recognised and dropped). */
    uint64_t (*close_id)(uint32_t newest);
    void (*fail)(void *unit, const char *text);
} commit_versions_env;

typedef struct commit_versions {
    const char *name;
    void *(*create)(const commit_versions_env *env); /* NULL: the policy keeps no state */
    void (*destroy)(void *self);
    /* A pass-through request: true when the policy keeps it, to send later. */
    bool (*hold)(void *self, const simtx_msg *msg);
    /* Before the first write-back of commit ID `cid` goes downstream (IDs
     * start in order): true lets it, and the policy counts cid as writing
     * from then on; false holds it (and so every later ID) this cycle. */
    bool (*may_write_back)(void *self, uint32_t cid);
    /* Each cycle, after retirement (`newest`: the newest ID retired here).
     * True when it sent something. */
    bool (*retired)(void *self, uint32_t newest, uint64_t now);
} commit_versions;

extern const commit_versions commit_versions_none;
extern const commit_versions commit_versions_close;

#endif
