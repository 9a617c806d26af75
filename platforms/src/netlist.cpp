#include "netlist.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fnmatch.h>
#include <lua.hpp>
#include <set>
#include <sys/stat.h>

#include "did_you_mean.hpp"
#include "input_file.hpp"
#include "lua_budget.hpp"
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
    std::set<std::string> read_defines;           // every name a define() call asked for
    std::vector<std::pair<std::string, source_location>> given_defines; // by include(file, { NAME = value })
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
    case LUA_TBOOLEAN: {
        std::string text = luaL_tolstring(L, index, nullptr);
        lua_pop(L, 1);
        return text;
    }
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

// Far above any GPU netlist (a GTX480 has about a hundred blocks); a runaway
// count (--define cores=1000000000) stops here instead of using gigabytes.
const size_t default_max_blocks = 65536;

int lua_block(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        const size_t max_blocks = state.options->max_blocks ? state.options->max_blocks : default_max_blocks;
        if (state.result.instances.size() >= max_blocks)
            fail_at(at, "more than " + std::to_string(max_blocks) + " blocks (a size define too large?)");
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

// Defines reach a file through its define() function: each included file
// runs with an environment of its own whose define and include carry its
// scope (upvalue 2), a table { values = { NAME = value }, parent = scope,
// site = "file:line" } made by include(file, values), or false at the top.
// Being lexical, a scope also reaches the functions a part returns, whenever
// they are called. The command line overrides every scope, and an outer scope
// an inner one: the user's choice wins over a part's.
bool scope_value(lua_State *L, const std::string &name, std::string &site)
{
    lua_pushnil(L);
    int result = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    while (lua_istable(L, -1)) {
        lua_getfield(L, -1, "values");
        if (lua_getfield(L, -1, name.c_str()) != LUA_TNIL) {
            lua_replace(L, result); // walking outwards: the outermost value stays
            lua_getfield(L, -2, "site");
            site = lua_tostring(L, -1);
            lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        lua_getfield(L, -1, "parent");
        lua_remove(L, -2);
    }
    lua_pop(L, 1);
    if (!site.empty()) return true; // the value is on top
    lua_pop(L, 1);
    return false;
}

int lua_define(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        std::string name = string_argument(L, 1, "a definition name", at);
        state.read_defines.insert(name);
        lua_settop(L, 2);
        auto found = state.options->defines.find(name);
        if (found == state.options->defines.end()) {
            std::string site;
            if (!scope_value(L, name, site)) return 1;
            if (!lua_isnil(L, 2) && lua_type(L, -1) != lua_type(L, 2)) {
                std::string given = value_text(L, lua_gettop(L)), fallback = value_text(L, 2);
                fail_at(at, "define '" + name + "': the include at " + site + " gives " + given + ", but its default is " + fallback);
            }
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

int lua_include(lua_State *L);

std::string frame_file(const lua_Debug &ar)
{
    return ar.source[0] == '@' || ar.source[0] == '=' ? ar.source + 1 : ar.short_src;
}

bool is_include(lua_State *L, lua_Debug &ar)
{
    lua_getinfo(L, "f", &ar);
    bool result = lua_tocfunction(L, -1) == lua_include;
    lua_pop(L, 1);
    return result;
}

std::string real_path(const std::string &path)
{
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? resolved : path;
}

// "a/b/../c.lua" as "a/c.lua", so messages name files as a reader would.
std::string lexically_normal(const std::string &path)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) slash = path.size();
        std::string part = path.substr(start, slash - start);
        if (part == "..") {
            if (!parts.empty() && parts.back() != ".." && !parts.back().empty()) parts.pop_back();
            else parts.push_back(part);
        } else if (part != "." && !(part.empty() && !parts.empty())) {
            parts.push_back(part);
        }
        start = slash + 1;
    }
    std::string result;
    for (size_t i = 0; i < parts.size(); i++) result += (i ? "/" : "") + parts[i];
    return result;
}

// An include of a file whose top level is still running never ends: the
// error names every include line from the top file to this one.
void check_include_loop(lua_State *L, const std::string &path, const source_location &at)
{
    std::string target = real_path(path);
    bool loop = false;
    std::vector<std::string> sites;
    lua_Debug ar;
    bool callee_is_include = false;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (callee_is_include && ar.currentline > 0) sites.push_back(frame_file(ar) + ":" + std::to_string(ar.currentline));
        if (std::strcmp(ar.what, "main") == 0 && ar.source[0] == '@' && real_path(ar.source + 1) == target) loop = true;
        callee_is_include = is_include(L, ar);
    }
    if (!loop) return;
    std::string chain;
    for (auto site = sites.rbegin(); site != sites.rend(); ++site) chain += *site + " -> ";
    fail_at(at, "include loop: " + chain + at.text() + " -> " + path);
}

// include("file.lua" [, { NAME = value, ... }]): runs another netlist file,
// relative to this one, in an environment of its own (its globals stay its
// own; it shares values by returning them), giving its define() calls the
// values of the table. Returns what the file returns.
int lua_include(lua_State *L)
{
    int base = lua_gettop(L);
    guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        if (lua_type(L, 1) != LUA_TSTRING) fail_at(at, "include needs a file name");
        std::string path = lua_tostring(L, 1);
        if (path[0] != '/') {
            size_t slash = at.file.rfind('/');
            path = (slash == std::string::npos ? "" : at.file.substr(0, slash + 1)) + path;
        }
        struct stat info, normal_info;
        if (stat(path.c_str(), &info) != 0) fail_at(at, "cannot include '" + path + "': " + std::strerror(errno));
        // The shorter name, unless a symbolic link makes it another file.
        std::string normal = lexically_normal(path);
        if (stat(normal.c_str(), &normal_info) == 0 && normal_info.st_dev == info.st_dev && normal_info.st_ino == info.st_ino) path = normal;
        if (!S_ISREG(info.st_mode)) fail_at(at, "cannot include '" + path + "': not a netlist file (a folder?)");
        check_include_loop(L, path, at);
        if (std::find(state.result.files.begin(), state.result.files.end(), path) == state.result.files.end())
            state.result.files.push_back(path);

        // The scope of the included file.
        if (lua_isnoneornil(L, 2)) {
            lua_pushvalue(L, lua_upvalueindex(2));
        } else {
            if (!lua_istable(L, 2)) fail_at(at, "include('" + path + "', defines): defines must be a table like { cores = 4 }");
            lua_createtable(L, 0, 3);
            lua_createtable(L, 0, 4);
            lua_pushnil(L);
            while (lua_next(L, 2)) {
                if (lua_type(L, -2) != LUA_TSTRING) fail_at(at, "include('" + path + "', defines): define names must be strings");
                state.given_defines.emplace_back(lua_tostring(L, -2), at);
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_settable(L, -4);
            }
            lua_setfield(L, -2, "values");
            lua_pushvalue(L, lua_upvalueindex(2));
            lua_setfield(L, -2, "parent");
            lua_pushstring(L, at.text().c_str());
            lua_setfield(L, -2, "site");
        }
        int scope = lua_gettop(L);

        if (luaL_loadfilex(L, path.c_str(), "t") != LUA_OK) throw input_error(lua_tostring(L, -1));
        lua_createtable(L, 0, 2); // the file's environment: define and include of its scope, the rest from _G
        for (const auto &[name, function] : {std::pair<const char *, lua_CFunction>{"define", lua_define}, {"include", lua_include}}) {
            lua_pushvalue(L, lua_upvalueindex(1));
            lua_pushvalue(L, scope);
            lua_pushcclosure(L, function, 2);
            lua_setfield(L, -2, name);
        }
        lua_createtable(L, 0, 1);
        lua_pushglobaltable(L);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
        lua_setupvalue(L, -2, 1); // a main chunk's first upvalue is its _ENV
        lua_remove(L, scope);
        return 0;
    });
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - base;
}

// address_map{ partitions = N, interleave = BYTES }: the platform's one
// declaration of how addresses spread over the memory partitions.
int lua_address_map(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        if (!lua_istable(L, 1)) fail_at(at, "address_map needs a table like { partitions = 6, interleave = 256 }");
        address_map map;
        map.declared = true;
        map.where = at;
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            if (key != "partitions" && key != "interleave") fail_at(at, "address_map: unknown field '" + key + "' (partitions, interleave)");
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) fail_at(at, "address_map: " + key + " must be a positive integer");
            (key == "partitions" ? map.partitions : map.interleave) = lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
        if (!map.partitions || !map.interleave) fail_at(at, "address_map needs both partitions and interleave");
        const address_map &first = state.result.address_map;
        if (first.declared && (first.partitions != map.partitions || first.interleave != map.interleave))
            fail_at(at, "address_map{ partitions = " + std::to_string(map.partitions) + ", interleave = " + std::to_string(map.interleave) +
                            " } disagrees with the one declared at " + first.where.text() + " (partitions = " + std::to_string(first.partitions) +
                            ", interleave = " + std::to_string(first.interleave) + ")");
        if (!first.declared) state.result.address_map = map;
        return 0;
    });
}

// technology(T): the figures the energy report prices the blocks' energy
// events with (technology.hpp); T is what a technology file returns.
int lua_technology(lua_State *L)
{
    return guarded(L, [&] {
        loader &state = *loader_of(L);
        source_location at = where(L);
        try {
            read_technology(L, 1, state.result.technology);
        } catch (const std::runtime_error &e) {
            fail_at(at, e.what());
        }
        return 0;
    });
}

// The message handler of the top-level run: appends to an error the chain
// of netlist lines that led to it, innermost first: each line that called a
// part's function ("called from") or included a file ("included from").
int add_include_chain(lua_State *L)
{
    if (lua_type(L, 1) != LUA_TSTRING) {
        lua_pushfstring(L, "a Lua error raised with a %s instead of a message", luaL_typename(L, 1));
        lua_replace(L, 1);
    }
    std::string message = lua_tostring(L, 1);
    struct frame {
        std::string location, short_location;
        bool include_site;
    };
    std::vector<frame> frames;
    lua_Debug ar;
    bool callee_is_include = false;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            std::string line = ":" + std::to_string(ar.currentline);
            frames.push_back({frame_file(ar) + line, ar.short_src + line, callee_is_include});
        }
        callee_is_include = is_include(L, ar);
    }
    // The message names its own line: the chain starts above that frame.
    size_t first = 0;
    for (size_t i = 0; i < frames.size(); i++)
        if (message.rfind(frames[i].location + ":", 0) == 0 || message.rfind(frames[i].short_location + ":", 0) == 0) {
            first = i + 1;
            break;
        }
    if (first == 0 && !frames.empty() && !frames[0].include_site) {
        message = frames[0].location + ": " + message; // a message without a location (assert)
        first = 1;
    }
    for (size_t i = first; i < frames.size(); i++)
        message += std::string("\n    ") + (frames[i].include_site ? "included from " : "called from ") + frames[i].location;
    lua_pushstring(L, message.c_str());
    return 1;
}

// After the netlist ran: every define given was read by some define() call.
// (A define read only on a path the run did not take counts as unread.)
void check_defines_read(const loader &state)
{
    for (const auto &[name, value] : state.options->defines)
        if (!state.read_defines.count(name))
            throw input_error("--define " + name + "=" + value + ": the netlist has no define('" + name + "', ...) on this run" +
                              did_you_mean(name, state.read_defines));
    for (const auto &[name, site] : state.given_defines)
        if (!state.read_defines.count(name))
            fail_at(site, "include gives the define '" + name + "', which no define() of the included files reads" +
                              did_you_mean(name, state.read_defines));
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
            inst.set_by[spec->name] = option;
            simtx_value value;
            char error[512];
            if (!simtx_param_parse_text(spec, text.c_str(), &value, error, sizeof error) ||
                !simtx_param_assign(spec, inst.params->data(), &value, error, sizeof error))
                throw input_error("--set '" + option + "': " + describe_instance(inst) + ": " + error);
        }
    }
    if (!any_instance) {
        std::set<std::string> names;
        for (const instance &inst : net.instances) names.insert(inst.name);
        throw input_error("--set '" + option + "': no instance matches '" + inst_glob + "'" + did_you_mean(inst_glob, names));
    }
    if (!any_param) {
        std::set<std::string> names{"clock"};
        for (const instance &inst : net.instances)
            if (fnmatch(inst_glob.c_str(), inst.name.c_str(), 0) == 0)
                for (size_t i = 0; i < inst.info->params->count; i++) names.insert(inst.info->params->specs[i].name);
        throw input_error("--set '" + option + "': no matching instance has a parameter '" + param_glob + "'" + did_you_mean(param_glob, names));
    }
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
                const char *needed_by = !spec.optional ? "" : inst.info->socket_needed ? inst.info->socket_needed(inst.params->data(), s) : nullptr;
                if (!needed_by) continue;
                std::string socket = inst.name + "." + spec.name + (spec.count_parameter ? "[" + std::to_string(i) + "]" : "");
                fail_at(inst.where, "socket '" + socket + "' of " + describe_instance(inst) + " is not bound" +
                                        (*needed_by ? std::string(" (") + needed_by + " needs it)" : ""));
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
    check_input_file("netlist", file);
    FILE *probe = std::fopen(file.c_str(), "r");
    if (!probe) throw input_error("cannot open netlist '" + file + "': " + std::strerror(errno));
    std::fclose(probe);

    loader state;
    state.options = &options;
    state.result.file = file;
    size_t slash = file.rfind('/');
    state.directory = slash == std::string::npos ? "" : file.substr(0, slash + 1);

    lua_budget budget;
    if (options.lua_instructions) budget.instructions = options.lua_instructions;
    if (options.lua_memory_bytes) budget.memory_bytes = options.lua_memory_bytes;
    lua_State *L = new_bounded_state(budget);
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
    const std::pair<const char *, lua_CFunction> api[] = {{"clock", lua_clock}, {"block", lua_block}, {"connect", lua_connect},
                                                          {"address_map", lua_address_map}, {"define", lua_define}, {"include", lua_include},
                                                          {"technology", lua_technology}};
    for (const auto &[name, function] : api) {
        lua_pushlightuserdata(L, &state);
        lua_pushboolean(L, false); // define and include: the top file's scope (none)
        lua_pushcclosure(L, function, 2);
        lua_setglobal(L, name);
    }
    std::string error;
    lua_pushcfunction(L, add_include_chain);
    state.result.files.push_back(file);
    int status = luaL_loadfilex(L, file.c_str(), "t");
    if (status == LUA_OK) status = lua_pcall(L, 0, 0, 1);
    if (status == LUA_ERRMEM && budget.memory_exceeded) {
        error = file + ": the netlist used more than " + std::to_string(budget.memory_bytes >> 20) +
                " MiB of Lua memory (an unbounded table?)";
    } else if (status != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        error = message ? message : "unknown Lua error";
    }
    lua_close(L);
    if (!error.empty()) throw input_error(error);
    check_defines_read(state);

    for (const std::string &set : options.sets) apply_set(state.result, set);
    finalize(state.result);
    check_address_map(state.result);
    return std::move(state.result);
}

} // namespace simtx
