// Block testbench of the L1 data cache through its TLM sockets: read miss
// then hit, write-through without allocation answered only after the next
// level, write-evict on a hit, MSHR merging of reads to a line in flight
// (one fill), atomics forwarded with the old value returned, and a clean
// base protocol with a slow, back-pressuring next level.
#include <cstring>

#include "block_testbench.hpp"
#include "l1_cache.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

int sc_main(int, char **)
{
    block_testbench bench(&l1_cache_block_info, {{"size", "2KiB"}, {"associativity", "2"}, {"sectors", "4"}, {"hit_latency", "2"}});
    auto &core = bench.initiator(0);
    auto &l2 = bench.target(1);
    l2.latency = bench.cycles(30);
    l2.capacity = 2;
    uint8_t old_data[128];
    for (unsigned i = 0; i < 128; i++) old_data[i] = static_cast<uint8_t>(200 - i);
    sparse_memory_write(l2.memory(), 0x800, old_data, 128);

    core.send(request(SIMTX_OP_READ, 0x800, 32, 1), bench.cycles(0));   // miss
    core.send(request(SIMTX_OP_READ, 0x800, 32, 2), bench.cycles(1));   // merges
    core.send(request(SIMTX_OP_READ, 0x800, 32, 3), bench.cycles(100)); // hit
    simtx_msg write = request(SIMTX_OP_WRITE, 0x810, 4, 4);             // write hit: evict
    std::memset(write.data, 0xAB, 4);
    core.send(write, bench.cycles(120));
    core.send(request(SIMTX_OP_READ, 0x800, 32, 5), bench.cycles(200)); // miss again, sees the write
    simtx_msg other = request(SIMTX_OP_WRITE, 0x1000, 64, 6);           // write miss: no allocate
    std::memset(other.data, 0xCD, 64);
    core.send(other, bench.cycles(300));
    simtx_msg atomic = request(SIMTX_OP_ATOMIC, 0x840, 4, 7);
    atomic.atomic_op = 1; // block-defined code, passed on unchanged
    core.send(atomic, bench.cycles(400));
    sparse_memory *memory = l2.memory();
    l2.behaviour = [memory](simtx_msg &msg) {
        // A memory, with atomics returning a recognisable old value.
        if (msg.op == SIMTX_OP_READ) sparse_memory_read(memory, msg.address, msg.data, msg.size);
        else if (msg.op == SIMTX_OP_WRITE) sparse_memory_write_masked(memory, msg.address, msg.data, msg.size, msg.byte_enable);
        else if (msg.op == SIMTX_OP_ATOMIC) std::memset(msg.data, 0x42, 4);
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
    };
    bench.run();

    const auto &responses = core.responses();
    CHECK_EQUAL(responses.size(), 7);
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    auto find = [&](uint64_t id) -> const simtx::testing::timed_msg * {
        for (const auto &r : responses)
            if (r.msg.id == id) return &r;
        return nullptr;
    };
    CHECK(find(1) && std::memcmp(find(1)->msg.data, old_data, 32) == 0);
    CHECK(find(2) && std::memcmp(find(2)->msg.data, old_data, 32) == 0);
    CHECK(find(3) && std::memcmp(find(3)->msg.data, old_data, 32) == 0);
    if (find(3)) CHECK(find(3)->time < bench.cycles(100 + 10)); // a hit does not go down
    if (find(4)) CHECK(find(4)->time >= bench.cycles(120 + 30)); // the write waits for the next level
    uint8_t expected[32];
    std::memcpy(expected, old_data, 32);
    std::memset(expected + 16, 0xAB, 4);
    CHECK(find(5) && std::memcmp(find(5)->msg.data, expected, 32) == 0);
    CHECK(find(6) != nullptr);
    CHECK(find(7) && find(7)->msg.data[0] == 0x42 && find(7)->msg.status == SIMTX_STATUS_OK);
    // What the next level saw: one fill for the three first reads, the
    // write, the refill, the write miss, the atomic.
    const auto &seen = l2.requests();
    CHECK_EQUAL(seen.size(), 5);
    if (seen.size() == 5) {
        CHECK(seen[0].msg.op == SIMTX_OP_READ && seen[0].msg.address == 0x800 && seen[0].msg.size == 32);
        CHECK(seen[1].msg.op == SIMTX_OP_WRITE && seen[1].msg.address == 0x810);
        CHECK(seen[2].msg.op == SIMTX_OP_READ && seen[2].msg.address == 0x800);
        CHECK(seen[3].msg.op == SIMTX_OP_WRITE && seen[3].msg.address == 0x1000);
        CHECK(seen[4].msg.op == SIMTX_OP_ATOMIC && seen[4].msg.atomic_op == 1);
    }
    CHECK_EQUAL(bench.counter("hits"), 1);
    CHECK_EQUAL(bench.counter("hit_reserved"), 1);
    CHECK_EQUAL(bench.counter("write_evictions"), 1);
    CHECK_EQUAL(bench.counter("writebacks"), 0);
    return simtx_test_summary();
}
