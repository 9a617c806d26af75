#include "cache_monitor.h"

#include <stdio.h>

void cache_monitor_emit(cache *c, simtx_op op, unsigned line_index, const simtx_msg *cause, uint64_t bits)
{
    simtx_msg event;
    simtx_msg_init(&event, op, c->tags[line_index] * c->config.line_size, c->config.line_size);
    if (cause) {
        event.core = cause->core;
        event.warp = cause->warp;
        event.cta = cause->cta;
    }
    unsigned set = line_index / c->config.associativity;
    event.aux = monitor_location(set, line_index - set * c->config.associativity) | bits;
    if (!c->env.send(c->env.context, CACHE_MONITOR_PORT, &event)) {
        char error[160];
        snprintf(error, sizeof error, "the monitor receiver refused a %s event (monitor events must always be taken)",
                 simtx_op_name(op));
        c->env.fail(c->env.context, error);
    }
}

void cache_monitor_bound(cache *c) { c->monitored = true; }
