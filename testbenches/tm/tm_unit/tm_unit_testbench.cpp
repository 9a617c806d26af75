// Block testbench of the tm_unit through its TLM sockets and protocol
// checkers: a non-transactional load and store pass through (forwarded
// inside accept: they reach the memory side the cycle they are sent), and a
// KILO TM transaction of two lanes (a store into the write log, a load
// answered from it, a load forwarded to memory, the commit protocol against
// a memory side that answers it) commits with its writes in the write logs.
#include <cstring>
#include <map>

#include "block_testbench.hpp"
#include "ldst.h"
#include "test_support.h"
#include "tm_lazy.h"
#include "tm_unit.h"
#include "tx.h"

using simtx::testing::block_testbench;

namespace {

constexpr uint32_t base = 0x20000;

uint32_t memory_word(uint32_t address) { return address ^ 0x5a5a5a5au; }

simtx_msg event(simtx_op op, uint64_t lanes, uint64_t aux, uint64_t id)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, 0, 0);
    msg.lane_mask = lanes;
    msg.aux = aux;
    msg.id = id;
    msg.warp = 2;
    msg.core = 0;
    return msg;
}

// Schedules every beat of a one-request access at cycle `at`.
void access(block_testbench &bench, simtx_op op, uint64_t id, uint64_t lanes, const uint32_t *addresses, const uint32_t *data,
            bool transactional, uint64_t at)
{
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, op, 0, 0);
    header.aux = ldst_aux(5, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0);
    header.lane_mask = lanes;
    header.id = id;
    header.warp = 2;
    header.flags = transactional ? SIMTX_FLAG_TRANSACTIONAL : 0;
    unsigned count = ldst_make_beats(beats, &header, addresses, data, nullptr);
    for (unsigned i = 0; i < count; i++) bench.initiator(0).send(beats[i], bench.cycles(at));
}

} // namespace

int sc_main(int, char **)
{
    block_testbench bench(&tm_unit_block_info, {{"partitions", "2"}, {"log_latency", "10"}});
    std::map<uint32_t, uint32_t> committed; // the write-log entries of committed IDs
    std::map<uint32_t, std::vector<tm_entry>> writes;
    uint32_t next_cid = 1;
    auto &memory = bench.target(1);
    memory.latency = sc_core::sc_time(5, sc_core::SC_NS);
    memory.behaviour = [&](simtx_msg &msg) {
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        switch (msg.op) {
        case SIMTX_OP_READ:
            for (uint32_t m = ldst_group_lanes(msg.lane_mask, ldst_group(&msg)); m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                uint32_t address = ldst_slot(&msg, i);
                ldst_set_slot(&msg, i, msg.flags & SIMTX_FLAG_TRANSACTIONAL ? memory_word(address) : address + 1);
            }
            break;
        case SIMTX_OP_TM_CID_REQUEST: {
            uint32_t wanted = (uint32_t)msg.aux; // 0 reads the clock
            msg.aux = next_cid;
            next_cid += wanted;
        }
        break;
        case SIMTX_OP_TM_WRITE_LOG:
            for (unsigned k = 0; k < tm_entry_count(&msg); k++) writes[tm_entry_cid(&msg, k)].push_back(tm_get_entry(&msg, k));
            msg.size = 0;
            break;
        case SIMTX_OP_TM_LOG_DONE: msg.aux = TM_OUTCOME_PASS; break;
        case SIMTX_OP_TM_DECISION:
            if (msg.aux == TM_DECISION_COMMIT)
                for (const tm_entry &e : writes[msg.transaction_id]) committed[e.address] = e.value;
            break;
        default: msg.size = 0; break;
        }
    };

    uint32_t lanes[32] = {base, base + 4}, data[32] = {11, 22};
    access(bench, SIMTX_OP_READ, 1, 0x3, lanes, nullptr, false, 0);
    access(bench, SIMTX_OP_WRITE, 2, 0x3, lanes, data, false, 1);
    bench.initiator(0).send(event(SIMTX_OP_TX_BEGIN, 0x3, 0, 3), bench.cycles(10));
    uint32_t words[32] = {base + 64, base + 68}, values[32] = {0x605, 0x706};
    access(bench, SIMTX_OP_WRITE, 4, 0x3, words, values, true, 20);
    uint32_t mixed[32] = {base + 64, base + 128};
    access(bench, SIMTX_OP_READ, 5, 0x3, mixed, nullptr, true, 40);
    bench.initiator(0).send(event(SIMTX_OP_TX_COMMIT, 0x3, 0, 6), bench.cycles(100));
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    // Pass-through: at the memory side in the cycle they were sent, unchanged.
    const auto &requests = memory.requests();
    CHECK(requests.size() >= 3);
    if (requests.size() < 3) return simtx_test_summary();
    CHECK_EQUAL(requests[0].msg.id, 1);
    CHECK(requests[0].time == bench.cycles(0));
    CHECK_EQUAL(requests[1].msg.id, 2);
    CHECK(requests[1].time == bench.cycles(1));
    CHECK_EQUAL(ldst_slot(&requests[2].msg, 1), 22);

    const auto &responses = bench.initiator(0).responses();
    auto find = [&](uint64_t id, bool last) -> const simtx_msg * {
        for (const auto &r : responses)
            if (r.msg.id == id && ldst_is_last(&r.msg) == last) return &r.msg;
        return nullptr;
    };
    const simtx_msg *load = find(1, true);
    CHECK(load && ldst_slot(load, 0) == base + 1 && ldst_slot(load, 1) == base + 5);
    CHECK(find(2, true) != nullptr);
    const simtx_msg *begin = find(3, false);
    CHECK(begin && begin->op == SIMTX_OP_TX_BEGIN && begin->status == SIMTX_STATUS_OK);
    const simtx_msg *tx_load = find(5, true);
    CHECK(tx_load != nullptr);
    if (tx_load) {
        CHECK_EQUAL(ldst_slot(tx_load, 0), 0x605);                     // from lane 0's write log
        CHECK_EQUAL(ldst_slot(tx_load, 1), memory_word(base + 128)); // from memory, now in lane 1's read log
    }
    const simtx_msg *outcome_msg = find(6, false);
    CHECK(outcome_msg != nullptr);
    if (outcome_msg) {
        tx_outcome outcome;
        std::memcpy(&outcome, outcome_msg->data, sizeof outcome);
        CHECK_EQUAL(outcome.committed, 0x3);
        CHECK_EQUAL(outcome.retry, 0);
    }
    CHECK_EQUAL(committed[base + 64], 0x605);
    CHECK_EQUAL(committed[base + 68], 0x706);
    CHECK_EQUAL(bench.counter("commits"), 2);
    CHECK_EQUAL(bench.counter("passed_through"), 3);
    CHECK_EQUAL(bench.counter("forwarded_loads"), 1);
    return simtx_test_summary();
}
