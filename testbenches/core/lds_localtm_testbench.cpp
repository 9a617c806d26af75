// Block testbench of the lds's localtm policy (GPU-LocalTM) through its TLM
// sockets and protocol checkers: tx.h events and transactional requests
// with their VERDICT beats on the core socket, a TX_ABORT on tx_events.
// Two lanes of warp 0 keep losing word 2 to warp 1 (TX, then wavefront,
// then work-group serialisation, with conflict_resolution = requester_loses:
// under serial_wins the serial lane would win); the work-group-serial TX_BEGIN aborts
// warp 1 (TX_ABORT) and warp 1's next TX_BEGIN is held, answered only
// at warp 0's commit (after a later request: out of request order, tx.h 1).
#include <cstring>

#include "block_testbench.hpp"
#include "lds.h"
#include "ldst.h"
#include "test_support.h"
#include "tx.h"

using simtx::testing::block_testbench;

namespace {

constexpr uint32_t window = 9 * 64; // gpu_localtm.h: 64 data words

void send_event(block_testbench &bench, simtx_op op, int32_t warp, uint64_t lanes, uint64_t aux, uint32_t first, uint64_t at)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, 0, 0);
    msg.lane_mask = lanes;
    msg.aux = aux;
    msg.warp = warp;
    msg.cta = 0;
    msg.id = 1000 + at;
    msg.transaction_id = first;
    bench.initiator(0).send(msg, bench.cycles(at));
}

// A transactional store of `value` to word 2 by warp's lanes, VERDICT beat first.
void send_store(block_testbench &bench, int32_t warp, uint64_t lanes, uint32_t value, uint64_t at)
{
    uint32_t offsets[LDST_MAX_LANES] = {}, data[LDST_MAX_LANES] = {};
    for (unsigned l = 0; l < 4; l++) offsets[l] = 8, data[l] = value;
    simtx_msg header, beats[LDST_MAX_BEATS + 1];
    simtx_msg_init(&header, SIMTX_OP_WRITE, 0, 0);
    header.aux = ldst_aux(0, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, window);
    header.lane_mask = lanes;
    header.id = at;
    header.warp = warp;
    header.cta = 0;
    header.flags = SIMTX_FLAG_TRANSACTIONAL;
    unsigned count = ldst_make_beats(&beats[1], &header, offsets, data, nullptr);
    tx_verdict_beat(&beats[0], &beats[1]);
    for (unsigned i = 0; i <= count; i++) bench.initiator(0).send(beats[i], bench.cycles(at));
}

const simtx_msg *find(const std::vector<simtx::testing::timed_msg> &responses, uint64_t id, bool verdict, size_t *index = nullptr)
{
    for (size_t i = 0; i < responses.size(); i++)
        if (responses[i].msg.id == id && (!verdict || ldst_beat_of(&responses[i].msg) == LDST_BEAT_VERDICT)) {
            if (index) *index = i;
            return &responses[i].msg;
        }
    return nullptr;
}

uint64_t aborted_at(const std::vector<simtx::testing::timed_msg> &responses, uint64_t at)
{
    const simtx_msg *verdict = find(responses, at, true);
    CHECK(verdict != nullptr);
    return verdict ? tx_verdict_aborted(verdict) : ~0ull;
}

tx_outcome outcome_at(const std::vector<simtx::testing::timed_msg> &responses, uint64_t at)
{
    tx_outcome outcome{};
    const simtx_msg *msg = find(responses, 1000 + at, false);
    CHECK(msg != nullptr && msg->size >= sizeof outcome);
    if (msg) std::memcpy(&outcome, msg->data, sizeof outcome);
    return outcome;
}

} // namespace

int sc_main(int, char **)
{
    block_testbench bench(&lds_block_info, {{"policy", "localtm"}, {"latency", "2"}, {"size", "4096"}, {"max_wavefronts", "4"},
                                                   {"conflict_resolution", "requester_loses"}}); // the serial lane loses to WI4
    simtx_msg clear;
    simtx_msg_init(&clear, SIMTX_OP_WRITE, 0, 0);
    clear.aux = ldst_aux(0, 0, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_CLEAR, window);
    clear.cta = 0;
    clear.id = 1;
    bench.initiator(0).send(clear, bench.cycles(0));
    send_event(bench, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4, 10);
    send_store(bench, 1, 0x1, 44, 20); // WI4 holds word 2
    for (uint64_t attempt = 0; attempt < 2; attempt++) {
        send_event(bench, SIMTX_OP_TX_BEGIN, 0, 0x3, attempt, 0, 30 + 30 * attempt);
        send_store(bench, 0, 0x3, 7, 40 + 30 * attempt);
        send_event(bench, SIMTX_OP_TX_COMMIT, 0, 0x3, 0, 0, 50 + 30 * attempt);
    }
    send_event(bench, SIMTX_OP_TX_BEGIN, 0, 0x1, 2, 0, 90); // wavefront serial: the lowest lane
    send_store(bench, 0, 0x1, 7, 100);
    send_event(bench, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0, 110);
    send_event(bench, SIMTX_OP_TX_BEGIN, 0, 0x1, 3, 0, 120); // work-group serial: warp 1 aborted
    send_event(bench, SIMTX_OP_TX_BEGIN, 1, 0x1, 1, 4, 130); // held
    send_store(bench, 0, 0x1, 9, 140);
    send_event(bench, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0, 150); // releases warp 1's TX_BEGIN
    send_store(bench, 1, 0x1, 44, 170);
    send_event(bench, SIMTX_OP_TX_COMMIT, 1, 0x1, 0, 0, 180);
    bench.run();

    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    CHECK(bench.violations().empty());
    const auto &responses = bench.initiator(0).responses();
    CHECK_EQUAL(aborted_at(responses, 20), 0);
    CHECK_EQUAL(aborted_at(responses, 40), 0x3);
    CHECK_EQUAL(outcome_at(responses, 50).retry, 0x3);
    CHECK_EQUAL(aborted_at(responses, 70), 0x3);
    CHECK_EQUAL(outcome_at(responses, 80).serialize, TX_SERIALIZE_WAVEFRONT);
    CHECK_EQUAL(aborted_at(responses, 100), 0x1);
    CHECK_EQUAL(outcome_at(responses, 110).serialize, TX_SERIALIZE_WORK_GROUP);
    CHECK_EQUAL(aborted_at(responses, 140), 0);
    tx_outcome last = outcome_at(responses, 150);
    CHECK_EQUAL(last.committed, 0x1);
    // Warp 1's TX_BEGIN of cycle 130 is answered after the store of 140,
    // once the commit of 150 released it.
    size_t held = 0, store = 0, commit = 0;
    CHECK(find(responses, 1000 + 130, false, &held) && find(responses, 140, true, &store) && find(responses, 1000 + 150, false, &commit));
    CHECK(held > store && commit > store);
    CHECK(responses[held].time > bench.cycles(150));
    CHECK_EQUAL(aborted_at(responses, 170), 0);
    CHECK_EQUAL(outcome_at(responses, 180).committed, 0x1);
    // The TX_ABORT of warp 1's first attempt, on tx_events.
    const auto &events = bench.target(1).requests();
    CHECK_EQUAL(events.size(), 1);
    if (!events.empty()) {
        CHECK_EQUAL(events[0].msg.op, SIMTX_OP_TX_ABORT);
        CHECK_EQUAL(events[0].msg.warp, 1);
        CHECK_EQUAL(events[0].msg.lane_mask, 0x1);
        CHECK_EQUAL(events[0].msg.transaction_id, 0);
    }
    CHECK_EQUAL(bench.counter("wg_serializations"), 1);
    CHECK_EQUAL(bench.counter("wg_holds"), 1);
    CHECK_EQUAL(bench.counter("lane_commits"), 2);
    return simtx_test_summary();
}
