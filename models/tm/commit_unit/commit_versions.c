#include "commit_versions.h"

#include <stdlib.h>

#include "commit_ring.h"
#include "version.h"

static bool none_hold(void *self, const simtx_msg *msg)
{
    (void)self, (void)msg;
    return false;
}

static bool none_retired(void *self, uint32_t newest, uint64_t now)
{
    (void)self, (void)newest, (void)now;
    return false;
}

const commit_versions commit_versions_none = {.name = "none", .hold = none_hold, .retired = none_retired};

typedef struct version_closer {
    commit_versions_env env;
    uint32_t closed;      /* the last CLOSE's creation time (the newest ID retired then) */
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

static bool close_retired(void *self, uint32_t newest, uint64_t now)
{
    version_closer *c = self;
    bool sent = false;
    if (newest > c->closed) {
        simtx_msg close;
        simtx_msg_init(&close, SIMTX_OP_VERSION_CLOSE, VERSION_ALL_REGIONS, 0);
        close.aux = newest;
        close.id = c->env.close_id(newest);
        if (c->env.send(c->env.unit, &close, now)) {
            c->closed = newest;
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
    .name = "close", .create = close_create, .destroy = close_destroy, .hold = close_hold, .retired = close_retired};
