#include "command_line.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "did_you_mean.hpp"
#include "output_file.hpp"

namespace simtx {

const char command_line_usage[] =
    "usage: simtx run NETLIST [options]   simulate a platform (NETLIST: a file, or a name of simtx platforms)\n"
    "       simtx describe [BLOCK [--markdown]]   the block types, or one's parameters, sockets, statistics\n"
    "       simtx platforms                 the platforms a bare NETLIST name may name\n"
    "       simtx help | --help             this text (man simtx: the same, with examples)\n"
    "       simtx --version\n"
    "\n"
    "run options:\n"
    "  --set INST.PARAM=VALUE   override a parameter; INST and PARAM may be globs (sm*.warps=24)\n"
    "  --define NAME=VALUE      override a netlist define(NAME, default), in included files too;\n"
    "                           a NAME no define() reads is an error\n"
    "  --seed N                 seed of every random choice (default 1)\n"
    "  --stats FILE             write statistics as JSON\n"
    "  --vcd FILE               write waveforms (and a GTKWave view FILE.gtkw)\n"
    "  --trace GLOB[,GLOB...]   probes to dump, e.g. 'mem*.queue_depth' (default: all)\n"
    "  --max-time NS            stop (as an error) after this much simulated time (> 0)\n"
    "  --watchdog NS            stop (as a deadlock) when no block takes a message and no\n"
    "                           initiator progresses for this much simulated time, or (as a\n"
    "                           livelock) when no core makes a change visible outside its\n"
    "                           threads (store, atomic, barrier, transaction event, exit)\n"
    "                           (default 500000; 0: never)\n"
    "  --crash-at NS            inject a power failure at this simulated time; the workload\n"
    "                           recovers from the durable image and checks it (past the end\n"
    "                           of the run: bad input; needs an nvm_controller)\n"
    "  --crash-seed S           ... or at a time drawn from seed S, uniform over 1..--crash-window NS\n"
    "  --crash-window NS        (the length of a crash-free run)\n"
    "  --crash-domain D         what survives the failure: adr (the NVM controllers' media and\n"
    "                           write-pending queues, default) or eadr (the caches' dirty lines too)\n"
    "  --check-protocol         check the TLM-2.0 base protocol on every binding\n"
    "  --quiet                  no text summary\n"
    "  --stats-detail           print every block's statistics after the summary (always in --stats)\n"
    "  --progress               show progress on stderr even when it is not a terminal\n"
    "  --workload NAME          run a workload's host program (kernels on the netlist's simt_core\n"
    "                           blocks, checked by its oracle); --set workload.OPTION=VALUE sets\n"
    "                           its options (n, opt=O0..Os, seed, ...; see testbenches/workloads)\n"
    "  --host PLUGIN.so         run your own host program instead: a shared library exporting\n"
    "                           simtx_host_main (docs/sdk.md); --set workload.OPTION=VALUE sets\n"
    "                           the options it declares (simtx_host_options), --seed reaches it\n"
    "  -- ARG...                the host plugin's arguments (the rest of the command line)\n"
    "  --no-memcheck            no memory checker (on by default: a kernel access outside every\n"
    "                           live allocation, or its CTA's shared memory, fails the run)\n"
    "\n"
    "exit status: 0 done, 1 the run failed, 2 bad input\n";

namespace {

const char *option_value(int argc, const char *const *argv, int &i)
{
    if (i + 1 >= argc) throw usage_error(std::string("option ") + argv[i] + " needs a value");
    return argv[++i];
}

// Decimal digits only: no sign, space, or base prefix ('010' is ten).
uint64_t parse_number(const char *option, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (errno || !std::isdigit(static_cast<unsigned char>(text[0])) || *end)
        throw usage_error(std::string(option) + ": expected a non-negative integer, got '" + text + "'");
    return value;
}

// A time in ns, within what simulated time (64-bit ps) can reach; 0 only
// where allowed.
uint64_t parse_time(const char *option, const char *text, bool zero_allowed)
{
    const uint64_t max_ns = UINT64_MAX / 1000;
    uint64_t ns = parse_number(option, text);
    if (ns > max_ns)
        throw usage_error(std::string(option) + ": " + text + " ns is past the longest simulated time (" + std::to_string(max_ns) + " ns)");
    if (!ns && !zero_allowed) throw usage_error(std::string(option) + ": expected a time after 0 ns");
    return ns;
}

std::string file_name_value(const char *option, const char *text)
{
    if (!text[0]) throw usage_error(std::string(option) + ": expected a file name, got ''");
    return text;
}

} // namespace

run_command parse_run_command(int argc, const char *const *argv)
{
    if (argc < 3 || argv[2][0] == '-') throw usage_error("run needs a netlist");
    run_command command;
    command.netlist_file = argv[2];
    for (int i = 3; i < argc; i++) {
        std::string option = argv[i];
        if (option == "--set" && std::strncmp(argv[i + 1 < argc ? i + 1 : i], "workload.", 9) == 0) {
            std::string setting = option_value(argc, argv, i) + 9;
            size_t equals = setting.find('=');
            if (equals == std::string::npos || equals == 0)
                throw usage_error("--set expects workload.OPTION=VALUE, got 'workload." + setting + "'");
            command.workload.options.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
        } else if (option == "--workload") command.workload.name = option_value(argc, argv, i);
        else if (option == "--") {
            if (command.workload.host_plugin.empty())
                throw usage_error("arguments after -- are for a host plugin: give --host PLUGIN.so first");
            command.workload.host_arguments.assign(argv + i + 1, argv + argc);
            break;
        }
        else if (option == "--set") command.netlist.sets.push_back(option_value(argc, argv, i));
        else if (option == "--define") {
            std::string definition = option_value(argc, argv, i);
            size_t equals = definition.find('=');
            if (equals == std::string::npos || equals == 0) throw usage_error("--define expects NAME=VALUE, got '" + definition + "'");
            command.netlist.defines[definition.substr(0, equals)] = definition.substr(equals + 1);
        } else if (option == "--seed") command.run.seed = parse_number("--seed", option_value(argc, argv, i));
        else if (option == "--stats") command.run.stats_file = file_name_value("--stats", option_value(argc, argv, i));
        else if (option == "--vcd") command.run.vcd_file = file_name_value("--vcd", option_value(argc, argv, i));
        else if (option == "--host") command.workload.host_plugin = file_name_value("--host", option_value(argc, argv, i));
        else if (option == "--trace") {
            std::string globs = option_value(argc, argv, i);
            for (size_t start = 0; start <= globs.size();) {
                size_t comma = globs.find(',', start);
                if (comma == std::string::npos) comma = globs.size();
                if (comma > start) command.run.trace_globs.push_back(globs.substr(start, comma - start));
                start = comma + 1;
            }
        } else if (option == "--max-time")
            command.run.max_time_ns = static_cast<double>(parse_time("--max-time", option_value(argc, argv, i), false));
        else if (option == "--watchdog")
            command.run.watchdog_ns = static_cast<double>(parse_time("--watchdog", option_value(argc, argv, i), true));
        else if (option == "--crash-at")
            command.run.crash.at_ns = parse_time("--crash-at", option_value(argc, argv, i), false);
        else if (option == "--crash-seed") {
            command.run.crash.seed = parse_number("--crash-seed", option_value(argc, argv, i));
            command.run.crash.seeded = true;
        } else if (option == "--crash-window") {
            command.run.crash.window_ns = parse_time("--crash-window", option_value(argc, argv, i), false);
        } else if (option == "--crash-domain") {
            try {
                command.run.crash.domain = parse_crash_domain(option_value(argc, argv, i));
            } catch (const std::invalid_argument &e) {
                throw usage_error(e.what());
            }
        } else if (option == "--check-protocol") command.run.check_protocol = true;
        else if (option == "--quiet") command.run.quiet = true;
        else if (option == "--stats-detail") command.run.stats_detail = true;
        else if (option == "--progress") command.run.progress = true;
        else if (option == "--no-memcheck") command.workload.memcheck = false;
        else
            throw usage_error("unknown option '" + option + "'" +
                              did_you_mean(option, {"--set", "--define", "--seed", "--stats", "--vcd", "--trace", "--max-time",
                                                    "--watchdog", "--check-protocol", "--quiet", "--workload",
                                                    "--stats-detail", "--progress", "--host", "--crash-at", "--crash-seed", "--crash-window", "--crash-domain", "--no-memcheck"}));
    }
    if (!command.run.trace_globs.empty() && command.run.vcd_file.empty()) throw usage_error("--trace needs --vcd FILE");
    if (!command.workload.options.empty() && command.workload.name.empty() && command.workload.host_plugin.empty())
        throw usage_error("--set workload.* needs --workload NAME or --host PLUGIN.so");
    if (!command.workload.memcheck && command.workload.name.empty() && command.workload.host_plugin.empty())
        throw usage_error("--no-memcheck needs --workload or --host (the memory checker checks their kernels)");
    if (!command.workload.host_plugin.empty() && !command.workload.name.empty())
        throw usage_error("--host and --workload exclude each other");
    const crash_options &crash = command.run.crash;
    if (crash.at_ns && crash.seeded) throw usage_error("--crash-at and --crash-seed both choose the crash time: give one");
    if (crash.seeded != (crash.window_ns != 0)) throw usage_error("--crash-seed and --crash-window go together");
    // --max-time would stop the run first. (A crash time past the end of the
    // run is known only after it: platform::run refuses it then.)
    if (crash.requested() && command.run.max_time_ns > 0 && static_cast<double>(crash.time_ns()) > command.run.max_time_ns)
        throw usage_error(crash.option_text() + ": the crash time " + std::to_string(crash.time_ns()) + " ns is past --max-time " +
                          std::to_string(static_cast<uint64_t>(command.run.max_time_ns)) + " ns");
    command.workload.seed = command.run.seed;
    run_record &record = command.run.record;
    record.arguments.assign(argv, argv + argc);
    record.workload = command.workload.name;
    record.workload_options = command.workload.options;
    record.host_plugin = command.workload.host_plugin;
    record.host_arguments = command.workload.host_arguments;
    record.defines = command.netlist.defines;
    record.sets = command.netlist.sets;
    return command;
}

void check_run_outputs(const run_options &options)
{
    if (!options.stats_file.empty()) check_output_path("--stats", options.stats_file);
    if (!options.vcd_file.empty()) {
        std::string base = waveform_base(options.vcd_file);
        check_output_path("--vcd", options.vcd_file);
        check_output_path("--vcd", base + ".vcd");
        check_output_path("--vcd", base + ".gtkw");
    }
}

} // namespace simtx
