// Block testbench of the router through its sockets: two initiators, two
// targets with address ranges; responses find their way back, data moves,
// unmapped addresses get an address error, a slow target's refusals and a
// slow initiator's held responses (backpressure both ways) lose nothing.
#include <cstring>

#include "block_testbench.hpp"
#include "router.h"
#include "test_support.h"

using simtx::testing::block_testbench;

int sc_main(int, char **)
{
    // Ports: inputs 0,1; outputs 2,3 owning [0, 4K) and [4K, 8K).
    block_testbench bench(&router_block_info, {{"inputs", "2"}, {"outputs", "2"}, {"latency", "2"}, {"queue_depth", "2"}},
                          sc_core::sc_time(1, sc_core::SC_NS), {{2, 0x0, 0x1000}, {3, 0x1000, 0x1000}});
    bench.target(3).capacity = 1; // refuses while busy: the router must hold and retry
    bench.target(3).latency = sc_core::sc_time(7, sc_core::SC_NS);
    bench.initiator(1).response_delay = sc_core::sc_time(4, sc_core::SC_NS);

    const unsigned per_initiator = 24;
    for (unsigned source = 0; source < 2; source++)
        for (unsigned i = 0; i < per_initiator; i++) {
            simtx_msg write;
            uint64_t address = (i % 2 ? 0x1000 : 0x0) + 0x100 * source + 8 * (i / 2);
            simtx_msg_init(&write, SIMTX_OP_WRITE, address, 8);
            for (unsigned b = 0; b < 8; b++) write.data[b] = static_cast<uint8_t>(source * 100 + i + b);
            write.id = source * 1000 + i;
            bench.initiator(source).send(write, bench.cycles(i));
            simtx_msg read = write;
            read.op = SIMTX_OP_READ;
            read.id += 500;
            std::memset(read.data, 0, sizeof read.data);
            bench.initiator(source).send(read, bench.cycles(200 + i));
        }
    simtx_msg stray;
    simtx_msg_init(&stray, SIMTX_OP_READ, 0x8000, 4);
    stray.id = 77;
    bench.initiator(0).send(stray, bench.cycles(400));
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    for (unsigned source = 0; source < 2; source++) {
        const auto &responses = bench.initiator(source).responses();
        CHECK_EQUAL(responses.size(), 2 * per_initiator + (source == 0 ? 1 : 0));
        unsigned reads_checked = 0;
        for (const auto &r : responses) {
            CHECK(r.msg.id / 1000 == source || r.msg.id == 77); // came back to its sender
            CHECK_EQUAL(r.msg.route_depth, 0);
            if (r.msg.id % 1000 >= 500 && r.msg.id != 77) {
                unsigned i = r.msg.id % 1000 - 500;
                bool same = true;
                for (unsigned b = 0; b < 8; b++) same &= r.msg.data[b] == static_cast<uint8_t>(source * 100 + i + b);
                CHECK(same);
                reads_checked++;
            }
        }
        CHECK_EQUAL(reads_checked, per_initiator);
    }
    // Every target saw only its own range.
    for (const auto &r : bench.target(2).requests()) CHECK(r.msg.address < 0x1000);
    for (const auto &r : bench.target(3).requests()) CHECK(r.msg.address >= 0x1000);
    CHECK_EQUAL(bench.target(2).requests().size(), 2 * per_initiator);
    CHECK_EQUAL(bench.counter("address_errors"), 1);
    CHECK_EQUAL(bench.initiator(0).responses().back().msg.status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK(bench.counter("refused_arrivals") > 0); // queues of 2 filled up behind the slow target
    return simtx_test_summary();
}
