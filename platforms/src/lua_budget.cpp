#include "lua_budget.hpp"

#include <cstdlib>

namespace simtx {

namespace {

// Hook calls come once per this many instructions: rare enough to cost
// nothing, frequent enough to stop close to the budget.
const int hook_interval = 1000000;

void *bounded_alloc(void *context, void *block, size_t old_size, size_t new_size)
{
    auto *budget = static_cast<lua_budget *>(context);
    if (!block) old_size = 0; // then old_size is the kind of object, not a size
    if (new_size == 0) {
        std::free(block);
        budget->memory_used -= old_size;
        return nullptr;
    }
    if (new_size > old_size && new_size - old_size > budget->memory_bytes - budget->memory_used) {
        budget->memory_exceeded = true;
        return nullptr;
    }
    void *grown = std::realloc(block, new_size);
    if (grown) budget->memory_used = budget->memory_used - old_size + new_size;
    return grown;
}

void count_instructions(lua_State *L, lua_Debug *)
{
    lua_budget *budget;
    lua_getallocf(L, reinterpret_cast<void **>(&budget));
    budget->instructions_run += hook_interval;
    if (budget->instructions_run >= budget->instructions) {
        lua_pushfstring(L, "the netlist ran %d million Lua instructions without finishing (an endless loop?)",
                        static_cast<int>(budget->instructions / 1000000));
        lua_error(L);
    }
}

} // namespace

lua_State *new_bounded_state(lua_budget &budget)
{
    lua_State *L = lua_newstate(bounded_alloc, &budget);
    if (!L) return nullptr;
    lua_sethook(L, count_instructions, LUA_MASKCOUNT, hook_interval);
    return L;
}

} // namespace simtx
