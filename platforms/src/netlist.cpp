#include "netlist.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fnmatch.h>
#include <lua.hpp>

#include "registry.h"

namespace simtx {

params_buffer::params_buffer(const simtx_param_table *table)
    : table_(table), bytes_(new unsigned char[table->struct_size ? table->struct_size : 1]())
{
    char error[256];
    if (!simtx_params_init(table, bytes_.get(), error, sizeof error))
        throw std::logic_error(std::string("invalid default: ") + error);
}

params_buffer::~params_buffer()
{
    simtx_params_release(table_, bytes_.get());
}

const clock_domain &netlist::clock_of(const instance &inst) const
{
    for (const clock_domain &clock : clocks)
        if (clock.name == inst.clock) return clock;
    throw std::logic_error("unresolved clock");
}

namespace {

// State shared by the Lua API functions while one netlist runs.
struct loader {
    netlist result;
    const netlist_options *options;
    std::string directory; // of the netlist file, for relative paths
    std::map<std::string, size_t> instance_index;
    std::map<std::string, source_location> bound; // "inst.socket[i]" -> first binding
};

loader *loader_of(lua_State *L)
{
    return static_cast<loader *>(lua_touserdata(L, lua_upvalueindex(1)));
}

source_location where(lua_State *L)
{
    lua_Debug ar;
    source_location location{"?", 0};
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            location.file = ar.source[0] == '@' || ar.source[0] == '=' ? ar.source + 1 : ar.short_src;
            location.line = ar.currentline;
            break;
        }
    }
    return location;
}

[[noreturn]] void fail_at(const source_location &at, const std::string &message)
{
    throw input_error(at.text() + ": " + message);
}

bool valid_name(const std::string &name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

std::string describe_instance(const instance &inst)
{
    return "block '" + inst.name + "' (" + inst.info->name + ")";
}

// Runs a C++ body inside a Lua C function: C++ exceptions become Lua errors
// raised only after every C++ object of the body is gone (Lua's errors are
// longjmps, which must not skip destructors).
template <typename Body> int guarded(lua_State *L, Body body)
{
    char message[2048] = "";
    int results = 0;
    try {
        results = body();
    } catch (const std::exception &e) {
        std::snprintf(message, sizeof message, "%s", e.what());
    }
    if (message[0]) {
        lua_pushstring(L, message);
        return lua_error(L);
    }
    return results;
}

std::string string_argument(lua_State *L, int index, const char *what, const source_location &at)
{
    if (lua_type(L, index) != LUA_TSTRING) fail_at(at, std::string("expected ") + what + " (a string) as argument " + std::to_string(index));
    return lua_tostring(L, index);
}

std::string value_text(lua_State *L, int index)
{
    switch (lua_type(L, index)) {
    case LUA_TSTRING: return std::string("\"") + lua_tostring(L, index) + "\"";
    case LUA_TNUMBER:
    case LUA_TBOOLEAN: return luaL_tolstring(L, index, nullptr) + (lua_pop(L, 1), std::string());
    default: return std::string("a ") + lua_typename(L, lua_type(L, index));
    }
}

// Converts the Lua value at index to a parameter value and assigns it.
void assign_from_lua(lua_State *L, int index, instance &inst, const std::string &key, const loader &state,
                     const source_location &at)
{
    const simtx_param_spec *spec = simtx_param_find(inst.info->params, key.c_str());
    if (!spec) fail_at(at, describe_instance(inst) + " has no parameter '" + key + "' (see: simtx describe " + inst.info->name + ")");
    simtx_value value{};
    std::string text;
    switch (lua_type(L, index)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            value.kind = SIMTX_VALUE_INTEGER;
            value.integer = lua_tointeger(L, index);
        } else {
            value.kind = SIMTX_VALUE_REAL;
            value.real = lua_tonumber(L, index);
            // 1e6 written for an integer parameter is still an integer.
            if (spec->type == SIMTX_PARAM_INT && value.real == std::floor(value.real) && std::fabs(value.real) < 9.2e18) {
                value.kind = SIMTX_VALUE_INTEGER;
                value.integer = static_cast<int64_t>(value.real);
            }
        }
        break;
    case LUA_TBOOLEAN:
        value.kind = SIMTX_VALUE_BOOL;
        value.boolean = lua_toboolean(L, index);
        break;
    case LUA_TSTRING:
        text = lua_tostring(L, index);
        if (spec->type == SIMTX_PARAM_INT || spec->type == SIMTX_PARAM_DOUBLE || spec->type == SIMTX_PARAM_BOOL) {
            // "64MiB" and friends: parse like the command line.
            char error[256];
            if (!simtx_param_parse_text(spec, text.c_str(), &value, error, sizeof error))
                fail_at(at, describe_instance(inst) + ": " + error);
            break;
        }
        if (spec->type == SIMTX_PARAM_PATH && !text.empty() && text[0] != '/') text = state.directory + text;
        value.kind = SIMTX_VALUE_STRING;
        value.string = text.c_str();
        break;
    default:
        fail_at(at, describe_instance(inst) + ": parameter '" + key + "' expects " + simtx_param_type_name(spec->type) +
                        ", got " + value_text(L, index));
    }
    char error[512];
    if (!simtx_param_assign(spec, inst.params->data(), &value, error, sizeof error))
        fail_at(at, describe_instance(inst) + ": " + error);
}

int lua_clock(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        std::string name = string_argument(L, 1, "a clock name", at);
        if (!valid_name(name)) fail_at(at, "bad clock name '" + name + "' (letters, digits and _)");
        for (const clock_domain &c : state.result.clocks)
            if (c.name == name) fail_at(at, "clock '" + name + "' is already declared at " + c.where.text());
        if (!lua_istable(L, 2)) fail_at(at, "clock '" + name + "' needs a table like { frequency_mhz = 1400 }");
        clock_domain clock{name, 0, 0, at};
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            if (key != "frequency_mhz") fail_at(at, "clock '" + name + "': unknown field '" + key + "' (only frequency_mhz)");
            if (lua_type(L, -1) != LUA_TNUMBER) fail_at(at, "clock '" + name + "': frequency_mhz must be a number");
            clock.frequency_mhz = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        if (!(clock.frequency_mhz >= 0.001 && clock.frequency_mhz <= 1e6))
            fail_at(at, "clock '" + name + "': frequency_mhz must be in [0.001, 1e6]");
        clock.period_ps = static_cast<uint64_t>(std::llround(1e6 / clock.frequency_mhz));
        state.result.clocks.push_back(clock);
        return 0;
    });
}

int lua_block(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        std::string name = string_argument(L, 1, "an instance name", at);
        std::string type = string_argument(L, 2, "a block type", at);
        if (!valid_name(name)) fail_at(at, "bad instance name '" + name + "' (letters, digits and _)");
        auto previous = state.instance_index.find(name);
        if (previous != state.instance_index.end())
            fail_at(at, "instance '" + name + "' is already declared at " + state.result.instances[previous->second].where.text());
        const simtx_block_info *info = simtx_registry_find(type.c_str());
        if (!info) {
            std::string known;
            for (const simtx_block_info *const *entry = simtx_registry; *entry; entry++)
                known += std::string(known.empty() ? "" : ", ") + (*entry)->name;
            fail_at(at, "unknown block type '" + type + "' (known: " + known + ")");
        }
        instance inst;
        inst.name = name;
        inst.info = info;
        inst.params = std::make_unique<params_buffer>(info->params);
        inst.where = at;
        if (!lua_isnoneornil(L, 3)) {
            if (!lua_istable(L, 3)) fail_at(at, "parameters of '" + name + "' must be a table");
            lua_pushnil(L);
            while (lua_next(L, 3)) {
                if (lua_type(L, -2) != LUA_TSTRING) fail_at(at, "parameter names of '" + name + "' must be strings");
                std::string key = lua_tostring(L, -2);
                if (key == "clock") {
                    if (lua_type(L, -1) != LUA_TSTRING) fail_at(at, "clock of '" + name + "' must be a clock name");
                    inst.clock = lua_tostring(L, -1);
                } else {
                    assign_from_lua(L, lua_gettop(L), inst, key, state, at);
                }
                lua_pop(L, 1);
            }
        }
        state.instance_index[name] = state.result.instances.size();
        state.result.instances.push_back(std::move(inst));
        lua_pushvalue(L, 1);
        return 1;
    });
}

// Parses "inst.socket" or "inst.socket[3]".
socket_end parse_socket(loader &state, const std::string &text, const source_location &at)
{
    size_t dot = text.find('.');
    if (dot == std::string::npos) fail_at(at, "socket '" + text + "' must be written instance.socket or instance.socket[i]");
    std::string inst_name = text.substr(0, dot), socket_name = text.substr(dot + 1);
    int index = -1;
    size_t bracket = socket_name.find('[');
    if (bracket != std::string::npos) {
        char *end;
        errno = 0;
        long value = std::strtol(socket_name.c_str() + bracket + 1, &end, 10);
        if (errno || end == socket_name.c_str() + bracket + 1 || std::strcmp(end, "]") != 0 || value < 0)
            fail_at(at, "bad socket index in '" + text + "'");
        index = static_cast<int>(value);
        socket_name.resize(bracket);
    }
    auto found = state.instance_index.find(inst_name);
    if (found == state.instance_index.end()) fail_at(at, "no instance '" + inst_name + "' (in '" + text + "'); declare it with block() first");
    const instance &inst = state.result.instances[found->second];
    for (size_t s = 0; s < inst.info->socket_count; s++) {
        const simtx_socket_spec &spec = inst.info->sockets[s];
        if (socket_name != spec.name) continue;
        if (spec.count_parameter && index < 0)
            fail_at(at, "socket '" + inst_name + "." + socket_name + "' is an array; name an element like " + inst_name + "." + socket_name + "[0]");
        if (!spec.count_parameter && index >= 0) fail_at(at, "socket '" + inst_name + "." + socket_name + "' is not an array");
        return socket_end{found->second, s, index, text};
    }
    std::string known;
    for (size_t s = 0; s < inst.info->socket_count; s++) known += std::string(s ? ", " : "") + inst.info->sockets[s].name;
    fail_at(at, describe_instance(inst) + " has no socket '" + socket_name + "' (sockets: " + known + ")");
}

uint64_t range_field(lua_State *L, const char *field, const source_location &at)
{
    lua_getfield(L, 3, field);
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0) fail_at(at, std::string("address range needs a non-negative integer '") + field + "'");
    uint64_t value = static_cast<uint64_t>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    return value;
}

int lua_connect(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        binding b;
        b.where = at;
        b.initiator = parse_socket(state, string_argument(L, 1, "an initiator socket", at), at);
        b.target = parse_socket(state, string_argument(L, 2, "a target socket", at), at);
        const auto &inits = state.result.instances;
        if (!simtx_socket_is_initiator(inits[b.initiator.instance].info->sockets[b.initiator.socket].role))
            fail_at(at, "'" + b.initiator.text + "' is a target socket; connect(initiator, target) takes the initiator first");
        if (inits[b.target.instance].info->sockets[b.target.socket].role != SIMTX_SOCKET_TARGET)
            fail_at(at, "'" + b.target.text + "' is an initiator socket; connect(initiator, target) takes a target second");
        for (const socket_end *end : {&b.initiator, &b.target}) {
            auto previous = state.bound.find(end->text);
            if (previous != state.bound.end())
                fail_at(at, "socket '" + end->text + "' is already bound at " + previous->second.text());
            state.bound[end->text] = at;
        }
        if (!lua_isnoneornil(L, 3)) {
            if (!lua_istable(L, 3)) fail_at(at, "the third argument of connect must be { base = ..., size = ... }");
            b.has_range = true;
            b.base = range_field(L, "base", at);
            b.size = range_field(L, "size", at);
            if (b.size == 0) fail_at(at, "address range of '" + b.initiator.text + "' has size 0");
            if (b.base + b.size < b.base) fail_at(at, "address range of '" + b.initiator.text + "' wraps around");
        }
        state.result.bindings.push_back(b);
        return 0;
    });
}

int lua_define(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        std::string name = string_argument(L, 1, "a definition name", at);
        auto found = state.options->defines.find(name);
        if (found == state.options->defines.end()) {
            lua_settop(L, 2);
            return 1;
        }
        const std::string &text = found->second;
        switch (lua_type(L, 2)) {
        case LUA_TNUMBER: {
            if (!lua_stringtonumber(L, text.c_str())) throw input_error("--define " + name + "=" + text + ": expected a number");
            break;
        }
        case LUA_TBOOLEAN:
            if (text != "true" && text != "false") throw input_error("--define " + name + "=" + text + ": expected true or false");
            lua_pushboolean(L, text == "true");
            break;
        default: lua_pushstring(L, text.c_str());
        }
        return 1;
    });
}

// include("file.lua"): runs another netlist file, relative to this one, so
// platforms can share parts (a memory system, a core cluster).
int lua_include(lua_State *L)
{
    char message[1024] = "";
    {
        source_location at = where(L);
        if (lua_type(L, 1) != LUA_TSTRING) {
            std::snprintf(message, sizeof message, "%s: include needs a file name", at.text().c_str());
        } else {
            std::string path = lua_tostring(L, 1);
            if (path[0] != '/') {
                size_t slash = at.file.rfind('/');
                path = (slash == std::string::npos ? "" : at.file.substr(0, slash + 1)) + path;
            }
            FILE *probe = std::fopen(path.c_str(), "r");
            if (!probe) std::snprintf(message, sizeof message, "%s: cannot include '%s': %s", at.text().c_str(), path.c_str(), std::strerror(errno));
            else std::fclose(probe);
            if (!message[0] && luaL_loadfilex(L, path.c_str(), "t") != LUA_OK) std::snprintf(message, sizeof message, "%s", lua_tostring(L, -1));
        }
    }
    if (message[0]) {
        lua_pushstring(L, message);
        return lua_error(L);
    }
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 1;
}

void apply_set(netlist &net, const std::string &option)
{
    size_t equals = option.find('=');
    size_t dot = option.rfind('.', equals);
    if (equals == std::string::npos || dot == std::string::npos || dot == 0)
        throw input_error("--set '" + option + "': expected instance.parameter=value");
    std::string inst_glob = option.substr(0, dot), param_glob = option.substr(dot + 1, equals - dot - 1);
    std::string text = option.substr(equals + 1);
    bool any_instance = false, any_param = false;
    for (instance &inst : net.instances) {
        if (fnmatch(inst_glob.c_str(), inst.name.c_str(), 0) != 0) continue;
        any_instance = true;
        if (fnmatch(param_glob.c_str(), "clock", 0) == 0) {
            inst.clock = text;
            any_param = true;
            continue;
        }
        for (size_t i = 0; i < inst.info->params->count; i++) {
            const simtx_param_spec *spec = &inst.info->params->specs[i];
            if (fnmatch(param_glob.c_str(), spec->name, 0) != 0) continue;
            any_param = true;
            simtx_value value;
            char error[512];
            if (!simtx_param_parse_text(spec, text.c_str(), &value, error, sizeof error) ||
                !simtx_param_assign(spec, inst.params->data(), &value, error, sizeof error))
                throw input_error("--set '" + option + "': " + describe_instance(inst) + ": " + error);
        }
    }
    if (!any_instance) throw input_error("--set '" + option + "': no instance matches '" + inst_glob + "'");
    if (!any_param) throw input_error("--set '" + option + "': no matching instance has a parameter '" + param_glob + "'");
}

void finalize(netlist &net)
{
    if (net.clocks.empty()) throw input_error(net.file + ": the netlist declares no clock (clock(\"name\", { frequency_mhz = ... }))");
    for (instance &inst : net.instances) {
        if (inst.clock.empty()) {
            if (net.clocks.size() > 1) fail_at(inst.where, describe_instance(inst) + " needs clock = <name>: the netlist has several clocks");
            inst.clock = net.clocks[0].name;
        }
        bool known = false;
        for (const clock_domain &c : net.clocks) known |= c.name == inst.clock;
        if (!known) fail_at(inst.where, describe_instance(inst) + ": unknown clock '" + inst.clock + "'");
        inst.socket_counts.clear();
        for (size_t s = 0; s < inst.info->socket_count; s++) {
            const simtx_socket_spec &spec = inst.info->sockets[s];
            int64_t count = 1;
            if (spec.count_parameter)
                count = simtx_param_int(simtx_param_find(inst.info->params, spec.count_parameter), inst.params->data());
            inst.socket_counts.push_back(static_cast<unsigned>(count));
        }
    }
    // Every socket element bound exactly once, indices in range.
    std::map<std::string, bool> bound;
    for (const binding &b : net.bindings) {
        for (const socket_end *end : {&b.initiator, &b.target}) {
            const instance &inst = net.instances[end->instance];
            unsigned count = inst.socket_counts[end->socket];
            if (end->index >= 0 && static_cast<unsigned>(end->index) >= count)
                fail_at(b.where, "socket '" + end->text + "' does not exist: " + inst.name + "." + inst.info->sockets[end->socket].name +
                                     " has " + std::to_string(count) + " elements");
            bound[inst.name + "." + inst.info->sockets[end->socket].name + "[" + std::to_string(end->index < 0 ? 0 : end->index) + "]"] = true;
        }
    }
    for (const instance &inst : net.instances)
        for (size_t s = 0; s < inst.info->socket_count; s++)
            for (unsigned i = 0; i < inst.socket_counts[s]; i++) {
                const simtx_socket_spec &spec = inst.info->sockets[s];
                if (spec.role == SIMTX_SOCKET_MONITOR || bound.count(inst.name + "." + spec.name + "[" + std::to_string(i) + "]")) continue;
                std::string socket = inst.name + "." + spec.name + (spec.count_parameter ? "[" + std::to_string(i) + "]" : "");
                fail_at(inst.where, "socket '" + socket + "' of " + describe_instance(inst) + " is not bound");
            }
    // Address ranges of one block must not overlap.
    for (size_t i = 0; i < net.bindings.size(); i++)
        for (size_t j = i + 1; j < net.bindings.size(); j++) {
            const binding &a = net.bindings[i], &b = net.bindings[j];
            if (!a.has_range || !b.has_range || a.initiator.instance != b.initiator.instance) continue;
            if (a.base < b.base + b.size && b.base < a.base + a.size)
                fail_at(b.where, "address range of '" + b.initiator.text + "' overlaps the range of '" + a.initiator.text +
                                     "' declared at " + a.where.text());
        }
}

} // namespace

netlist load_netlist(const std::string &file, const netlist_options &options)
{
    FILE *probe = std::fopen(file.c_str(), "r");
    if (!probe) throw input_error("cannot open netlist '" + file + "': " + std::strerror(errno));
    std::fclose(probe);

    loader state;
    state.options = &options;
    state.result.file = file;
    size_t slash = file.rfind('/');
    state.directory = slash == std::string::npos ? "" : file.substr(0, slash + 1);

    lua_State *L = luaL_newstate();
    if (!L) throw std::runtime_error("cannot create a Lua state");
    // Only deterministic libraries: no io, os or package.
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    lua_settop(L, 0);
    for (const char *unsafe : {"dofile", "loadfile", "load", "require"}) {
        lua_pushnil(L);
        lua_setglobal(L, unsafe);
    }
    const std::pair<const char *, lua_CFunction> api[] = {
        {"clock", lua_clock}, {"block", lua_block}, {"connect", lua_connect}, {"define", lua_define}, {"include", lua_include}};
    for (const auto &[name, function] : api) {
        lua_pushlightuserdata(L, &state);
        lua_pushcclosure(L, function, 1);
        lua_setglobal(L, name);
    }
    std::string error;
    if (luaL_loadfilex(L, file.c_str(), "t") != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        error = message ? message : "unknown Lua error";
    }
    lua_close(L);
    if (!error.empty()) throw input_error(error);

    for (const std::string &set : options.sets) apply_set(state.result, set);
    finalize(state.result);
    return std::move(state.result);
}

} // namespace simtx
