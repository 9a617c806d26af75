#include "protocol_checker.hpp"

#include "payload_pool.hpp"
#include "tick_scheduler.hpp"

namespace simtx {

protocol_checker::protocol_checker(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out")
{
    in.register_nb_transport_fw(this, &protocol_checker::nb_transport_fw);
    in.register_transport_dbg(this, &protocol_checker::transport_dbg);
    out.register_nb_transport_bw(this, &protocol_checker::nb_transport_bw);
}

void protocol_checker::violation(const std::string &what)
{
    violations_.push_back(std::string(name()) + " at " + simulated_time().to_string() + ": " + what);
}

void protocol_checker::complete(tlm::tlm_generic_payload &payload)
{
    if (payload.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
        violation("transaction completed with TLM_INCOMPLETE_RESPONSE");
    if (open_request_ == &payload) open_request_ = nullptr;
    if (open_response_ == &payload) open_response_ = nullptr;
    state_.erase(&payload);
}

void protocol_checker::forward_phase(tlm::tlm_generic_payload &payload, const tlm::tlm_phase &phase)
{
    auto found = state_.find(&payload);
    if (phase == tlm::BEGIN_REQ) {
        if (found != state_.end()) violation("BEGIN_REQ for a transaction already in flight");
        if (open_request_) violation("BEGIN_REQ before END_REQ of the previous request (request exclusion)");
        state_[&payload] = stage::request;
        open_request_ = &payload;
        transactions_++;
    } else if (phase == tlm::END_RESP) {
        if (found == state_.end() || found->second != stage::response) violation("END_RESP without BEGIN_RESP");
        else complete(payload);
    } else {
        violation("phase " + std::string(phase.get_name()) + " on the forward path");
    }
}

void protocol_checker::backward_phase(tlm::tlm_generic_payload &payload, const tlm::tlm_phase &phase)
{
    auto found = state_.find(&payload);
    if (found == state_.end()) {
        violation(std::string(phase.get_name()) + " for an unknown transaction");
        return;
    }
    if (phase == tlm::END_REQ) {
        if (found->second != stage::request) violation("END_REQ twice");
        found->second = stage::request_ended;
        open_request_ = nullptr;
        // A posted request (a notification, a monitor event) ends here: no response follows.
        const msg_extension *extension = payload.get_extension<msg_extension>();
        if (extension && !simtx_op_info_of(extension->msg.op)->answered) state_.erase(&payload);
    } else if (phase == tlm::BEGIN_RESP) {
        if (found->second == stage::response) violation("BEGIN_RESP twice");
        if (open_response_) violation("BEGIN_RESP before END_RESP of the previous response (response exclusion)");
        if (payload.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) violation("BEGIN_RESP with TLM_INCOMPLETE_RESPONSE");
        if (open_request_ == &payload) open_request_ = nullptr; // BEGIN_RESP implies END_REQ
        found->second = stage::response;
        open_response_ = &payload;
    } else {
        violation("phase " + std::string(phase.get_name()) + " on the backward path");
    }
}

void protocol_checker::after_forward(tlm::tlm_generic_payload &payload, tlm::tlm_sync_enum result, const tlm::tlm_phase &phase)
{
    if (result == tlm::TLM_UPDATED) backward_phase(payload, phase);
    else if (result == tlm::TLM_COMPLETED) complete(payload);
}

void protocol_checker::after_backward(tlm::tlm_generic_payload &payload, tlm::tlm_sync_enum result, const tlm::tlm_phase &phase)
{
    if (result == tlm::TLM_UPDATED) forward_phase(payload, phase);
    else if (result == tlm::TLM_COMPLETED && state_.count(&payload)) complete(payload);
}

tlm::tlm_sync_enum protocol_checker::nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                     sc_core::sc_time &delay)
{
    forward_phase(payload, phase);
    tlm::tlm_sync_enum result = out->nb_transport_fw(payload, phase, delay);
    after_forward(payload, result, phase);
    return result;
}

tlm::tlm_sync_enum protocol_checker::nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                     sc_core::sc_time &delay)
{
    backward_phase(payload, phase);
    tlm::tlm_sync_enum result = in->nb_transport_bw(payload, phase, delay);
    after_backward(payload, result, phase);
    return result;
}

unsigned protocol_checker::transport_dbg(tlm::tlm_generic_payload &payload)
{
    return out->transport_dbg(payload);
}

} // namespace simtx
