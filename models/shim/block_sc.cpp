// The tick scheduler is a process spawned at elaboration.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "block_sc.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <tuple>

namespace simtx {

std::string block_module::run_error_;

tlm::tlm_extension_base *msg_extension::clone() const
{
    return new msg_extension(*this);
}

void msg_extension::copy_from(const tlm::tlm_extension_base &other)
{
    *this = static_cast<const msg_extension &>(other);
}

payload_pool::~payload_pool()
{
    for (auto &payload : all_) payload->free_all_extensions();
}

void payload_pool::grow()
{
    all_.push_back(std::make_unique<pooled_payload>(this));
    pooled_payload *payload = all_.back().get();
    payload->message = new msg_extension;
    payload->message->payload = payload;
    payload->set_extension(payload->message);
    free_list_.push_back(payload->message);
}

void payload_pool::free(tlm::tlm_generic_payload *payload)
{
    // Keep the extension for the next use: only the pool's payloads carry it
    // (and name this pool as their memory manager).
    free_list_.push_back(static_cast<pooled_payload *>(payload)->message);
}

// Not a function's static: its guard was tested at every request and
// response. No object built before main uses it.
static payload_pool shared_payload_pool;

payload_pool &global_payload_pool()
{
    return shared_payload_pool;
}

static tlm::tlm_response_status response_status_of(const simtx_msg &msg)
{
    if (!msg.is_response) return tlm::TLM_INCOMPLETE_RESPONSE;
    switch (msg.status) {
    case SIMTX_STATUS_OK: return tlm::TLM_OK_RESPONSE;
    case SIMTX_STATUS_ADDRESS_ERROR: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    default: return tlm::TLM_COMMAND_ERROR_RESPONSE;
    }
}

// Puts the message and its response status on the payload: all that a simtx
// block called directly reads (it ignores the generic attributes).
static void carry_message(const simtx_msg &msg, tlm::tlm_generic_payload &payload, msg_extension &extension)
{
    if (&extension.msg != &msg) extension.msg = msg;
    extension.payload = &payload;
    extension.msg.handle = &extension;
    payload.set_response_status(response_status_of(extension.msg));
}

void message_to_payload(const simtx_msg &msg, tlm::tlm_generic_payload &payload, msg_extension &extension)
{
    carry_message(msg, payload, extension);
    simtx_msg &m = extension.msg;
    unsigned length = m.size < SIMTX_MSG_MAX_DATA ? m.size : SIMTX_MSG_MAX_DATA;
    payload.set_command(m.op == SIMTX_OP_READ    ? tlm::TLM_READ_COMMAND
                        : m.op == SIMTX_OP_WRITE ? tlm::TLM_WRITE_COMMAND
                                                 : tlm::TLM_IGNORE_COMMAND);
    payload.set_address(m.address);
    payload.set_data_ptr(m.data);
    payload.set_data_length(length);
    payload.set_streaming_width(length);
    payload.set_dmi_allowed(false);
    if (m.byte_enable[0] == UINT64_MAX && m.byte_enable[1] == UINT64_MAX) {
        payload.set_byte_enable_ptr(nullptr);
        payload.set_byte_enable_length(0);
    } else {
        for (unsigned i = 0; i < length; i++)
            extension.byte_enable[i] = simtx_msg_byte_enabled(&m, i) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
        payload.set_byte_enable_ptr(extension.byte_enable);
        payload.set_byte_enable_length(length);
    }
}

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

// Ticks every block of the simulation from one SystemC method process. Blocks
// are grouped by clock period; at each instant the due blocks of each period
// are ticked in their creation order. One timed notification per instant
// instead of one event per block wake-up keeps the SystemC kernel off the hot
// path, and the order of blocks due at the same instant no longer depends on
// the kernel's process order.
//
// Each period keeps a wheel of the next 64 cycles (a bit per block per
// cycle: nearly every wake-up is a few cycles ahead) and a heap for later
// cycles. A block rescheduled earlier leaves its old bit behind; the bit is
// skipped because the block's scheduled_cycle_ no longer matches.
static constexpr unsigned wheel_size = 64;

// The blocks of one clock period in the tick scheduler.
struct tick_clock {
    uint64_t period_ps = 0;
    std::vector<block_module *> blocks; // bit i % 64 of word i / 64 of a wheel slot is blocks[i]
    size_t words = 0;                   // words per wheel slot
    std::vector<uint64_t> wheel;        // word w of slot s (cycle % wheel_size) at w * wheel_size + s
    uint64_t occupied = 0;              // bit s: slot s has a block due
    std::vector<std::pair<uint64_t, unsigned>> later; // min-heap (cycle, block) beyond the wheel
    uint64_t later_first = SIMTX_NEVER; // its earliest cycle
    uint64_t next_cycle = SIMTX_NEVER;  // earliest cycle with a block due
    uint64_t next_ps = SIMTX_NEVER;     // its time
    uint64_t now_cycle = 0;             // the current cycle while running_
};

class tick_scheduler {
  public:
    static tick_scheduler &instance()
    {
        static tick_scheduler scheduler;
        return scheduler;
    }

    // Returns the block's place: its clock period's index and its bit there.
    std::pair<unsigned, unsigned> register_block(block_module *block, uint64_t period_ps)
    {
        unsigned d = 0;
        while (d < domains_.size() && domains_[d].period_ps != period_ps) d++;
        if (d == domains_.size()) {
            domains_.emplace_back();
            domains_.back().period_ps = period_ps;
        }
        domain &clock = domains_[d];
        clock.blocks.push_back(block);
        clock.words = (clock.blocks.size() + 63) / 64;
        clock.wheel.resize(clock.words * wheel_size, 0);
        return {d, static_cast<unsigned>(clock.blocks.size() - 1)};
    }

    // Elaboration is over: the domains and their wheels keep their places,
    // and the block keeps pointers to its own.
    void locate(block_module &block)
    {
        domain &clock = domains_[block.clock_domain_];
        block.clock_ = &clock;
        block.wheel_row_ = &clock.wheel[block.clock_index_ / 64 * wheel_size];
        block.wheel_bit_ = uint64_t(1) << (block.clock_index_ % 64);
    }

    // The current cycle of a block's clock (cached while the scheduler ticks
    // blocks).
    static uint64_t current_cycle(const block_module &block)
    {
        return running_ ? block.clock_->now_cycle : sc_core::sc_time_stamp().value() / block.period_ps_;
    }

    // Whether the scheduler is ticking blocks (each clock's now_cycle is
    // current).
    static bool running() { return running_; }

    // Ticks a block at `cycle` of its clock (> the current cycle, or 0 at
    // elaboration); running: running() (a tick knows it is, without the
    // test). Inline for the common case: a tick planning one of the next
    // cycles while its instant is already the earliest due.
    void schedule(block_module &block, uint64_t cycle, bool running)
    {
        if (running) {
            domain &clock = *block.clock_;
            if (cycle - clock.now_cycle < wheel_size && cycle >= clock.next_cycle) {
                unsigned slot = static_cast<unsigned>(cycle % wheel_size);
                block.wheel_row_[slot] |= block.wheel_bit_;
                clock.occupied |= uint64_t(1) << slot;
                return;
            }
        }
        schedule_elsewhere(block.clock_domain_, block.clock_index_, cycle);
    }

  private:
    __attribute__((noinline)) void schedule_elsewhere(unsigned d, unsigned index, uint64_t cycle)
    {
        domain &clock = domains_[d];
        uint64_t now = running_ ? clock.now_cycle : sc_core::sc_time_stamp().value() / clock.period_ps;
        if (cycle - now < wheel_size) {
            unsigned slot = static_cast<unsigned>(cycle % wheel_size);
            clock.wheel[index / 64 * wheel_size + slot] |= uint64_t(1) << (index % 64);
            clock.occupied |= uint64_t(1) << slot;
        } else {
            clock.later.push_back({cycle, index});
            std::push_heap(clock.later.begin(), clock.later.end(), std::greater<>());
            clock.later_first = clock.later.front().first;
        }
        if (cycle < clock.next_cycle) {
            clock.next_cycle = cycle;
            clock.next_ps = cycle * clock.period_ps;
            if (clock.next_ps < notified_ps_ && !running_) notify(clock.next_ps);
        }
    }

    using domain = tick_clock;

    tick_scheduler()
    {
        // Spawned during elaboration (from the first block's constructor) and
        // run once at initialisation, which ticks the cycle-0 entries.
        sc_core::sc_spawn_options options;
        options.spawn_method();
        options.set_sensitivity(&event_);
        sc_core::sc_spawn([this] { run(); }, "simtx_tick_scheduler", &options);
    }

    void notify(uint64_t time_ps)
    {
        notified_ps_ = time_ps;
        if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) return; // the initial run covers it
        event_.notify(sc_core::sc_time::from_value(time_ps - sc_core::sc_time_stamp().value()));
    }

    // Moves the heap's blocks due at `cycle` onto its wheel slot.
    __attribute__((noinline)) static void take_later(domain &clock, uint64_t cycle, unsigned slot)
    {
        while (!clock.later.empty() && clock.later.front().first == cycle) {
            unsigned index = clock.later.front().second;
            clock.wheel[index / 64 * wheel_size + slot] |= uint64_t(1) << (index % 64);
            std::pop_heap(clock.later.begin(), clock.later.end(), std::greater<>());
            clock.later.pop_back();
        }
        clock.later_first = clock.later.empty() ? SIMTX_NEVER : clock.later.front().first;
    }

    // Ticks the blocks of one clock due at its current cycle, in creation
    // order, then finds the clock's next due cycle (later ticks of other
    // clocks at this instant that schedule on this one keep it up to date).
    void tick_due(domain &clock)
    {
        uint64_t cycle = clock.now_cycle;
        unsigned slot = static_cast<unsigned>(cycle % wheel_size);
        if (clock.later_first == cycle) take_later(clock, cycle, slot);
        clock.occupied &= ~(uint64_t(1) << slot);
        // Ticks only schedule later cycles, never this slot again: each word
        // is taken whole before its blocks tick.
        // The words' end is read before the ticks, which the compiler would
        // otherwise assume may change it.
        uint64_t *entry = &clock.wheel[slot], *const end = entry + clock.words * wheel_size;
        block_module *const *blocks = clock.blocks.data();
        for (; entry != end; entry += wheel_size, blocks += 64) {
            uint64_t word = *entry;
            *entry = 0;
            for (; word; word &= word - 1) {
                block_module *block = blocks[__builtin_ctzll(word)];
                if (block->scheduled_cycle_ == cycle) block->tick(cycle);
            }
        }
        clock.next_cycle = next_due(clock, cycle);
        clock.next_ps = clock.next_cycle == SIMTX_NEVER ? SIMTX_NEVER : clock.next_cycle * clock.period_ps;
    }

    // Sets the clock's current cycle to the last edge at or before now_ps;
    // time only grows, and most instants are this clock's next edge or the
    // one after its current cycle, which need no division.
    static void advance_to(domain &clock, uint64_t now_ps)
    {
        if (clock.next_ps == now_ps) {
            clock.now_cycle = clock.next_cycle;
            return;
        }
        uint64_t edge_ps = (clock.now_cycle + 1) * clock.period_ps;
        if (now_ps < edge_ps) return;
        clock.now_cycle = now_ps - edge_ps < clock.period_ps ? clock.now_cycle + 1 : now_ps / clock.period_ps;
    }

    static uint64_t next_due(const domain &clock, uint64_t now)
    {
        uint64_t next = clock.later_first;
        if (clock.occupied) {
            unsigned start = static_cast<unsigned>((now + 1) % wheel_size);
            uint64_t rotated = start ? clock.occupied >> start | clock.occupied << (wheel_size - start) : clock.occupied;
            uint64_t wheel_next = now + 1 + static_cast<unsigned>(__builtin_ctzll(rotated));
            if (wheel_next < next) next = wheel_next;
        }
        return next;
    }

    // Ticks the blocks due at now_ps; then, while the next instant is within
    // the run-ahead limit, the next instants too without returning to the
    // kernel. SystemC time lags behind meanwhile (simulated_time() does not),
    // so the last instant run is notified for SystemC time to catch up to it
    // if nothing else is due.
    void run()
    {
        uint64_t start_ps = sc_core::sc_time_stamp().value();
        uint64_t now_ps = start_ps, next_ps;
        notified_ps_ = SIMTX_NEVER;
        // Domains are only added during elaboration.
        domain *const first = domains_.data(), *const last = first + domains_.size();
        running_ = true;
        for (;;) {
            now_ps_ = now_ps;
            for (domain *clock = first; clock != last; clock++) advance_to(*clock, now_ps);
            for (domain *clock = first; clock != last; clock++)
                if (clock->next_ps == now_ps) tick_due(*clock);
            next_ps = SIMTX_NEVER;
            for (domain *clock = first; clock != last; clock++) next_ps = std::min(next_ps, clock->next_ps);
            if (next_ps > run_ahead_limit_ps_ || !block_module::run_error().empty()) break;
            now_ps = next_ps;
        }
        running_ = false;
        if (next_ps != SIMTX_NEVER)
            notify(next_ps);
        else if (now_ps > start_ps)
            notify(now_ps);
    }

  public:
    void set_run_ahead_limit(uint64_t limit_ps) { run_ahead_limit_ps_ = limit_ps; }
    uint64_t simulated_time_ps() const { return running_ ? now_ps_ : sc_core::sc_time_stamp().value(); }

  private:
    std::vector<domain> domains_;
    sc_core::sc_event event_;
    uint64_t notified_ps_ = SIMTX_NEVER;
    uint64_t run_ahead_limit_ps_ = 0; // 0: one instant per activation
    uint64_t now_ps_ = 0;             // the instant being run while running_
    static bool running_; // ticking blocks: each clock's now_cycle is current
};

bool tick_scheduler::running_ = false;

void set_run_ahead_limit(const sc_core::sc_time &limit)
{
    tick_scheduler::instance().set_run_ahead_limit(limit.value());
}

sc_core::sc_time simulated_time()
{
    return sc_core::sc_time::from_value(tick_scheduler::instance().simulated_time_ps());
}

block_module::block_module(sc_core::sc_module_name module_name, const block_config &config)
    : sc_module(module_name), info_(config.info), announces_room_(config.info->announces_room),
      instance_name_(basename()), address_map_(config.address_map), period_ps_(config.clock_period.value())
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
    std::tie(clock_domain_, clock_index_) = scheduler_->register_block(this, period_ps_);
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
    return tick_scheduler::current_cycle(*this);
}

inline void block_module::schedule_cycle(uint64_t cycle, bool running)
{
    if (cycle >= scheduled_cycle_) return;
    scheduled_cycle_ = cycle;
    scheduler_->schedule(*this, cycle, running);
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
    scheduler_->locate(*this);
    for (port_state &state : ports_) {
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
        unsigned served = (*ports_[forward_port].initiator)->transport_dbg(payload);
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
