// A Lua state with bounded evaluation for netlists: an instruction budget (a
// count hook) and a memory cap (an allocator with a limit), so that a netlist
// that loops or allocates without end fails with a message naming it instead
// of running until the machine gives out.
#ifndef SIMTX_LUA_BUDGET_HPP
#define SIMTX_LUA_BUDGET_HPP

#include <cstddef>
#include <cstdint>
#include <lua.hpp>

namespace simtx {

struct lua_budget {
    // A netlist of thousands of blocks runs a few million instructions; an
    // endless loop reaches this in a second or two.
    uint64_t instructions = 500000000;
    // Netlists need a few MiB; a larger cap only delays the error for a
    // runaway table.
    size_t memory_bytes = size_t(512) << 20;

    size_t memory_used = 0;
    bool memory_exceeded = false;
    uint64_t instructions_run = 0;
};

// A new state bounded by budget (which must outlive it); nullptr when none
// can be made. The budget's instruction count ends the run with a Lua error
// at the running line; the memory cap with LUA_ERRMEM and memory_exceeded set.
lua_State *new_bounded_state(lua_budget &budget);

} // namespace simtx

#endif
