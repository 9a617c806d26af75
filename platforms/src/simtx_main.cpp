// simtx: run a platform netlist, or describe the blocks it can use.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <systemc>

#include "describe.hpp"
#include "did_you_mean.hpp"
#include "platform.hpp"
#include "registry.h"
#include "workload_runner.hpp"

namespace {

const char usage[] =
    "usage: simtx run NETLIST [options]\n"
    "       simtx describe [BLOCK [--markdown]]\n"
    "\n"
    "run options:\n"
    "  --set INST.PARAM=VALUE   override a parameter; INST and PARAM may be globs (sm*.warps=24)\n"
    "  --define NAME=VALUE      override a netlist define(NAME, default), in included files too;\n"
    "                           a NAME no define() reads is an error\n"
    "  --seed N                 seed of every random choice (default 1)\n"
    "  --stats FILE             write statistics as JSON\n"
    "  --vcd FILE               write waveforms (and a GTKWave view FILE.gtkw)\n"
    "  --trace GLOB[,GLOB...]   probes to dump, e.g. 'mem*.queue_depth' (default: all)\n"
    "  --max-time NS            stop (as an error) after this much simulated time\n"
    "  --check-protocol         check the TLM-2.0 base protocol on every binding\n"
    "  --quiet                  no text summary\n"
    "  --workload NAME          run a workload's host program (kernels on the netlist's simt_core\n"
    "                           blocks, checked by its oracle); --set workload.OPTION=VALUE sets\n"
    "                           its options (n, opt=O0..Os, seed, ...; see testbenches/workloads)\n"
    "\n"
    "exit status: 0 done, 1 the run failed, 2 bad input\n";

[[noreturn]] void bad_usage(const std::string &message)
{
    std::fprintf(stderr, "simtx: %s\n\n%s", message.c_str(), usage);
    std::exit(2);
}

const char *option_value(int argc, char **argv, int &i)
{
    if (i + 1 >= argc) bad_usage(std::string("option ") + argv[i] + " needs a value");
    return argv[++i];
}

uint64_t parse_number(const char *option, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 0);
    if (errno || end == text || *end || text[0] == '-') bad_usage(std::string(option) + ": expected a non-negative integer, got '" + text + "'");
    return value;
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
    if (argc < 3 || argv[2][0] == '-') bad_usage("run needs a netlist");
    std::string netlist_file = argv[2];
    simtx::netlist_options netlist_options;
    simtx::run_options run_options;
    simtx::workload_request workload;
    for (int i = 3; i < argc; i++) {
        std::string option = argv[i];
        if (option == "--set" && std::strncmp(argv[i + 1 < argc ? i + 1 : i], "workload.", 9) == 0) {
            std::string setting = option_value(argc, argv, i) + 9;
            size_t equals = setting.find('=');
            if (equals == std::string::npos || equals == 0) bad_usage("--set expects workload.OPTION=VALUE, got 'workload." + setting + "'");
            workload.options.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
        } else if (option == "--workload") workload.name = option_value(argc, argv, i);
        else if (option == "--set") netlist_options.sets.push_back(option_value(argc, argv, i));
        else if (option == "--define") {
            std::string definition = option_value(argc, argv, i);
            size_t equals = definition.find('=');
            if (equals == std::string::npos || equals == 0) bad_usage("--define expects NAME=VALUE, got '" + definition + "'");
            netlist_options.defines[definition.substr(0, equals)] = definition.substr(equals + 1);
        } else if (option == "--seed") run_options.seed = parse_number("--seed", option_value(argc, argv, i));
        else if (option == "--stats") run_options.stats_file = option_value(argc, argv, i);
        else if (option == "--vcd") run_options.vcd_file = option_value(argc, argv, i);
        else if (option == "--trace") {
            std::string globs = option_value(argc, argv, i);
            for (size_t start = 0; start <= globs.size();) {
                size_t comma = globs.find(',', start);
                if (comma == std::string::npos) comma = globs.size();
                if (comma > start) run_options.trace_globs.push_back(globs.substr(start, comma - start));
                start = comma + 1;
            }
        } else if (option == "--max-time") run_options.max_time_ns = static_cast<double>(parse_number("--max-time", option_value(argc, argv, i)));
        else if (option == "--check-protocol") run_options.check_protocol = true;
        else if (option == "--quiet") run_options.quiet = true;
        else bad_usage("unknown option '" + option + "'" +
                       simtx::did_you_mean(option, {"--set", "--define", "--seed", "--stats", "--vcd", "--trace", "--max-time",
                                                    "--check-protocol", "--quiet", "--workload"}));
    }
    if (!run_options.trace_globs.empty() && run_options.vcd_file.empty()) bad_usage("--trace needs --vcd FILE");
    if (!workload.options.empty() && workload.name.empty()) bad_usage("--set workload.* needs --workload NAME");

    try {
        // Outputs first: a path that cannot be written is found before the run, not after it.
        if (!run_options.stats_file.empty()) simtx::check_output_path("--stats", run_options.stats_file);
        if (!run_options.vcd_file.empty()) {
            std::string base = simtx::waveform_base(run_options.vcd_file);
            simtx::check_output_path("--vcd", run_options.vcd_file);
            simtx::check_output_path("--vcd", base + ".vcd");
            simtx::check_output_path("--vcd", base + ".gtkw");
        }
        workload.seed = run_options.seed;
        if (!workload.name.empty()) run_options.host_program = simtx::workload_host_program(workload);
        simtx::netlist net = simtx::load_netlist(netlist_file, netlist_options);
        simtx::platform platform(net, run_options);
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
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
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
