// Block testbench of the memory target through its TLM socket: data written
// then read back, latency and bus bandwidth, queue backpressure, address
// errors, and a clean base protocol throughout.
#include <cstring>

#include "block_testbench.hpp"
#include "memory.h"
#include "test_support.h"

using simtx::testing::block_testbench;

int sc_main(int, char **)
{
    // Queue of 4, 10-cycle latency, 32 bytes per cycle at 1 GHz.
    block_testbench bench(&memory_block_info, {{"latency", "10"}, {"queue_depth", "4"}, {"bytes_per_cycle", "32"}, {"size", "1MiB"}});
    auto &host = bench.initiator(0);
    host.response_delay = sc_core::sc_time(3, sc_core::SC_NS); // responses also back-pressured

    simtx_msg write;
    simtx_msg_init(&write, SIMTX_OP_WRITE, 0x100, 64);
    for (unsigned i = 0; i < 64; i++) write.data[i] = static_cast<uint8_t>(i * 7 + 1);
    write.id = 1;
    host.send(write, bench.cycles(0));
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x100, 64);
    read.id = 2;
    host.send(read, bench.cycles(1));
    // Twelve reads at once: more than the queue holds.
    for (unsigned i = 0; i < 12; i++) {
        simtx_msg burst;
        simtx_msg_init(&burst, SIMTX_OP_READ, 0x1000 + 64 * i, 64);
        burst.id = 100 + i;
        host.send(burst, bench.cycles(100));
    }
    simtx_msg outside;
    simtx_msg_init(&outside, SIMTX_OP_READ, 0x100000 - 32, 64); // straddles the end
    outside.id = 3;
    host.send(outside, bench.cycles(400));
    bench.run();

    const auto &responses = host.responses();
    CHECK_EQUAL(responses.size(), 15);
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    // In order: write, read (same data back), burst, then the address error.
    CHECK_EQUAL(responses[0].msg.id, 1);
    CHECK_EQUAL(responses[1].msg.id, 2);
    CHECK(std::memcmp(responses[1].msg.data, write.data, 64) == 0);
    CHECK_EQUAL(responses[1].msg.status, SIMTX_STATUS_OK);
    // The write is served at the first edge after arrival (cycle 1) and
    // answered 10 cycles later.
    CHECK_EQUAL(responses[0].time.value(), bench.cycles(11).value());
    // 64 bytes take 2 bus cycles: the burst completes one read per 2 cycles
    // once the pipeline is full, never faster.
    for (unsigned i = 3; i < 14; i++) {
        CHECK_EQUAL(responses[i].msg.id, 100 + i - 2);
        CHECK(responses[i].time - responses[i - 1].time >= bench.cycles(2));
    }
    CHECK(bench.counter("refused_arrivals") > 0); // the queue of 4 pushed back
    CHECK_EQUAL(responses[14].msg.id, 3);
    CHECK_EQUAL(responses[14].msg.status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(bench.counter("reads"), 13);
    CHECK_EQUAL(bench.counter("writes"), 1);
    CHECK_EQUAL(bench.counter("address_errors"), 1);

    // Blocks speak the non-blocking protocol only: a blocking call is a
    // reported error answered with an error status, not a hang.
    tlm::tlm_generic_payload blocking;
    blocking.set_command(tlm::TLM_READ_COMMAND);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bool reported = false;
    try {
        bench.dut().target(0).get_base_interface().b_transport(blocking, delay);
    } catch (const sc_core::sc_report &report) {
        reported = std::strstr(report.what(), "blocking transport is not supported") != nullptr;
    }
    CHECK(reported);
    CHECK_EQUAL(blocking.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
    return simtx_test_summary();
}
