// Block testbench of the crossbar's range mapping: partitions chosen by the
// { base, size } of their netlist bindings, and a request no partition owns
// answered by the crossbar with an address error.
#include <cstring>

#include "block_testbench.hpp"
#include "crossbar.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

static void ranges()
{
    std::vector<simtx_address_range> map = {{1, 0x0, 0x1000}, {2, 0x1000, 0x1000}};
    block_testbench bench(&crossbar_block_info, {{"cores", "1"}, {"partitions", "2"}, {"mapping", "ranges"}},
                          sc_core::sc_time(1, sc_core::SC_NS), map);
    auto &core = bench.initiator(0);
    core.send(request(SIMTX_OP_READ, 0x0800, 32, 1), bench.cycles(0));
    core.send(request(SIMTX_OP_READ, 0x1800, 32, 2), bench.cycles(0));
    core.send(request(SIMTX_OP_READ, 0x9000, 32, 3), bench.cycles(0)); // nobody's
    bench.run();
    CHECK(bench.violations().empty());
    CHECK_EQUAL(core.responses().size(), 3);
    CHECK_EQUAL(bench.target(1).requests().size(), 1);
    CHECK_EQUAL(bench.target(2).requests().size(), 1);
    for (const auto &r : core.responses())
        CHECK_EQUAL(r.msg.status, r.msg.id == 3 ? SIMTX_STATUS_ADDRESS_ERROR : SIMTX_STATUS_OK);
    CHECK_EQUAL(bench.counter("address_errors"), 1);
}

int sc_main(int, char **)
{
    ranges();
    return simtx_test_summary();
}
