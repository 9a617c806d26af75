// Fuzz target: simtx's command line in process, as `simtx` checks it before
// a run: parsing (options, --define, --set, workload options), the output
// paths, the workload's name and option names, and, when the netlist is a
// shipped platform, its evaluation with the --define and --set overrides.
// Nothing is simulated (SystemC cannot restart in one process) and nothing
// is written. The input is the command line after `simtx`, one argument per
// line (testbenches/fuzz/options/ holds the seeds).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "command_line.hpp"

// SIMTX_FUZZ_VERBOSE=1: print why each input was refused.
static const bool verbose = std::getenv("SIMTX_FUZZ_VERBOSE") != nullptr;

// The SystemC library refers to the program's sc_main; nothing here simulates.
extern "C" int sc_main(int, char **)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Only the shipped platforms are evaluated: any other path would make
    // the fuzzer read files outside the project (or block on a device).
    static const std::set<std::string> platforms = {
        "platforms/dram_trace.lua",      "platforms/gtx480.lua",         "platforms/gtx480_idealtm.lua",
        "platforms/gtx480_kilotm.lua",   "platforms/gtx480_warptm.lua",  "platforms/memory_system_trace.lua",
        "platforms/simt_1core.lua",      "platforms/trace_replay.lua",   "platforms/gpu_pm.lua",
        "platforms/gtx480_pm.lua",       "platforms/gtx480_warptm_ea.lua",
    };
    std::vector<std::string> arguments(1, "simtx");
    std::string text(reinterpret_cast<const char *>(data), size);
    for (size_t start = 0; start <= text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        arguments.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    if (arguments.size() < 2 || arguments[1] != "run") return 0;
    std::vector<const char *> argv;
    for (const std::string &argument : arguments) argv.push_back(argument.c_str());
    try {
        simtx::run_command command = simtx::parse_run_command(static_cast<int>(argv.size()), argv.data());
        simtx::check_run_outputs(command.run);
        if (!command.workload.name.empty()) simtx::workload_host_program(command.workload);
        if (platforms.count(command.netlist_file)) {
            // As in fuzz_netlist.cpp: bounds above what the shipped netlists
            // need, so a --define cores=1000000 ends in a fraction of a second.
            command.netlist.lua_instructions = 2000000;
            command.netlist.lua_memory_bytes = size_t(4) << 20;
            command.netlist.max_blocks = 4096;
            simtx::load_netlist(command.netlist_file, command.netlist);
        }
    } catch (const simtx::usage_error &error) {
        if (verbose) std::fprintf(stderr, "usage: %s\n", error.what());
    } catch (const simtx::input_error &error) {
        if (verbose) std::fprintf(stderr, "input: %s\n", error.what());
    }
    return 0;
}
