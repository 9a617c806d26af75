// A platform read from a Lua netlist and validated: clock domains, block
// instances with their parameters, and socket bindings with address ranges.
#ifndef SIMTX_NETLIST_HPP
#define SIMTX_NETLIST_HPP

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "simtx_block.h"
#include "technology.hpp"

namespace simtx {

// Bad input: the message already names the file and line, or the option.
struct input_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct source_location {
    std::string file;
    int line = 0;
    std::string text() const { return file + ":" + std::to_string(line); }
};

struct clock_domain {
    std::string name;
    double frequency_mhz = 0;
    uint64_t period_ps = 0;
    source_location where;
};

// A params struct of one block type, released with its strings.
class params_buffer {
  public:
    explicit params_buffer(const simtx_param_table *table);
    ~params_buffer();
    params_buffer(const params_buffer &) = delete;
    params_buffer &operator=(const params_buffer &) = delete;
    void *data() { return bytes_.get(); }
    const void *data() const { return bytes_.get(); }

  private:
    const simtx_param_table *table_;
    std::unique_ptr<unsigned char[]> bytes_;
};

struct instance {
    std::string name;
    const simtx_block_info *info = nullptr;
    std::string clock;
    std::unique_ptr<params_buffer> params;
    source_location where;
    std::vector<unsigned> socket_counts; // resolved by finalize
    std::map<std::string, std::string> set_by; // parameter -> the --set option that gave its value
};

struct socket_end {
    size_t instance = 0;
    size_t socket = 0; // index in the block's socket table
    int index = -1;    // element of a socket array; -1 for a single socket
    std::string text;  // as written in the netlist
};

struct binding {
    socket_end initiator, target;
    bool has_range = false;
    uint64_t base = 0, size = 0;
    source_location where;
};

struct netlist_options {
    std::vector<std::string> sets;                  // "instance_glob.param=value"
    std::map<std::string, std::string> defines;     // define(name, default) overrides
    uint64_t lua_instructions = 0;                  // the evaluation's bounds; 0: lua_budget's defaults
    size_t lua_memory_bytes = 0;
    size_t max_blocks = 0;                          // 0: netlist.cpp's default
};

// The platform's address map (address_map{ partitions = 6, interleave = 256 }):
// the partition count and chunk size every block that splits addresses over
// the memory partitions must agree with (checked by check_address_map).
struct address_map {
    bool declared = false;
    int64_t partitions = 0, interleave = 0;
    source_location where;
};

struct netlist {
    std::string file;
    // What the statistics record as the netlist: file, or "platforms/NAME.lua" for a
    // platform of the platform folder, so that runs from two install prefixes agree.
    std::string recorded_name;
    std::vector<std::string> files; // file, then each file it included (once, in reading order)
    struct address_map address_map;
    std::vector<clock_domain> clocks;
    std::vector<instance> instances;
    std::vector<binding> bindings;
    struct technology technology; // technology(T) calls: the energy figures (technology.hpp)

    const clock_domain &clock_of(const instance &inst) const;
};

// Reads, overrides and validates a netlist; throws input_error.
netlist load_netlist(const std::string &file, const netlist_options &options);

// Every block's copy of the partition count and interleave equals the
// declared address map (nothing to check without one); throws input_error.
void check_address_map(const netlist &net);

} // namespace simtx

#endif
