// The platforms a bare netlist name may name (`simtx run gtx480.lua`,
// `simtx platforms`): those of the installed data directory, or, for a simtx
// run from its build tree, the source tree's.
#ifndef SIMTX_PLATFORM_LIST_HPP
#define SIMTX_PLATFORM_LIST_HPP

#include <cstdio>
#include <string>
#include <vector>

namespace simtx {

struct platform_entry {
    std::string file;    // "gtx480.lua"
    std::string summary; // the first sentence of the netlist's leading comment
};

// The folder bare names resolve in ("" when there is none).
std::string platform_directory();

// Its netlists (top level only: parts/ and specs/ are no platforms), by name.
std::vector<platform_entry> platform_list();

// The netlist file a command-line name stands for: the name itself when it
// exists or has a '/', else the platform folder's file of that name. A name
// that is neither throws input_error with the nearest known platform.
std::string resolve_netlist(const std::string &name);

// "platforms/NAME.lua" when file is one of the platform folder's netlists
// (by its real path), else file.
std::string recorded_netlist_name(const std::string &file);

void print_platforms(FILE *out);

} // namespace simtx

#endif
