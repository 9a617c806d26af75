#include "block_testbench.hpp"

#include <algorithm>
#include <stdexcept>

namespace simtx::testing {

test_initiator::test_initiator(sc_core::sc_module_name name) : sc_module(name), socket("socket")
{
    socket.register_nb_transport_bw(this, &test_initiator::nb_transport_bw);
    SC_HAS_PROCESS(test_initiator);
    SC_THREAD(run);
    SC_METHOD(release_response);
    sensitive << release_event_;
    dont_initialize();
}

void test_initiator::send(const simtx_msg &msg, sc_core::sc_time at)
{
    auto position = std::upper_bound(schedule_.begin(), schedule_.end(), at,
                                     [](sc_core::sc_time t, const timed_msg &entry) { return t < entry.time; });
    schedule_.insert(position, timed_msg{msg, at});
    schedule_event_.notify(sc_core::SC_ZERO_TIME);
}

void test_initiator::run()
{
    for (;;) {
        if (schedule_.empty()) {
            wait(schedule_event_);
            continue;
        }
        sc_core::sc_time now = sc_core::sc_time_stamp();
        if (schedule_.front().time > now) {
            wait(schedule_.front().time - now, schedule_event_);
            continue;
        }
        tlm::tlm_generic_payload *payload = global_payload_pool().acquire();
        msg_extension *extension = payload->get_extension<msg_extension>();
        extension->originator = nullptr;
        message_to_payload(schedule_.front().msg, *payload, *extension);
        schedule_.pop_front();
        in_flight_++;
        bool posted = !simtx_op_info_of(extension->msg.op)->answered; // done once taken: no response comes
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        tlm::tlm_sync_enum result = socket->nb_transport_fw(*payload, phase, delay);
        if (result == tlm::TLM_ACCEPTED) {
            awaiting_end_request_ = payload;
            wait(end_request_event_);
        }
        if (posted && result != tlm::TLM_COMPLETED) {
            in_flight_--;
            payload->release();
        } else if (result == tlm::TLM_COMPLETED) {
            responses_.push_back({extension->msg, sc_core::sc_time_stamp()});
            in_flight_--;
            payload->release();
        }
    }
}

tlm::tlm_sync_enum test_initiator::nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                   sc_core::sc_time &)
{
    if (awaiting_end_request_ == &payload) {
        awaiting_end_request_ = nullptr;
        end_request_event_.notify(sc_core::SC_ZERO_TIME);
    }
    if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
    responses_.push_back({payload.get_extension<msg_extension>()->msg, sc_core::sc_time_stamp()});
    if (response_delay == sc_core::SC_ZERO_TIME) {
        in_flight_--;
        payload.release();
        return tlm::TLM_COMPLETED;
    }
    held_response_ = &payload;
    release_event_.notify(response_delay);
    return tlm::TLM_ACCEPTED;
}

void test_initiator::release_response()
{
    tlm::tlm_generic_payload *payload = held_response_;
    held_response_ = nullptr;
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(*payload, phase, delay);
    in_flight_--;
    payload->release();
}

test_target::test_target(sc_core::sc_module_name name) : sc_module(name), socket("socket"), memory_(sparse_memory_create())
{
    socket.register_nb_transport_fw(this, &test_target::nb_transport_fw);
    socket.register_transport_dbg(this, &test_target::transport_dbg);
    SC_HAS_PROCESS(test_target);
    SC_THREAD(respond);
}

test_target::~test_target()
{
    sparse_memory_destroy(memory_);
}

void test_target::serve(simtx_msg &msg)
{
    if (behaviour) {
        behaviour(msg);
        if (!msg.is_response) simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        return;
    }
    if (msg.op == SIMTX_OP_READ) sparse_memory_read(memory_, msg.address, msg.data, msg.size);
    else if (msg.op == SIMTX_OP_WRITE) sparse_memory_write_masked(memory_, msg.address, msg.data, msg.size, msg.byte_enable);
    simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
}

tlm::tlm_sync_enum test_target::nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                sc_core::sc_time &)
{
    if (phase == tlm::END_RESP) {
        awaiting_end_response_ = nullptr;
        wake_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_COMPLETED;
    }
    const simtx_msg &msg = payload.get_extension<msg_extension>()->msg;
    requests_.push_back({msg, sc_core::sc_time_stamp()});
    if (!simtx_op_info_of(msg.op)->answered) { // posted (a monitor event): taken, never answered
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (queue_.size() >= capacity || closed_) {
        closed_ = drain_before_refill;
        refused_ = &payload;
        return tlm::TLM_ACCEPTED;
    }
    queue_.push_back({&payload, sc_core::sc_time_stamp() + latency});
    wake_.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void test_target::respond()
{
    for (;;) {
        if (closed_ && queue_.empty() && !awaiting_end_response_) {
            closed_ = false;
            if (refused_) admit_refused();
        }
        if (queue_.empty() || awaiting_end_response_) {
            wait(wake_);
            continue;
        }
        sc_core::sc_time now = sc_core::sc_time_stamp();
        if (queue_.front().ready > now) {
            wait(queue_.front().ready - now, wake_);
            continue;
        }
        tlm::tlm_generic_payload *payload = queue_.front().payload;
        queue_.pop_front();
        msg_extension *extension = payload->get_extension<msg_extension>();
        serve(extension->msg);
        message_to_payload(extension->msg, *payload, *extension);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (socket->nb_transport_bw(*payload, phase, delay) == tlm::TLM_ACCEPTED) awaiting_end_response_ = payload;
        if (refused_ && !closed_) admit_refused();
    }
}

void test_target::admit_refused()
{
    tlm::tlm_generic_payload *admitted = refused_;
    refused_ = nullptr;
    queue_.push_back({admitted, sc_core::sc_time_stamp() + latency});
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*admitted, phase, delay);
}

unsigned test_target::transport_dbg(tlm::tlm_generic_payload &payload)
{
    if (payload.get_command() == tlm::TLM_WRITE_COMMAND)
        sparse_memory_write(memory_, payload.get_address(), payload.get_data_ptr(), payload.get_data_length());
    else
        sparse_memory_read(memory_, payload.get_address(), payload.get_data_ptr(), payload.get_data_length());
    return payload.get_data_length();
}

block_testbench::block_testbench(const simtx_block_info *info, const std::vector<std::pair<std::string, std::string>> &params,
                                 sc_core::sc_time clock_period, std::vector<simtx_address_range> address_map)
    : info_(info), period_(clock_period), observer_(simtx_observer_create()), params_(info->params->struct_size + 1)
{
    char error[512];
    if (!simtx_params_init(info->params, params_.data(), error, sizeof error)) throw std::invalid_argument(error);
    for (const auto &[name, text] : params) {
        const simtx_param_spec *spec = simtx_param_find(info->params, name.c_str());
        simtx_value value;
        if (!spec) throw std::invalid_argument("no parameter " + name);
        if (!simtx_param_parse_text(spec, text.c_str(), &value, error, sizeof error) ||
            !simtx_param_assign(spec, params_.data(), &value, error, sizeof error))
            throw std::invalid_argument(error);
    }
    block_config config;
    config.info = info;
    config.params = params_.data();
    for (size_t s = 0; s < info->socket_count; s++) {
        const char *count = info->sockets[s].count_parameter;
        config.socket_counts.push_back(count ? static_cast<unsigned>(simtx_param_int(simtx_param_find(info->params, count), params_.data())) : 1);
    }
    config.clock_period = clock_period;
    config.observer = observer_;
    config.seed = 1;
    config.address_map = std::move(address_map);
    dut_ = std::make_unique<block_module>("dut", config);
    helper_of_port_.assign(dut_->port_count(), -1);
    for (unsigned port = 0; port < dut_->port_count(); port++) {
        std::string suffix = std::to_string(port);
        checkers_.push_back(std::make_unique<protocol_checker>(("checker_" + suffix).c_str()));
        protocol_checker &checker = *checkers_.back();
        if (dut_->is_initiator(port)) {
            helper_of_port_[port] = static_cast<int>(targets_.size());
            targets_.push_back(std::make_unique<test_target>(("target_" + suffix).c_str()));
            dut_->initiator(port).bind(checker.in);
            checker.out.bind(targets_.back()->socket);
        } else {
            helper_of_port_[port] = static_cast<int>(initiators_.size());
            initiators_.push_back(std::make_unique<test_initiator>(("initiator_" + suffix).c_str()));
            initiators_.back()->socket.bind(checker.in);
            checker.out.bind(dut_->target(port));
        }
    }
}

block_testbench::~block_testbench()
{
    dut_.reset();
    simtx_params_release(info_->params, params_.data());
    simtx_observer_destroy(observer_);
}

test_initiator &block_testbench::initiator(unsigned port)
{
    if (port >= helper_of_port_.size() || dut_->is_initiator(port)) throw std::out_of_range("not a target port of the block");
    return *initiators_[helper_of_port_[port]];
}

test_target &block_testbench::target(unsigned port)
{
    if (port >= helper_of_port_.size() || !dut_->is_initiator(port)) throw std::out_of_range("not an initiator port of the block");
    return *targets_[helper_of_port_[port]];
}

void block_testbench::run(sc_core::sc_time limit)
{
    if (limit == sc_core::sc_max_time()) sc_core::sc_start();
    else sc_core::sc_start(limit - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
    dut_->finish();
}

std::vector<std::string> block_testbench::violations() const
{
    std::vector<std::string> all;
    for (const auto &checker : checkers_) all.insert(all.end(), checker->violations().begin(), checker->violations().end());
    if (!block_module::run_error().empty()) all.push_back("run error: " + block_module::run_error());
    return all;
}

uint64_t block_testbench::counter(const std::string &name) const
{
    const simtx_stat_entry *entry = simtx_observer_find_stat(observer_, ("dut." + name).c_str());
    if (!entry || entry->kind != SIMTX_STAT_COUNTER) throw std::invalid_argument("no counter " + name);
    return *static_cast<const uint64_t *>(entry->value);
}

} // namespace simtx::testing
