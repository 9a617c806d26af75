// Block testbench of the trace player through its socket: synthetic traffic
// against a target with a fixed latency; the outstanding limit is reached and
// never exceeded, every request completes, and the read/write mix follows
// read_percent.
#include <algorithm>

#include "block_testbench.hpp"
#include "test_support.h"
#include "trace_player.h"

using simtx::testing::block_testbench;

int sc_main(int, char **)
{
    const unsigned requests = 400, max_outstanding = 6, latency_cycles = 20;
    block_testbench bench(&trace_player_block_info,
                          {{"synthetic_requests", std::to_string(requests)}, {"max_outstanding", std::to_string(max_outstanding)},
                           {"read_percent", "70"}, {"check_data", "true"}, {"address_range", "8KiB"}});
    bench.target(0).latency = bench.cycles(latency_cycles);
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    const auto &seen = bench.target(0).requests();
    CHECK_EQUAL(seen.size(), requests);
    CHECK_EQUAL(bench.counter("reads") + bench.counter("writes"), requests);
    // 70 % reads, within sampling noise.
    CHECK(bench.counter("reads") > requests * 60 / 100 && bench.counter("reads") < requests * 80 / 100);
    // Requests in flight at each arrival: those that arrived less than the
    // latency earlier (a response leaves the target exactly then).
    size_t most = 0;
    for (size_t i = 0; i < seen.size(); i++) {
        size_t in_flight = 0;
        for (size_t j = 0; j <= i; j++) in_flight += seen[i].time - seen[j].time < bench.cycles(latency_cycles);
        most = std::max(most, in_flight);
    }
    CHECK_EQUAL(most, max_outstanding);
    CHECK(sc_core::sc_time_stamp() >= bench.cycles(requests / max_outstanding * latency_cycles));
    CHECK(bench.dut().finished());
    return simtx_test_summary();
}
