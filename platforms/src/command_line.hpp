// simtx's command line, parsed without process effects: bad usage is thrown
// (usage_error), never exited on, so the parser runs in process under a fuzz
// target (testbenches/fuzz/fuzz_options.cpp) as well as in simtx_main.cpp.
#ifndef SIMTX_COMMAND_LINE_HPP
#define SIMTX_COMMAND_LINE_HPP

#include <stdexcept>
#include <string>

#include "netlist.hpp"
#include "platform.hpp"
#include "workload_runner.hpp"

namespace simtx {

// The usage text printed after a usage_error and by --help.
extern const char command_line_usage[];

// A malformed command line: the caller prints the message and the usage,
// and exits with status 2 (bad input).
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `simtx run NETLIST [options]`, parsed.
struct run_command {
    std::string netlist_file;
    netlist_options netlist;
    run_options run;
    workload_request workload;
};

// Parses argv[2..argc) of `simtx run` (argv[0] the program, argv[1] "run");
// throws usage_error. Touches nothing outside its result.
run_command parse_run_command(int argc, const char *const *argv);

// The run's output paths can be written without destroying anything
// (output_file.hpp); throws input_error naming the option. Creates nothing.
void check_run_outputs(const run_options &options);

} // namespace simtx

#endif
