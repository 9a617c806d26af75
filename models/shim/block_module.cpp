// The block module: construction from a core's info, its ticks, the
// transport of its messages (direct calls between blocks, sockets otherwise)
// and its held arrivals; the invariants are in block_module.hpp.
#include "block_module.hpp"

namespace simtx {

std::string block_module::run_error_;
uint64_t block_module::accepted_messages_ = 0;

// The extension of a payload arriving through a socket, tied to it. A
// simtx block calling directly names the extension instead: the lookup
// reads the payload's extension array, a host cache miss on most arrivals.
msg_extension &block_module::extension_on(tlm::tlm_generic_payload &payload)
{
    msg_extension *extension = payload.get_extension<msg_extension>();
    if (!extension)
        SC_REPORT_FATAL("simtx", "a transaction without the simtx message extension reached a simtx block");
    extension->payload = &payload;
    return *extension;
}

block_module::block_module(sc_core::sc_module_name module_name, const block_config &config)
    : sc_module(module_name), info_(config.info), announces_room_(config.info->announces_room),
      instance_name_(basename()), address_map_(config.address_map)
{
    for (size_t s = 0; s < info_->socket_count; s++) {
        socket_first_port_.push_back(static_cast<unsigned>(ports_.size()));
        const simtx_socket_spec &spec = info_->sockets[s];
        for (unsigned i = 0; i < config.socket_counts[s]; i++) {
            std::string socket_name = spec.count_parameter ? std::string(spec.name) + "_" + std::to_string(i) : spec.name;
            unsigned port = static_cast<unsigned>(ports_.size());
            port_state state;
            state.transport = std::make_unique<port_transport>(this, port);
            state.is_initiator = simtx_socket_is_initiator(spec.role);
            state.is_monitor = spec.role == SIMTX_SOCKET_MONITOR;
            if (state.is_initiator) {
                state.initiator = std::make_unique<initiator_socket>(socket_name.c_str());
                state.initiator->bind(*state.transport);
            } else {
                state.target = std::make_unique<target_socket>(socket_name.c_str());
                state.target->bind(*state.transport);
            }
            ports_.push_back(std::move(state));
        }
    }
    held_ports_.assign((ports_.size() + 63) / 64, 0);
    room_ports_.assign(held_ports_.size(), 0);
    env_.context = this;
    env_.instance_name = instance_name_.c_str();
    env_.seed = config.seed;
    env_.send = &block_module::send_upcall;
    env_.fail = &block_module::fail_upcall;
    env_.room = &block_module::room_upcall;
    env_.can_send = &block_module::can_send_upcall;
    env_.observer = config.observer;
    env_.probes_traced = config.probes_traced;
    env_.address_map = address_map_.empty() ? nullptr : address_map_.data();
    env_.address_map_length = address_map_.size();

    simtx_observer_set_prefix(config.observer, name());
    char error[512] = "";
    core_ = info_->create(config.params, &env_, error, sizeof error);
    // Backpressure the block applies, counted here once per arrival: a core
    // sees each retry as a new offer and cannot tell them apart.
    simtx_observe_counter(config.observer, "refused_arrivals", &refused_arrivals_, "messages",
                          "arrivals refused at their first offer (backpressure this block applied)");
    simtx_observe_counter(config.observer, "refused_wait_cycles", &refused_wait_cycles_, "cycles",
                          "cycles refused arrivals waited until accepted");
    simtx_observer_set_prefix(config.observer, nullptr);
    if (!core_) throw creation_error(error);

    scheduler_ = &tick_scheduler::instance();
    registration_ = scheduler_->register_block(this, config.clock_period.value());
    schedule_cycle(0, tick_scheduler::running()); // every core gets cycle 0
}

block_module::~block_module()
{
    if (core_) info_->destroy(core_);
}

unsigned block_module::port_of(size_t socket, unsigned index) const
{
    return socket_first_port_[socket] + index;
}

uint64_t block_module::current_cycle() const
{
    return tick_scheduler::current_cycle(place_, registration_);
}

inline void block_module::schedule_cycle(uint64_t cycle, bool running)
{
    if (cycle >= scheduled_cycle_) return;
    scheduled_cycle_ = cycle;
    scheduler_->schedule(place_, registration_, cycle, running);
}

void block_module::tick(uint64_t now)
{
    scheduled_cycle_ = SIMTX_NEVER;
    ticking_ = true;
    uint64_t next = info_->cycle(core_, now);
    ticking_ = false;
    // A block announcing room is offered its held arrivals only after an
    // announcement.
    if (held_count_ && (room_announced_ || !announces_room_)) retry_held(now);
    if (room_announced_) { // nearly always one word: no memset call
        room_ports_[0] = 0;
        for (size_t word = 1; word < room_ports_.size(); word++) room_ports_[word] = 0;
        room_announced_ = false;
    }
    if (next != SIMTX_NEVER) schedule_cycle(next <= now ? now + 1 : next, true);
}

// Something arrived or a port freed: tick at the next clock edge after now.
inline void block_module::wake()
{
    schedule_cycle(current_cycle() + 1, tick_scheduler::running());
}

void block_module::wake_up()
{
    wake();
}

// Offers the held arrivals to the core again, in port order (of the ports
// announced to have room, for a block announcing room). An offer may hold or
// announce others (through the transport calls it makes): each search for the
// next port reads the current bits.
void block_module::retry_held(uint64_t now)
{
    for (size_t word = 0, words = held_ports_.size(); word < words; word++) {
        uint64_t above = ~uint64_t(0); // the ports of this word after the last one offered
        for (;;) {
            uint64_t bits = held_ports_[word] & above;
            if (announces_room_) bits &= room_ports_[word];
            if (!bits) break;
            unsigned bit = static_cast<unsigned>(__builtin_ctzll(bits));
            above = ~((uint64_t(2) << bit) - 1);
            offer_held(static_cast<unsigned>(word * 64 + bit), now);
        }
    }
}

// Offers a held arrival to the core again; on acceptance ends its phase.
inline void block_module::offer_held(unsigned port, uint64_t now)
{
    port_state &state = ports_[port];
    msg_extension &held = *state.held;
    simtx_accept_result result = info_->accept(core_, port, &held.msg, now);
    if (result == SIMTX_BUSY) return;
    if (result == SIMTX_ACCEPTED) schedule_cycle(now + 1, true); // the core sees it from the next edge (in a tick)
    accepted_messages_++;
    if (state.held_refused) refused_wait_cycles_ += now - state.held_since;
    state.held = nullptr;
    held_ports_[port / 64] &= ~(uint64_t(1) << (port % 64));
    held_count_--;
    if (!state.is_initiator) {
        tlm::tlm_phase phase = tlm::END_REQ;
        backward(state, held, phase);
    } else {
        tlm::tlm_phase phase = tlm::END_RESP;
        forward(state, held, phase);
        arrived_response(held.msg);
    }
}

// The core refused an arrival on port at cycle now: keep it and offer it
// after each tick. A message handed over in its sender's storage is kept in
// its extension (its handle), as the sender reuses that storage once send
// returns.
void block_module::hold(unsigned port, const simtx_msg &msg, uint64_t now)
{
    msg_extension *extension = static_cast<msg_extension *>(msg.handle);
    if (&extension->msg != &msg) extension->msg = msg;
    ports_[port].held = extension;
    ports_[port].held_since = now;
    ports_[port].held_refused = true;
    held_ports_[port / 64] |= uint64_t(1) << (port % 64);
    held_count_++;
}

void block_module::announce_room(unsigned port)
{
    room_ports_[port / 64] |= uint64_t(1) << (port % 64);
    room_announced_ = true;
}

// The message an arrival on port carries in its extension, ready for the core.
simtx_msg &block_module::arrival(unsigned port, msg_extension &extension)
{
    simtx_msg &msg = extension.msg;
    msg.handle = &extension;
    if (ports_[port].is_initiator && !msg.is_response) {
        // A plain TLM target answered through the generic payload only.
        const tlm::tlm_generic_payload &payload = *extension.payload;
        msg.is_response = true;
        msg.status = payload.is_response_ok()                                          ? SIMTX_STATUS_OK
                     : payload.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE ? SIMTX_STATUS_ADDRESS_ERROR
                                                                                        : SIMTX_STATUS_COMMAND_ERROR;
    }
    return msg;
}

// Offers an arrival to the core; a refused one is held and offered again
// after the core's next tick (which the refusing core has planned: a refusal
// does not wake it).
inline bool block_module::deliver(unsigned port, const simtx_msg &msg)
{
    uint64_t now = current_cycle(); // read once: the core's accept does not move it
    simtx_accept_result result = info_->accept(core_, port, &msg, now);
    if (result != SIMTX_BUSY) {
        if (result == SIMTX_ACCEPTED) schedule_cycle(now + 1, tick_scheduler::running()); // wake()
        accepted_messages_++;
        return true;
    }
    hold(port, msg, now);
    refused_arrivals_++;
    return false;
}

// A payload's last use: back to the pool, or released by the socket's
// module that acquired it. Inline: every response's arrival ends here.
inline void block_module::release_request(msg_extension &extension)
{
    if (extension.acquired)
        extension.payload->release(); // a socket's module may hold it still
    else
        global_payload_pool().return_message(&extension);
}

// The core took a response: the initiator that made the payload frees it.
// A block that never made one (a crossbar) does not look at the extension,
// which its sender no longer brought into the host's caches.
void block_module::arrived_response(const simtx_msg &msg)
{
    if (!originated_) return;
    msg_extension *extension = static_cast<msg_extension *>(msg.handle);
    if (extension->originator != this) return;
    release_request(*extension);
}

// A simtx block called directly reads only the message: it gets the
// sender's own, in place (returned), which it copies if it keeps it.
// Copying every message into the payload's extension wrote four host cache
// lines that the receiver's caches then missed. A request sent back on a
// target port is the exception: its arrival turns it into a response in
// the extension (null returned: the extension's message). A socket's module
// (a checker, a plain TLM target or initiator) gets the generic attributes.
inline const simtx_msg *block_module::fill_payload(const port_state &state, const simtx_msg &msg,
                                                   msg_extension &extension)
{
    if (state.peer && (msg.is_response || state.is_initiator)) return &msg;
    if (state.peer) {
        carry_message(msg, *extension.payload, extension);
    } else {
        if (extension.originator && !extension.acquired) { // its originator releases it
            extension.payload->acquire();
            extension.acquired = true;
        }
        message_to_payload(msg, *extension.payload, extension);
    }
    return nullptr;
}

bool block_module::send(unsigned port, const simtx_msg *msg)
{
    port_state &state = ports_[port];
    if (state.awaiting_end) return false;
    tlm::tlm_phase phase;
    tlm::tlm_sync_enum result;
    // A message's handle is the extension of the payload carrying it.
    msg_extension *extension = static_cast<msg_extension *>(msg->handle);
    if (state.is_initiator) {
        if (state.unbound) {
            fail((std::string("sends through its socket ") + state.initiator->basename() + ", which the netlist left unbound").c_str());
            return false;
        }
        // A posted request is always a new one (a block forwarding it clears
        // its handle), so a forwarded request need not look its op up.
        bool posted = !extension && !simtx_op_info_of(msg->op)->answered;
        if (!extension) { // a new request: its message gets its handle in the extension
            extension = global_payload_pool().acquire_message();
            extension->originator = this;
            originated_ = true;
            extension->msg = *msg;
            extension->msg.handle = extension;
            msg = &extension->msg;
        }
        const simtx_msg *arriving = fill_payload(state, *msg, *extension);
        phase = tlm::BEGIN_REQ;
        result = forward(state, *extension, phase, arriving);
        if (result == tlm::TLM_ACCEPTED || (result == tlm::TLM_UPDATED && phase == tlm::END_REQ)) {
            if (result == tlm::TLM_ACCEPTED) {
                state.awaiting_end = extension;
                state.awaiting_posted = posted;
            } else if (posted) {
                release_request(*extension); // taken: no response will return it
            }
        } else {
            // The target answered at once (TLM_COMPLETED or BEGIN_RESP): hand the
            // response to the core after this cycle, as if it had been refused.
            if (state.held) SC_REPORT_FATAL("simtx", "two immediate responses on one port");
            hold(port, arrival(port, *extension), current_cycle());
            ports_[port].held_refused = false; // handed over after this cycle, not refused
            announce_room(port);
            wake();
        }
        return true;
    }
    if (!extension) SC_REPORT_FATAL("simtx", "a response without its request's handle");
    const simtx_msg *arriving = fill_payload(state, *msg, *extension);
    phase = tlm::BEGIN_RESP;
    result = backward(state, *extension, phase, arriving);
    if (result == tlm::TLM_ACCEPTED) state.awaiting_end = extension;
    return true;
}

inline tlm::tlm_sync_enum block_module::nb_transport_fw(unsigned port, msg_extension &extension,
                                                        tlm::tlm_phase &phase, const simtx_msg *msg)
{
    port_state &state = ports_[port];
    if (phase == tlm::BEGIN_REQ) {
        if (deliver(port, msg ? *msg : arrival(port, extension))) {
            phase = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::END_RESP && state.awaiting_end == &extension) {
        state.awaiting_end = nullptr;
        if (info_->port_free) info_->port_free(core_, port);
        wake();
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_FATAL("simtx", ("unexpected forward phase at " + instance_name_).c_str());
    return tlm::TLM_COMPLETED;
}

// Forced inline also into send's response path, where GCC's size limits
// left a call per response.
__attribute__((always_inline)) inline tlm::tlm_sync_enum
block_module::nb_transport_bw(unsigned port, msg_extension &extension, tlm::tlm_phase &phase,
                              const simtx_msg *arriving)
{
    port_state &state = ports_[port];
    if (state.awaiting_end == &extension) { // END_REQ, or BEGIN_RESP that implies it
        state.awaiting_end = nullptr;
        if (info_->port_free) info_->port_free(core_, port);
        wake();
        // A posted request held by its receiver: taken now, and no response will return it.
        if (state.awaiting_posted) {
            state.awaiting_posted = false;
            release_request(extension);
        }
    }
    if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
    if (phase == tlm::BEGIN_RESP) {
        const simtx_msg &msg = arriving ? *arriving : arrival(port, extension);
        if (deliver(port, msg)) {
            arrived_response(msg);
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;
    }
    SC_REPORT_FATAL("simtx", ("unexpected backward phase at " + instance_name_).c_str());
    return tlm::TLM_COMPLETED;
}

inline tlm::tlm_sync_enum block_module::forward(port_state &state, msg_extension &extension, tlm::tlm_phase &phase,
                                                const simtx_msg *msg)
{
    if (state.peer) return state.peer->nb_transport_fw(state.peer_port, extension, phase, msg);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return (*state.initiator)->nb_transport_fw(*extension.payload, phase, delay);
}

inline tlm::tlm_sync_enum block_module::backward(port_state &state, msg_extension &extension, tlm::tlm_phase &phase,
                                                 const simtx_msg *msg)
{
    if (state.peer) return state.peer->nb_transport_bw(state.peer_port, extension, phase, msg);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return (*state.target)->nb_transport_bw(*extension.payload, phase, delay);
}

// Bindings are complete: a port bound straight to another simtx block's
// port calls that block's transport functions without the virtual hops of
// the socket interfaces (the same calls, protocol and payloads; a protocol
// checker or any other TLM module in between is called through its socket).
void block_module::end_of_elaboration()
{
    place_ = scheduler_->locate(registration_);
    for (port_state &state : ports_) {
        state.unbound = state.is_initiator && state.initiator->size() == 0;
        sc_core::sc_interface *bound = state.is_initiator ? state.initiator->get_base_port().get_interface()
                                                          : state.target->get_base_port().get_interface();
        if (port_transport *peer = dynamic_cast<port_transport *>(bound)) {
            state.peer = peer->block;
            state.peer_port = peer->port;
        }
    }
    for (unsigned port = 0; port < ports_.size(); port++) {
        const port_state &state = ports_[port];
        if (state.is_monitor && state.initiator->size() > 0 && info_->monitor_bound) info_->monitor_bound(core_, port);
    }
}

tlm::tlm_sync_enum port_transport::nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                   sc_core::sc_time &)
{
    return block->nb_transport_fw(port, block_module::extension_on(payload), phase, nullptr);
}

tlm::tlm_sync_enum port_transport::nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                                   sc_core::sc_time &)
{
    return block->nb_transport_bw(port, block_module::extension_on(payload), phase, nullptr);
}

void port_transport::b_transport(tlm::tlm_generic_payload &payload, sc_core::sc_time &)
{
    payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    SC_REPORT_ERROR("simtx", (block->instance_name_ + ": blocking transport is not supported (simtx blocks use the "
                                                      "non-blocking protocol)").c_str());
}

bool port_transport::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &)
{
    return false; // the models own their memories: no direct access
}

unsigned int port_transport::transport_dbg(tlm::tlm_generic_payload &payload)
{
    return block->transport_dbg(port, payload);
}

void port_transport::invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {}

unsigned block_module::transport_dbg(unsigned port, tlm::tlm_generic_payload &payload)
{
    (void)port;
    if (!info_->debug_access) return 0;
    int forward_port = -1;
    bool is_write = payload.get_command() == tlm::TLM_WRITE_COMMAND;
    size_t done = info_->debug_access(core_, is_write, payload.get_address(), payload.get_data_ptr(),
                                      payload.get_data_length(), &forward_port);
    if (done) return static_cast<unsigned>(done);
    if (forward_port >= 0 && static_cast<unsigned>(forward_port) < ports_.size() && ports_[forward_port].is_initiator) {
        auto &next = *ports_[forward_port].initiator;
        uint64_t address = payload.get_address(), to[4];
        unsigned copies = info_->debug_translate ? info_->debug_translate(core_, is_write, address, to, 4) : 0;
        unsigned served = copies ? 0 : next->transport_dbg(payload);
        for (unsigned i = 0; i < copies && (is_write || i == 0); i++) { // a moved address: each copy
            payload.set_address(to[i]);
            unsigned done = next->transport_dbg(payload);
            if (i == 0) served = done;
        }
        payload.set_address(address);
        if (served && info_->debug_forwarded)
            info_->debug_forwarded(core_, is_write, payload.get_address(), payload.get_data_ptr(), served);
        return served;
    }
    return 0;
}

unsigned block_module::debug_transport(bool is_write, uint64_t address, uint8_t *data, unsigned size)
{
    // One payload for every call: building one allocates its extension array
    // (a host program's memory accesses: 1.7% of a vector add run's instructions).
    tlm::tlm_generic_payload &payload = debug_payload_;
    payload.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    payload.set_address(address);
    payload.set_data_ptr(data);
    payload.set_data_length(size);
    return transport_dbg(0, payload);
}

bool block_module::finished() const
{
    return !info_->finished || info_->finished(core_);
}

double block_module::progress() const
{
    return info_->progress ? info_->progress(core_) : 1.0;
}

std::string block_module::port_name(unsigned port) const
{
    size_t socket = info_->socket_count - 1;
    while (socket_first_port_[socket] > port) socket--;
    const simtx_socket_spec &spec = info_->sockets[socket];
    return spec.count_parameter ? std::string(spec.name) + "[" + std::to_string(port - socket_first_port_[socket]) + "]" : spec.name;
}

std::string block_module::pending_work() const
{
    std::string text;
    auto add = [&text](const std::string &item) { text += (text.empty() ? "" : "; ") + item; };
    if (!finished()) add("not finished (" + std::to_string(static_cast<int>(progress() * 100)) + "% of its work done)");
    if (scheduled_cycle_ != SIMTX_NEVER) add("next tick at cycle " + std::to_string(scheduled_cycle_));
    for (unsigned port = 0; port < ports_.size(); port++) {
        const port_state &state = ports_[port];
        if (state.held)
            add(port_name(port) + " holds " + (state.held_refused ? "a refused " : "an immediate response to its ") +
                simtx_op_info_of(state.held->msg.op)->name + (state.held_refused ? " since cycle " + std::to_string(state.held_since) : ""));
        if (state.awaiting_end)
            add(port_name(port) + " waits for its peer to take a " + simtx_op_info_of(state.awaiting_end->msg.op)->name +
                (state.is_initiator ? " request" : " response"));
    }
    if (info_->describe_pending) {
        char core_text[1024] = "";
        info_->describe_pending(core_, core_text, sizeof core_text);
        if (core_text[0]) add(core_text);
    }
    return text;
}

void block_module::finish()
{
    if (info_->finish) info_->finish(core_, current_cycle());
}

void block_module::fail(const char *message)
{
    if (run_error_.empty()) run_error_ = instance_name_ + ": " + message;
    if (sc_core::sc_is_running()) sc_core::sc_stop(); // not when failing at finish
}

bool block_module::send_upcall(void *context, unsigned port, const simtx_msg *msg)
{
    return static_cast<block_module *>(context)->send(port, msg);
}

void block_module::fail_upcall(void *context, const char *message)
{
    static_cast<block_module *>(context)->fail(message);
}

bool block_module::can_send_upcall(void *context, unsigned port)
{
    return static_cast<block_module *>(context)->ports_[port].awaiting_end == nullptr;
}

void block_module::room_upcall(void *context, unsigned port)
{
    block_module *block = static_cast<block_module *>(context);
    block->announce_room(port);
    if (!block->ticking_) block->wake(); // held arrivals are offered after a tick
}

} // namespace simtx
