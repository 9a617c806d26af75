// Block testbench of the nvm_controller through its TLM socket, with the
// protocol checker: a burst of writes to one bank overflows a 4-entry WPQ
// (refused arrivals, every write acknowledged exactly once), reads get the
// data back, the durable image holds every write, and the port's responses
// are back-pressured too (test_nvm_controller checks durability at the
// acknowledgement itself).
#include <cstring>

#include "block_testbench.hpp"
#include "nvm_controller.h"
#include "test_support.h"

using simtx::testing::block_testbench;

int sc_main(int, char **)
{
    block_testbench bench(&nvm_controller_block_info, {{"wpq_entries", "4"}, {"write_drain_threshold", "4"}, {"banks", "4"}});
    auto &host = bench.initiator(0);
    host.response_delay = sc_core::sc_time(2, sc_core::SC_NS);

    // Twelve 128-byte writes to bank 0 at once (4 banks x 128 B apart).
    const unsigned writes = 12;
    for (unsigned i = 0; i < writes; i++) {
        simtx_msg write;
        simtx_msg_init(&write, SIMTX_OP_WRITE, 0x10000 + 512 * i, 128);
        std::memset(write.data, static_cast<int>(i + 1), 128);
        write.id = 100 + i;
        host.send(write, bench.cycles(0));
    }
    // Then read each back, long after the writes were taken.
    for (unsigned i = 0; i < writes; i++) {
        simtx_msg read;
        simtx_msg_init(&read, SIMTX_OP_READ, 0x10000 + 512 * i, 128);
        read.id = 200 + i;
        host.send(read, bench.cycles(20000));
    }
    bench.run();

    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    const auto &responses = host.responses();
    CHECK_EQUAL(responses.size(), 2 * writes);
    for (unsigned i = 0; i < writes; i++) {
        unsigned acks = 0, reads = 0;
        for (const auto &r : responses) {
            acks += r.msg.id == 100 + i;
            if (r.msg.id == 200 + i) {
                reads++;
                CHECK(r.msg.data[0] == i + 1 && r.msg.data[127] == i + 1);
            }
        }
        CHECK_EQUAL(acks, 1);
        CHECK_EQUAL(reads, 1);
    }
    CHECK(bench.counter("refused_arrivals") > 0); // the full WPQ pushed back through the socket
    CHECK(bench.counter("wpq_full_stalls") > 0);
    CHECK_EQUAL(bench.counter("writes"), writes);
    CHECK_EQUAL(bench.counter("media_writes"), writes);
    CHECK_EQUAL(bench.counter("media_reads"), writes); // the WPQ had drained: no forwarding
    // The image a power failure would leave holds every write.
    auto *nvm = static_cast<nvm_controller *>(bench.core());
    for (unsigned i = 0; i < writes; i++) {
        uint8_t image[128];
        nvm_controller_read_durable(nvm, 0x10000 + 512 * i, image, sizeof image);
        CHECK(image[0] == i + 1 && image[127] == i + 1);
    }
    return simtx_test_summary();
}
