// Block testbench of the L2 slice through its TLM sockets: write-allocate
// without a fetch, read hit and miss (data from the next level), clean with
// the writeback reaching the next level before the answer, MSHR and queue
// backpressure against a slow next level, debug accesses returning dirty
// data, and a clean base protocol throughout.
#include <cstring>

#include "block_testbench.hpp"
#include "l2_cache.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

int sc_main(int, char **)
{
    // 4 KB, 2 ways, 4 MSHRs; next level: 40 cycles, 2 requests at a time.
    block_testbench bench(&l2_cache_block_info, {{"size", "4KiB"}, {"associativity", "2"}, {"mshr_entries", "4"},
                                                 {"hit_latency", "4"}, {"input_queue_depth", "2"}});
    auto &host = bench.initiator(0);
    auto &dram = bench.target(1);
    dram.latency = bench.cycles(40);
    dram.capacity = 2;

    uint8_t old_data[128];
    for (unsigned i = 0; i < 128; i++) old_data[i] = static_cast<uint8_t>(i ^ 0x5A);
    sparse_memory_write(dram.memory(), 0x2000, old_data, 128);

    simtx_msg write = request(SIMTX_OP_WRITE, 0x1000, 128, 1);
    for (unsigned i = 0; i < 128; i++) write.data[i] = static_cast<uint8_t>(i * 5 + 3);
    host.send(write, bench.cycles(0));
    host.send(request(SIMTX_OP_READ, 0x1040, 64, 2), bench.cycles(1));   // hit on the written line
    host.send(request(SIMTX_OP_READ, 0x2000, 128, 3), bench.cycles(2));  // miss
    host.send(request(SIMTX_OP_CLEAN_LINE, 0x1000, 0, 4), bench.cycles(200));
    // Sixteen misses to distinct lines at once: more than the MSHRs, queues
    // and the next level take.
    for (unsigned i = 0; i < 16; i++) host.send(request(SIMTX_OP_READ, 0x10000 + 128 * i, 32, 100 + i), bench.cycles(400));
    bench.run();

    const auto &responses = host.responses();
    CHECK_EQUAL(responses.size(), 20);
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    auto find = [&](uint64_t id) -> const simtx::testing::timed_msg * {
        for (const auto &r : responses)
            if (r.msg.id == id) return &r;
        return nullptr;
    };
    const auto *hit = find(2), *miss = find(3), *clean = find(4);
    CHECK(hit && std::memcmp(hit->msg.data, write.data + 64, 64) == 0);
    CHECK(miss && std::memcmp(miss->msg.data, old_data, 128) == 0);
    if (hit && miss) {
        CHECK(hit->time >= bench.cycles(1 + 4));  // at least the hit latency
        CHECK(miss->time >= bench.cycles(2 + 40)); // at least the next level's latency
    }
    // The write allocated without a fetch: the next level saw only the fill
    // of 0x2000 before the clean's writeback.
    const auto &seen = dram.requests();
    CHECK(!seen.empty() && seen[0].msg.op == SIMTX_OP_READ && seen[0].msg.address == 0x2000);
    const simtx::testing::timed_msg *writeback = nullptr;
    for (const auto &r : seen)
        if (r.msg.op == SIMTX_OP_WRITE && r.msg.address == 0x1000) writeback = &r;
    CHECK(writeback != nullptr);
    if (writeback && clean) {
        CHECK(std::memcmp(writeback->msg.data, write.data, 128) == 0);
        CHECK(clean->time >= writeback->time + dram.latency); // answered after the acknowledgement
    }
    uint8_t stored[128];
    sparse_memory_read(dram.memory(), 0x1000, stored, 128);
    CHECK(std::memcmp(stored, write.data, 128) == 0);
    for (unsigned i = 0; i < 16; i++) CHECK(find(100 + i) != nullptr);
    CHECK(bench.counter("reservation_fails_mshr") + bench.counter("stalls_queue") > 0);
    CHECK_EQUAL(bench.counter("hits"), 1);
    CHECK_EQUAL(bench.counter("cleans"), 1);

    // Debug accesses: a dirty line's data comes from the cache, and a debug
    // write reaches both the cached copy and the next level.
    simtx_msg dirty = request(SIMTX_OP_WRITE, 0x1000, 32, 5);
    std::memset(dirty.data, 0x77, 32);
    host.send(dirty, sc_core::sc_time_stamp() + bench.cycles(1));
    bench.run();
    uint8_t view[32] = {0};
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x1000, view, 32), 32);
    CHECK_EQUAL(view[0], 0x77);
    CHECK_EQUAL(view[31], 0x77);
    uint8_t poke[4] = {1, 2, 3, 4};
    CHECK_EQUAL(bench.dut().debug_transport(true, 0x1004, poke, 4), 4);
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x1004, view, 4), 4);
    CHECK(std::memcmp(view, poke, 4) == 0);
    sparse_memory_read(dram.memory(), 0x1004, stored, 4);
    CHECK(std::memcmp(stored, poke, 4) == 0);
    // A line only partly cached: the debug read of the whole line takes the
    // next level's bytes and lays the dirty sector held here over them.
    simtx_msg sector = request(SIMTX_OP_WRITE, 0x3020, 32, 6);
    std::memset(sector.data, 0x99, 32);
    uint8_t below[128];
    std::memset(below, 0x11, sizeof below);
    sparse_memory_write(dram.memory(), 0x3000, below, 128);
    host.send(sector, sc_core::sc_time_stamp() + bench.cycles(1));
    bench.run();
    uint8_t line[128];
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x3000, line, 128), 128);
    CHECK_EQUAL(line[0x1F], 0x11);
    CHECK_EQUAL(line[0x20], 0x99);
    CHECK_EQUAL(line[0x3F], 0x99);
    CHECK_EQUAL(line[0x40], 0x11);
    return simtx_test_summary();
}
