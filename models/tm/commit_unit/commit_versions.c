#include "commit_versions.h"

#include <stdlib.h>

#include "commit_ring.h"
#include "version.h"

static bool none_hold(void *self, const simtx_msg *msg)
{
    (void)self, (void)msg;
    return false;
}

static bool none_may_write_back(void *self, uint32_t cid)
{
    (void)self, (void)cid;
    return true;
}

static bool none_retired(void *self, uint32_t newest, uint64_t now)
{
    (void)self, (void)newest, (void)now;
    return false;
}

const commit_versions commit_versions_none = {.name = "none", .hold = none_hold, .may_write_back = none_may_write_back, .retired = none_retired};

typedef struct version_closer {
    commit_versions_env env;
    uint32_t closed;      /* the last CLOSE's creation time (the newest ID retired then) */
    uint32_t writing;     /* the newest ID whose write-back has started */
    uint32_t fence;       /* 0, or the ID to close at next: later IDs write back only after that CLOSE */
    commit_held acquires; /* ACQUIREs waiting for a CLOSE that covers their timestamp */
} version_closer;

static void *close_create(const commit_versions_env *env)
{
    version_closer *c = calloc(1, sizeof *c);
    if (c) c->env = *env;
    return c;
}

static void close_destroy(void *self)
{
    version_closer *c = self;
    free(c->acquires.messages);
    free(c);
}

static bool close_hold(void *self, const simtx_msg *msg)
{
    version_closer *c = self;
    if (msg->op != SIMTX_OP_VERSION_ACQUIRE || msg->aux == VERSION_NEWEST || msg->aux <= c->closed) return false;
    if (!commit_ring_hold(&c->acquires, msg)) c->env.fail(c->env.unit, "out of memory holding VERSION_ACQUIREs");
    return true;
}

static bool close_may_write_back(void *self, uint32_t cid)
{
    version_closer *c = self;
    if (c->fence && cid > c->fence) return false;
    if (cid > c->writing) c->writing = cid;
    return true;
}

/* A CLOSE at P must follow every write of IDs <= P (they retired: written
 * back here) and precede every write of a later ID. With a later ID already
 * writing, the point moves to that ID and write-back stops past it until it
 * retires: a bounded stall (its writes are issued and only their
 * acknowledgements are awaited), rather than waiting for a gap in the
 * write-back stream, which a busy unit may never leave. */
static bool close_retired(void *self, uint32_t newest, uint64_t now)
{
    version_closer *c = self;
    bool sent = false;
    /* Until the CLOSE is sent (the queue may be full), no later ID starts. */
    if (newest > c->closed && !c->fence) c->fence = c->writing > newest ? c->writing : newest;
    if (newest > c->closed && c->writing <= newest) {
        simtx_msg close;
        simtx_msg_init(&close, SIMTX_OP_VERSION_CLOSE, VERSION_ALL_REGIONS, 0);
        close.aux = newest;
        close.id = c->env.close_id(newest);
        if (c->env.send(c->env.unit, &close, now)) {
            c->closed = newest;
            c->fence = 0;
            sent = true;
        }
    }
    for (size_t i = 0; i < c->acquires.length;) {
        if (c->acquires.messages[i].aux > c->closed || !c->env.send(c->env.unit, &c->acquires.messages[i], now)) {
            i++;
            continue;
        }
        commit_ring_unhold(&c->acquires, i);
        sent = true;
    }
    return sent;
}

const commit_versions commit_versions_close = {
    .name = "close", .create = close_create, .destroy = close_destroy, .hold = close_hold, .may_write_back = close_may_write_back, .retired = close_retired};
