// Fuzz target: simtx's command line in process, as `simtx` checks it before
// a run: each argument as the statistics JSON records it (valid UTF-8 JSON
// text whatever its bytes), parsing (options, --define, --set, workload
// options), the output paths, the workload's name and option names, and, when the netlist is a
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
#include "json_string.hpp"

// Whether text is well-formed UTF-8 without control characters, as the
// statistics JSON's strings must be (checked by code points: any lead
// byte, its continuation bytes, and the value's range).
static bool valid_json_text(const std::string &text)
{
    for (size_t at = 0; at < text.size();) {
        unsigned c = static_cast<unsigned char>(text[at]);
        size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!length || at + length > text.size() || c < 0x20) return false;
        uint32_t point = length == 1 ? c : c & (0x7f >> length);
        for (size_t i = 1; i < length; i++) {
            unsigned next = static_cast<unsigned char>(text[at + i]);
            if ((next >> 6) != 2) return false;
            point = point << 6 | (next & 0x3f);
        }
        const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (point < smallest[length] || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return false;
        at += length;
    }
    return true;
}

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
    // Every argument goes into the statistics JSON (the run record) as valid text.
    for (const std::string &argument : arguments)
        if (!valid_json_text(simtx::json_string(argument))) {
            std::fprintf(stderr, "json_string made invalid JSON text of an argument\n");
            std::abort();
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
