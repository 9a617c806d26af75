// simtx: run a platform netlist, or describe the blocks it can use.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <systemc>

#include "build_info.hpp"
#include "command_line.hpp"
#include "describe.hpp"
#include "input_file.hpp"
#include "platform.hpp"
#include "platform_list.hpp"
#include "registry.h"
#include "workload_runner.hpp"

namespace {

[[noreturn]] void bad_usage(const std::string &message)
{
    std::fprintf(stderr, "simtx: %s\n\n%s", message.c_str(), simtx::command_line_usage);
    std::exit(2);
}

int command_describe(int argc, char **argv)
{
    if (argc == 2) {
        simtx::describe_all(stdout);
        return 0;
    }
    const simtx_block_info *info = simtx_registry_find(argv[2]);
    if (!info) {
        std::fprintf(stderr, "simtx: unknown block type '%s'; known types:\n", argv[2]);
        simtx::describe_all(stderr);
        return 2;
    }
    if (argc > 3 && std::strcmp(argv[3], "--markdown") == 0) simtx::describe_block_markdown(info, stdout);
    else simtx::describe_block(info, stdout);
    return 0;
}

int command_run(int argc, char **argv)
{
    simtx::run_command command;
    try {
        command = simtx::parse_run_command(argc, argv);
    } catch (const simtx::usage_error &e) {
        bad_usage(e.what());
    }
    try {
        // Outputs first: a path that cannot be written is found before the run, not after it.
        simtx::check_run_outputs(command.run);
        if (!command.workload.host_plugin.empty()) simtx::check_input_file("--host", command.workload.host_plugin);
        if (!command.workload.name.empty() || !command.workload.host_plugin.empty()) command.run.host_program = simtx::workload_host_program(command.workload);
        // A bare name that is no file here names a platform: `simtx run gtx480.lua` (simtx platforms).
        command.netlist_file = simtx::resolve_netlist(command.netlist_file);
        simtx::netlist net = simtx::load_netlist(command.netlist_file, command.netlist);
        net.recorded_name = simtx::recorded_netlist_name(net.file);
        simtx::platform platform(net, command.run);
        return platform.run();
    } catch (const simtx::input_error &e) {
        std::fprintf(stderr, "simtx: error: %s\n", e.what());
        return 2;
    }
}

} // namespace

int sc_main(int argc, char **argv)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    // Two blocks failing in one delta both stop the kernel; only the first error is news.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_SIMULATION_STOP_CALLED_TWICE_, sc_core::SC_DO_NOTHING);
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(simtx::command_line_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::printf("simtx %s (commit %s)\n", simtx::build_version, simtx::build_commit);
        return 0;
    }
    if (!std::strcmp(argv[1], "help")) {
        if (argc > 2 && std::strcmp(argv[2], "run") && std::strcmp(argv[2], "describe") && std::strcmp(argv[2], "platforms"))
            bad_usage(std::string("help: no command '") + argv[2] + "'");
        std::fputs(simtx::command_line_usage, stdout);
        return 0;
    }
    if (!std::strcmp(argv[1], "platforms")) {
        if (argc > 2) bad_usage("platforms takes no arguments");
        simtx::print_platforms(stdout);
        return 0;
    }
    if (!std::strcmp(argv[1], "describe")) return command_describe(argc, argv);
    if (!std::strcmp(argv[1], "run")) return command_run(argc, argv);
    bad_usage(std::string("unknown command '") + argv[1] + "'");
}

// Our own main: the SystemC banner must be switched off before the kernel
// starts (it would break golden diffs of the output).
int main(int argc, char **argv)
{
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
