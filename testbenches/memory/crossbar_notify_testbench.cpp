// Block testbench of the crossbar as a notify network (mapping = core):
// a unicast notification reaches its core's output only, a broadcast one
// every output, neither is answered, each copy is one packet on its output
// link, and the base protocol stays clean with posted requests. A broadcast
// crosses the switch to every free output in one transfer; an output busy
// with a unicast transfer takes its copy when that ends, without holding
// the others back.
#include "block_testbench.hpp"
#include "crossbar.h"
#include "notify.h"
#include "test_support.h"

using simtx::testing::block_testbench;

static void notify_network()
{
    // Ports: partitions 0, 1 (inputs); cores 2, 3, 4 (outputs).
    const uint64_t latency = 4, flit_bytes = 32, header_bytes = 8;
    block_testbench bench(&crossbar_block_info, {{"cores", "2"}, {"partitions", "3"}, {"mapping", "core"}, {"latency", std::to_string(latency)}});
    auto &partition0 = bench.initiator(0), &partition1 = bench.initiator(1);
    // A unicast for core 1 of 8 + 128 bytes (5 flits) arrives at cycle 0,
    // crosses at 1 and holds core 1's switch port and link for 5 cycles; a
    // broadcast of 8 + 64 bytes (3 flits) arrives at cycle 2.
    const uint64_t unicast_flits = (header_bytes + 128 + flit_bytes - 1) / flit_bytes;
    const uint64_t broadcast_flits = (header_bytes + 64 + flit_bytes - 1) / flit_bytes;
    const uint64_t unicast_arrival = 0, broadcast_arrival = 2;
    simtx_msg unicast;
    notify_init(&unicast, NOTIFY_KIND_TEST, 1, false);
    unicast.aux = 21;
    unicast.size = 128;
    partition0.send(unicast, bench.cycles(unicast_arrival));
    simtx_msg broadcast;
    notify_init(&broadcast, NOTIFY_KIND_TEST, -1, true);
    broadcast.aux = 22;
    broadcast.size = 64;
    partition1.send(broadcast, bench.cycles(broadcast_arrival));
    bench.run();

    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    // Cores 0 and 2 get their copies in the same cycle, at the latency after
    // arrival; core 1 once the unicast's transfer (crossed at cycle 1) ends
    // and its copy's traversal from there.
    const uint64_t unicast_crossing = unicast_arrival + 1;
    for (unsigned core = 0; core < 3; core++) {
        const auto &got = bench.target(2 + core).requests();
        CHECK_EQUAL(got.size(), core == 1 ? 2 : 1);
        for (const auto &n : got) {
            CHECK_EQUAL(n.msg.op, SIMTX_OP_NOTIFY);
            CHECK(n.msg.aux == 22 || (core == 1 && n.msg.aux == 21));
            uint64_t expected = n.msg.aux == 21 ? unicast_arrival + latency
                                : core == 1     ? unicast_crossing + unicast_flits + latency - 1
                                                : broadcast_arrival + latency;
            CHECK(n.time == bench.cycles(expected));
            if (n.time != bench.cycles(expected))
                std::fprintf(stderr, "core %u, aux %llu: at %s, expected cycle %llu\n", core, (unsigned long long)n.msg.aux,
                             n.time.to_string().c_str(), (unsigned long long)expected);
        }
    }
    CHECK(partition0.responses().empty() && partition1.responses().empty());
    CHECK_EQUAL(partition0.pending() + partition1.pending(), 0);
    // One copy per output it reaches, each counted on its output link.
    CHECK_EQUAL(bench.counter("request_packets"), 4);
    CHECK_EQUAL(bench.counter("request_flits"), unicast_flits + 3 * broadcast_flits);
    CHECK_EQUAL(bench.counter("request_arbitration_losses"), 0);
    CHECK_EQUAL(bench.counter("reply_packets"), 0);
}

// Two partitions broadcasting header-only notifications (1 flit, 1 cycle
// per transfer), two each, all arriving at cycle 0: each core's output
// alternates between them, one whole broadcast crossing per cycle, and the
// losing partition's ready head loses once per output.
static void two_broadcasters()
{
    const uint64_t latency = 3;
    block_testbench bench(&crossbar_block_info, {{"cores", "2"}, {"partitions", "3"}, {"mapping", "core"}, {"latency", std::to_string(latency)}});
    for (uint64_t k = 0; k < 4; k++) {
        simtx_msg broadcast;
        notify_init(&broadcast, NOTIFY_KIND_TEST, -1, true);
        broadcast.aux = k; // partition k % 2, its (k / 2)-th
        bench.initiator(k % 2).send(broadcast, bench.cycles(0));
    }
    bench.run();
    CHECK(bench.violations().empty());
    for (unsigned core = 0; core < 3; core++) {
        const auto &got = bench.target(2 + core).requests();
        CHECK_EQUAL(got.size(), 4);
        for (size_t i = 0; i < got.size(); i++) {
            CHECK_EQUAL(got[i].msg.aux, i);                         // alternating, partition 0 first
            CHECK(got[i].time == bench.cycles(i + 1 + latency - 1)); // crossed at cycle i + 1
        }
    }
    CHECK_EQUAL(bench.counter("request_packets"), 12);
    CHECK_EQUAL(bench.counter("request_flits"), 12);
    // Cycles 1-3: a ready head loses at each of the 3 outputs.
    CHECK_EQUAL(bench.counter("request_arbitration_losses"), 9);
}

// One scenario per run (SystemC elaborates once): "two_broadcasters" or the first.
int sc_main(int argc, char **argv)
{
    if (argc > 1 && std::string(argv[1]) == "two_broadcasters") two_broadcasters();
    else notify_network();
    return simtx_test_summary();
}
