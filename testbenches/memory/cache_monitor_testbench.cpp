// Block testbench of the caches' monitor port (models/protocols/monitor.h):
// a sink bound to the monitor socket of an L1 (argument "l1") or an L2
// slice (default) records the events of a known access sequence, which must
// be exactly the expected hits, misses, evictions and writebacks, with
// their lines, sets, ways and the core of the access that caused them, and
// agree with the cache's statistics.
#include <cstring>
#include <string>
#include <vector>

#include "block_testbench.hpp"
#include "l1_cache.h"
#include "l2_cache.h"
#include "monitor.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

namespace {

struct expected_event {
    simtx_op op;
    uint64_t line;
    unsigned way;
    uint64_t bits; // MONITOR_DIRTY / MONITOR_WRITE
};

constexpr unsigned monitor_port = 2;

// One access every 100 cycles, so that each finishes (fill included) before
// the next: the events then follow the order of the accesses.
void play(block_testbench &bench, const std::vector<simtx_msg> &accesses)
{
    for (size_t i = 0; i < accesses.size(); i++) bench.initiator(0).send(accesses[i], bench.cycles(100 * i));
    bench.run();
}

simtx_msg access(simtx_op op, uint64_t address, uint32_t size, uint64_t id)
{
    simtx_msg msg = request(op, address, size, id);
    msg.core = 5;
    msg.warp = 3;
    for (unsigned i = 0; i < size; i++) msg.data[i] = static_cast<uint8_t>(id + i);
    return msg;
}

simtx_msg logged(simtx_msg msg)
{
    msg.flags = SIMTX_FLAG_PM_LOG;
    return msg;
}

void check_events(block_testbench &bench, const std::vector<expected_event> &expected)
{
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    const auto &events = bench.target(monitor_port).requests();
    CHECK_EQUAL(events.size(), expected.size());
    for (size_t i = 0; i < events.size() && i < expected.size(); i++) {
        const simtx_msg &e = events[i].msg;
        if (e.op != expected[i].op || e.address != expected[i].line)
            std::fprintf(stderr, "event %zu: %s at 0x%llx, expected %s at 0x%llx\n", i, simtx_op_name(static_cast<simtx_op>(e.op)),
                         static_cast<unsigned long long>(e.address), simtx_op_name(expected[i].op),
                         static_cast<unsigned long long>(expected[i].line));
        CHECK_EQUAL(e.op, expected[i].op);
        CHECK_EQUAL(e.address, expected[i].line);
        CHECK_EQUAL(e.size, 128);
        CHECK_EQUAL(monitor_set(&e), 0); // one set in use: every line maps to set 0
        CHECK_EQUAL(monitor_way(&e), expected[i].way);
        CHECK_EQUAL(e.aux & (MONITOR_DIRTY | MONITOR_WRITE), expected[i].bits);
        CHECK_EQUAL(e.core, 5);
        CHECK_EQUAL(e.warp, 3);
    }
}

// Write-back, write-allocate: 2 sets x 2 ways of 128 B (lines 0x000,
// 0x100, 0x200, 0x400 all fall in set 0).
void l2()
{
    block_testbench bench(&l2_cache_block_info, {{"size", "512"}, {"associativity", "2"}, {"line_size", "128"}});
    play(bench, {
        access(SIMTX_OP_READ, 0x000, 64, 1),   // miss, way 0
        access(SIMTX_OP_READ, 0x020, 32, 2),   // hit (a sector the miss fetched)
        access(SIMTX_OP_WRITE, 0x100, 128, 3), // whole line: allocated without a fetch, way 1
        access(SIMTX_OP_WRITE, 0x200, 128, 4), // evicts 0x000 (least recently used, clean)
        access(SIMTX_OP_READ, 0x400, 32, 5),   // evicts 0x100, dirty: its writeback goes first
        access(SIMTX_OP_WRITE, 0x200, 4, 6),   // hit on the written line
    });
    check_events(bench, {
        {SIMTX_OP_MONITOR_MISS, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_HIT, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_MISS, 0x100, 1, MONITOR_WRITE},
        {SIMTX_OP_MONITOR_EVICT, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_MISS, 0x200, 0, MONITOR_WRITE},
        {SIMTX_OP_MONITOR_EVICT, 0x100, 1, MONITOR_DIRTY},
        {SIMTX_OP_MONITOR_WRITEBACK, 0x100, 1, 0},
        {SIMTX_OP_MONITOR_MISS, 0x400, 1, 0},
        {SIMTX_OP_MONITOR_HIT, 0x200, 0, MONITOR_WRITE},
    });
    // The writeback the event announced reached the next level.
    bool written_back = false;
    for (const auto &r : bench.target(1).requests()) written_back |= r.msg.op == SIMTX_OP_WRITE && r.msg.address == 0x100;
    CHECK(written_back);
    CHECK_EQUAL(bench.counter("hits"), 2);
    CHECK_EQUAL(bench.counter("misses"), 4);
    CHECK_EQUAL(bench.counter("evictions"), 2);
    CHECK_EQUAL(bench.counter("writebacks"), 1);
}

// Write-through, no-allocate, write-evict: 1 set x 2 ways of 128 B.
void l1()
{
    block_testbench bench(&l1_cache_block_info, {{"size", "256"}, {"associativity", "2"}, {"line_size", "128"}});
    play(bench, {
        access(SIMTX_OP_READ, 0x000, 64, 1),  // miss, way 0
        access(SIMTX_OP_READ, 0x000, 32, 2),  // hit
        access(SIMTX_OP_READ, 0x080, 64, 3),  // miss, way 1
        logged(access(SIMTX_OP_WRITE, 0x084, 4, 4)), // write-evict: a hit, then the line leaves
        access(SIMTX_OP_READ, 0x100, 64, 5),  // miss into the freed way 1
        access(SIMTX_OP_READ, 0x180, 64, 6),  // evicts 0x000 (least recently used)
    });
    check_events(bench, {
        {SIMTX_OP_MONITOR_MISS, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_HIT, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_MISS, 0x080, 1, 0},
        {SIMTX_OP_MONITOR_HIT, 0x080, 1, MONITOR_WRITE},
        {SIMTX_OP_MONITOR_EVICT, 0x080, 1, 0},
        {SIMTX_OP_MONITOR_MISS, 0x100, 1, 0},
        {SIMTX_OP_MONITOR_EVICT, 0x000, 0, 0},
        {SIMTX_OP_MONITOR_MISS, 0x180, 0, 0},
    });
    CHECK_EQUAL(bench.counter("hits"), 1); // the write-evict hit is the monitor's only
    CHECK_EQUAL(bench.counter("misses"), 4);
    CHECK_EQUAL(bench.counter("write_evictions"), 1);
    // Hits and misses name the access's bytes and carry its flags.
    const auto &events = bench.target(monitor_port).requests();
    if (CHECK(events.size() > 4)) {
        CHECK_EQUAL(events[1].msg.byte_enable[0], 0xFFFFFFFFu); // the read of bytes 0-31
        CHECK_EQUAL(events[1].msg.byte_enable[1], 0);
        CHECK_EQUAL(events[1].msg.flags, 0);
        CHECK_EQUAL(events[3].msg.byte_enable[0], 0xF0u); // the write of bytes 4-7
        CHECK_EQUAL(events[3].msg.flags, SIMTX_FLAG_PM_LOG);
        CHECK_EQUAL(events[4].msg.byte_enable[0], UINT64_MAX); // an eviction: the whole line
    }
}

} // namespace

int sc_main(int argc, char **argv)
{
    if (argc > 1 && std::string(argv[1]) == "l1") l1();
    else l2();
    return simtx_test_summary();
}
