// Block testbench of the crossbar as a notify network (mapping = core):
// a unicast notification reaches its core's output only, a broadcast one
// every output, neither is answered, each copy is one packet on its output
// link, and the base protocol stays clean with posted requests.
#include "block_testbench.hpp"
#include "crossbar.h"
#include "notify.h"
#include "test_support.h"

using simtx::testing::block_testbench;

static void notify_network()
{
    // Ports: partitions 0, 1 (inputs); cores 2, 3, 4 (outputs).
    block_testbench bench(&crossbar_block_info, {{"cores", "2"}, {"partitions", "3"}, {"mapping", "core"}, {"latency", "4"}});
    auto &partition0 = bench.initiator(0), &partition1 = bench.initiator(1);
    simtx_msg unicast;
    notify_init(&unicast, NOTIFY_KIND_TEST, 1, false);
    unicast.aux = 21;
    partition0.send(unicast, bench.cycles(0));
    simtx_msg broadcast;
    notify_init(&broadcast, NOTIFY_KIND_TEST, -1, true);
    broadcast.aux = 22;
    partition1.send(broadcast, bench.cycles(2));
    bench.run();

    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    for (unsigned core = 0; core < 3; core++) {
        const auto &got = bench.target(2 + core).requests();
        CHECK_EQUAL(got.size(), core == 1 ? 2 : 1);
        for (const auto &n : got) {
            CHECK_EQUAL(n.msg.op, SIMTX_OP_NOTIFY);
            CHECK(n.msg.aux == 22 || (core == 1 && n.msg.aux == 21));
            CHECK(n.time >= bench.cycles(4));
        }
    }
    CHECK(partition0.responses().empty() && partition1.responses().empty());
    CHECK_EQUAL(partition0.pending() + partition1.pending(), 0);
    // One copy per output it reaches, each a header-only packet of 1 flit.
    CHECK_EQUAL(bench.counter("request_packets"), 4);
    CHECK_EQUAL(bench.counter("request_flits"), 4);
    CHECK_EQUAL(bench.counter("reply_packets"), 0);
}

int sc_main(int, char **)
{
    notify_network();
    return simtx_test_summary();
}
