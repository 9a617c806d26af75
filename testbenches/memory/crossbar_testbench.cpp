// Block testbench of the crossbar through its TLM sockets: address-
// interleaved mapping of two cores onto two partitions, replies routed back
// to the requesting core, traversal latency, flit serialization on a port,
// input-queue backpressure, address errors in range mapping, and a clean
// base protocol throughout.
#include <cstring>

#include "block_testbench.hpp"
#include "crossbar.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

static void interleaved()
{
    // Ports: cores 0, 1; partitions 2, 3. 32-byte flits, 8-byte headers.
    block_testbench bench(&crossbar_block_info, {{"cores", "2"}, {"partitions", "2"}, {"interleave", "256"}, {"latency", "5"},
                                                 {"input_queue_depth", "2"}, {"output_queue_depth", "2"}});
    auto &core0 = bench.initiator(0), &core1 = bench.initiator(1);
    auto &part0 = bench.target(2), &part1 = bench.target(3);
    part0.latency = part1.latency = bench.cycles(10);
    uint8_t data[128];
    for (unsigned i = 0; i < 128; i++) data[i] = static_cast<uint8_t>(i + 9);
    sparse_memory_write(part1.memory(), 0x100, data, 128);

    core0.send(request(SIMTX_OP_READ, 0x000, 64, 1), bench.cycles(0));  // partition 0
    core0.send(request(SIMTX_OP_READ, 0x100, 128, 2), bench.cycles(0)); // partition 1
    simtx_msg write = request(SIMTX_OP_WRITE, 0x200, 128, 3);            // partition 0 again (0x200/256 = 2)
    std::memcpy(write.data, data, 128);
    core1.send(write, bench.cycles(0));
    // Eight 128-byte writes from core 1 to partition 1: (8 + 128) / 32 = 5
    // flits each, so they leave the crossbar at most one per 5 cycles; the
    // small queues push back on the sender.
    for (unsigned i = 0; i < 8; i++) {
        simtx_msg w = request(SIMTX_OP_WRITE, 0x1100 + 0x200 * i, 128, 10 + i);
        std::memcpy(w.data, data, 128);
        core1.send(w, bench.cycles(100));
    }
    bench.run();

    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK_EQUAL(core0.responses().size(), 2);
    CHECK_EQUAL(core1.responses().size(), 9);
    CHECK_EQUAL(part0.requests().size(), 2);
    CHECK_EQUAL(part1.requests().size(), 9);
    for (const auto &r : core0.responses()) {
        CHECK(r.msg.id == 1 || r.msg.id == 2);
        CHECK_EQUAL(r.msg.route_depth, 0);
        // Two traversals of 5 cycles and the target's 10.
        CHECK(r.time >= bench.cycles(5 + 10 + 5));
        if (r.msg.id == 2) CHECK(std::memcmp(r.msg.data, data, 128) == 0);
    }
    uint8_t stored[128];
    sparse_memory_read(part0.memory(), 0x200, stored, 128);
    CHECK(std::memcmp(stored, data, 128) == 0);
    const auto &burst = part1.requests();
    for (size_t i = 2; i < burst.size(); i++) CHECK(burst[i].time - burst[i - 1].time >= bench.cycles(5));
    CHECK(bench.counter("refused_arrivals") > 0);
    CHECK_EQUAL(bench.counter("request_packets"), 11);
    CHECK_EQUAL(bench.counter("reply_packets"), 11);
    // Flits: requests: 2 reads x 1 + 9 writes x 5; replies: reads of 64 and
    // 128 bytes (3 + 5) + 9 write acknowledgements x 1.
    CHECK_EQUAL(bench.counter("request_flits"), 2 + 9 * 5);
    CHECK_EQUAL(bench.counter("reply_flits"), 3 + 5 + 9);

    // Debug reads reach the owning partition; one spanning two is refused.
    uint8_t view[128] = {0};
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x100, view, 128), 128);
    CHECK(std::memcmp(view, data, 128) == 0);
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x1F0, view, 32), 0);
}

int sc_main(int, char **)
{
    interleaved();
    return simtx_test_summary();
}
