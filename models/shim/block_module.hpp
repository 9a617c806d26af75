// The SystemC module that wraps every block's C core: it gives the core
// TLM-2.0 sockets from its socket table, has the tick scheduler tick it on its
// clock while it has work, and carries its messages on the pool's payloads.
// No model logic lives here.
//
// Invariants:
// - A core's ticks are planned, never polled: the module asks the tick
//   scheduler for the cycle a tick returns, and for the next edge after an
//   accepted arrival, a freed port, or room announced outside a tick. A
//   refused arrival does not wake the refusing core.
// - Held arrivals: a port holds at most one arrival, one its core refused or
//   an immediate response to its own request; the port's bit in held_ports_
//   is set exactly while it holds one, and held_count_ counts them. A held
//   arrival is offered again only after a tick of its core, in port order
//   (for a block announcing room, only on ports announced since the previous
//   offers); its sender sees the phase end only when the core takes it.
// - Base protocol: a port has at most one BEGIN_REQ or BEGIN_RESP of its own
//   awaiting its end (awaiting_end); the core's send on it fails meanwhile.
// - Direct calls: a port bound straight to another block_module's port (found
//   at the end of elaboration) calls that module's transport functions
//   directly, inline in send and in the retry of held arrivals, with the same
//   phases, payloads and results as through the sockets. The receiver then
//   reads the sender's message in place and copies it if it keeps it. Any
//   other module is called through the socket with every generic attribute of
//   the payload set, and the payload acquired (payload_pool.hpp).
// - A payload a module took from the pool for its core's request goes back
//   only through that module, once its core has accepted the response.
#ifndef SIMTX_BLOCK_MODULE_HPP
#define SIMTX_BLOCK_MODULE_HPP

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "payload_pool.hpp"
#include "simtx_block.h"
#include "tick_scheduler.hpp"

namespace simtx {

// Everything a core needs to be built, resolved by the elaborator.
struct block_config {
    const simtx_block_info *info = nullptr;
    const void *params = nullptr;               // filled params struct, owned by the caller
    std::vector<unsigned> socket_counts;        // one per socket spec
    sc_core::sc_time clock_period;
    simtx_observer *observer = nullptr;
    bool probes_traced = true; // a waveform samples the probes
    uint64_t seed = 0;
    std::vector<simtx_address_range> address_map;
};

// Raised when a core cannot be created from its parameters.
struct creation_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A port's TLM interface (a target port's forward one, an initiator port's
// backward one): hands each call to its block with the port's number. Blocks
// speak the non-blocking protocol only.
class port_transport final : public tlm::tlm_fw_transport_if<>, public tlm::tlm_bw_transport_if<> {
  public:
    port_transport(block_module *block, unsigned port) : block(block), port(port) {}
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                       sc_core::sc_time &delay) override;
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload &payload, tlm::tlm_phase &phase,
                                       sc_core::sc_time &delay) override;
    void b_transport(tlm::tlm_generic_payload &payload, sc_core::sc_time &delay) override;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &payload, tlm::tlm_dmi &dmi) override;
    unsigned int transport_dbg(tlm::tlm_generic_payload &payload) override;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

    block_module *const block;
    const unsigned port;
};

class block_module : public sc_core::sc_module {
  public:
    // Zero or more bindings: a monitor socket may stay unbound (the netlist
    // checks that every other socket is bound).
    using initiator_socket = tlm::tlm_initiator_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
    using target_socket = tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

    block_module(sc_core::sc_module_name module_name, const block_config &config);
    ~block_module() override;

    const simtx_block_info *info() const { return info_; }
    void *core() const { return core_; }
    unsigned port_count() const { return static_cast<unsigned>(ports_.size()); }
    // Port of element `index` of socket spec `socket`.
    unsigned port_of(size_t socket, unsigned index) const;
    bool is_initiator(unsigned port) const { return ports_[port].is_initiator; }
    initiator_socket &initiator(unsigned port) { return *ports_[port].initiator; }
    target_socket &target(unsigned port) { return *ports_[port].target; }

    bool finished() const;
    double progress() const;
    // Whether the core runs a program whose visible changes it counts, and
    // the count (simtx_block.h, visible_changes).
    bool counts_visible_changes() const { return info_->visible_changes != nullptr; }
    uint64_t visible_changes() const { return info_->visible_changes ? info_->visible_changes(core_) : 0; }
    // Ends the run for this core: derived statistics at the current cycle.
    void finish();
    uint64_t current_cycle() const;

    // Ticks the core at the next clock edge: for a host that handed the core
    // new work between runs (e.g. a kernel launch).
    void wake_up();

    // Zero-time access entering this block (as if from its target port 0).
    unsigned debug_transport(bool is_write, uint64_t address, uint8_t *data, unsigned size);

    // A run-time error reported by any core, or empty.
    static const std::string &run_error() { return run_error_; }

    // Arrivals every block has accepted since the start: the watchdog's sign
    // that the run progresses (housekeeping such as refresh sends nothing).
    static uint64_t accepted_messages() { return accepted_messages_; }

    // The core has a tick planned (work of its own, or a wait on its clock).
    bool tick_planned() const { return scheduled_cycle_ != SIMTX_NEVER; }

    // The work this block still holds, for a deadlock report: its planned
    // tick, held arrivals, messages its peers have not taken, unfinished
    // work, and its core's describe_pending. Empty when it holds none.
    std::string pending_work() const;

  private:
    // A port's state; what a message's send, arrival and retry read comes
    // first, and the bound simtx block is called without a load of its port
    // object.
    struct port_state {
        msg_extension *awaiting_end = nullptr; // our BEGIN_REQ/BEGIN_RESP not yet ended (its payload's)
        block_module *peer = nullptr; // the bound port's block when it is a simtx block's: called directly
        unsigned peer_port = 0;       // the bound port's number there
        bool unbound = false; // an optional initiator socket left unbound
        bool is_initiator = false;
        bool is_monitor = false; // a SIMTX_SOCKET_MONITOR socket's port: may stay unbound
        bool awaiting_posted = false; // awaiting_end is a posted request's: its END_REQ frees it
        bool held_refused = false;                // false: an immediate response, not a refusal
        msg_extension *held = nullptr;            // an arrival the core refused, offered again after each tick
        uint64_t held_since = 0;                  // the cycle it was first refused
        std::unique_ptr<initiator_socket> initiator;
        std::unique_ptr<target_socket> target;
        std::unique_ptr<port_transport> transport; // this port's interface, bound to its socket
    };

    friend class tick_scheduler; // ticks the block when its scheduled_cycle_ is due
    friend class port_transport;
    void end_of_elaboration() override;
    void tick(uint64_t now);
    void wake();
    void schedule_cycle(uint64_t cycle, bool running); // running: tick_scheduler::running()
    void retry_held(uint64_t now);
    void hold(unsigned port, const simtx_msg &msg, uint64_t now);
    void offer_held(unsigned port, uint64_t now);
    void announce_room(unsigned port);
    static msg_extension &extension_on(tlm::tlm_generic_payload &payload);
    simtx_msg &arrival(unsigned port, msg_extension &extension);
    bool deliver(unsigned port, const simtx_msg &msg);
    void arrived_response(const simtx_msg &msg);
    static void release_request(msg_extension &extension);
    static const simtx_msg *fill_payload(const port_state &state, const simtx_msg &msg, msg_extension &extension);
    bool send(unsigned port, const simtx_msg *msg);
    void fail(const char *message);
    std::string port_name(unsigned port) const;
    unsigned transport_dbg(unsigned port, tlm::tlm_generic_payload &payload);
    // A transaction is named by its payload's message extension: a simtx
    // block calling directly does not read the payload, which stays out of
    // the host's caches. msg: the message arriving, when a simtx block
    // calling directly hands over its own (see fill_payload), else null:
    // the extension's.
    tlm::tlm_sync_enum nb_transport_fw(unsigned port, msg_extension &extension, tlm::tlm_phase &phase,
                                       const simtx_msg *msg);
    tlm::tlm_sync_enum nb_transport_bw(unsigned port, msg_extension &extension, tlm::tlm_phase &phase,
                                       const simtx_msg *msg);
    // Calls the bound port's interface: directly when it is a simtx block's.
    tlm::tlm_sync_enum forward(port_state &state, msg_extension &extension, tlm::tlm_phase &phase,
                               const simtx_msg *msg = nullptr);
    tlm::tlm_sync_enum backward(port_state &state, msg_extension &extension, tlm::tlm_phase &phase,
                                const simtx_msg *msg = nullptr);

    static bool send_upcall(void *context, unsigned port, const simtx_msg *msg);
    static void fail_upcall(void *context, const char *message);
    static void room_upcall(void *context, unsigned port);
    static bool can_send_upcall(void *context, unsigned port);

    // What every tick and wake-up reads, first and together: 64 bytes
    // (a GPU platform's blocks do not all stay in the host's L1).
    uint64_t scheduled_cycle_ = SIMTX_NEVER;
    const simtx_block_info *info_;
    void *core_ = nullptr;
    tick_scheduler *scheduler_;
    tick_place place_; // set once elaboration is over
    unsigned held_count_ = 0;
    bool room_announced_ = false; // some bit of room_ports_ is set
    const bool announces_room_;   // the info's announces_room
    bool ticking_ = false;
    bool originated_ = false; // some payload was taken from the pool for a request of this block

    simtx_env env_{};
    std::string instance_name_;
    std::vector<simtx_address_range> address_map_;
    std::vector<unsigned> socket_first_port_;
    std::vector<port_state> ports_;
    uint64_t refused_arrivals_ = 0, refused_wait_cycles_ = 0;
    tlm::tlm_generic_payload debug_payload_; // debug_transport's
    std::vector<uint64_t> held_ports_; // bit per port holding a refused arrival: retries visit only those
    std::vector<uint64_t> room_ports_; // announces_room: bit per port announced since the last retry
    tick_registration registration_; // this block's clock period and bit in the tick scheduler

    static std::string run_error_;
    static uint64_t accepted_messages_;
};

} // namespace simtx

#endif
