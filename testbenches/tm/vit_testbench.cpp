// Block testbench of a VIT slice through its TLM sockets (protocol checked on
// both bindings): a test initiator plays the crossbar, a test target with
// memory semantics plays the bulk copy unit and the L2 (it performs a
// VERSION_COPY as a plain copy). Host (zero-time) accesses go through the
// table: a write before the run lands in version 0 and reaches version 1
// by its copy, a footprint address lands in the relocated area, a read
// sees the newest state; a timed write waits for version 1's copy and is
// answered with the address it used.
#include <cstring>

#include "block_testbench.hpp"
#include "test_support.h"
#include "version.h"
#include "vit.h"

using simtx::testing::block_testbench;
using simtx::testing::timed_msg;

static const timed_msg *find(const std::vector<timed_msg> &responses, uint64_t id)
{
    for (const auto &r : responses)
        if (r.msg.id == id) return &r;
    return nullptr;
}

static uint32_t peek(block_testbench &bench, uint64_t address)
{
    uint32_t value = 0;
    sparse_memory_read(bench.target(1).memory(), address, &value, 4);
    return value;
}

static uint32_t host_read(block_testbench &bench, uint64_t address)
{
    uint32_t value = 0;
    CHECK_EQUAL(bench.dut().debug_transport(false, address, reinterpret_cast<uint8_t *>(&value), 4), 4);
    return value;
}

static void host_write(block_testbench &bench, uint64_t address, uint32_t value)
{
    CHECK_EQUAL(bench.dut().debug_transport(true, address, reinterpret_cast<uint8_t *>(&value), 4), 4);
}

int sc_main(int, char **)
{
    block_testbench bench(&vit_block_info, {{"version_stride", "0x10000"}, {"region_list", "0x800000:0x400:0xA00000"}});
    sparse_memory *memory = bench.target(1).memory();
    bench.target(1).behaviour = [memory](simtx_msg &m) {
        if (m.op == SIMTX_OP_VERSION_COPY) {
            uint8_t bytes[0x400];
            sparse_memory_read(memory, m.address, bytes, m.size);
            sparse_memory_write(memory, m.aux, bytes, m.size);
        } else if (m.op == SIMTX_OP_READ) {
            sparse_memory_read(memory, m.address, m.data, m.size);
        } else if (m.op == SIMTX_OP_WRITE) {
            sparse_memory_write_masked(memory, m.address, m.data, m.size, m.byte_enable);
        }
    };

    host_write(bench, 0x800010, 0x1234);     // version 0 (no copy yet)
    host_write(bench, 0x810020, 0x5678);     // version 1's footprint: relocated
    CHECK_EQUAL(peek(bench, 0x800010), 0x1234);
    CHECK_EQUAL(peek(bench, 0xA00020), 0x5678);
    CHECK_EQUAL(peek(bench, 0x810020), 0);

    simtx_msg write = simtx::testing::request(SIMTX_OP_WRITE, 0x800040, 4, 1);
    uint32_t value = 0xABCD;
    std::memcpy(write.data, &value, 4);
    bench.initiator(0).send(write, bench.cycles(1));
    bench.run(bench.cycles(200));
    const timed_msg *answer = find(bench.initiator(0).responses(), 1);
    CHECK(answer != nullptr);
    if (answer) CHECK_EQUAL(answer->msg.address, 0x800040); // the address the requester used
    CHECK_EQUAL(bench.counter("held_accesses"), 1);           // it waited for version 1's copy
    CHECK_EQUAL(peek(bench, 0x810040), 0xABCD);               // version 1, the S2
    CHECK_EQUAL(peek(bench, 0x810010), 0x1234);               // copied from version 0
    CHECK_EQUAL(host_read(bench, 0x800040), 0xABCD);          // the host sees the newest state
    CHECK_EQUAL(host_read(bench, 0x810020), 0x5678);          // and the relocated word

    simtx_msg close = simtx::testing::request(SIMTX_OP_VERSION_CLOSE, 0x0, 0, 2);
    close.aux = 7;
    bench.initiator(0).send(close, bench.cycles(210));
    bench.run(bench.cycles(400));
    answer = find(bench.initiator(0).responses(), 2);
    CHECK(answer != nullptr);
    if (answer) CHECK_EQUAL(answer->msg.aux, version_handle(0, 7));
    CHECK_EQUAL(bench.counter("versions_created"), 2);
    CHECK_EQUAL(bench.counter("copies_done"), 2); // version 2 copied from version 1
    host_write(bench, 0x800044, 0x99);            // the newest S3 and the S2
    CHECK_EQUAL(peek(bench, 0x810044), 0x99);
    CHECK_EQUAL(peek(bench, 0x820044), 0x99);
    CHECK_EQUAL(peek(bench, 0x800044), 0); // version 0, recycled, untouched
    CHECK(bench.violations().empty());
    for (const auto &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    return simtx_test_summary();
}
