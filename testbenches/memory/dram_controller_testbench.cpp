// Block testbench of dram_controller through its TLM socket: a write, a
// read of it, a RowClone FPM copy and a PSM copy with reads of the copies,
// responses at the cycles the GDDR5 timing gives, backpressure on a full
// queue, a clean base protocol, and the timing checker finding nothing.
#include <cstring>

#include "block_testbench.hpp"
#include "dram_controller.h"
#include "test_support.h"

using simtx::testing::block_testbench;

static uint64_t address(block_testbench &bench, unsigned bank, unsigned row, unsigned column)
{
    dram_location l{};
    l.bank = bank;
    l.row = row;
    l.column = column;
    return dram_address_compose(dram_controller_address_map(static_cast<dram_controller *>(bench.core())), &l, 0);
}

int sc_main(int, char **)
{
    // 1 ns clock: cycles and nanoseconds coincide in the checks below.
    block_testbench bench(&dram_controller_block_info, {{"check_timing", "true"}, {"queue_depth", "4"}});
    auto &host = bench.initiator(0);
    host.response_delay = sc_core::sc_time(2, sc_core::SC_NS); // responses back-pressured too

    simtx_msg write;
    simtx_msg_init(&write, SIMTX_OP_WRITE, address(bench, 3, 64, 8), 64);
    for (unsigned i = 0; i < 64; i++) write.data[i] = static_cast<uint8_t>(i * 5 + 3);
    write.id = 1;
    host.send(write, bench.cycles(0));
    simtx_msg read = write;
    read.op = SIMTX_OP_READ;
    read.id = 2;
    host.send(read, bench.cycles(1));
    // FPM: row 64 -> row 100 of bank 3 (subarray 1), then read the copy.
    simtx_msg copy;
    simtx_msg_init(&copy, SIMTX_OP_ROW_COPY, address(bench, 3, 64, 0), 2048);
    copy.aux = address(bench, 3, 100, 0);
    copy.id = 3;
    host.send(copy, bench.cycles(100));
    simtx_msg read_copy = read;
    read_copy.address = address(bench, 3, 100, 8);
    read_copy.id = 4;
    host.send(read_copy, bench.cycles(101));
    // PSM: bank 3 row 100 -> bank 9 row 7, then read it.
    simtx_msg psm = copy;
    psm.address = address(bench, 3, 100, 0);
    psm.aux = address(bench, 9, 7, 0);
    psm.id = 5;
    host.send(psm, bench.cycles(400));
    simtx_msg read_psm = read;
    read_psm.address = address(bench, 9, 7, 8);
    read_psm.id = 6;
    host.send(read_psm, bench.cycles(401));
    // Eight reads at once into a queue of four.
    for (unsigned i = 0; i < 8; i++) {
        simtx_msg burst;
        simtx_msg_init(&burst, SIMTX_OP_READ, address(bench, i % 16, 5, 0), 64);
        burst.id = 100 + i;
        host.send(burst, bench.cycles(1000));
    }
    bench.run();

    const auto &responses = host.responses();
    CHECK_EQUAL(responses.size(), 14);
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK_EQUAL(bench.counter("timing_violations"), 0);
    CHECK(bench.counter("checked_commands") > 100);
    const simtx_msg *by_id[128] = {};
    sc_core::sc_time at[128];
    for (const auto &r : responses) {
        if (r.msg.id < 128) {
            by_id[r.msg.id] = &r.msg;
            at[r.msg.id] = r.time;
        }
    }
    for (unsigned id : {1u, 2u, 3u, 4u, 5u, 6u}) {
        if (!CHECK(by_id[id] != nullptr)) return simtx_test_summary();
        CHECK_EQUAL(by_id[id]->status, SIMTX_STATUS_OK);
    }
    CHECK(std::memcmp(by_id[2]->data, write.data, 64) == 0);
    CHECK(std::memcmp(by_id[4]->data, write.data, 64) == 0);
    CHECK(std::memcmp(by_id[6]->data, write.data, 64) == 0);
    // Write to a closed bank: seen at the first edge (cycle 1), ACT, WR at
    // tRCD, second burst tCCDL later, data done tWL + burst after.
    CHECK_EQUAL(at[1].value(), bench.cycles(1 + 12 + 3 + 4 + 2).value());
    // FPM: the bank holds row 64 open from the write, so the copy is ACT-free
    // at first: PRE is not needed; COPY_ACT at tRAS after that ACT, PRE
    // tRAS later, done tRP after. From arrival it takes at most 2 tRAS + tRP
    // plus the cycle to see it.
    CHECK(at[3] - bench.cycles(100) <= bench.cycles(1 + 2 * 26 + 12));
    CHECK(at[3] - bench.cycles(100) >= bench.cycles(26 + 12));
    // PSM of 64 bursts takes far longer than FPM.
    CHECK(at[5] - bench.cycles(400) > bench.cycles(64 * 3));
    CHECK_EQUAL(bench.counter("row_copies_fpm"), 1);
    CHECK_EQUAL(bench.counter("row_copies_psm"), 1);
    CHECK(bench.counter("refused_arrivals") > 0); // the queue of 4 pushed back
    CHECK_EQUAL(bench.counter("reads"), 11);
    CHECK_EQUAL(bench.counter("writes"), 1);
    return simtx_test_summary();
}
