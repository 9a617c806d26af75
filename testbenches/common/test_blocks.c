/* Unit tests of the foundation blocks' C cores, without SystemC: the block
 * registry, the trace parser and player, the router and the memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_env.h"
#include "memory.h"
#include "registry.h"
#include "router.h"
#include "test_support.h"
#include "trace_player.h"

static fake_env env; /* large: keep it off the stack */

static void test_registry(void)
{
    size_t count = 0;
    for (const simtx_block_info *const *entry = simtx_registry; *entry; entry++, count++) {
        const simtx_block_info *info = *entry;
        if (entry != simtx_registry) CHECK(strcmp(entry[-1]->name, info->name) < 0); /* sorted, unique */
        CHECK(simtx_registry_find(info->name) == info);
        /* Every block can be created from its defaults. */
        void *params = calloc(1, info->params->struct_size + 1);
        char error[512] = "";
        CHECK(simtx_params_init(info->params, params, error, sizeof error));
        simtx_observer *observer = simtx_observer_create();
        fake_env_init(&env, observer);
        void *core = info->create(params, &env.env, error, sizeof error);
        if (!CHECK(core != NULL)) fprintf(stderr, "%s: %s\n", info->name, error);
        else info->destroy(core);
        simtx_observer_destroy(observer);
        simtx_params_release(info->params, params);
        free(params);
    }
    CHECK(count >= 3);
    CHECK(simtx_registry_find("no_such_block") == NULL);
}

static void test_trace_parser(void)
{
    trace_format format = TRACE_FORMAT_AUTO;
    trace_request r;
    char reason[160];
    CHECK_EQUAL(trace_parse_line("   # comment\n", &format, &r, reason, sizeof reason), 0);
    CHECK_EQUAL(trace_parse_line("\n", &format, &r, reason, sizeof reason), 0);
    CHECK_EQUAL(trace_parse_line("0x1F40 WRITE 17\n", &format, &r, reason, sizeof reason), 1);
    CHECK_EQUAL(format, TRACE_FORMAT_DRAMSIM3);
    CHECK_EQUAL(r.address, 0x1f40);
    CHECK(r.is_write);
    CHECK_EQUAL(r.cycle, 17);
    /* Once DRAMsim3, a Ramulator line is an error. */
    CHECK_EQUAL(trace_parse_line("0x40 R\n", &format, &r, reason, sizeof reason), -1);
    CHECK_CONTAINS(reason, "DRAMsim3 format");
    format = TRACE_FORMAT_AUTO;
    CHECK_EQUAL(trace_parse_line("0x40 R", &format, &r, reason, sizeof reason), 1);
    CHECK_EQUAL(format, TRACE_FORMAT_RAMULATOR);
    CHECK(!r.is_write);
    const char *bad[] = {"40 R", "0x R", "0xZZ R", "0x40 READ", "0x40 X", "0x40 R 1 2 3", "0x40 READ 12x"};
    const char *why[] = {"bad address", "bad address", "bad address", "bad command", "bad command", "too many fields", "expected"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        format = i == 6 ? TRACE_FORMAT_DRAMSIM3 : TRACE_FORMAT_AUTO;
        CHECK_EQUAL(trace_parse_line(bad[i], &format, &r, reason, sizeof reason), -1);
        CHECK_CONTAINS(reason, i == 6 ? "bad cycle" : why[i]);
    }
}

static void *create(const simtx_block_info *info, void *params, const char *const *settings, char *error)
{
    fake_params(info, params, settings);
    fake_env_init(&env, NULL);
    void *core = info->create(params, &env.env, error, 512);
    simtx_params_release(info->params, params);
    return core;
}

static const char *write_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/simtx_trace_%d.trc", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void respond(const simtx_block_info *info, void *core, simtx_msg msg, uint64_t now, simtx_accept_result expected)
{
    simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
    CHECK_EQUAL(info->accept(core, 0, &msg, now), expected);
}

static void test_trace_player(void)
{
    const simtx_block_info *info = &trace_player_block_info;
    trace_player_params params;
    char error[512], setting[128];
    /* A malformed line is reported with file:line before the run. */
    const char *path = write_file("0x40 READ 0\n\n0x80 READ 5\n0x80 RAED 9\n");
    snprintf(setting, sizeof setting, "trace=%s", path);
    const char *bad_settings[] = {setting, NULL};
    CHECK(create(info, &params, bad_settings, error) == NULL);
    char expected[128];
    snprintf(expected, sizeof expected, "%s:4: bad command 'RAED'", path);
    CHECK_CONTAINS(error, expected);
    const char *missing[] = {"trace=/nonexistent/x.trc", NULL};
    CHECK(create(info, &params, missing, error) == NULL);
    CHECK_CONTAINS(error, "cannot open '/nonexistent/x.trc'");

    /* DRAMsim3 cycles are respected, the outstanding limit holds, a refused
     * port blocks until port_free. */
    path = write_file("0x40 WRITE 0\n0x40 READ 0\n0x80 READ 10\n0xc0 READ 10\n");
    snprintf(setting, sizeof setting, "trace=%s", path);
    const char *settings[] = {setting, "max_outstanding=2", "check_data=true", NULL};
    void *core = create(info, &params, settings, error);
    CHECK(core != NULL);
    CHECK_EQUAL(info->cycle(core, 0), 1);
    CHECK_EQUAL(env.sent_count, 1);
    CHECK_EQUAL(env.sent[0].op, SIMTX_OP_WRITE);
    CHECK_EQUAL(info->cycle(core, 1), SIMTX_NEVER); /* two in flight: wait */
    CHECK_EQUAL(env.sent_count, 2);
    CHECK_EQUAL(info->cycle(core, 2), SIMTX_NEVER);
    /* A response needs a tick only when it frees the first slot, or is the last. */
    respond(info, core, env.sent[0], 5, SIMTX_ACCEPTED);
    /* The read must see the write's data: answer with it. */
    simtx_msg read = env.sent[1];
    memcpy(read.data, env.sent[0].data, 64);
    respond(info, core, read, 6, SIMTX_ACCEPTED_NO_TICK);
    CHECK(env.failure[0] == '\0');
    CHECK_EQUAL(info->cycle(core, 7), 10); /* next request waits for cycle 10 */
    env.refuse_ports = 1;
    CHECK_EQUAL(info->cycle(core, 10), SIMTX_NEVER);
    CHECK_EQUAL(env.sent_count, 2);
    env.refuse_ports = 0;
    env.hold_ports = 1; /* the receiver holds the next one: no tick to find the port busy */
    info->port_free(core, 0);
    CHECK_EQUAL(info->cycle(core, 11), SIMTX_NEVER);
    CHECK_EQUAL(env.sent_count, 3);
    env.hold_ports = 0;
    info->port_free(core, 0);
    CHECK_EQUAL(info->cycle(core, 12), SIMTX_NEVER);
    CHECK_EQUAL(env.sent_count, 4);
    CHECK(!info->finished(core));
    /* A read returning the wrong data fails the run. */
    simtx_msg stale = env.sent[2];
    stale.data[0] ^= 1;
    respond(info, core, stale, 20, SIMTX_ACCEPTED);
    CHECK_CONTAINS(env.failure, "read of 0x80 returned data other than the last written");
    respond(info, core, env.sent[3], 21, SIMTX_ACCEPTED);
    CHECK(info->finished(core));
    CHECK(info->progress(core) == 1.0);
    info->destroy(core);
    remove(path);
}

static void test_router(void)
{
    const simtx_block_info *info = &router_block_info;
    router_params params;
    char error[512];
    const char *settings[] = {"inputs=2", "outputs=2", "latency=2", "queue_depth=2", "bytes_per_cycle=32", NULL};
    fake_params(info, &params, settings);
    fake_env_init(&env, NULL);
    /* Ports 0,1 are inputs; 2,3 outputs. */
    simtx_address_range map[] = {{2, 0x0, 0x1000}, {3, 0x1000, 0x1000}};
    env.env.address_map = map;
    env.env.address_map_length = 2;
    void *core = info->create(&params, &env.env, error, sizeof error);
    CHECK(core != NULL);
    simtx_msg a, b, c, stray;
    simtx_msg_init(&a, SIMTX_OP_WRITE, 0x1040, 64); /* 2 flits, to output 1 */
    simtx_msg_init(&b, SIMTX_OP_READ, 0x1080, 64);  /* from the other input, same output */
    simtx_msg_init(&c, SIMTX_OP_READ, 0x0040, 64);  /* to output 0 */
    simtx_msg_init(&stray, SIMTX_OP_READ, 0x9000, 4);
    CHECK_EQUAL(info->accept(core, 0, &a, 0), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 1, &b, 0), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 1, &c, 0), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 1, &stray, 0), SIMTX_BUSY); /* queue of 2 is full */
    CHECK_EQUAL(info->cycle(core, 0), 2);
    CHECK_EQUAL(info->cycle(core, 2), 4); /* a takes output 1 for 2 flits; b waits, c behind b */
    CHECK_EQUAL(env.sent_count, 1);
    CHECK_EQUAL(env.sent_port[0], 3);
    CHECK_EQUAL(env.sent[0].route_depth, 1);
    CHECK_EQUAL(env.sent[0].route[0], 0);
    info->cycle(core, 4);
    info->cycle(core, 5);
    CHECK_EQUAL(env.sent_count, 3);
    CHECK_EQUAL(env.sent_port[1], 3); /* b after a: head-of-line order of input 1 */
    CHECK_EQUAL(env.sent[1].address, 0x1080);
    CHECK_EQUAL(env.sent_port[2], 2);
    /* The response of b comes back on output 1 and goes to input 1. */
    simtx_msg response = env.sent[1];
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    CHECK_EQUAL(info->accept(core, 3, &response, 5), SIMTX_ACCEPTED);
    env.refuse_ports = 1u << 1;
    CHECK_EQUAL(info->cycle(core, 7), SIMTX_NEVER); /* refused: blocked until port_free */
    env.refuse_ports = 0;
    info->port_free(core, 1);
    info->cycle(core, 8);
    CHECK_EQUAL(env.sent_count, 4);
    CHECK_EQUAL(env.sent_port[3], 1);
    CHECK_EQUAL(env.sent[3].route_depth, 0);
    /* An unmapped address is answered by the router with an address error. */
    CHECK_EQUAL(info->accept(core, 0, &stray, 10), SIMTX_ACCEPTED);
    info->cycle(core, 12);
    CHECK_EQUAL(env.sent_count, 5);
    CHECK_EQUAL(env.sent_port[4], 0);
    CHECK(env.sent[4].is_response);
    CHECK_EQUAL(env.sent[4].status, SIMTX_STATUS_ADDRESS_ERROR);
    int forward = -2;
    CHECK_EQUAL(info->debug_access(core, false, 0x1010, NULL, 4, &forward), 0);
    CHECK_EQUAL(forward, 3);
    info->destroy(core);

    /* Interleaving: 256-byte blocks alternate between the outputs. */
    const char *interleaved[] = {"inputs=1", "outputs=2", "interleave=256", NULL};
    core = create(info, &params, interleaved, error);
    CHECK(core != NULL);
    for (unsigned i = 0; i < 4; i++) {
        simtx_msg m;
        simtx_msg_init(&m, SIMTX_OP_READ, i * 256 + 8, 4);
        info->accept(core, 0, &m, 0);
    }
    for (uint64_t now = 1; now < 10; now++) info->cycle(core, now);
    CHECK_EQUAL(env.sent_count, 4);
    for (unsigned i = 0; i < 4; i++) CHECK_EQUAL(env.sent_port[i], 1 + i % 2);
    info->destroy(core);
}

static void test_memory(void)
{
    const simtx_block_info *info = &memory_block_info;
    memory_params params;
    char error[512];
    const char *settings[] = {"latency=5", "bytes_per_cycle=16", "queue_depth=2", "base=0x1000", "size=0x1000", NULL};
    void *core = create(info, &params, settings, error);
    CHECK(core != NULL);
    simtx_msg w, r, x, atomic;
    simtx_msg_init(&w, SIMTX_OP_WRITE, 0x1100, 32);
    for (unsigned i = 0; i < 32; i++) w.data[i] = (uint8_t)(100 + i);
    simtx_msg_init(&r, SIMTX_OP_READ, 0x1100, 32);
    simtx_msg_init(&x, SIMTX_OP_READ, 0x0ff0, 32);
    CHECK_EQUAL(info->accept(core, 0, &w, 0), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 0, &r, 0), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 0, &x, 0), SIMTX_BUSY);
    CHECK_EQUAL(info->cycle(core, 1), 3); /* 32 bytes at 16 per cycle: bus busy 2 cycles */
    CHECK_EQUAL(info->cycle(core, 3), 6);
    CHECK_EQUAL(info->cycle(core, 6), 8);
    CHECK_EQUAL(env.sent_count, 1);
    CHECK(env.sent[0].is_response);
    CHECK_EQUAL(info->cycle(core, 8), SIMTX_NEVER);
    CHECK_EQUAL(env.sent_count, 2);
    CHECK(memcmp(env.sent[1].data, w.data, 32) == 0);
    uint8_t peek[4];
    CHECK(memory_peek(core, 0x1100, peek, 4));
    CHECK_EQUAL(peek[3], 103);
    CHECK(!memory_peek(core, 0x0ffe, peek, 4));
    /* Outside the range, or an op the memory does not know: error responses. */
    simtx_msg_init(&atomic, SIMTX_OP_ROW_COPY, 0x1000, 4);
    CHECK_EQUAL(info->accept(core, 0, &x, 10), SIMTX_ACCEPTED);
    CHECK_EQUAL(info->accept(core, 0, &atomic, 10), SIMTX_ACCEPTED);
    for (uint64_t now = 11; now < 30; now++) info->cycle(core, now);
    CHECK_EQUAL(env.sent_count, 4);
    CHECK_EQUAL(env.sent[2].status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(env.sent[3].status, SIMTX_STATUS_COMMAND_ERROR);
    info->destroy(core);
}

int main(void)
{
    test_registry();
    test_trace_parser();
    test_trace_player();
    test_router();
    test_memory();
    return simtx_test_summary();
}
