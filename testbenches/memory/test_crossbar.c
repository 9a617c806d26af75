/* Unit tests of the crossbar core without SystemC: configurations it must
 * refuse, per-pair ordering, port serialization in flits, the route stack a
 * reply retraces, and the core mapping of a notify network (unicast by
 * msg.core, broadcast fan-out in one transfer, a busy or refusing output
 * taking its copy later, two broadcasting inputs, errors). */
#include <stdio.h>
#include <string.h>

#include "crossbar.h"
#include "notify.h"
#include "test_support.h"

#define MAX_SENT 256

typedef struct recorder {
    simtx_env env;
    simtx_msg sent[MAX_SENT];
    unsigned port[MAX_SENT];
    uint64_t cycle[MAX_SENT];
    size_t count;
    uint64_t now;
    uint64_t refusing; /* ports whose receiver refuses, one bit each */
    char failure[256];
} recorder;

static bool record_send(void *context, unsigned port, const simtx_msg *msg)
{
    recorder *r = context;
    if (r->count == MAX_SENT || (r->refusing >> port & 1)) return false;
    r->sent[r->count] = *msg;
    r->port[r->count] = port;
    r->cycle[r->count++] = r->now;
    return true;
}

static void record_fail(void *context, const char *message)
{
    recorder *r = context;
    snprintf(r->failure, sizeof r->failure, "%s", message);
}

static void recorder_init(recorder *r)
{
    memset(r, 0, sizeof *r);
    r->env.context = r;
    r->env.instance_name = "xbar";
    r->env.send = record_send;
    r->env.fail = record_fail;
}

/* An arrival behind another in its input queue is taken without a wake-up
 * (SIMTX_ACCEPTED_NO_TICK): either answer means taken. */
static bool taken(simtx_accept_result result)
{
    return result == SIMTX_ACCEPTED || result == SIMTX_ACCEPTED_NO_TICK;
}

static void params_with(crossbar_params *p, const char *mapping)
{
    char error[128];
    simtx_params_init(crossbar_block_info.params, p, error, sizeof error);
    if (mapping) {
        simtx_value value = {.kind = SIMTX_VALUE_STRING, .string = mapping};
        simtx_param_assign(simtx_param_find(crossbar_block_info.params, "mapping"), p, &value, error, sizeof error);
    }
}

static void test_bad_configurations(void)
{
    recorder r;
    recorder_init(&r);
    crossbar_params p;
    char error[256] = "";
    params_with(&p, "ranges");
    CHECK(crossbar_block_info.create(&p, &r.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "'mapping'");
    simtx_params_release(crossbar_block_info.params, &p);
    params_with(&p, NULL);
    p.cores = 200;
    p.partitions = 100;
    CHECK(crossbar_block_info.create(&p, &r.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "'cores' + 'partitions'");
    p.cores = 2;
    p.partitions = 2;
    p.latency = 0;
    CHECK(crossbar_block_info.create(&p, &r.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "'latency'");
    p.latency = 5;
    simtx_address_range on_core_side = {0, 0, 0x1000};
    simtx_params_release(crossbar_block_info.params, &p);
    params_with(&p, "ranges");
    r.env.address_map = &on_core_side;
    r.env.address_map_length = 1;
    CHECK(crossbar_block_info.create(&p, &r.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "partitions sockets");
    simtx_params_release(crossbar_block_info.params, &p);
}

/* Core 0 sends four 128-byte writes to partition 1 (5 flits each), then a
 * read to partition 0; the writes leave in order 5 cycles apart, the read is
 * not held behind them, and a reply finds its way back to core 0. */
static void test_order_serialization_and_route(void)
{
    recorder r;
    recorder_init(&r);
    crossbar_params p;
    params_with(&p, NULL);
    p.cores = 2;
    p.partitions = 2;
    p.latency = 3;
    char error[256];
    void *x = crossbar_block_info.create(&p, &r.env, error, sizeof error);
    CHECK(x != NULL);
    if (!x) return;
    for (unsigned i = 0; i < 4; i++) {
        simtx_msg write;
        simtx_msg_init(&write, SIMTX_OP_WRITE, 0x100 + 0x200 * i, 128); /* odd chunks: partition 1 */
        write.id = i;
        CHECK(taken(crossbar_block_info.accept(x, 0, &write, 0)));
    }
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x0, 32);
    read.id = 9;
    CHECK(taken(crossbar_block_info.accept(x, 1, &read, 0)));
    for (r.now = 1; r.now < 60; r.now++) crossbar_block_info.cycle(x, r.now);
    CHECK_EQUAL(r.count, 5);
    uint64_t last = 0;
    unsigned writes = 0;
    for (size_t i = 0; i < r.count; i++) {
        if (r.sent[i].op == SIMTX_OP_WRITE) {
            CHECK_EQUAL(r.port[i], 3); /* partition 1 */
            CHECK_EQUAL(r.sent[i].id, writes);
            if (writes) CHECK(r.cycle[i] - last >= 5);
            last = r.cycle[i];
            writes++;
            CHECK_EQUAL(r.sent[i].route_depth, 1);
            CHECK_EQUAL(r.sent[i].route[0], 0);
        } else {
            CHECK_EQUAL(r.port[i], 2);
            CHECK(r.cycle[i] <= 4); /* another input, another output: not blocked */
        }
    }
    CHECK_EQUAL(writes, 4);
    /* The reply of the first write goes back to core 0 with its route popped. */
    simtx_msg reply = r.sent[0].op == SIMTX_OP_WRITE ? r.sent[0] : r.sent[1];
    simtx_msg_make_response(&reply, SIMTX_STATUS_OK);
    CHECK(taken(crossbar_block_info.accept(x, 3, &reply, r.now)));
    size_t before = r.count;
    for (uint64_t end = r.now + 20; r.now < end; r.now++) crossbar_block_info.cycle(x, r.now);
    CHECK_EQUAL(r.count, before + 1);
    CHECK_EQUAL(r.port[before], 0);
    CHECK_EQUAL(r.sent[before].route_depth, 0);
    CHECK(r.failure[0] == '\0');
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* The reply network takes its own flit size and latency. */
static void test_reply_network_parameters(void)
{
    recorder r;
    recorder_init(&r);
    crossbar_params p;
    params_with(&p, NULL);
    p.latency = 2;
    p.reply_latency = 10;
    p.reply_flit_bytes = 8;
    char error[256];
    void *x = crossbar_block_info.create(&p, &r.env, error, sizeof error);
    CHECK(x != NULL);
    if (!x) return;
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x0, 32);
    CHECK(taken(crossbar_block_info.accept(x, 0, &read, 0)));
    for (r.now = 1; r.now < 10 && !r.count; r.now++) crossbar_block_info.cycle(x, r.now);
    CHECK_EQUAL(r.count, 1);
    CHECK_EQUAL(r.cycle[0], 2); /* request network: 2 cycles */
    simtx_msg reply = r.sent[0];
    simtx_msg_make_response(&reply, SIMTX_STATUS_OK);
    uint64_t arrival = r.now;
    CHECK(taken(crossbar_block_info.accept(x, 1, &reply, arrival)));
    simtx_msg second = reply; /* a second reply: (8 + 32) / 8 = 5 flits behind the first */
    CHECK(taken(crossbar_block_info.accept(x, 1, &second, arrival)));
    for (r.now = arrival + 1; r.now < arrival + 40; r.now++) crossbar_block_info.cycle(x, r.now);
    CHECK_EQUAL(r.count, 3);
    CHECK_EQUAL(r.cycle[1], arrival + 10);
    CHECK_EQUAL(r.cycle[2] - r.cycle[1], 5);
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* A notify network: 2 inputs (partitions) and 4 outputs (cores), 32-byte
 * flits, latency 3. */
static void *core_mapped(recorder *r, crossbar_params *p)
{
    recorder_init(r);
    params_with(p, "core");
    p->cores = 2;
    p->partitions = 4;
    p->latency = 3;
    char error[256] = "";
    void *x = crossbar_block_info.create(p, &r->env, error, sizeof error);
    CHECK(x != NULL);
    return x;
}

static void run_until(recorder *r, void *x, uint64_t end)
{
    for (r->now++; r->now < end; r->now++) crossbar_block_info.cycle(x, r->now);
}

/* mapping = core: a notification goes to output msg.core with no route
 * and no handle; an answered request too, and its reply retraces its route;
 * an answered request for a missing core is answered with an address
 * error, a notification for one fails the run. */
static void test_core_mapping_unicast(void)
{
    recorder r;
    crossbar_params p;
    void *x = core_mapped(&r, &p);
    if (!x) return;
    simtx_msg note;
    notify_init(&note, NOTIFY_KIND_TEST, 2, false);
    note.handle = &r; /* the sender's transaction: not carried on */
    CHECK(taken(crossbar_block_info.accept(x, 1, &note, 0)));
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x40, 32);
    read.core = 3;
    read.id = 7;
    CHECK(taken(crossbar_block_info.accept(x, 0, &read, 0)));
    run_until(&r, x, 20);
    CHECK_EQUAL(r.count, 2);
    for (size_t i = 0; i < r.count; i++) {
        if (r.sent[i].op == SIMTX_OP_NOTIFY) {
            CHECK_EQUAL(r.port[i], 2 + 2); /* output of core 2 */
            CHECK_EQUAL(r.sent[i].route_depth, 0);
            CHECK(r.sent[i].handle == NULL);
        } else {
            CHECK_EQUAL(r.port[i], 2 + 3);
            CHECK_EQUAL(r.sent[i].route_depth, 1);
        }
    }
    simtx_msg reply = r.sent[r.sent[0].op == SIMTX_OP_READ ? 0 : 1];
    simtx_msg_make_response(&reply, SIMTX_STATUS_OK);
    CHECK(taken(crossbar_block_info.accept(x, 5, &reply, r.now)));
    run_until(&r, x, r.now + 20);
    CHECK_EQUAL(r.count, 3);
    CHECK_EQUAL(r.port[2], 0);
    CHECK_EQUAL(r.sent[2].id, 7);
    simtx_msg lost = read;
    lost.core = 4; /* outputs are 0..3 */
    CHECK(taken(crossbar_block_info.accept(x, 0, &lost, r.now)));
    run_until(&r, x, r.now + 20);
    CHECK_EQUAL(r.count, 4);
    CHECK_EQUAL(r.port[3], 0);
    CHECK(r.sent[3].is_response);
    CHECK_EQUAL(r.sent[3].status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK(r.failure[0] == '\0');
    notify_init(&note, NOTIFY_KIND_TEST, 4, false);
    crossbar_block_info.accept(x, 1, &note, r.now);
    CHECK_CONTAINS(r.failure, "core 4");
    CHECK_CONTAINS(r.failure, "'partitions'");
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* Runs the crossbar from the cycle after r->now up to (not including) end,
 * leaving r->now at the last cycle run, and ticks it only at the cycles it
 * asks for (from `wake` on), as the scheduler does: a crossbar asleep past
 * a cycle something could move at fails the test. Returns its next wake. */
static uint64_t run_as_scheduled(recorder *r, void *x, uint64_t wake, uint64_t end)
{
    for (r->now++; r->now < end; r->now++)
        if (r->now >= wake) wake = crossbar_block_info.cycle(x, r->now);
    r->now--;
    return wake;
}

/* The cycle output port got the packet whose aux is `aux`, or 0. */
static uint64_t sent_at(const recorder *r, unsigned port, uint64_t aux)
{
    for (size_t i = 0; i < r->count; i++)
        if (r->port[i] == port && r->sent[i].aux == aux) return r->cycle[i];
    return 0;
}

static unsigned sent_to(const recorder *r, unsigned port)
{
    unsigned count = 0;
    for (size_t i = 0; i < r->count; i++) count += r->port[i] == port;
    return count;
}

static void send_broadcast(void *x, unsigned input, uint64_t aux, uint32_t size, uint64_t now)
{
    simtx_msg note;
    notify_init(&note, NOTIFY_KIND_TEST, -1, true);
    note.size = size;
    memset(note.data, 0xA5, size);
    note.aux = aux;
    CHECK(taken(crossbar_block_info.accept(x, input, &note, now)));
}

/* A broadcast notification of 64 bytes (8 + 64 = 72: 3 flits, 3 cycles at
 * one flit per cycle) arriving at cycle 0 crosses the switch in one
 * transfer at cycle 1: every output queue gets its copy then, and every
 * link sends it at the latency (3). A second one behind it in the same
 * input crosses when the input's switch frees, one transfer (3 cycles)
 * later, and leaves every link at 3 + 3. */
static void test_core_mapping_broadcast(void)
{
    recorder r;
    crossbar_params p;
    void *x = core_mapped(&r, &p);
    if (!x) return;
    const uint64_t transfer = (8 + 64 + 31) / 32;
    send_broadcast(x, 0, 11, 64, 0);
    send_broadcast(x, 0, 12, 64, 0);
    run_as_scheduled(&r, x, 1, 80);
    CHECK_EQUAL(r.count, 8);
    for (size_t i = 0; i < r.count; i++) {
        CHECK_EQUAL(r.sent[i].op, SIMTX_OP_NOTIFY);
        CHECK_EQUAL(r.sent[i].data[63], 0xA5);
        CHECK(r.sent[i].handle == NULL);
    }
    for (unsigned core = 0; core < 4; core++) {
        CHECK_EQUAL(sent_to(&r, 2 + core), 2);
        CHECK_EQUAL(sent_at(&r, 2 + core, 11), (uint64_t)p.latency);
        CHECK_EQUAL(sent_at(&r, 2 + core, 12), (uint64_t)p.latency + transfer);
    }
    CHECK(r.failure[0] == '\0');
    /* Only posted ops may be broadcast: no one response could answer it. */
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x40, 32);
    read.flags = SIMTX_FLAG_BROADCAST;
    crossbar_block_info.accept(x, 0, &read, r.now);
    CHECK_CONTAINS(r.failure, "broadcast read");
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
    /* An address-mapped crossbar has no broadcast. */
    simtx_msg note;
    recorder_init(&r);
    params_with(&p, NULL);
    char error[256];
    x = crossbar_block_info.create(&p, &r.env, error, sizeof error);
    CHECK(x != NULL);
    if (!x) return;
    notify_init(&note, NOTIFY_KIND_TEST, -1, true);
    crossbar_block_info.accept(x, 0, &note, 0);
    CHECK_CONTAINS(r.failure, "'mapping' is not core");
    /* Nor does it carry posted ops at all. */
    r.failure[0] = '\0';
    notify_init(&note, NOTIFY_KIND_TEST, 0, false);
    crossbar_block_info.accept(x, 0, &note, 0);
    CHECK_CONTAINS(r.failure, "'mapping' is not core");
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* An output busy with a unicast transfer takes its copy of a broadcast
 * when its switch port frees, without holding the other outputs' back:
 * input 1's 128-byte unicast for core 2 (8 + 128 = 136: 5 flits) crosses
 * at cycle 1; input 0's header-only broadcast (1 flit) arriving at cycle 1
 * crosses to cores 0, 1, 3 at cycle 2 and to core 2 at cycle 1 + 5, each
 * leaving latency - 1 cycles after its crossing (core 2's link is free by
 * then: the unicast left at 3 for 5 cycles). */
static void test_broadcast_past_busy_output(void)
{
    recorder r;
    crossbar_params p;
    void *x = core_mapped(&r, &p);
    if (!x) return;
    const uint64_t unicast_transfer = (8 + 128 + 31) / 32, after = (uint64_t)p.latency - 1;
    simtx_msg note;
    notify_init(&note, NOTIFY_KIND_TEST, 2, false);
    note.size = 128;
    note.aux = 1;
    CHECK(taken(crossbar_block_info.accept(x, 1, &note, 0)));
    uint64_t wake = run_as_scheduled(&r, x, 1, 2); /* cycle 1: the unicast crosses */
    send_broadcast(x, 0, 2, 0, 1);
    run_as_scheduled(&r, x, wake < 2 ? wake : 2, 40);
    CHECK_EQUAL(r.count, 5);
    CHECK_EQUAL(sent_at(&r, 4, 1), 1 + after);
    for (unsigned core = 0; core < 4; core++) {
        CHECK_EQUAL(sent_to(&r, 2 + core), core == 2 ? 2 : 1);
        CHECK_EQUAL(sent_at(&r, 2 + core, 2), core == 2 ? 1 + unicast_transfer + after : 2 + after);
    }
    CHECK(r.failure[0] == '\0');
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* Message slots under load: a broadcast's copies share its message, which
 * must outlive every copy and the input's entry, whichever leaves last.
 * Core 2's output stays busy with long unicasts, so that the broadcasts'
 * other copies leave their links before core 2's crosses, while new
 * arrivals take the slots freed: every output still gets every broadcast
 * once, with its own contents, and every unicast in order. */
static void test_broadcast_message_slots(void)
{
    recorder r;
    crossbar_params p;
    void *x = core_mapped(&r, &p);
    if (!x) return;
    const unsigned rounds = 4, per_round = 8; /* 8: the input queue depth */
    uint64_t wake = 1;
    for (unsigned round = 0; round < rounds; round++) {
        for (unsigned i = 0; i < per_round; i++) {
            uint64_t aux = 1 + round * per_round + i;
            simtx_msg note;
            notify_init(&note, NOTIFY_KIND_TEST, 2, false);
            note.size = 128;
            note.aux = 1000 + aux;
            CHECK(taken(crossbar_block_info.accept(x, 1, &note, r.now)));
            notify_init(&note, NOTIFY_KIND_TEST, -1, true);
            note.size = 8;
            memcpy(note.data, &aux, sizeof aux);
            note.aux = aux;
            CHECK(taken(crossbar_block_info.accept(x, 0, &note, r.now)));
        }
        wake = run_as_scheduled(&r, x, r.now + 1, r.now + 200);
    }
    (void)wake;
    const unsigned total = rounds * per_round;
    CHECK_EQUAL(r.count, 4 * total + total);
    for (unsigned core = 0; core < 4; core++) {
        uint64_t previous_unicast = 1000;
        unsigned got[64] = {0};
        for (size_t i = 0; i < r.count; i++) {
            if (r.port[i] != 2 + core) continue;
            uint64_t aux = r.sent[i].aux, carried;
            if (aux > 1000) {
                CHECK_EQUAL(core, 2);
                CHECK_EQUAL(aux, previous_unicast + 1);
                previous_unicast = aux;
                continue;
            }
            memcpy(&carried, r.sent[i].data, sizeof carried);
            CHECK_EQUAL(carried, aux);
            CHECK(aux >= 1 && aux <= total);
            if (aux >= 1 && aux <= total) got[aux]++;
        }
        for (unsigned aux = 1; aux <= total; aux++) CHECK_EQUAL(got[aux], 1);
    }
    CHECK(r.failure[0] == '\0');
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* An output whose receiver refuses, with a one-packet output queue: the
 * first header-only broadcast's copies all cross at cycle 1, and the three
 * free links send theirs at the latency (3); the second one crosses to
 * those three as their queues free (cycle 3) and leaves at 3 + 2, while
 * the refusing core's full queue holds its copy at the input. When core 1
 * takes packets again (cycle 10), its link sends the first broadcast then,
 * the second crosses in that cycle and leaves latency - 1 cycles later. */
static void test_broadcast_past_refusing_output(void)
{
    recorder r;
    crossbar_params p;
    recorder_init(&r);
    params_with(&p, "core");
    p.cores = 2;
    p.partitions = 4;
    p.latency = 3;
    p.output_queue_depth = 1;
    char error[256] = "";
    void *x = crossbar_block_info.create(&p, &r.env, error, sizeof error);
    CHECK(x != NULL);
    if (!x) return;
    const uint64_t latency = (uint64_t)p.latency, refused_until = 10;
    r.refusing = UINT64_C(1) << 3; /* core 1 */
    send_broadcast(x, 0, 1, 0, 0);
    send_broadcast(x, 0, 2, 0, 0);
    uint64_t wake = run_as_scheduled(&r, x, 1, refused_until);
    CHECK_EQUAL(r.count, 6);
    for (unsigned core = 0; core < 4; core++) {
        if (core == 1) continue;
        CHECK_EQUAL(sent_at(&r, 2 + core, 1), latency);
        CHECK_EQUAL(sent_at(&r, 2 + core, 2), latency + latency - 1);
    }
    CHECK_EQUAL(sent_to(&r, 3), 0);
    r.refusing = 0; /* the port frees at cycle 10: the scheduler ticks the crossbar then */
    crossbar_block_info.port_free(x, 3);
    run_as_scheduled(&r, x, wake < refused_until ? wake : refused_until, 40);
    CHECK_EQUAL(r.count, 8);
    CHECK_EQUAL(sent_at(&r, 3, 1), refused_until);
    CHECK_EQUAL(sent_at(&r, 3, 2), refused_until + latency - 1);
    CHECK(r.failure[0] == '\0');
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

/* Two inputs broadcasting at once, two header-only broadcasts each (1 flit,
 * 1 cycle per transfer), all arriving at cycle 0: every output's
 * round-robin alternates between them, one whole broadcast per transfer,
 * input 0's first (the pointers start at port 0). */
static void test_two_broadcasting_inputs(void)
{
    recorder r;
    crossbar_params p;
    void *x = core_mapped(&r, &p);
    if (!x) return;
    send_broadcast(x, 0, 1, 0, 0);
    send_broadcast(x, 0, 3, 0, 0);
    send_broadcast(x, 1, 2, 0, 0);
    send_broadcast(x, 1, 4, 0, 0);
    run_as_scheduled(&r, x, 1, 40);
    CHECK_EQUAL(r.count, 16);
    const uint64_t after = (uint64_t)p.latency - 1;
    for (unsigned core = 0; core < 4; core++) {
        CHECK_EQUAL(sent_to(&r, 2 + core), 4);
        for (uint64_t aux = 1; aux <= 4; aux++) CHECK_EQUAL(sent_at(&r, 2 + core, aux), aux + after); /* crossed at cycle aux */
    }
    CHECK(r.failure[0] == '\0');
    crossbar_block_info.destroy(x);
    simtx_params_release(crossbar_block_info.params, &p);
}

int main(void)
{
    test_broadcast_past_busy_output();
    test_broadcast_past_refusing_output();
    test_two_broadcasting_inputs();
    test_broadcast_message_slots();
    test_core_mapping_unicast();
    test_core_mapping_broadcast();
    test_reply_network_parameters();
    test_bad_configurations();
    test_order_serialization_and_route();
    return simtx_test_summary();
}
