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
        event.flags = cause->flags;
        /* A hit or miss names the bytes of the line its access reads or
         * writes (monitor.h); other events keep every byte enabled. */
        uint64_t offset = cause->address - event.address;
        bool access = cause->op == SIMTX_OP_READ || cause->op == SIMTX_OP_WRITE || cause->op == SIMTX_OP_ATOMIC;
        if ((op == SIMTX_OP_MONITOR_HIT || op == SIMTX_OP_MONITOR_MISS) && access && offset < SIMTX_MSG_MAX_DATA) {
            event.byte_enable[0] = event.byte_enable[1] = 0;
            for (uint32_t i = 0; i < cause->size && offset + i < SIMTX_MSG_MAX_DATA; i++)
                if (cause->op != SIMTX_OP_WRITE || simtx_msg_byte_enabled(cause, i))
                    event.byte_enable[(offset + i) >> 6] |= UINT64_C(1) << ((offset + i) & 63);
        }
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
