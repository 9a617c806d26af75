/* cache_monitor: the cache's monitor events (models/protocols/monitor.h) on
 * CACHE_MONITOR_PORT, sent only once cache_monitor_bound was called. */
#ifndef SIMTX_CACHE_MONITOR_H
#define SIMTX_CACHE_MONITOR_H

#include "cache_state.h"
#include "monitor.h"

/* Sends one event for the line at line_index (its tag still the line's).
 * Out of line: only a bound monitor port pays for it. */
__attribute__((noinline, cold)) void cache_monitor_emit(cache *c, simtx_op op, unsigned line_index, const simtx_msg *cause, uint64_t bits);

/* An event, when a monitor is bound: the only cost otherwise is this test. */
static inline void monitor(cache *c, simtx_op op, unsigned line_index, const simtx_msg *cause, uint64_t bits)
{
    if (__builtin_expect(c->monitored, 0)) cache_monitor_emit(c, op, line_index, cause, bits);
}

CACHE_STEP uint64_t access_bits(const simtx_msg *msg) { return msg->op == SIMTX_OP_WRITE ? MONITOR_WRITE : 0; }

#endif
