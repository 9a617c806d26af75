// The trace player's data check (check_data) when the memory refuses writes
// with an error response: a refused write never happened, so reads in flight
// at the time and later reads expect the data of the last write that did,
// also when several writes over the same bytes are in flight at once.
#include "block_testbench.hpp"
#include "test_support.h"
#include "trace_player.h"

using simtx::testing::block_testbench;

int sc_main(int, char **)
{
    block_testbench bench(&trace_player_block_info, {{"trace", "testbenches/traffic/traces/refused_writes.trc"},
                                                      {"max_outstanding", "16"}, {"check_data", "true"}});
    sparse_memory *memory = sparse_memory_create();
    unsigned writes = 0;
    bench.target(0).latency = bench.cycles(30); // every request is issued before the first response
    bench.target(0).behaviour = [&](simtx_msg &msg) {
        if (msg.op == SIMTX_OP_READ) {
            sparse_memory_read(memory, msg.address, msg.data, msg.size);
        } else {
            writes++;
            if (writes == 2 || writes == 3 || writes == 5) {
                simtx_msg_make_response(&msg, SIMTX_STATUS_ADDRESS_ERROR);
                return;
            }
            sparse_memory_write(memory, msg.address, msg.data, msg.size);
        }
    };
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    CHECK_STRING(simtx::block_module::run_error().c_str(), "");
    CHECK_EQUAL(bench.counter("error_responses"), 3);
    CHECK_EQUAL(bench.counter("reads"), 5);
    CHECK(bench.dut().finished());
    sparse_memory_destroy(memory);
    return simtx_test_summary();
}
