// Block testbench of the tm_unit's tx_events socket (tx.h 6) through its
// protocol checker: with a filter that aborts (test_abort_filter.h), a lane
// loading the trigger word gets a TX_ABORT, posted (the checker sees it end
// at END_REQ), before the load's answer; the other lane's load is served.
#include <cstring>

#include "block_testbench.hpp"
#include "ldst.h"
#include "test_abort_filter.h"
#include "test_support.h"
#include "tm_lazy.h"
#include "tm_unit.h"
#include "tx.h"

using simtx::testing::block_testbench;

namespace {

constexpr uint32_t base = 0x20000;

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

// A TX_ABORT through the tx_events socket (tx.h 6) under its protocol checker.
int sc_main(int, char **)
{
    CHECK(test_abort_filter_register());
    block_testbench bench(&tm_unit_block_info, {{"partitions", "1"}, {"filters", "test_abort"}});
    bench.target(1).behaviour = [](simtx_msg &msg) {
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        if (msg.op == SIMTX_OP_TM_CID_REQUEST) msg.aux = 1;
        if (msg.op != SIMTX_OP_READ) msg.size = 0;
    };
    bench.initiator(0).send(event(SIMTX_OP_TX_BEGIN, 0x3, 0, 3), bench.cycles(0));
    uint32_t lanes[32] = {base, TEST_ABORT_TRIGGER};
    access(bench, SIMTX_OP_READ, 4, 0x3, lanes, nullptr, true, 20);
    bench.run();
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    const auto &events = bench.target(3).requests();
    CHECK_EQUAL(events.size(), 1);
    if (events.empty()) return simtx_test_summary();
    CHECK_EQUAL(events[0].msg.op, SIMTX_OP_TX_ABORT);
    CHECK_EQUAL(events[0].msg.lane_mask, 0x2);
    CHECK_EQUAL(events[0].msg.warp, 2);
    const simtx_msg *load = nullptr;
    sc_core::sc_time load_time;
    for (const auto &r : bench.initiator(0).responses())
        if (r.msg.id == 4 && ldst_is_last(&r.msg)) load = &r.msg, load_time = r.time;
    CHECK(load != nullptr);
    CHECK(load && events[0].time <= load_time); // the core hears of the abort before the access's answer
    CHECK_EQUAL(bench.counter("aborts_test_abort"), 1);
    return simtx_test_summary();
}
