// Block testbench of the AGPM path selector (models/memory/agpm_selector)
// with the TLM protocol checked on every binding: the two rewritten
// sequences (a log update sent non-temporal: one write flagged
// NON_TEMPORAL, answered when acknowledged; sent temporal: the write without
// the flag, then a CLEAN_LINE of its line, answered once the clean is),
// two temporal stores of a warp to one line sharing one clean (also an
// entry's first word waiting for its value word), pmem_spec's
// dropped clwb, the tracker's decision switching agpm's path,
// BUCL's coalescing-degree test, and the reports (AGPM_LOG naming the logged
// data's block, AGPM_DONE with the cycles waited).
#include <cstring>
#include <string>
#include <vector>

#include "agpm.h"
#include "agpm_selector.h"
#include "block_testbench.hpp"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::request;

namespace {

constexpr unsigned upstream = 0, downstream = 1, decision = 2, reports = 3;

// A log update of lanes 0-1: the entry's address word naming 0xa0001000 and
// 0xa0001004 (PM_LOG_NAMES), 8-byte entries at 0xa0100000.
simtx_msg log_update(uint64_t id, uint8_t extra_flags = 0)
{
    simtx_msg msg = request(SIMTX_OP_WRITE, 0xa0100000, 16, id);
    msg.flags = SIMTX_FLAG_NON_TEMPORAL | SIMTX_FLAG_PM_LOG | extra_flags;
    msg.byte_enable[0] = 0x0F0F; // words 0 and 2
    msg.byte_enable[1] = 0;
    uint32_t a = 0xa0001000, b = 0xa0001004;
    std::memcpy(&msg.data[0], &a, 4);
    std::memcpy(&msg.data[8], &b, 4);
    msg.core = 0;
    msg.warp = 2;
    return msg;
}

void check_clean(block_testbench &bench)
{
    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
}

void non_temporal()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "nt"}});
    bench.target(downstream).latency = bench.cycles(40);
    bench.initiator(upstream).send(log_update(7, SIMTX_FLAG_PM_LOG_NAMES), bench.cycles(1));
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    if (CHECK_EQUAL(down.size(), 1)) {
        CHECK_EQUAL(down[0].msg.op, SIMTX_OP_WRITE);
        CHECK(down[0].msg.flags & SIMTX_FLAG_NON_TEMPORAL);
        CHECK(down[0].msg.flags & SIMTX_FLAG_PM_LOG);
    }
    const auto &up = bench.initiator(upstream).responses();
    if (CHECK_EQUAL(up.size(), 1)) {
        CHECK_EQUAL(up[0].msg.id, 7);
        CHECK(up[0].time >= down[0].time + bench.cycles(40));
    }
    const auto &r = bench.target(reports).requests();
    if (CHECK_EQUAL(r.size(), 2)) {
        CHECK_EQUAL(r[0].msg.op, SIMTX_OP_AGPM_LOG);
        CHECK_EQUAL(r[0].msg.address, 0xa0001000); // the logged data's block, not the log's
        CHECK_EQUAL(r[0].msg.byte_enable[0], 0xFFu); // words 0x000 and 0x004 of it
        CHECK_EQUAL(r[0].msg.aux, AGPM_PATH_NON_TEMPORAL | AGPM_LOG_COUNTED | AGPM_LOG_TRACKED);
        CHECK_EQUAL(r[1].msg.op, SIMTX_OP_AGPM_DONE);
        CHECK(r[1].msg.aux >= 40);
    }
    CHECK_EQUAL(bench.counter("logs_non_temporal"), 1);
    CHECK_EQUAL(bench.counter("cleans_added"), 0);
}

void temporal()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "clwb"}});
    bench.target(downstream).latency = bench.cycles(40);
    bench.initiator(upstream).send(log_update(9), bench.cycles(1));
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    const auto &up = bench.initiator(upstream).responses();
    if (CHECK_EQUAL(down.size(), 2) && CHECK_EQUAL(up.size(), 1)) {
        CHECK_EQUAL(down[0].msg.op, SIMTX_OP_WRITE);
        CHECK(!(down[0].msg.flags & SIMTX_FLAG_NON_TEMPORAL));
        CHECK_EQUAL(down[1].msg.op, SIMTX_OP_CLEAN_LINE);
        CHECK_EQUAL(down[1].msg.address, 0xa0100000);
        CHECK(down[1].time >= down[0].time + bench.cycles(40)); // after the write's acknowledgement
        CHECK(up[0].time >= down[1].time + bench.cycles(40));   // answered once the clean is
        CHECK_EQUAL(up[0].msg.id, 9);
        CHECK_EQUAL(up[0].msg.flags, SIMTX_FLAG_NON_TEMPORAL | SIMTX_FLAG_PM_LOG); // as it was sent
    }
    const auto &r = bench.target(reports).requests();
    if (CHECK_EQUAL(r.size(), 2)) {
        CHECK_EQUAL(r[0].msg.aux, AGPM_PATH_TEMPORAL | AGPM_LOG_COUNTED); // no PM_LOG_NAMES: counted, not tracked
        CHECK_EQUAL(r[0].msg.address, 0xa0100000);
        CHECK(r[1].msg.aux >= 80);
    }
    CHECK_EQUAL(bench.counter("logs_temporal"), 1);
    CHECK_EQUAL(bench.counter("cleans_added"), 1);
}

void pmem_spec()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "pmem_spec"}});
    simtx_msg data = request(SIMTX_OP_WRITE, 0xa0002040, 4, 3);
    data.warp = 5;
    simtx_msg clwb = request(SIMTX_OP_CLEAN_LINE, 0xa0002000, 0, 4);
    clwb.warp = 5;
    simtx_msg other = request(SIMTX_OP_CLEAN_LINE, 0xa0003000, 0, 5); // another line: goes on
    other.warp = 5;
    simtx_msg global = request(SIMTX_OP_WRITE, 0x10000000, 4, 6);    // outside the window: untouched
    bench.initiator(upstream).send(data, bench.cycles(1));
    bench.initiator(upstream).send(clwb, bench.cycles(100));
    bench.initiator(upstream).send(other, bench.cycles(200));
    bench.initiator(upstream).send(global, bench.cycles(300));
    // An atomic after the non-temporal write leaves the line dirty: its clwb goes on.
    simtx_msg again = request(SIMTX_OP_WRITE, 0xa0004000, 4, 7);
    again.warp = 5;
    simtx_msg atomic = request(SIMTX_OP_ATOMIC, 0xa0004010, 4, 8);
    atomic.warp = 5;
    atomic.atomic_op = SIMTX_ATOMIC_ADD;
    simtx_msg kept = request(SIMTX_OP_CLEAN_LINE, 0xa0004000, 0, 9);
    kept.warp = 5;
    bench.initiator(upstream).send(again, bench.cycles(400));
    bench.initiator(upstream).send(atomic, bench.cycles(500));
    bench.initiator(upstream).send(kept, bench.cycles(600));
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    if (CHECK_EQUAL(down.size(), 6)) {
        CHECK(down[0].msg.flags & SIMTX_FLAG_NON_TEMPORAL);
        CHECK_EQUAL(down[1].msg.address, 0xa0003000);
        CHECK(!(down[2].msg.flags & SIMTX_FLAG_NON_TEMPORAL));
        CHECK_EQUAL(down[5].msg.op, SIMTX_OP_CLEAN_LINE);
        CHECK_EQUAL(down[5].msg.address, 0xa0004000);
    }
    CHECK_EQUAL(bench.initiator(upstream).responses().size(), 7);
    CHECK_EQUAL(bench.counter("cleans_dropped"), 1);
    CHECK_EQUAL(bench.counter("data_non_temporal"), 2);
}

void decisions()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "agpm"}});
    simtx_msg d;
    simtx_msg_init(&d, SIMTX_OP_AGPM_DECISION, 0, 0);
    d.aux = agpm_decision_pack(AGPM_PATH_TEMPORAL, AGPM_REASON_A, true);
    bench.initiator(upstream).send(log_update(1), bench.cycles(1));
    bench.initiator(decision).send(d, bench.cycles(200));
    bench.initiator(upstream).send(log_update(2), bench.cycles(300));
    bench.run();
    check_clean(bench);
    CHECK_EQUAL(bench.counter("logs_non_temporal"), 1); // initial_path nt
    CHECK_EQUAL(bench.counter("logs_temporal"), 1);
    CHECK_EQUAL(bench.counter("path_changes"), 1);
    CHECK_EQUAL(bench.counter("decisions"), 1);
}

void bucl()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "bucl"}, {"bucl_degree", "2"}});
    simtx_msg coalesced = log_update(1), scattered = log_update(2);
    coalesced.transaction_id = 2;
    scattered.transaction_id = 3;
    bench.initiator(upstream).send(coalesced, bench.cycles(1));
    bench.initiator(upstream).send(scattered, bench.cycles(300));
    bench.run();
    check_clean(bench);
    CHECK_EQUAL(bench.counter("logs_temporal"), 1);
    CHECK_EQUAL(bench.counter("logs_non_temporal"), 1);
}

// The kernel's 8-byte log entry as two temporal log stores of one warp to
// one line, then its sfence (which sends nothing: the warp waits for both
// answers). The first write's acknowledgement arrives while the second is
// unacknowledged: the selector holds it, and the second's acknowledgement
// makes the line's one clean; both are answered only once that clean is
// (so the sfence completes after it), each waiting from its own arrival.
// A store of another warp to the line gets a clean of its own.
void temporal_one_clean_per_line()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "clwb"}});
    bench.target(downstream).latency = bench.cycles(40);
    simtx_msg first = log_update(21), second = log_update(22), other = log_update(23);
    second.address += 4; // the entry's second word: the same line
    other.warp = 3;
    bench.initiator(upstream).send(first, bench.cycles(1));
    bench.initiator(upstream).send(second, bench.cycles(3));
    bench.initiator(upstream).send(other, bench.cycles(400));
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    const auto &up = bench.initiator(upstream).responses();
    if (CHECK_EQUAL(down.size(), 5) && CHECK_EQUAL(up.size(), 3)) {
        CHECK_EQUAL(down[0].msg.op, SIMTX_OP_WRITE);
        CHECK_EQUAL(down[1].msg.op, SIMTX_OP_WRITE);
        CHECK_EQUAL(down[2].msg.op, SIMTX_OP_CLEAN_LINE); // exactly one for warp 2's two stores
        CHECK_EQUAL(down[2].msg.address, 0xa0100000);
        CHECK(down[2].time >= down[1].time + bench.cycles(40)); // after the second acknowledgement
        CHECK_EQUAL(down[3].msg.op, SIMTX_OP_WRITE);
        CHECK_EQUAL(down[4].msg.op, SIMTX_OP_CLEAN_LINE);
        CHECK(down[4].time >= down[3].time + bench.cycles(40));
        // Both of warp 2's answers (its sfence's condition) once the clean is.
        CHECK(up[0].time >= down[2].time + bench.cycles(40));
        CHECK(up[1].time >= down[2].time + bench.cycles(40));
        CHECK((up[0].msg.id == 21 && up[1].msg.id == 22) || (up[0].msg.id == 22 && up[1].msg.id == 21));
        CHECK_EQUAL(up[2].msg.id, 23);
    }
    CHECK_EQUAL(bench.counter("logs_temporal"), 3);
    CHECK_EQUAL(bench.counter("cleans_added"), 2);
    CHECK_EQUAL(bench.counter("cleans_merged"), 1);
    const auto &r = bench.target(reports).requests();
    unsigned done = 0;
    for (const auto &m : r)
        if (m.msg.op == SIMTX_OP_AGPM_DONE) {
            done++;
            CHECK(m.msg.aux >= 80); // each from its own arrival to the clean's acknowledgement
        }
    CHECK_EQUAL(done, 3);
}

// An entry's first word (PM_LOG_NAMES) acknowledged before its value word
// arrives waits for it (entry_window 200 cycles): the value word's
// acknowledgement makes the line's one clean, answering both. A first
// word whose value word never comes (warp 3) is cleaned alone once the
// window has passed.
void temporal_entry_first_word()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "clwb"}, {"entry_window", "200"}});
    bench.target(downstream).latency = bench.cycles(40);
    simtx_msg name = log_update(31, SIMTX_FLAG_PM_LOG_NAMES), value = log_update(32), lone = log_update(33, SIMTX_FLAG_PM_LOG_NAMES);
    value.address += 4;
    lone.warp = 3;
    bench.initiator(upstream).send(name, bench.cycles(1));
    bench.initiator(upstream).send(value, bench.cycles(100)); // after the name's acknowledgement
    bench.initiator(upstream).send(lone, bench.cycles(1000));
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    const auto &up = bench.initiator(upstream).responses();
    if (CHECK_EQUAL(down.size(), 5) && CHECK_EQUAL(up.size(), 3)) {
        CHECK_EQUAL(down[2].msg.op, SIMTX_OP_CLEAN_LINE);
        CHECK(down[2].time >= down[1].time + bench.cycles(40));
        CHECK(down[2].time < down[0].time + bench.cycles(200)); // the value word's, not the window's
        CHECK(up[0].time >= down[2].time + bench.cycles(40));
        CHECK(up[1].time >= down[2].time + bench.cycles(40));
        CHECK_EQUAL(down[4].msg.op, SIMTX_OP_CLEAN_LINE);
        CHECK(down[4].time >= down[3].time + bench.cycles(240)); // acknowledged, then the window
        CHECK_EQUAL(up[2].msg.id, 33);
    }
    CHECK_EQUAL(bench.counter("cleans_added"), 2);
    CHECK_EQUAL(bench.counter("cleans_merged"), 1);
}

// The temporal path under backpressure: an L1 stand-in holding four
// requests refuses more until it has answered all four and the answers
// were taken. The write acknowledgements arrive while the selector's
// request queue is full (a refused log update); the selector must take
// them (its clean's place is kept from when it took the write: mem.h,
// BACKPRESSURE), else neither side moves again (the deadlock of the
// temporal path under load: selectors, L1s and crossbar full).
void temporal_under_backpressure()
{
    block_testbench bench(&agpm_selector_block_info, {{"policy", "clwb"}, {"queue_depth", "1"}, {"in_flight", "16"}});
    bench.target(downstream).latency = bench.cycles(10);
    bench.target(downstream).capacity = 4;
    bench.target(downstream).drain_before_refill = true;
    constexpr unsigned logs = 12;
    for (unsigned i = 0; i < logs; i++) {
        simtx_msg msg = log_update(100 + i);
        msg.address += 128 * i; // one line each
        bench.initiator(upstream).send(msg, bench.cycles(1 + i));
    }
    bench.run();
    check_clean(bench);
    const auto &down = bench.target(downstream).requests();
    CHECK_EQUAL(bench.initiator(upstream).responses().size(), logs);
    CHECK_EQUAL(down.size(), 2 * logs);
    CHECK_EQUAL(bench.counter("cleans_added"), logs);
}

} // namespace

int sc_main(int argc, char **argv)
{
    std::string which = argc > 1 ? argv[1] : "non_temporal";
    if (which == "non_temporal") non_temporal();
    else if (which == "temporal") temporal();
    else if (which == "pmem_spec") pmem_spec();
    else if (which == "decisions") decisions();
    else if (which == "bucl") bucl();
    else if (which == "temporal_under_backpressure") temporal_under_backpressure();
    else if (which == "temporal_one_clean_per_line") temporal_one_clean_per_line();
    else if (which == "temporal_entry_first_word") temporal_entry_first_word();
    else return 2;
    return simtx_test_summary();
}
