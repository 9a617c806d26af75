// A pass-through module that checks the TLM-2.0 base protocol on one binding:
// phase order per transaction, request and response exclusion, a response
// status set on every response. Block testbenches put it in front of every
// socket; `simtx run --check-protocol` puts one on every binding.
#ifndef SIMTX_PROTOCOL_CHECKER_HPP
#define SIMTX_PROTOCOL_CHECKER_HPP

#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace simtx {

class protocol_checker : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<protocol_checker> in;
    tlm_utils::simple_initiator_socket<protocol_checker> out;

    explicit protocol_checker(sc_core::sc_module_name name);

    const std::vector<std::string> &violations() const { return violations_; }
    size_t in_flight() const { return state_.size(); }
    uint64_t transactions() const { return transactions_; }

  private:
    enum class stage { request, request_ended, response };

    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase, sc_core::sc_time &delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &payload);
    void forward_phase(tlm::tlm_generic_payload &payload, const tlm::tlm_phase &phase);
    void backward_phase(tlm::tlm_generic_payload &payload, const tlm::tlm_phase &phase);
    void after_forward(tlm::tlm_generic_payload &payload, tlm::tlm_sync_enum result, const tlm::tlm_phase &phase);
    void after_backward(tlm::tlm_generic_payload &payload, tlm::tlm_sync_enum result, const tlm::tlm_phase &phase);
    void violation(const std::string &what);
    void complete(tlm::tlm_generic_payload &payload);

    std::map<tlm::tlm_generic_payload *, stage> state_;
    tlm::tlm_generic_payload *open_request_ = nullptr;  // BEGIN_REQ without END_REQ
    tlm::tlm_generic_payload *open_response_ = nullptr; // BEGIN_RESP without END_RESP
    std::vector<std::string> violations_;
    uint64_t transactions_ = 0;
};

} // namespace simtx

#endif
