#include "crossbar.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(crossbar_params, field)
#define NO_ROUTE (-1)

typedef enum { MAP_INTERLEAVE, MAP_RANGES, MAP_CORE } crossbar_mapping;

/* Defaults: the GTX480 crossbar, 32 B per cycle per port and 5 cycles. */
static const simtx_param_spec crossbar_param_specs[] = {
    {"cores", SIMTX_PARAM_INT, "1", "sockets", 1, 250, NULL, "core-side ports (target sockets: requests in, replies out)", PARAM(cores)},
    {"partitions", SIMTX_PARAM_INT, "1", "sockets", 1, 250, NULL, "partition-side ports (initiator sockets: requests out, replies in)", PARAM(partitions)},
    {"flit_bytes", SIMTX_PARAM_INT, "32", "bytes", 1, 1 << 16, NULL, "bytes per flit", PARAM(flit_bytes)},
    {"flits_per_cycle", SIMTX_PARAM_INT, "1", "flits", 1, 1 << 10, NULL, "flits each port moves per cycle (bandwidth per port = flit_bytes x flits_per_cycle)", PARAM(flits_per_cycle)},
    {"header_bytes", SIMTX_PARAM_INT, "8", "bytes", 0, 1 << 10, NULL, "control bytes of every packet, added to the data it carries", PARAM(header_bytes)},
    {"latency", SIMTX_PARAM_INT, "5", "cycles", 1, 1e6, NULL, "cycles from arrival to the earliest departure (traversal)", PARAM(latency)},
    {"input_queue_depth", SIMTX_PARAM_INT, "8", "packets", 1, 1 << 16, NULL, "packets per input queue; a full one refuses arrivals", PARAM(input_queue_depth)},
    {"output_queue_depth", SIMTX_PARAM_INT, "8", "packets", 1, 1 << 16, NULL, "packets per output queue; a full one stops the switch feeding it", PARAM(output_queue_depth)},
    {"mapping", SIMTX_PARAM_ENUM, "interleave", "", 0, 0, "interleave|ranges|core", "interleave: partition = (address / interleave) mod partitions; ranges: the { base, size } of each partition's connect; core: output msg.core, every output for a broadcast notification (the notify network, models/protocols/notify.h)", PARAM(mapping)},
    {"interleave", SIMTX_PARAM_INT, "256", "bytes", 1, 1LL << 40, NULL, "bytes per partition chunk (mapping = interleave)", PARAM(interleave)},
    {"reply_flit_bytes", SIMTX_PARAM_INT, "0", "bytes", 0, 1 << 16, NULL, "flit size of the reply network; 0: flit_bytes (flit_bytes then sizes the request network)", PARAM(reply_flit_bytes)},
    {"reply_latency", SIMTX_PARAM_INT, "0", "cycles", 0, 1e6, NULL, "traversal of the reply network; 0: latency (latency then times the request network)", PARAM(reply_latency)},
    {"tm_log_data", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "TM log, done and decision requests carry their entries as data flits; false: header only (ideal TM: free log transfer)", PARAM(tm_log_data)},
    {"count_flags", SIMTX_PARAM_STRING, "", "", 0, 0, NULL, "up to 3 message flags, comma-separated (mem.h FLAGS in lower case: transactional, persistent, non_temporal, snapshot, broadcast, tx_pause, pm_log, pm_log_names): each network's flits are also counted by the combination of them a packet carries (<network>_flits_flagged_<flags>, `none` for none of them); empty: no such counts", PARAM(count_flags)},
};

/* msg.flags' bits by name, bit i = 1 << i (simtx_msg_flag). */
static const char *const flag_names[] = {"transactional", "persistent", "non_temporal", "snapshot", "broadcast", "tx_pause", "pm_log", "pm_log_names"};
enum { MAX_COUNTED_FLAGS = 3, FLAG_CLASSES = 1 << MAX_COUNTED_FLAGS };

static const simtx_param_table crossbar_param_table = {
    crossbar_param_specs, sizeof crossbar_param_specs / sizeof crossbar_param_specs[0], sizeof(crossbar_params)};

static const simtx_socket_spec crossbar_sockets[] = {
    {"cores", SIMTX_SOCKET_TARGET, "cores", "from a core's L1: requests in, replies out", false},
    {"partitions", SIMTX_SOCKET_INITIATOR, "partitions", "to a memory partition (its L2 slice or a block in front of it): requests out, replies in", false},
};

enum { REQUEST_NETWORK, REPLY_NETWORK, NETWORKS };
enum { MAX_PORTS = 255, MAX_PORT_WORDS = (MAX_PORTS + 63) / 64 }; /* a route stack entry is a byte */

/* What the switch needs of a queued packet, decided once on arrival rather
 * than read from the message on every cycle. */
typedef struct packet_size {
    uint32_t flits;
    uint32_t cycles; /* it holds a switch port and a link */
} packet_size;

typedef struct packet_route {
    int destination; /* output port */
    packet_size size;
    uint8_t network;
    bool broadcast;  /* a copy goes to every partition-side output (its outputs_missing set); destination: the sentinel port */
} packet_route;

/* A bounded FIFO of packets, by their index in the crossbar's message
 * store, each usable from its ready cycle on: crossing the switch moves an
 * index, not the message. */
typedef struct packet_queue {
    uint32_t *packets;
    uint64_t *ready_cycles;
    uint32_t capacity, head, length;
} packet_queue;

static bool packet_queue_full(const packet_queue *q) { return q->length == q->capacity; }
static bool packet_queue_empty(const packet_queue *q) { return !q->length; }
static uint32_t packet_queue_front(const packet_queue *q) { return q->packets[q->head]; }
static uint64_t packet_queue_front_ready(const packet_queue *q) { return q->ready_cycles[q->head]; }

/* Storage slot of the entry `position` places behind the head: the ports
 * keep per-slot data of their own in parallel arrays. */
static uint32_t packet_queue_slot(const packet_queue *q, uint32_t position)
{
    uint32_t slot = q->head + position;
    return slot >= q->capacity ? slot - q->capacity : slot;
}

static void packet_queue_push(packet_queue *q, uint32_t packet, uint64_t ready_cycle)
{
    uint32_t tail = packet_queue_slot(q, q->length);
    q->packets[tail] = packet;
    q->ready_cycles[tail] = ready_cycle;
    q->length++;
}

static void packet_queue_pop(packet_queue *q)
{
    if (++q->head == q->capacity) q->head = 0;
    q->length--;
}

/* A port's state, together so that a cycle touches few cache lines per port. */
typedef struct crossbar_port {
    packet_queue input, output;
    packet_route *input_routes;    /* per input queue slot */
    packet_size *output_sizes;     /* per output queue slot */
    uint64_t switch_in_free;       /* its switch input is free from then */
    uint64_t switch_out_free;      /* its switch output is free from then */
    uint64_t link_free;            /* its outgoing link is free from then */
    bool refused;                  /* its input refused an arrival the shim may still hold */
    unsigned next_source;          /* round-robin pointer of its output */
    uint64_t input_depth, output_depth; /* probes */
} crossbar_port;

typedef struct crossbar {
    crossbar_params params;
    simtx_env env;
    crossbar_mapping mapping;
    unsigned port_count;
    /* port_count ports and a sentinel, the destination of a broadcast head:
     * never free and always full, so that planning a wake-up for an input
     * need not test whether its head is a broadcast. */
    crossbar_port *ports;
    /* The messages of the packets in the queues, one slot per queue slot of
     * every port. A broadcast's copies share its message rather than take
     * slots of their own: per slot, how many queue entries beyond one point
     * at it (0 for a unicast's; at most the outputs, 250, so a byte), the
     * last entry to leave freeing it. Every message in use thus has a queue
     * entry of its own, and an input queue with room always finds a free
     * slot, however many copies cross at once. */
    simtx_msg *messages;
    uint32_t *free_messages, free_message_count;
    uint8_t *message_sharers;
    uint32_t *queue_packets;       /* every queue's slots, the queues point in */
    uint64_t *queue_ready_cycles;
    packet_route *input_routes;    /* every port's, ports[i].input_routes point in */
    packet_size *output_sizes;     /* every port's, ports[i].output_sizes point in */
    /* Bit sets of ports whose input queue holds packets, and of those whose
     * output queue does and whose socket has not refused (such an output
     * waits for port_free, which puts it back): a cycle visits only those,
     * in port order. */
    uint64_t *busy_inputs, *busy_outputs;
    /* Per output, the set of inputs whose head packet goes there, and the
     * set of outputs some head goes to: the switch visits only those
     * outputs, and their inputs only when the output can take a packet. */
    uint64_t *heads_for, *wanted_outputs;
    /* The outputs whose queue is full: the switch passes them over. */
    uint64_t *full_outputs;
    /* Per input whose head is a broadcast: the outputs still missing their
     * copy, in whose heads_for sets it stands; the set a broadcast starts
     * with (every partition-side output); and how many heads are
     * broadcasts (their wake-up is planned apart from the unicasts'). */
    uint64_t *outputs_missing, *broadcast_outputs;
    unsigned broadcast_heads;
    /* Per input with a head packet: the cycle it may cross the switch (its
     * ready cycle or its switch input's, the later) and its network, in
     * compact arrays, so that the switch's search reads no port state. */
    uint64_t *head_ready;
    uint8_t *head_network;
    /* Per busy output: the cycle its head may leave (its ready cycle or its
     * link's, the later): the links' visits read no port state until then. */
    uint64_t *output_due;
    struct {
        uint64_t packets, flits, arbitration_losses;
    } stats[NETWORKS];
    uint64_t address_errors;
    uint64_t flit_bytes[NETWORKS], latency[NETWORKS];
    /* count_flags: the counted flags' masks; flits per network and class
     * (bit k of a class: the packet carries counted flag k). */
    uint8_t counted_flags[MAX_COUNTED_FLAGS];
    unsigned counted_flag_count;
    uint64_t class_flits[NETWORKS][FLAG_CLASSES];
} crossbar;

static unsigned flag_class(const crossbar *x, uint8_t flags)
{
    unsigned cls = 0;
    for (unsigned k = 0; k < x->counted_flag_count; k++) cls |= (flags & x->counted_flags[k]) ? 1u << k : 0u;
    return cls;
}

/* Parses count_flags into x; false with an error naming the parameter. */
static bool parse_counted_flags(crossbar *x, const char *text, char *error, size_t error_size)
{
    for (const char *at = text; *at;) {
        size_t length = strcspn(at, ",");
        int found = -1;
        for (unsigned i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
            if (strlen(flag_names[i]) == length && !strncmp(flag_names[i], at, length)) found = (int)i;
        if (found < 0 || x->counted_flag_count == MAX_COUNTED_FLAGS) {
            snprintf(error, error_size, found < 0 ? "parameter 'count_flags': unknown flag '%.*s' (known: transactional, persistent, "
                                                    "non_temporal, snapshot, broadcast, tx_pause, pm_log, pm_log_names)"
                                                  : "parameter 'count_flags': at most 3 flags ('%.*s' is one more)",
                     (int)length, at);
            return false;
        }
        x->counted_flags[x->counted_flag_count++] = (uint8_t)(1u << found);
        at += length + (at[length] == ',');
    }
    return true;
}

static unsigned core_count(const crossbar *x) { return (unsigned)x->params.cores; }

static unsigned port_set_words(unsigned ports) { return (ports + 63) / 64; }
static void port_set_add(uint64_t *set, unsigned port) { set[port >> 6] |= UINT64_C(1) << (port & 63); }
static void port_set_remove(uint64_t *set, unsigned port) { set[port >> 6] &= ~(UINT64_C(1) << (port & 63)); }
static bool port_set_empty(const uint64_t *set, unsigned ports)
{
    for (unsigned word = 0; word < port_set_words(ports); word++)
        if (set[word]) return false;
    return true;
}

/* Visits the ports of a set in ascending order, from the set as it was on
 * entry (a visit may remove its own port); `continue` goes to the next
 * port, `break` does not leave the loop. */
#define FOR_EACH_PORT(port, set, ports)                                                            \
    for (unsigned port##_word = 0; port##_word < port_set_words(ports); port##_word++)             \
        for (uint64_t port##_bits = (set)[port##_word]; port##_bits; port##_bits &= port##_bits - 1) \
            for (unsigned port = port##_word * 64 + (unsigned)__builtin_ctzll(port##_bits), port##_once = 1; port##_once; port##_once = 0)

static bool is_core_port(const crossbar *x, unsigned port) { return port < core_count(x); }

static uint64_t min_cycle(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max_cycle(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int map_request(const crossbar *x, uint64_t address)
{
    if (x->mapping == MAP_INTERLEAVE)
        return (int)(core_count(x) + (address / (uint64_t)x->params.interleave) % (uint64_t)x->params.partitions);
    if (x->mapping == MAP_CORE) return NO_ROUTE; /* routed by msg.core: see destination() */
    for (size_t i = 0; i < x->env.address_map_length; i++) {
        const simtx_address_range *range = &x->env.address_map[i];
        if (address >= range->base && address - range->base < range->size) return (int)range->port;
    }
    return NO_ROUTE;
}

/* Where a packet arriving at an input goes; only the crossbar's own ports. */
static int destination(const crossbar *x, const simtx_msg *msg)
{
    if (!msg->is_response && x->mapping == MAP_CORE) {
        if (msg->flags & SIMTX_FLAG_BROADCAST) return (int)x->port_count; /* the sentinel port: every output */
        return msg->core >= 0 && msg->core < x->params.partitions ? (int)core_count(x) + msg->core : NO_ROUTE;
    }
    if (!msg->is_response) return map_request(x, msg->address);
    int port = msg->route_depth ? msg->route[msg->route_depth - 1] : NO_ROUTE;
    return port >= 0 && (unsigned)port < x->port_count ? port : NO_ROUTE;
}

/* The route of the packet at the head of a port's input. */
static const packet_route *head_route(const crossbar_port *port)
{
    return &port->input_routes[port->input.head];
}

/* The inputs whose head packet goes to output d. */
static uint64_t *heads_for(const crossbar *x, unsigned d) { return &x->heads_for[(size_t)d * port_set_words(x->port_count)]; }

/* The outputs still missing a copy of input s's head, a broadcast. */
static uint64_t *outputs_missing(const crossbar *x, unsigned s) { return &x->outputs_missing[(size_t)s * port_set_words(x->port_count)]; }

/* When the head of a port's (non-empty) output queue may leave. */
static uint64_t output_head_due(const crossbar_port *port)
{
    return max_cycle(packet_queue_front_ready(&port->output), port->link_free);
}

/* Input s has a new head, a broadcast: it stands in the set of every
 * output, each of which takes its copy when its arbitration picks it. */
__attribute__((noinline)) static void enter_broadcast_head(crossbar *x, unsigned s)
{
    x->broadcast_heads++;
    uint64_t *missing = outputs_missing(x, s);
    memcpy(missing, x->broadcast_outputs, port_set_words(x->port_count) * sizeof *missing);
    FOR_EACH_PORT(d, missing, x->port_count) port_set_add(heads_for(x, d), s);
    for (unsigned word = 0; word < port_set_words(x->port_count); word++) x->wanted_outputs[word] |= missing[word];
}

/* Input s has a new head packet: enter it in its output's set. Inlined
 * although GCC finds it too big to: the switch gives most inputs a new head
 * at once, and the call's saves cost more than the code's growth. */
static inline __attribute__((always_inline)) void enter_head(crossbar *x, unsigned s)
{
    const crossbar_port *in = &x->ports[s];
    const packet_route *route = head_route(in);
    unsigned d = (unsigned)route->destination;
    if (__builtin_expect(route->broadcast, 0)) {
        enter_broadcast_head(x, s);
    } else {
        port_set_add(heads_for(x, d), s);
        port_set_add(x->wanted_outputs, d);
    }
    x->head_ready[s] = max_cycle(packet_queue_front_ready(&in->input), in->switch_in_free);
    x->head_network[s] = route->network;
}

/* Input s's head crosses the switch to output d: take it out of that
 * output's set. Inlined into the switch. */
static inline __attribute__((always_inline)) void leave_head(crossbar *x, unsigned s, unsigned d)
{
    uint64_t *inputs = heads_for(x, d);
    port_set_remove(inputs, s);
    if (port_set_empty(inputs, x->port_count)) port_set_remove(x->wanted_outputs, d);
}

/* The head packet of input s has crossed the switch: the next one, if any,
 * becomes the head; a refused sender may come in now. */
static inline __attribute__((always_inline)) void pop_head(crossbar *x, unsigned s)
{
    crossbar_port *in = &x->ports[s];
    packet_queue_pop(&in->input);
    if (in->refused) { /* refused while full: the sender may come in now */
        in->refused = false;
        if (x->env.room) x->env.room(x->env.context, s);
    }
    if (packet_queue_empty(&in->input)) port_set_remove(x->busy_inputs, s);
    else enter_head(x, s);
    in->input_depth = in->input.length;
}

static unsigned network_of(const simtx_msg *msg) { return msg->is_response ? REPLY_NETWORK : REQUEST_NETWORK; }

/* Flits of a packet: header plus the data it carries, in its network's flits. */
static uint64_t flit_count(const crossbar *x, const simtx_msg *msg, const simtx_op_info *op)
{
    bool carries_data = msg->is_response ? op->response_data : op->request_data && (!op->request_is_log || x->params.tm_log_data);
    uint64_t bytes = (uint64_t)x->params.header_bytes + (carries_data ? msg->size : 0);
    uint64_t flit_bytes = x->flit_bytes[network_of(msg)];
    uint64_t flits = (bytes + flit_bytes - 1) / flit_bytes;
    return flits ? flits : 1;
}

/* Cycles a packet of `flits` flits holds a port. */
static uint64_t transfer_cycles(const crossbar *x, uint64_t flits)
{
    return (flits + (uint64_t)x->params.flits_per_cycle - 1) / (uint64_t)x->params.flits_per_cycle;
}

static void crossbar_destroy(void *core)
{
    crossbar *x = core;
    free(x->ports);
    free(x->messages);
    free(x->free_messages);
    free(x->message_sharers);
    free(x->queue_packets);
    free(x->queue_ready_cycles);
    free(x->input_routes);
    free(x->output_sizes);
    free(x->busy_inputs);
    free(x->busy_outputs);
    free(x->heads_for);
    free(x->wanted_outputs);
    free(x->full_outputs);
    free(x->outputs_missing);
    free(x->broadcast_outputs);
    free(x->head_ready);
    free(x->head_network);
    free(x->output_due);
    free(x->params.mapping);
    free(x);
}

static void *crossbar_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const crossbar_params *p = params;
    if (p->cores <= 0 || p->partitions <= 0 || p->flit_bytes <= 0 || p->flits_per_cycle <= 0 || p->latency <= 0 ||
        p->input_queue_depth <= 0 || p->output_queue_depth <= 0 || p->interleave <= 0) {
        snprintf(error, error_size, "parameter '%s' must be positive",
                 p->cores <= 0 ? "cores" : p->partitions <= 0 ? "partitions" : p->flit_bytes <= 0 ? "flit_bytes"
                 : p->flits_per_cycle <= 0 ? "flits_per_cycle" : p->latency <= 0 ? "latency"
                 : p->input_queue_depth <= 0 ? "input_queue_depth" : p->output_queue_depth <= 0 ? "output_queue_depth" : "interleave");
        return NULL;
    }
    if (p->cores + p->partitions > MAX_PORTS) {
        snprintf(error, error_size, "parameters 'cores' + 'partitions' must not exceed 255 (the route stack holds a byte per hop)");
        return NULL;
    }
    crossbar_mapping mapping = !strcmp(p->mapping, "ranges") ? MAP_RANGES : !strcmp(p->mapping, "core") ? MAP_CORE : MAP_INTERLEAVE;
    if (mapping == MAP_RANGES) {
        for (size_t i = 0; i < env->address_map_length; i++)
            if (env->address_map[i].port < (unsigned)p->cores) {
                snprintf(error, error_size, "parameter 'mapping' = ranges: address ranges belong on the partitions sockets");
                return NULL;
            }
        if (!env->address_map_length) {
            snprintf(error, error_size, "parameter 'mapping' = ranges, but no partitions connect has a { base, size } range");
            return NULL;
        }
    }
    crossbar *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->params = *p;
    x->params.mapping = strdup(p->mapping);
    x->params.count_flags = NULL; /* parsed below, not kept */
    if (!parse_counted_flags(x, p->count_flags, error, error_size)) {
        crossbar_destroy(x);
        return NULL;
    }
    x->env = *env;
    x->mapping = mapping;
    x->flit_bytes[REQUEST_NETWORK] = (uint64_t)p->flit_bytes;
    x->flit_bytes[REPLY_NETWORK] = (uint64_t)(p->reply_flit_bytes ? p->reply_flit_bytes : p->flit_bytes);
    x->latency[REQUEST_NETWORK] = (uint64_t)p->latency;
    x->latency[REPLY_NETWORK] = (uint64_t)(p->reply_latency ? p->reply_latency : p->latency);
    x->port_count = (unsigned)(p->cores + p->partitions);
    unsigned n = x->port_count;
    size_t slots = (size_t)n * ((size_t)p->input_queue_depth + (size_t)p->output_queue_depth);
    x->ports = calloc(n + 1, sizeof *x->ports);
    x->messages = calloc(slots, sizeof *x->messages);
    x->free_messages = calloc(slots, sizeof *x->free_messages);
    x->message_sharers = calloc(slots, sizeof *x->message_sharers);
    x->queue_packets = calloc(slots, sizeof *x->queue_packets);
    x->queue_ready_cycles = calloc(slots, sizeof *x->queue_ready_cycles);
    x->input_routes = calloc((size_t)n * (size_t)p->input_queue_depth, sizeof *x->input_routes);
    x->output_sizes = calloc((size_t)n * (size_t)p->output_queue_depth, sizeof *x->output_sizes);
    x->busy_inputs = calloc(port_set_words(n), sizeof *x->busy_inputs);
    x->busy_outputs = calloc(port_set_words(n), sizeof *x->busy_outputs);
    x->heads_for = calloc((size_t)n * port_set_words(n), sizeof *x->heads_for);
    x->wanted_outputs = calloc(port_set_words(n), sizeof *x->wanted_outputs);
    x->full_outputs = calloc(port_set_words(n), sizeof *x->full_outputs);
    x->outputs_missing = calloc((size_t)n * port_set_words(n), sizeof *x->outputs_missing);
    x->broadcast_outputs = calloc(port_set_words(n), sizeof *x->broadcast_outputs);
    x->head_ready = calloc(n, sizeof *x->head_ready);
    x->head_network = calloc(n, sizeof *x->head_network);
    x->output_due = calloc(n, sizeof *x->output_due);
    bool ok = x->params.mapping && x->ports && x->messages && x->free_messages && x->message_sharers && x->queue_packets && x->queue_ready_cycles &&
              x->input_routes && x->output_sizes && x->busy_inputs && x->busy_outputs && x->heads_for && x->wanted_outputs && x->full_outputs &&
              x->outputs_missing && x->broadcast_outputs && x->head_ready && x->head_network && x->output_due;
    if (!ok) {
        snprintf(error, error_size, "out of memory for %u ports", n);
        crossbar_destroy(x);
        return NULL;
    }
    size_t first_slot = 0;
    for (unsigned i = 0; i < n; i++) {
        crossbar_port *port = &x->ports[i];
        port->input_routes = &x->input_routes[(size_t)i * (size_t)p->input_queue_depth];
        port->output_sizes = &x->output_sizes[(size_t)i * (size_t)p->output_queue_depth];
        port->input = (packet_queue){&x->queue_packets[first_slot], &x->queue_ready_cycles[first_slot], (uint32_t)p->input_queue_depth, 0, 0};
        first_slot += (size_t)p->input_queue_depth;
        port->output = (packet_queue){&x->queue_packets[first_slot], &x->queue_ready_cycles[first_slot], (uint32_t)p->output_queue_depth, 0, 0};
        first_slot += (size_t)p->output_queue_depth;
    }
    for (size_t i = 0; i < slots; i++) x->free_messages[x->free_message_count++] = (uint32_t)i;
    for (unsigned d = core_count(x); d < n; d++) port_set_add(x->broadcast_outputs, d);
    x->ports[n].switch_out_free = SIMTX_NEVER; /* the sentinel; its output queue, of capacity 0, is full */
    simtx_observer *o = env->observer;
    static const char *const network_names[NETWORKS] = {"request", "reply"};
    for (unsigned k = 0; k < NETWORKS; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s_packets", network_names[k]);
        simtx_observe_counter(o, name, &x->stats[k].packets, "packets", k == REQUEST_NETWORK ? "requests delivered to partitions" : "replies delivered to cores");
        snprintf(name, sizeof name, "%s_flits", network_names[k]);
        simtx_observe_counter(o, name, &x->stats[k].flits, "flits", "flits sent on this network's output links");
        snprintf(name, sizeof name, "%s_arbitration_losses", network_names[k]);
        simtx_observe_counter(o, name, &x->stats[k].arbitration_losses, "packets", "ready packets that lost their output to another input");
        snprintf(name, sizeof name, "%s_flit", network_names[k]);
        simtx_observe_energy(o, name, &x->stats[k].flits, "a flit through the switch and across the die");
        for (unsigned cls = 0; x->counted_flag_count && cls < (1u << x->counted_flag_count); cls++) {
            int length = snprintf(name, sizeof name, "%s_flits_flagged%s", network_names[k], cls ? "" : "_none");
            for (unsigned f = 0; f < x->counted_flag_count; f++)
                if (cls & (1u << f))
                    length += snprintf(name + length, sizeof name - (size_t)length, "_%s", flag_names[__builtin_ctz(x->counted_flags[f])]);
            simtx_observe_counter(o, name, &x->class_flits[k][cls], "flits", "flits of packets carrying exactly these of the counted flags (count_flags)");
        }
    }
    simtx_observe_counter(o, "address_errors", &x->address_errors, "requests", "requests no partition owns, answered with an address error");
    for (unsigned i = 0; i < n; i++) {
        char name[64];
        const char *side = is_core_port(x, i) ? "core" : "partition";
        unsigned index = is_core_port(x, i) ? i : i - core_count(x);
        snprintf(name, sizeof name, "%s%u_input_queue", side, index);
        simtx_observe_level_probe(o, name, &x->ports[i].input_depth, 16, (uint64_t)p->input_queue_depth,
                            is_core_port(x, i) ? "request-network packets waiting at this core's input" : "reply-network packets waiting at this partition's input");
        snprintf(name, sizeof name, "%s%u_output_queue", side, index);
        simtx_observe_level_probe(o, name, &x->ports[i].output_depth, 16, (uint64_t)p->output_queue_depth,
                            is_core_port(x, i) ? "reply-network packets waiting for this core's link" : "request-network packets waiting for this partition's link");
    }
    return x;
}

/* A posted message (no response to carry an error) that no output takes,
 * or on an address-mapped crossbar. */
static simtx_accept_result fail_posted(crossbar *x, const simtx_msg *msg)
{
    char error[200];
    if (x->mapping == MAP_CORE)
        snprintf(error, sizeof error, "a %s for core %d, but the crossbar has %" PRId64 " outputs (parameter 'partitions')",
                 simtx_op_name((simtx_op)msg->op), (int)msg->core, x->params.partitions);
    else
        snprintf(error, sizeof error, "a %s (posted, unanswered), but parameter 'mapping' is not core: posted ops ride notify networks",
                 simtx_op_name((simtx_op)msg->op));
    x->env.fail(x->env.context, error);
    return SIMTX_ACCEPTED;
}

static simtx_accept_result crossbar_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    crossbar *x = core;
    crossbar_port *in = &x->ports[port];
    packet_queue *queue = &in->input;
    /* First: a refused sender offers its packet again every cycle. */
    if (packet_queue_full(queue)) {
        in->refused = true;
        return SIMTX_BUSY;
    }
    if (msg->is_response == is_core_port(x, port)) {
        x->env.fail(x->env.context, msg->is_response ? "a reply arrived on a core-side socket" : "a request arrived on a partition-side socket");
        return SIMTX_ACCEPTED;
    }
    int d = destination(x, msg);
    if (msg->is_response && d == NO_ROUTE) {
        x->env.fail(x->env.context, "a reply arrived with no route back");
        return SIMTX_ACCEPTED;
    }
    const simtx_op_info *op = simtx_op_info_of(msg->op);
    bool broadcast = false;
    if (__builtin_expect(x->mapping == MAP_CORE, 0)) {
        broadcast = (msg->flags & SIMTX_FLAG_BROADCAST) != 0;
        if (!op->answered && d == NO_ROUTE) return fail_posted(x, msg);
        if (broadcast && op->answered) {
            char error[160];
            snprintf(error, sizeof error, "a broadcast %s: only posted ops (notifications) may be broadcast, as no one response could answer it",
                     op->name);
            x->env.fail(x->env.context, error);
            return SIMTX_ACCEPTED;
        }
    } else if (__builtin_expect(!op->answered, 0)) {
        return fail_posted(x, msg); /* posted ops ride core-mapped networks only */
    }
    if (!msg->is_response && msg->route_depth == SIMTX_MSG_MAX_ROUTE) {
        x->env.fail(x->env.context, "a request crossed more routing blocks than a message can record");
        return SIMTX_ACCEPTED;
    }
    uint32_t slot = packet_queue_slot(queue, queue->length), packet = x->free_messages[--x->free_message_count];
    packet_queue_push(queue, packet, now);
    simtx_msg *queued = &x->messages[packet];
    *queued = *msg;
    if (!op->answered) {
        queued->handle = NULL; /* posted: each hop sends it under a transaction of its own */
    } else if (!queued->is_response) {
        queued->route[queued->route_depth++] = (uint8_t)port;
        if (d == NO_ROUTE) { /* answered here, back through the reply network */
            x->address_errors++;
            simtx_msg_make_response(queued, SIMTX_STATUS_ADDRESS_ERROR);
            d = (int)port;
        }
    }
    uint64_t flits = flit_count(x, queued, op);
    in->input_routes[slot] = (packet_route){d, {(uint32_t)flits, (uint32_t)transfer_cycles(x, flits)}, (uint8_t)network_of(queued), broadcast};
    port_set_add(x->busy_inputs, port);
    in->input_depth = queue->length;
    if (queue->length > 1) {
        /* Behind another packet it moves only after that one crossed the
         * switch, in a cycle already planned for that head (the crossbar
         * counts no ticks): no wake-up for it. */
        return SIMTX_ACCEPTED_NO_TICK;
    }
    enter_head(x, port);
    return SIMTX_ACCEPTED;
}

/* Output d, whose arbitration picked input s's head, a broadcast, takes its
 * copy, an entry sharing the packet's message; the input stays free for
 * the other outputs in this cycle. When d was the last output missing one,
 * the packet leaves the input as a unicast does, the input's switch port
 * then busy for the transfer. Out of line, so that the switch keeps no
 * value live across it for the unicasts. */
__attribute__((noinline)) static void cross_broadcast(crossbar *x, unsigned s, unsigned d, uint64_t ready, uint64_t switch_free)
{
    crossbar_port *in = &x->ports[s], *out = &x->ports[d];
    uint64_t *missing = outputs_missing(x, s);
    port_set_remove(missing, d);
    bool last = port_set_empty(missing, x->port_count);
    uint32_t packet = packet_queue_front(&in->input);
    if (!last) x->message_sharers[packet]++; /* the last takes over the input's entry */
    packet_queue_push(&out->output, packet, ready);
    if (packet_queue_full(&out->output)) port_set_add(x->full_outputs, d);
    out->switch_out_free = switch_free;
    leave_head(x, s, d);
    if (last) {
        in->switch_in_free = switch_free;
        x->broadcast_heads--;
        pop_head(x, s);
    }
    out->output_depth = out->output.length;
    out->next_source = s + 1 < x->port_count ? s + 1 : 0;
}

/* The next cycle an input's head, a broadcast, may cross to one of the
 * outputs missing it (SIMTX_NEVER: all of them full, freed by their links).
 * Apart from the unicast heads' planning, which thus makes no call. */
__attribute__((noinline)) static uint64_t broadcast_heads_due(const crossbar *x, uint64_t now)
{
    uint64_t due = SIMTX_NEVER;
    FOR_EACH_PORT(p, x->busy_inputs, x->port_count) {
        if (!head_route(&x->ports[p])->broadcast) continue;
        FOR_EACH_PORT(d, outputs_missing(x, p), x->port_count) {
            const crossbar_port *out = &x->ports[d];
            uint64_t when = max_cycle(x->head_ready[p], out->switch_out_free);
            if (packet_queue_full(&out->output) && when <= now) continue;
            due = min_cycle(due, when);
        }
    }
    return due;
}

static uint64_t crossbar_cycle(void *core, uint64_t now)
{
    crossbar *x = core;
    unsigned n = x->port_count;
    /* The next cycle something can move, planned as the ports are visited:
     * first the output links' next sends. */
    uint64_t next = SIMTX_NEVER;
    /* Output links: one packet at a time, for its flits' worth of cycles. */
    FOR_EACH_PORT(d, x->busy_outputs, n) {
        if (x->output_due[d] > now) {
            next = min_cycle(next, x->output_due[d]);
            continue;
        }
        crossbar_port *port = &x->ports[d];
        packet_queue *queue = &port->output;
        uint32_t packet = packet_queue_front(queue);
        simtx_msg *out = &x->messages[packet];
        if (out->is_response) out->route_depth--; /* this hop's entry, popped as the reply leaves */
        if (!x->env.send(x->env.context, d, out)) {
            if (out->is_response) out->route_depth++;
            port_set_remove(x->busy_outputs, d); /* port_free wakes us and puts it back */
            continue;
        }
        unsigned network = network_of(out);
        packet_size size = port->output_sizes[queue->head];
        uint32_t flits = size.flits;
        port->link_free = now + size.cycles;
        x->stats[network].packets++;
        x->stats[network].flits += flits;
        if (x->counted_flag_count) x->class_flits[network][flag_class(x, out->flags)] += flits;
        packet_queue_pop(queue);
        port_set_remove(x->full_outputs, d);
        if (__builtin_expect(x->message_sharers[packet] != 0, 0)) x->message_sharers[packet]--; /* a broadcast's, still queued elsewhere */
        else x->free_messages[x->free_message_count++] = packet;
        port->output_depth = queue->length;
        if (packet_queue_empty(queue)) {
            port_set_remove(x->busy_outputs, d);
            continue;
        }
        x->output_due[d] = output_head_due(port);
        next = min_cycle(next, x->output_due[d]);
    }
    /* Switch: each output takes one ready input head per transfer, chosen
     * round-robin from its pointer; the other ready heads for it lose
     * arbitration; a full output queue holds its inputs back. Only outputs
     * that some input's head goes to and that can take a packet are
     * visited. Outputs are decided one after another: a transfer changes
     * only its output and its input, whose next head cannot move in this
     * cycle (the switch input is busy), so the order does not matter, nor
     * do outputs that such a head makes wanted. A broadcast head's copy
     * changes only its output and the head's missing outputs: the input
     * drives several outputs in one transfer (fan-out), and every free one
     * that picks it takes its copy in this cycle. */
    uint64_t open_outputs[MAX_PORT_WORDS];
    for (unsigned word = 0; word < port_set_words(n); word++) open_outputs[word] = x->wanted_outputs[word] & ~x->full_outputs[word];
    FOR_EACH_PORT(d, open_outputs, n) {
        crossbar_port *out = &x->ports[d];
        if (out->switch_out_free > now) continue;
        /* Round-robin from the pointer: the first ready input at or after it,
         * else the first one (the set is visited in ascending order). */
        int first_ready = -1, first_from_pointer = -1;
        unsigned candidates[NETWORKS] = {0};
        FOR_EACH_PORT(s, heads_for(x, d), n) {
            if (x->head_ready[s] > now) continue;
            if (first_ready < 0) first_ready = (int)s;
            if (first_from_pointer < 0 && s >= out->next_source) first_from_pointer = (int)s;
            candidates[x->head_network[s]]++;
        }
        if (first_ready < 0) continue;
        unsigned s = (unsigned)(first_from_pointer >= 0 ? first_from_pointer : first_ready);
        crossbar_port *in = &x->ports[s];
        const packet_route *route = head_route(in);
        candidates[route->network]--;
        for (unsigned k = 0; k < NETWORKS; k++) x->stats[k].arbitration_losses += candidates[k];
        uint64_t cycles = route->size.cycles;
        out->output_sizes[packet_queue_slot(&out->output, out->output.length)] = route->size;
        /* The traversal counts from arrival: latency - 1 more cycles here. */
        uint64_t ready = now + x->latency[route->network] - 1;
        /* A new head for the output link (an older one was planned above; a
         * refused one is never the last to leave). */
        if (packet_queue_empty(&out->output)) {
            x->output_due[d] = max_cycle(ready, out->link_free);
            next = min_cycle(next, x->output_due[d]);
            port_set_add(x->busy_outputs, d);
        }
        if (__builtin_expect(route->broadcast, 0)) {
            cross_broadcast(x, s, d, ready, now + cycles);
            continue;
        }
        packet_queue_push(&out->output, packet_queue_front(&in->input), ready);
        if (packet_queue_full(&out->output)) port_set_add(x->full_outputs, d);
        in->switch_in_free = out->switch_out_free = now + cycles;
        leave_head(x, s, d);
        pop_head(x, s);
        out->output_depth = out->output.length;
        out->next_source = s + 1 < n ? s + 1 : 0;
    }
    /* Sleep until something can move: the next cycle at the soonest, so the
     * inputs need not be looked at when an output moves then. */
    if (next > now + 1) FOR_EACH_PORT(p, x->busy_inputs, n) {
        /* A broadcast's destination is the sentinel, never free: planned below. */
        const crossbar_port *out = &x->ports[head_route(&x->ports[p])->destination];
        uint64_t when = x->head_ready[p];
        if (out->switch_out_free > when) when = out->switch_out_free;
        /* A full output queue frees when its link sends, planned above. */
        if (packet_queue_full(&out->output) && when <= now) continue;
        if (when < next) next = when;
    }
    if (__builtin_expect(x->broadcast_heads != 0, 0) && next > now + 1) next = min_cycle(next, broadcast_heads_due(x, now));
    if (next <= now) next = now + 1;
    return next;
}

static void crossbar_port_free(void *core, unsigned port)
{
    crossbar *x = core;
    const crossbar_port *p = &x->ports[port];
    if (packet_queue_empty(&p->output)) return;
    x->output_due[port] = output_head_due(p);
    port_set_add(x->busy_outputs, port);
}

static size_t crossbar_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    crossbar *x = core;
    (void)is_write, (void)data;
    /* One access goes to one partition: refuse (0 bytes, no forward) one
     * that spans two, rather than serve part of it from the wrong place. */
    int first = map_request(x, address);
    bool spans = false;
    if (x->mapping == MAP_CORE) {
        spans = true; /* nothing is mapped by address */
    } else if (size && x->mapping == MAP_INTERLEAVE) {
        uint64_t chunk = (uint64_t)x->params.interleave;
        spans = address / chunk != (address + size - 1) / chunk;
    } else if (size) {
        spans = map_request(x, address + size - 1) != first;
        for (size_t i = 0; !spans && i < x->env.address_map_length; i++) {
            const simtx_address_range *range = &x->env.address_map[i];
            spans = address >= range->base && address - range->base < range->size && size > range->size - (address - range->base);
        }
    }
    *forward_port = spans ? NO_ROUTE : first;
    return 0;
}

const simtx_block_info crossbar_block_info = {
    .name = "crossbar",
    .summary = "core-to-partition interconnect: request and reply networks with input/output queues, flit bandwidth, interleaved mapping",
    .params = &crossbar_param_table,
    .sockets = crossbar_sockets,
    .socket_count = 2,
    .create = crossbar_create,
    .destroy = crossbar_destroy,
    .accept = crossbar_accept,
    .cycle = crossbar_cycle,
    .port_free = crossbar_port_free,
    .debug_access = crossbar_debug_access,
    .announces_room = true, /* an input queue frees only in the switch */
};
