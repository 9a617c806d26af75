// The tick scheduler: one SystemC method process that ticks every block of
// the simulation. Blocks are grouped by clock period; at each instant the due
// blocks of each period are ticked in their creation order. One timed
// notification per instant instead of one event per block wake-up keeps the
// SystemC kernel off the hot path, and the order of blocks due at the same
// instant no longer depends on the kernel's process order.
//
// Each period keeps a wheel of the next 64 cycles (a bit per block per
// cycle: nearly every wake-up is a few cycles ahead) and a heap for later
// cycles.
//
// Invariants:
// - Determinism: at an instant, clocks tick in the order their periods were
//   first registered and, within a clock, due blocks tick in registration
//   (creation) order, whatever the order they were scheduled in; nothing
//   depends on host addresses or on the kernel's process order.
// - A block is due at its module's scheduled_cycle_: the earliest cycle asked
//   for since its last tick. A block rescheduled earlier leaves its old bit or
//   heap entry behind; that entry is skipped because the cycle no longer
//   matches, so a block ticks at most once per cycle, and next_due drops it
//   before the clock's next cycle is chosen, so time never advances to an
//   instant where nothing ticks.
// - A cycle less than wheel_size ahead of the clock's current cycle when it is
//   scheduled sets the block's bit in wheel slot cycle % wheel_size; a later
//   one goes on the min-heap and moves onto its slot when its cycle comes, so
//   a slot holds the bits of one cycle only. Bit s of `occupied` is set while
//   slot s may hold a bit.
// - next_cycle is the earliest cycle any entry of the clock names (or
//   SIMTX_NEVER); a schedule earlier than it goes through schedule_elsewhere,
//   which lowers it and, between activations, notifies the kernel.
// - A tick schedules only cycles after the current one, never the slot being
//   ticked: each wheel word is taken whole before its blocks tick.
// - A clock's now_cycle is current only while the scheduler runs; otherwise
//   SystemC time gives the current cycle. While it runs ahead, SystemC time
//   lags behind and simulated_time() is the time of the instant.
#ifndef SIMTX_TICK_SCHEDULER_HPP
#define SIMTX_TICK_SCHEDULER_HPP

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "simtx_block.h"

namespace simtx {

class block_module;

// The blocks of one clock period in the tick scheduler.
struct tick_clock {
    static constexpr unsigned wheel_size = 64;

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

// A block's registration: its clock period, its clock's index and its own
// index there (its bit), which name it to the scheduler.
struct tick_registration {
    uint64_t period_ps = 0;
    unsigned clock = 0;
    unsigned block = 0;
};

// A block's place in its clock, known once elaboration is over (locate):
// what scheduling it on the wheel reads, kept by the block with the fields
// every tick and wake-up reads.
struct tick_place {
    tick_clock *clock = nullptr;
    uint64_t *wheel_row = nullptr; // the block's word of its clock's wheel slot 0
    uint64_t wheel_bit = 0;        // the block's bit in it
};

class tick_scheduler {
  public:
    static tick_scheduler &instance();

    tick_registration register_block(block_module *block, uint64_t period_ps);

    // Elaboration is over: the clocks and their wheels keep their places,
    // and a block keeps its place in them.
    tick_place locate(const tick_registration &registration);

    // The current cycle of a block's clock (cached while the scheduler ticks
    // blocks); place: the block's, or unset before elaboration ends. The
    // block's fields are passed by reference: each is read only on the path
    // that needs it.
    static uint64_t current_cycle(const tick_place &place, const tick_registration &registration)
    {
        return running_ ? place.clock->now_cycle : sc_core::sc_time_stamp().value() / registration.period_ps;
    }

    // Whether the scheduler is ticking blocks (each clock's now_cycle is
    // current).
    static bool running() { return running_; }

    // Ticks a block at `cycle` of its clock (> the current cycle, or 0 at
    // elaboration); running: running() (a tick knows it is, without the
    // test). Inline for the common case: a tick planning one of the next
    // cycles while its instant is already the earliest due.
    void schedule(const tick_place &place, const tick_registration &registration, uint64_t cycle, bool running)
    {
        if (running) {
            tick_clock &clock = *place.clock;
            if (cycle - clock.now_cycle < wheel_size && cycle >= clock.next_cycle) {
                unsigned slot = static_cast<unsigned>(cycle % wheel_size);
                place.wheel_row[slot] |= place.wheel_bit;
                clock.occupied |= uint64_t(1) << slot;
                return;
            }
        }
        schedule_elsewhere(registration.clock, registration.block, cycle);
    }

    void set_run_ahead_limit(uint64_t limit_ps) { run_ahead_limit_ps_ = limit_ps; }
    uint64_t simulated_time_ps() const { return running_ ? now_ps_ : sc_core::sc_time_stamp().value(); }

  private:
    static constexpr unsigned wheel_size = tick_clock::wheel_size;
    using domain = tick_clock;

    tick_scheduler();
    __attribute__((noinline)) void schedule_elsewhere(unsigned d, unsigned index, uint64_t cycle);
    __attribute__((noinline)) static void take_later(domain &clock, uint64_t cycle, unsigned slot);
    // The activation and its steps: inline in tick_scheduler.cpp, their only
    // user, as one loop.
    inline void notify(uint64_t time_ps);
    inline void tick_due(domain &clock);
    inline static void advance_to(domain &clock, uint64_t now_ps);
    inline static uint64_t next_due(domain &clock, uint64_t now);
    inline static bool slot_has_tick(const domain &clock, uint64_t cycle);
    inline void run();

    std::vector<domain> domains_;
    sc_core::sc_event event_;
    uint64_t notified_ps_ = SIMTX_NEVER;
    uint64_t run_ahead_limit_ps_ = 0; // 0: one instant per activation
    uint64_t now_ps_ = 0;             // the instant being run while running_
    static bool running_; // ticking blocks: each clock's now_cycle is current
};

// Lets the tick scheduler run the instants up to `limit` in one activation,
// without returning to the SystemC kernel in between: for platforms whose
// only process is the scheduler (no waveform tracing, no testbench threads).
// SC_ZERO_TIME (the default): one instant per activation.
void set_run_ahead_limit(const sc_core::sc_time &limit);

// The time of the instant being simulated: SystemC's time, except while the
// scheduler runs ahead of it.
sc_core::sc_time simulated_time();

} // namespace simtx

#endif
