// The tick scheduler's registration, its scheduling beyond the wheel and its
// activation; the invariants are in tick_scheduler.hpp.
// The scheduler is a process spawned at elaboration.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "tick_scheduler.hpp"

#include <algorithm>
#include <functional>

#include "block_module.hpp"

namespace simtx {

bool tick_scheduler::running_ = false;

tick_scheduler &tick_scheduler::instance()
{
    static tick_scheduler scheduler;
    return scheduler;
}

tick_scheduler::tick_scheduler()
{
    // Spawned during elaboration (from the first block's constructor) and
    // run once at initialisation, which ticks the cycle-0 entries.
    sc_core::sc_spawn_options options;
    options.spawn_method();
    options.set_sensitivity(&event_);
    sc_core::sc_spawn([this] { run(); }, "simtx_tick_scheduler", &options);
}

tick_registration tick_scheduler::register_block(block_module *block, uint64_t period_ps)
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
    tick_registration registration;
    registration.period_ps = period_ps;
    registration.clock = d;
    registration.block = static_cast<unsigned>(clock.blocks.size() - 1);
    return registration;
}

tick_place tick_scheduler::locate(const tick_registration &registration)
{
    domain &clock = domains_[registration.clock];
    tick_place place;
    place.clock = &clock;
    place.wheel_row = &clock.wheel[registration.block / 64 * wheel_size];
    place.wheel_bit = uint64_t(1) << (registration.block % 64);
    return place;
}

void tick_scheduler::schedule_elsewhere(unsigned d, unsigned index, uint64_t cycle)
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

inline void tick_scheduler::notify(uint64_t time_ps)
{
    notified_ps_ = time_ps;
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) return; // the initial run covers it
    event_.notify(sc_core::sc_time::from_value(time_ps - sc_core::sc_time_stamp().value()));
}

// Moves the heap's blocks due at `cycle` onto its wheel slot.
void tick_scheduler::take_later(domain &clock, uint64_t cycle, unsigned slot)
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
inline void tick_scheduler::tick_due(domain &clock)
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
inline void tick_scheduler::advance_to(domain &clock, uint64_t now_ps)
{
    if (clock.next_ps == now_ps) {
        clock.now_cycle = clock.next_cycle;
        return;
    }
    uint64_t edge_ps = (clock.now_cycle + 1) * clock.period_ps;
    if (now_ps < edge_ps) return;
    clock.now_cycle = now_ps - edge_ps < clock.period_ps ? clock.now_cycle + 1 : now_ps / clock.period_ps;
}

inline uint64_t tick_scheduler::next_due(domain &clock, uint64_t now)
{
    // Entries a block left behind when it was rescheduled earlier name no
    // tick: dropped here, so that time never advances to them (a run ends
    // at the instant its last work ends, not at a forgotten wake-up).
    block_module *const *blocks = clock.blocks.data();
    while (clock.later_first != SIMTX_NEVER && blocks[clock.later.front().second]->scheduled_cycle_ != clock.later_first) {
        std::pop_heap(clock.later.begin(), clock.later.end(), std::greater<>());
        clock.later.pop_back();
        clock.later_first = clock.later.empty() ? SIMTX_NEVER : clock.later.front().first;
    }
    while (clock.occupied) {
        unsigned start = static_cast<unsigned>((now + 1) % wheel_size);
        uint64_t rotated = start ? clock.occupied >> start | clock.occupied << (wheel_size - start) : clock.occupied;
        uint64_t wheel_next = now + 1 + static_cast<unsigned>(__builtin_ctzll(rotated));
        if (wheel_next >= clock.later_first) break;
        if (slot_has_tick(clock, wheel_next)) return wheel_next;
        unsigned slot = static_cast<unsigned>(wheel_next % wheel_size);
        for (size_t w = 0; w < clock.words; w++) clock.wheel[w * wheel_size + slot] = 0;
        clock.occupied &= ~(uint64_t(1) << slot);
    }
    return clock.later_first;
}

// Whether some block with a bit in cycle's wheel slot is due at cycle.
inline bool tick_scheduler::slot_has_tick(const domain &clock, uint64_t cycle)
{
    const uint64_t *entry = &clock.wheel[cycle % wheel_size];
    block_module *const *blocks = clock.blocks.data();
    for (size_t w = 0; w < clock.words; w++, entry += wheel_size, blocks += 64)
        for (uint64_t word = *entry; word; word &= word - 1)
            if (blocks[__builtin_ctzll(word)]->scheduled_cycle_ == cycle) return true;
    return false;
}

// Ticks the blocks due at now_ps; then, while the next instant is within
// the run-ahead limit, the next instants too without returning to the
// kernel. SystemC time lags behind meanwhile (simulated_time() does not),
// so the last instant run is notified for SystemC time to catch up to it
// if nothing else is due.
inline void tick_scheduler::run()
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

void set_run_ahead_limit(const sc_core::sc_time &limit)
{
    tick_scheduler::instance().set_run_ahead_limit(limit.value());
}

sc_core::sc_time simulated_time()
{
    return sc_core::sc_time::from_value(tick_scheduler::instance().simulated_time_ps());
}

} // namespace simtx
