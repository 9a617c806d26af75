// Block testbench of a peer network (models/protocols/peer.h): a crossbar
// instance with mapping = ranges between three partitions' blocks (the test
// initiators) and one central table at a reserved range (the test target:
// a fetch-and-add counter, as a logical timestamp table hands out
// timestamps). Checked under the protocol checkers: every request reaches
// the table and its response the partition that sent it, with its data;
// the table hands out each value once; an address outside the table's
// range is answered with an address error by the network.
#include <cstring>
#include <set>

#include "block_testbench.hpp"
#include "crossbar.h"
#include "peer.h"
#include "test_support.h"

using simtx::testing::block_testbench;

namespace {

constexpr unsigned partitions = 3, per_partition = 8;
constexpr uint64_t table = 0x7f000000; // the central table's reserved range

} // namespace

int sc_main(int, char **)
{
    std::vector<simtx_address_range> map = {{partitions, table, 0x100}};
    block_testbench bench(&crossbar_block_info,
                          {{"cores", std::to_string(partitions)}, {"partitions", "1"}, {"mapping", "ranges"}, {"latency", "2"}},
                          sc_core::sc_time(1, sc_core::SC_NS), map);
    uint64_t next = 0; // the table's counter
    auto &central = bench.target(partitions);
    central.latency = sc_core::sc_time(3, sc_core::SC_NS);
    central.behaviour = [&](simtx_msg &msg) {
        CHECK_EQUAL(msg.op, SIMTX_OP_PEER);
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        uint64_t increment = msg.aux;
        msg.aux = next; // the data stay: the response echoes them
        next += increment;
    };
    for (unsigned p = 0; p < partitions; p++)
        for (unsigned k = 0; k < per_partition; k++) {
            simtx_msg msg;
            peer_request_init(&msg, table, 100 * p + k);
            msg.aux = 1;
            msg.size = 8;
            uint64_t tag = UINT64_C(0xabc0000) | (uint64_t)(p << 8 | k);
            std::memcpy(msg.data, &tag, 8);
            bench.initiator(p).send(msg, bench.cycles(k + p));
        }
    simtx_msg stray;
    peer_request_init(&stray, table + 0x1000, 999);
    bench.initiator(0).send(stray, bench.cycles(1));
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    CHECK_EQUAL(central.requests().size(), partitions * per_partition);
    std::set<uint64_t> values;
    for (unsigned p = 0; p < partitions; p++) {
        const auto &responses = bench.initiator(p).responses();
        CHECK_EQUAL(responses.size(), per_partition + (p == 0));
        for (const auto &r : responses) {
            if (r.msg.id == 999) {
                CHECK_EQUAL(r.msg.status, SIMTX_STATUS_ADDRESS_ERROR);
                continue;
            }
            CHECK_EQUAL(r.msg.status, SIMTX_STATUS_OK);
            CHECK_EQUAL(r.msg.id / 100, p); // back to its sender
            uint64_t tag = 0;
            std::memcpy(&tag, r.msg.data, 8);
            CHECK_EQUAL(tag, UINT64_C(0xabc0000) | (uint64_t)(p << 8 | (r.msg.id % 100)));
            CHECK(r.time > bench.cycles(2 * 2)); // the network's latency each way
            values.insert(r.msg.aux);
        }
    }
    CHECK_EQUAL(values.size(), partitions * per_partition); // each value handed out once
    CHECK_EQUAL(*values.rbegin(), partitions * per_partition - 1);
    CHECK_EQUAL(next, partitions * per_partition);
    CHECK_EQUAL(bench.counter("address_errors"), 1);
    return simtx_test_summary();
}
