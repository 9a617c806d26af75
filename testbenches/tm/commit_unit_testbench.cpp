// Block testbench of the commit unit through its TLM sockets, at 700 MHz: a
// test initiator plays the crossbar (cores), a test target with memory
// semantics plays the L2. Ordinary reads and writes pass through unchanged;
// two conflicting transactions commit and abort as KILO TM says (the second
// read what the first overwrote); the write-back acknowledgement follows the
// L2's; the L2 pushing back only delays; the base protocol stays clean.
#include <cstring>

#include "block_testbench.hpp"
#include "commit_unit.h"
#include "test_support.h"

using simtx::testing::block_testbench;
using simtx::testing::timed_msg;

static simtx_msg make(simtx_op op, uint64_t address, uint32_t cid, uint64_t aux, uint64_t id)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, address, 0);
    msg.transaction_id = cid;
    msg.aux = aux;
    msg.id = id;
    return msg;
}

static simtx_msg log_of(simtx_op op, uint32_t cid, uint32_t address, uint32_t value, uint64_t id)
{
    simtx_msg msg;
    tm_log_init(&msg, op, cid, 0, 0);
    tm_log_append(&msg, cid, address, value);
    msg.id = id;
    return msg;
}

static const timed_msg *find(const std::vector<timed_msg> &responses, uint64_t id)
{
    for (const auto &r : responses)
        if (r.msg.id == id) return &r;
    return nullptr;
}

static uint32_t word_at(sparse_memory *memory, uint64_t address)
{
    uint32_t v;
    sparse_memory_read(memory, address, &v, 4);
    return v;
}

int sc_main(int, char **)
{
    const sc_core::sc_time period(1429, sc_core::SC_PS); // 700 MHz
    block_testbench bench(&commit_unit_block_info, {{"input_queue_depth", "4"}}, period);
    auto &cores = bench.initiator(COMMIT_UNIT_UPSTREAM);
    auto &l2 = bench.target(COMMIT_UNIT_DOWNSTREAM);
    l2.latency = bench.cycles(20);
    l2.capacity = 2; // pushes back on bursts of write-backs
    uint32_t initial = 100;
    sparse_memory_write(l2.memory(), 0x40, &initial, 4);

    // Pass-through traffic.
    simtx_msg write;
    simtx_msg_init(&write, SIMTX_OP_WRITE, 0x1000, 16);
    for (unsigned i = 0; i < 16; i++) write.data[i] = static_cast<uint8_t>(i + 1);
    write.id = 1;
    cores.send(write, bench.cycles(0));
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x1000, 16);
    read.id = 2;
    cores.send(read, bench.cycles(1));

    // Two transactions, IDs 1 and 2, both incrementing 0x40 from 100; ID 1
    // also writes 4 more words (write-back bandwidth and L2 backpressure).
    cores.send(make(SIMTX_OP_TM_CID_REQUEST, 0, 0, 2, 10), bench.cycles(2));
    cores.send(log_of(SIMTX_OP_TM_READ_LOG, 1, 0x40, 100, 11), bench.cycles(10));
    simtx_msg writes1;
    tm_log_init(&writes1, SIMTX_OP_TM_WRITE_LOG, 1, 0, 0);
    tm_log_append(&writes1, 1, 0x40, 101);
    for (uint32_t i = 1; i <= 4; i++) tm_log_append(&writes1, 1, 0x40 + 4 * i, 1000 + i);
    writes1.id = 12;
    cores.send(writes1, bench.cycles(10));
    cores.send(make(SIMTX_OP_TM_LOG_DONE, 0, 1, 1 | (5ull << 32), 13), bench.cycles(10));
    cores.send(log_of(SIMTX_OP_TM_READ_LOG, 2, 0x40, 100, 21), bench.cycles(11));
    cores.send(log_of(SIMTX_OP_TM_WRITE_LOG, 2, 0x40, 101, 22), bench.cycles(11));
    cores.send(make(SIMTX_OP_TM_LOG_DONE, 0, 2, 1 | (1ull << 32), 23), bench.cycles(11));
    // The cores decide once the outcomes are in (well before cycle 300).
    cores.send(make(SIMTX_OP_TM_DECISION, 0, 1, TM_DECISION_COMMIT, 14), bench.cycles(300));
    cores.send(make(SIMTX_OP_TM_DECISION, 0, 2, TM_DECISION_ABORT, 24), bench.cycles(600));
    bench.run();

    CHECK(bench.violations().empty());
    for (const std::string &v : bench.violations()) std::fprintf(stderr, "%s\n", v.c_str());
    const auto &responses = cores.responses();
    CHECK_EQUAL(responses.size(), 11); // every request answered once
    const timed_msg *passed_read = find(responses, 2);
    CHECK(passed_read && std::memcmp(passed_read->msg.data, write.data, 16) == 0);
    const timed_msg *grant = find(responses, 10);
    CHECK(grant && grant->msg.aux == 1);
    const timed_msg *outcome1 = find(responses, 13), *outcome2 = find(responses, 23);
    CHECK(outcome1 && outcome1->msg.aux == TM_OUTCOME_PASS);
    // ID 2 read 0x40 while ID 1, older, was to write it: a hazard. It
    // validates after ID 1 committed, sees 101 and fails.
    CHECK(outcome2 && outcome2->msg.aux == TM_OUTCOME_FAIL);
    const timed_msg *ack1 = find(responses, 14), *ack2 = find(responses, 24);
    CHECK(ack1 && ack2);
    if (outcome1) CHECK(outcome1->time < bench.cycles(300));
    if (outcome2 && ack1) CHECK(outcome2->time > ack1->time);
    // Write-back: 5 words issued one per cycle, acknowledged after the L2's 20 cycles.
    if (ack1) CHECK(ack1->time >= bench.cycles(300 + 5 + 20));
    CHECK_EQUAL(word_at(l2.memory(), 0x40), 101);
    for (uint32_t i = 1; i <= 4; i++) CHECK_EQUAL(word_at(l2.memory(), 0x40 + 4 * i), 1000 + i);
    // The L2 saw: 2 pass-through, 2 validation reads, 5 writes.
    CHECK_EQUAL(l2.requests().size(), 9);
    CHECK_EQUAL(bench.counter("tm_n_commits"), 1);
    CHECK_EQUAL(bench.counter("tm_n_aborts"), 1);
    CHECK_EQUAL(bench.counter("hazards"), 1);
    CHECK_EQUAL(bench.counter("passthrough_requests"), 2);
    CHECK_EQUAL(bench.counter("tm_n_commit_writes"), 5);
    // Debug accesses go on to the L2.
    uint32_t seen = 0;
    CHECK_EQUAL(bench.dut().debug_transport(false, 0x40, reinterpret_cast<uint8_t *>(&seen), 4), 4);
    CHECK_EQUAL(seen, 101);
    return simtx_test_summary();
}
