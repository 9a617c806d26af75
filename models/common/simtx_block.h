/* simtx block convention: the C API every hardware block implements.
 *
 * A block's C core owns its state, its behaviour, its timing (in cycles of its
 * own clock), its statistics and its probes. It never waits and does no I/O
 * of its own: the SystemC shim (or a plain C test) tells it the time, hands
 * it messages, and receives its output through the upcalls in simtx_env.
 */
#ifndef SIMTX_BLOCK_H
#define SIMTX_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtx_msg.h"
#include "simtx_params.h"
#include "simtx_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A cycle value meaning "no work planned": the block sleeps until a message
 * arrives or one of its output ports frees up. */
#define SIMTX_NEVER UINT64_MAX

/* SIMTX_SOCKET_MONITOR: an initiator socket for posted observation events
 * (models/protocols/monitor.h) that may stay unbound; its receiver must take
 * every event (a refusal fails the run at the sender). The block learns
 * that it is bound through block_info.monitor_bound, before the run. */
typedef enum { SIMTX_SOCKET_INITIATOR, SIMTX_SOCKET_TARGET, SIMTX_SOCKET_MONITOR } simtx_socket_role;

/* Whether a socket of this role sends requests (binds as an initiator). */
static inline bool simtx_socket_is_initiator(simtx_socket_role role) { return role != SIMTX_SOCKET_TARGET; }

/* One socket, or an array of sockets whose length is an int parameter. */
typedef struct simtx_socket_spec {
    const char *name;
    simtx_socket_role role;
    const char *count_parameter; /* NULL: a single socket */
    const char *doc;
    bool optional; /* may stay unbound: a block sends nothing through it then (a send fails the run) */
} simtx_socket_spec;

/* An address range routed to an initiator port (from the netlist bindings). */
typedef struct simtx_address_range {
    unsigned port;
    uint64_t base;
    uint64_t size;
} simtx_address_range;

/* Upcalls and context a core receives at creation. */
typedef struct simtx_env {
    void *context;
    const char *instance_name;
    uint64_t seed;
    /* Sends a message out of a port. Returns false when the port is busy
     * (backpressure); the core keeps the message and retries later. It is
     * woken by port_free() when the port can take a message again. */
    bool (*send)(void *context, unsigned port, const simtx_msg *msg);
    /* Reports a run-time error (bad input met during the run). The run stops
     * at the end of the current cycle and the process exits non-zero. */
    void (*fail)(void *context, const char *message);
    /* For blocks whose info sets announces_room (may be NULL in plain C
     * tests): a port that refused an arrival can take one again. Called when
     * room frees; the shim then offers the held arrival on that port again
     * after the tick, and no longer offers it after every tick. */
    void (*room)(void *context, unsigned port);
    /* May be NULL in plain C tests: whether send() on port would take a
     * message now. False after a send the receiver has not yet accepted (it
     * was held); port_free() follows when it is. Lets a core stop trying
     * instead of ticking once more to find the port busy. */
    bool (*can_send)(void *context, unsigned port);
    simtx_observer *observer;
    /* A waveform samples this core's probes. When false nothing reads them,
     * and a core may leave them stale instead of paying to keep them. */
    bool probes_traced;
    const simtx_address_range *address_map; /* may be NULL */
    size_t address_map_length;
} simtx_env;

/* What accept() did with an arrival. SIMTX_ACCEPTED_NO_TICK: taken, and the
 * core needs no tick for it (its planned next cycle stands), e.g. a response
 * fully handled in accept(); the shim then does not wake it. */
typedef enum { SIMTX_ACCEPTED, SIMTX_BUSY, SIMTX_ACCEPTED_NO_TICK } simtx_accept_result;

/* Describes a block type: its parameter and socket tables and its entry
 * points. One such constant per block; the registry lists them all. */
typedef struct simtx_block_info {
    const char *name;
    const char *summary;
    const simtx_param_table *params;
    const simtx_socket_spec *sockets;
    size_t socket_count;

    /* Creates a core from a filled params struct. On failure returns NULL and
     * writes a message naming the parameter into error[error_size]. */
    void *(*create)(const void *params, const simtx_env *env, char *error, size_t error_size);
    void (*destroy)(void *core);
    /* A message arrives on a port at cycle now. SIMTX_BUSY refuses it: the
     * shim holds it and offers it again after each later tick of this core.
     * A core that refuses must be ticked again: it has work pending (cycle()
     * not NEVER), or it waits for a port_free() that will wake it. msg is
     * valid during the call only (it may be the sender's own storage): a
     * core copies what it keeps. */
    simtx_accept_result (*accept)(void *core, unsigned port, const simtx_msg *msg, uint64_t now);
    /* Does the work of cycle now; returns the next cycle it needs (> now) or
     * SIMTX_NEVER. It may be called at other cycles too; now only grows. */
    uint64_t (*cycle)(void *core, uint64_t now);
    /* Optional: a port refused earlier can take a message again. */
    void (*port_free)(void *core, unsigned port);
    /* Optional: zero-time access for the host and checkers. Returns the
     * number of bytes handled (0: not mine). For routing blocks, *forward_port
     * is set instead and 0 returned. */
    size_t (*debug_access)(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                           int *forward_port);
    /* Optional, for initiators: the fraction of its work done, 0..1, and
     * whether it has finished (a run ends when all initiators have). */
    double (*progress)(void *core);
    bool (*finished)(void *core);
    /* Optional: the run ended at cycle now; compute derived statistics. */
    void (*finish)(void *core, uint64_t now);
    /* Optional, for caches: a debug access this block forwarded (through
     * *forward_port) was served downstream for `size` bytes; a read may now
     * overlay the newer data the block holds (dirty lines). */
    void (*debug_forwarded)(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size);
    /* Optional, for blocks with a SIMTX_SOCKET_MONITOR socket: called once
     * before the run for each such port that is bound. An unbound one gets
     * no call, and the block makes no events for it. */
    void (*monitor_bound)(void *core, unsigned port);
    /* Optional: writes into text[size] a one-line summary of the work the
     * core still holds (queue occupancies, requests in flight, what it waits
     * for), for the deadlock report; called only then. */
    void (*describe_pending)(void *core, char *text, size_t size);
    /* Optional, for initiators that run programs (cores): a count that grows
     * with every change of state visible outside the program's threads
     * (stores, atomics, barriers, transaction events, thread exits), not
     * with the work between them (loads, arithmetic). The watchdog reads it
     * to stop a livelock: such an initiator running (ticking, or moving
     * messages) without the count moving (docs/architecture.md, Deadlocks). */
    uint64_t (*visible_changes)(void *core);
    /* Optional: whether the parameters make an optional socket (index into
     * sockets) necessary. Returns NULL when it may stay unbound, else the
     * reason (naming the parameter); the netlist check then refuses a
     * netlist that leaves it unbound, before the run. */
    const char *(*socket_needed)(const void *params, size_t socket);
    /* The core calls env->room whenever a port that may have refused an
     * arrival can take one again (set only when it never misses one). */
    bool announces_room;
    /* Optional, for routing blocks that move addresses (a Version Index
     * Table): where a zero-time access to `address` that debug_access
     * forwarded goes instead. Writes up to `capacity` addresses into to[]
     * and returns their count: a write goes to each, a read to the first;
     * 0: to address, unchanged. */
    unsigned (*debug_translate)(void *core, bool is_write, uint64_t address, uint64_t *to, unsigned capacity);
} simtx_block_info;

/* Port number of element `index` of socket `socket` given the resolved
 * socket counts (counts[i] is 1 for single sockets). */
static inline unsigned simtx_port_number(const unsigned *counts, size_t socket, unsigned index)
{
    unsigned port = 0;
    for (size_t i = 0; i < socket; i++) port += counts[i];
    return port + index;
}

#ifdef __cplusplus
}
#endif
#endif
