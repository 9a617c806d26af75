// Block testbench of the lds through its TLM socket and a protocol checker:
// a multi-beat store read back, the bank-conflict timing of a 32-way
// conflict against a conflict-free load, a burst beyond queue_depth refused
// and then served in order, a fault naming its lane, and held responses.
#include <cstring>

#include "block_testbench.hpp"
#include "lds.h"
#include "ldst.h"
#include "test_support.h"

using simtx::testing::block_testbench;

namespace {

constexpr uint64_t all_lanes = 0xffffffffu;
constexpr unsigned latency = 24;

// Schedules every beat of a request at cycle `at`.
void send_request(block_testbench &bench, simtx_op op, uint64_t id, uint64_t lanes, const uint32_t *addresses,
                  const uint32_t *data, uint64_t at)
{
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, op, 1024, 0); // the CTA's region starts at byte 1024
    header.aux = ldst_aux(7, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 8192);
    header.lane_mask = lanes;
    header.id = id;
    unsigned count = ldst_make_beats(beats, &header, addresses, data, nullptr);
    for (unsigned i = 0; i < count; i++) bench.initiator(0).send(beats[i], bench.cycles(at));
}

} // namespace

int sc_main(int, char **)
{
    block_testbench bench(&lds_block_info, {{"latency", std::to_string(latency)}, {"queue_depth", "4"}});
    auto &core = bench.initiator(0);
    core.response_delay = sc_core::sc_time(2, sc_core::SC_NS); // the LDS's responses back-pressured too

    uint32_t addresses[32], data[32];
    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i, data[i] = 0x1000 + i * i;
    send_request(bench, SIMTX_OP_WRITE, 1, all_lanes, addresses, data, 0);
    send_request(bench, SIMTX_OP_READ, 2, all_lanes, addresses, nullptr, 100);
    uint32_t one_bank[32];
    for (unsigned i = 0; i < 32; i++) one_bank[i] = 128 * i;
    send_request(bench, SIMTX_OP_READ, 3, all_lanes, one_bank, nullptr, 200);
    // Twelve one-lane loads at once, three times the queue.
    for (unsigned i = 0; i < 12; i++) {
        uint32_t lane_address[32] = {4 * i};
        send_request(bench, SIMTX_OP_READ, 100 + i, 1, lane_address, nullptr, 300);
    }
    uint32_t misaligned[32];
    std::memcpy(misaligned, addresses, sizeof misaligned);
    misaligned[6] = 26;
    send_request(bench, SIMTX_OP_READ, 4, all_lanes, misaligned, nullptr, 1000);
    bench.run();

    const auto &responses = core.responses();
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    CHECK_EQUAL(responses.size(), 2 + 1 + 1 + 12 + 1);
    if (responses.size() != 17) return simtx_test_summary();

    // The store: two empty responses, the second its completion.
    CHECK_EQUAL(responses[0].msg.id, 1);
    CHECK(!ldst_is_last(&responses[0].msg) && ldst_is_last(&responses[1].msg));
    CHECK_EQUAL(responses[1].msg.size, 0);
    // The load reads the store back, after the latency.
    const simtx_msg &load = responses[2].msg;
    CHECK_EQUAL(load.id, 2);
    CHECK_EQUAL(load.status, SIMTX_STATUS_OK);
    CHECK(ldst_is_last(&load));
    for (unsigned i = 0; i < 32; i++) CHECK_EQUAL(ldst_slot(&load, i), 0x1000 + i * i);
    sc_core::sc_time free_time = responses[2].time - bench.cycles(100);
    CHECK(free_time >= bench.cycles(latency) && free_time <= bench.cycles(latency + 1));
    // All 32 lanes on one bank: 31 cycles more than the conflict-free load.
    CHECK_EQUAL(responses[3].msg.id, 3);
    CHECK_EQUAL((responses[3].time - bench.cycles(200)).value(), (free_time + bench.cycles(31)).value());
    // The burst: refused while four were held, then all answered in order.
    for (unsigned i = 0; i < 12; i++) {
        CHECK_EQUAL(responses[4 + i].msg.id, 100 + i);
        CHECK_EQUAL(ldst_slot(&responses[4 + i].msg, 0), 0x1000 + i * i);
    }
    CHECK(bench.counter("refused") > 0);
    // The fault names the misaligned lane.
    CHECK_EQUAL(responses[16].msg.id, 4);
    CHECK_EQUAL(responses[16].msg.status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(ldst_fault_of(&responses[16].msg), LDST_FAULT_MISALIGNED);
    CHECK_EQUAL(ldst_fault_lane(&responses[16].msg), 6);
    CHECK_EQUAL(bench.counter("requests"), 1 + 1 + 1 + 12);
    CHECK_EQUAL(bench.counter("address_errors"), 1);
    CHECK_EQUAL(bench.counter("bank_conflict_cycles"), 31);

    // Zero-time access through the socket's debug transport reads the store.
    tlm::tlm_generic_payload peek;
    uint32_t word = 0;
    peek.set_command(tlm::TLM_READ_COMMAND);
    peek.set_address(1024 + 4 * 3);
    peek.set_data_ptr(reinterpret_cast<unsigned char *>(&word));
    peek.set_data_length(4);
    CHECK_EQUAL(bench.dut().target(0).get_base_interface().transport_dbg(peek), 4);
    CHECK_EQUAL(word, 0x1000 + 9);
    return simtx_test_summary();
}
