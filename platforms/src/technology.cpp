#include "technology.hpp"

#include <cmath>
#include <lua.hpp>
#include <set>
#include <stdexcept>

#include "did_you_mean.hpp"
#include "registry.h"

namespace simtx {

const technology_figure *technology::find(const std::string &block_type, const std::string &name) const
{
    for (const technology_figure &f : figures)
        if (f.block_type == block_type && f.name == name) return &f;
    return nullptr;
}

namespace {

struct unit_scale {
    const char *unit, *canonical;
    double factor;
};
// Units a figure may be written in, and what they become.
const unit_scale units[] = {{"fJ", "pJ", 1e-3}, {"pJ", "pJ", 1}, {"nJ", "pJ", 1e3}, {"uJ", "pJ", 1e6},
                            {"uW", "W", 1e-6}, {"mW", "W", 1e-3}, {"W", "W", 1},
                            {"uA", "mA", 1e-3}, {"mA", "mA", 1}, {"A", "mA", 1e3},
                            {"mV", "V", 1e-3}, {"V", "V", 1}, {"bits", "bits", 1}};

std::string field_string(lua_State *L, int table, int position, const std::string &what)
{
    lua_rawgeti(L, table, position);
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        throw std::runtime_error(what + ": element " + std::to_string(position) + " must be a string");
    }
    std::string text = lua_tostring(L, -1);
    lua_pop(L, 1);
    return text;
}

technology_figure read_figure(lua_State *L, int table, const std::string &type, const std::string &name, const std::string &tech)
{
    std::string what = "technology '" + tech + "': " + type + "." + name;
    if (!lua_istable(L, table) || lua_rawlen(L, table) != 4)
        throw std::runtime_error(what + " must be { value, unit, source, note } (four elements: the number, its unit, "
                                        "where it comes from and how uncertain it is)");
    technology_figure f;
    f.block_type = type;
    f.name = name;
    f.technology = tech;
    lua_rawgeti(L, table, 1);
    if (lua_type(L, -1) != LUA_TNUMBER) throw std::runtime_error(what + ": the value (element 1) must be a number");
    double value = lua_tonumber(L, -1);
    lua_pop(L, 1);
    std::string unit = field_string(L, table, 2, what);
    f.source = field_string(L, table, 3, what);
    f.note = field_string(L, table, 4, what);
    if (f.source.empty() || f.note.empty()) throw std::runtime_error(what + ": the source and the note must not be empty");
    const unit_scale *scale = nullptr;
    for (const unit_scale &u : units)
        if (unit == u.unit) scale = &u;
    if (!scale) throw std::runtime_error(what + ": unknown unit '" + unit + "' (fJ, pJ, nJ, uJ, uW, mW, W, uA, mA, A, mV, V, bits)");
    if (!std::isfinite(value) || value < 0) throw std::runtime_error(what + ": the value must be a finite number, at least 0");
    f.value = value * scale->factor;
    f.unit = scale->canonical;
    // What the name says it is must match the unit.
    bool power = name == "static", electrical = name == "vdd" || name.rfind("idd", 0) == 0, width = name == "device_bits";
    const char *expected = power ? "W" : width ? "bits" : electrical ? (name == "vdd" ? "V" : "mA") : "pJ";
    if (f.unit != expected)
        throw std::runtime_error(what + ": a " + (power ? "static power" : width ? "device width" : electrical ? "device current or supply" : "per-event energy") +
                                 " is in " + expected + "-like units, not " + unit);
    return f;
}

} // namespace

void read_technology(lua_State *L, int index, technology &into)
{
    index = lua_absindex(L, index);
    if (!lua_istable(L, index)) throw std::runtime_error("technology needs a table like { name = \"...\", blocks = { ... } } (platforms/technology/*.lua)");
    lua_getfield(L, index, "name");
    if (lua_type(L, -1) != LUA_TSTRING) throw std::runtime_error("technology: the table has no name (a string)");
    std::string tech = lua_tostring(L, -1);
    lua_pop(L, 1);
    // Parts that share a spec each declare its technology: once is enough.
    for (const std::string &name : into.names)
        if (name == tech) return;
    lua_pushnil(L);
    while (lua_next(L, index)) {
        std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        lua_pop(L, 1);
        if (key != "name" && key != "blocks") throw std::runtime_error("technology '" + tech + "': unknown field '" + key + "' (name, blocks)");
    }
    std::set<std::string> types;
    for (const simtx_block_info *const *entry = simtx_registry; *entry; entry++) types.insert((*entry)->name);
    lua_getfield(L, index, "blocks");
    if (!lua_istable(L, -1)) throw std::runtime_error("technology '" + tech + "': blocks must be a table of block types");
    int blocks = lua_gettop(L);
    std::vector<technology_figure> read;
    lua_pushnil(L);
    while (lua_next(L, blocks)) {
        if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1)) throw std::runtime_error("technology '" + tech + "': blocks holds tables by block type");
        std::string type = lua_tostring(L, -2);
        if (!types.count(type)) throw std::runtime_error("technology '" + tech + "': no block type '" + type + "'" + did_you_mean(type, types));
        int figures = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, figures)) {
            if (lua_type(L, -2) != LUA_TSTRING) throw std::runtime_error("technology '" + tech + "': " + type + " holds figures by name");
            read.push_back(read_figure(L, lua_gettop(L), type, lua_tostring(L, -2), tech));
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    for (const technology_figure &f : read) {
        if (const technology_figure *before = into.find(f.block_type, f.name))
            throw std::runtime_error("technology '" + tech + "': " + f.block_type + "." + f.name + " is already given by technology '" +
                                     before->technology + "'");
        into.figures.push_back(f);
    }
    into.names.push_back(tech);
}

} // namespace simtx
