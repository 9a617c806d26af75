// A harness that drives one block through its TLM sockets: a test initiator
// on every target socket, a test target on every initiator socket, and a
// protocol checker on every binding.
//
//   simtx::testing::block_testbench bench(&memory_block_info, {{"latency", "10"}});
//   simtx_msg request; simtx_msg_init(&request, SIMTX_OP_READ, 0x40, 64);
//   bench.initiator(0).send(request, bench.cycles(3));
//   bench.run();
//   CHECK_EQUAL(bench.initiator(0).responses().size(), 1);
//   CHECK(bench.violations().empty());
#ifndef SIMTX_BLOCK_TESTBENCH_HPP
#define SIMTX_BLOCK_TESTBENCH_HPP

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "block_sc.hpp"
#include "protocol_checker.hpp"
#include "sparse_memory.h"

namespace simtx::testing {

// A request message with its tag, the usual stimulus of a testbench.
inline simtx_msg request(simtx_op op, uint64_t address, uint32_t size, uint64_t id)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, address, size);
    msg.id = id;
    return msg;
}

struct timed_msg {
    simtx_msg msg;
    sc_core::sc_time time;
};

// Sends scheduled requests into a target socket of the block under test and
// records the responses. response_delay > 0 holds each response before
// END_RESP, to test the block's backpressure.
class test_initiator : public sc_core::sc_module {
  public:
    tlm_utils::simple_initiator_socket<test_initiator> socket;
    sc_core::sc_time response_delay = sc_core::SC_ZERO_TIME;

    explicit test_initiator(sc_core::sc_module_name name);
    void send(const simtx_msg &msg, sc_core::sc_time at);
    const std::vector<timed_msg> &responses() const { return responses_; }
    size_t pending() const { return schedule_.size() + in_flight_; }

  private:
    void run();
    void release_response();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase, sc_core::sc_time &delay);

    std::deque<timed_msg> schedule_;
    std::vector<timed_msg> responses_;
    sc_core::sc_event schedule_event_, end_request_event_, release_event_;
    tlm::tlm_generic_payload *awaiting_end_request_ = nullptr;
    tlm::tlm_generic_payload *held_response_ = nullptr;
    size_t in_flight_ = 0;
};

// Answers requests from an initiator socket of the block under test after
// `latency`, with memory semantics over its own sparse memory unless
// `behaviour` is set. Holds at most `capacity` requests; more are refused
// until room frees (backpressure).
class test_target : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<test_target> socket;
    sc_core::sc_time latency = sc_core::sc_time(10, sc_core::SC_NS);
    size_t capacity = 1u << 20;
    // true: once it has refused a request it takes none until it has
    // answered every one it holds and the block took the answers (a cache
    // whose input stays stalled while the answers of earlier requests
    // come back from below).
    bool drain_before_refill = false;
    std::function<void(simtx_msg &)> behaviour; // turns a request into its response

    explicit test_target(sc_core::sc_module_name name);
    ~test_target() override;
    const std::vector<timed_msg> &requests() const { return requests_; }
    sparse_memory *memory() { return memory_; }

  private:
    struct pending {
        tlm::tlm_generic_payload *payload;
        sc_core::sc_time ready;
    };
    void respond();
    void admit_refused();
    void serve(simtx_msg &msg);
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &payload);

    std::deque<pending> queue_;
    tlm::tlm_generic_payload *refused_ = nullptr;
    tlm::tlm_generic_payload *awaiting_end_response_ = nullptr;
    bool closed_ = false; // drain_before_refill: refusing until drained
    std::vector<timed_msg> requests_;
    sc_core::sc_event wake_;
    sparse_memory *memory_;
};

class block_testbench {
  public:
    // params: name/value pairs as on the command line (--set).
    block_testbench(const simtx_block_info *info, const std::vector<std::pair<std::string, std::string>> &params = {},
                    sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS),
                    std::vector<simtx_address_range> address_map = {});
    ~block_testbench();

    block_module &dut() { return *dut_; }
    void *core() { return dut_->core(); }
    test_initiator &initiator(unsigned port); // port: a target socket of the block
    test_target &target(unsigned port);       // port: an initiator socket of the block
    sc_core::sc_time cycles(uint64_t count) const { return period_ * static_cast<double>(count); }

    // Runs until nothing is left to do (or until limit).
    void run(sc_core::sc_time limit = sc_core::sc_max_time());
    std::vector<std::string> violations() const;
    uint64_t counter(const std::string &name) const; // "statistic" of the block under test
    simtx_observer *observer() const { return observer_; }

  private:
    const simtx_block_info *info_;
    sc_core::sc_time period_;
    simtx_observer *observer_;
    std::vector<unsigned char> params_;
    std::unique_ptr<block_module> dut_;
    std::vector<std::unique_ptr<test_initiator>> initiators_;
    std::vector<std::unique_ptr<test_target>> targets_;
    std::vector<std::unique_ptr<protocol_checker>> checkers_;
    std::vector<int> helper_of_port_;
};

} // namespace simtx::testing

#endif
