#include "platform.hpp"

#include <chrono>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fnmatch.h>
#include <sys/resource.h>
#include <unistd.h>

#include "json_string.hpp"
#include "temporary_files.hpp"

namespace simtx {

uint64_t instance_seed(uint64_t seed, const std::string &instance_name)
{
    uint64_t hash = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : instance_name) hash = (hash ^ c) * 1099511628211ull;
    uint64_t z = seed ^ hash;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::string waveform_base(const std::string &vcd_option)
{
    std::string base = vcd_option;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
    return base;
}

// Whether message names word as a whole word (a parameter's name in a
// block's error, "cat_entries 1 must be at least cat_ways", not in another).
static bool names_word(const std::string &message, const std::string &word)
{
    auto part_of_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = message.find(word); at != std::string::npos; at = message.find(word, at + 1))
        if ((at == 0 || !part_of_name(message[at - 1])) && (at + word.size() == message.size() || !part_of_name(message[at + word.size()])))
            return true;
    return false;
}

// The files the run uses besides its outputs: the netlist and its
// includes, the blocks' files (a trace to read, an instruction trace to
// write), the host plugin and a workload's kernel.
static std::vector<named_file> inputs_of(const netlist &net, const run_options &options)
{
    std::vector<named_file> inputs;
    for (const std::string &file : net.files) inputs.push_back({file == net.file ? "the netlist" : "the netlist's include", file});
    for (const instance &inst : net.instances)
        for (size_t i = 0; i < inst.info->params->count; i++) {
            const simtx_param_spec *spec = &inst.info->params->specs[i];
            char value[4096];
            simtx_param_format(spec, inst.params->data(), value, sizeof value);
            if (spec->type == SIMTX_PARAM_PATH && value[0]) inputs.push_back({"the file of parameter " + inst.name + "." + spec->name, value});
        }
    if (!options.record.host_plugin.empty()) inputs.push_back({"the --host plugin", options.record.host_plugin});
    for (const auto &[name, value] : options.record.workload_options)
        if (name == "kernel") inputs.push_back({"the kernel (workload.kernel)", value});
    return inputs;
}

// What the run writes, with the partial twins.
static std::vector<named_file> outputs_of(const run_options &options)
{
    std::vector<named_file> outputs;
    auto add = [&](const std::string &option, const std::string &path) {
        outputs.push_back({option, path});
        outputs.push_back({option, partial_path(path)});
    };
    if (!options.stats_file.empty()) add("--stats", options.stats_file);
    if (!options.vcd_file.empty()) {
        add("--vcd", waveform_base(options.vcd_file) + ".vcd");
        add("--vcd", waveform_base(options.vcd_file) + ".gtkw");
    }
    return outputs;
}

platform::platform(const netlist &net, const run_options &options)
    : net_(net), options_(options), observer_(simtx_observer_create(), simtx_observer_destroy)
{
    // A power failure tests what survives it: without NVM controllers
    // nothing does, and a crash run would pass without checking anything.
    if (options.crash.requested() &&
        std::none_of(net.instances.begin(), net.instances.end(), [](const instance &inst) { return !std::strcmp(inst.info->name, "nvm_controller"); }))
        throw input_error(options.crash.option_text() + ": " + net.file + " has no nvm_controller, so nothing is durable for a power " +
                          "failure to test (platforms/gpu_pm.lua and gtx480_pm.lua have persistent memory)");
    check_outputs_distinct(outputs_of(options), inputs_of(net, options));
    if (!options.stats_file.empty()) stats_out_ = std::make_unique<output_file>("--stats", options.stats_file);
    if (!options.vcd_file.empty()) {
        std::string base = waveform_base(options.vcd_file);
        vcd_out_ = std::make_unique<output_file>("--vcd", base + ".vcd", ".vcd");
        view_out_ = std::make_unique<output_file>("--vcd", base + ".gtkw");
    }
    for (const instance &inst : net.instances) {
        block_config config;
        config.info = inst.info;
        config.params = inst.params->data();
        config.socket_counts = inst.socket_counts;
        config.clock_period = sc_core::sc_time::from_value(net.clock_of(inst).period_ps);
        config.observer = observer_.get();
        config.probes_traced = !options.vcd_file.empty();
        config.seed = instance_seed(options.seed, inst.name);
        for (const binding &b : net.bindings) {
            if (!b.has_range || b.initiator.instance != static_cast<size_t>(&inst - net.instances.data())) continue;
            unsigned port = simtx_port_number(inst.socket_counts.data(), b.initiator.socket, b.initiator.index < 0 ? 0 : b.initiator.index);
            config.address_map.push_back({port, b.base, b.size});
        }
        try {
            modules_.push_back(std::make_unique<block_module>(inst.name.c_str(), config));
        } catch (const creation_error &e) {
            // An error about a value the command line set (naming its
            // parameter or quoting the value, like a trace file's path) is
            // blamed on that option, not on the netlist line.
            std::string message = e.what(), blamed = inst.where.text();
            for (const auto &[parameter, option] : inst.set_by) {
                std::string value = option.substr(option.find('=') + 1);
                if (names_word(message, parameter) || (value.size() >= 3 && message.find(value) != std::string::npos))
                    blamed = "--set '" + option + "'";
            }
            throw input_error(blamed + ": block '" + inst.name + "' (" + inst.info->name + "): " + message);
        }
    }
    for (const binding &b : net.bindings) {
        block_module &from = *modules_[b.initiator.instance];
        block_module &to = *modules_[b.target.instance];
        unsigned from_port = from.port_of(b.initiator.socket, b.initiator.index < 0 ? 0 : b.initiator.index);
        unsigned to_port = to.port_of(b.target.socket, b.target.index < 0 ? 0 : b.target.index);
        if (options.check_protocol) {
            std::string name = "check_" + std::to_string(checkers_.size());
            checkers_.push_back(std::make_unique<protocol_checker>(name.c_str()));
            from.initiator(from_port).bind(checkers_.back()->in);
            checkers_.back()->out.bind(to.target(to_port));
        } else {
            from.initiator(from_port).bind(to.target(to_port));
        }
    }
    if (!options.vcd_file.empty()) open_waveforms();
    show_progress_ = options.progress || isatty(STDERR_FILENO);
    summary_ = std::make_unique<run_summary>(net, observer_.get());
    energy_ = std::make_unique<energy_report>(net, observer_.get());
    provenance_ = std::make_unique<provenance>(options.record, net.files);
    started_ = std::chrono::steady_clock::now();
}

void platform::begin_launch(const std::string &kernel, const std::string &shape)
{
    summary_->begin_launch(kernel, shape, sc_core::sc_time_stamp().value());
    energy_->begin_launch(kernel, sc_core::sc_time_stamp().value());
}

platform::~platform()
{
    if (trace_file_) sc_core::sc_close_vcd_trace_file(trace_file_); // an exception: the files are dropped
    modules_.clear();
}

block_module *platform::find(const std::string &name) const
{
    for (const auto &module : modules_)
        if (name == module->basename()) return module.get();
    return nullptr;
}

static bool selected(const std::vector<std::string> &globs, const char *name)
{
    if (globs.empty()) return true;
    for (const std::string &glob : globs)
        if (fnmatch(glob.c_str(), name, 0) == 0) return true;
    return false;
}

// The VCD (written by SystemC to its temporary file), the signals of the
// GTKWave view and its translate files.
void platform::open_waveforms()
{
    const std::string &temporary = vcd_out_->temporary_path();
    trace_file_ = sc_core::sc_create_vcd_trace_file(temporary.substr(0, temporary.size() - 4).c_str());
    trace_file_->set_time_unit(1, sc_core::SC_PS);
    size_t traced = 0;
    for (size_t i = 0; i < simtx_observer_probe_count(observer_.get()); i++) {
        const simtx_probe_entry *probe = simtx_observer_probe(observer_.get(), i);
        if (!selected(options_.trace_globs, probe->name)) continue;
        sc_core::sc_trace(trace_file_, *reinterpret_cast<const sc_dt::uint64 *>(probe->value), probe->name,
                          static_cast<int>(probe->width));
        traced++;
        // Every probe is "instance.name"; one that names no instance goes last.
        std::string instance_name(probe->name, std::strcspn(probe->name, "."));
        size_t n = 0;
        while (n < net_.instances.size() && net_.instances[n].name != instance_name) n++;
        view_.add(*probe, n < net_.instances.size() ? net_.instances[n].info->name : "", n);
    }
    if (!traced) throw input_error("--trace selects no probe (see: simtx describe <block>)");
    std::string base = waveform_base(options_.vcd_file);
    std::vector<named_file> outputs = outputs_of(options_);
    for (const gtkw_translate_file &file : view_.translate_files()) {
        outputs.push_back({"--vcd (a view's translate file)", base + file.suffix});
        outputs.push_back({"--vcd (a view's translate file)", partial_path(base + file.suffix)});
    }
    check_outputs_distinct(outputs, inputs_of(net_, options_));
    for (const gtkw_translate_file &file : view_.translate_files())
        translate_out_.push_back(std::make_unique<output_file>("--vcd", base + file.suffix));
}

// SystemC stamps the VCD with the wall-clock date; blank it out so the same
// run gives a byte-identical file. Then the view, and both files take their
// names (partial ones after a failed run).
void platform::close_waveforms(bool complete)
{
    if (!trace_file_) return;
    sc_core::sc_close_vcd_trace_file(trace_file_);
    trace_file_ = nullptr;
    FILE *vcd = std::fopen(vcd_out_->temporary_path().c_str(), "r+");
    if (vcd) {
        char header[256] = "";
        size_t length = std::fread(header, 1, sizeof header - 1, vcd);
        header[length] = '\0';
        const char *date = std::strstr(header, "$date\n");
        const char *end = date ? std::strstr(date, "\n$end") : nullptr;
        if (date && end) {
            long start = static_cast<long>(date - header) + 6;
            std::string blank(static_cast<size_t>(end - date - 6), ' ');
            blank.replace(0, std::min(blank.size(), sizeof "     (omitted)" - 1), "     (omitted)", 0, blank.size());
            std::fseek(vcd, start, SEEK_SET);
            std::fwrite(blank.data(), 1, blank.size(), vcd);
        }
        std::fclose(vcd);
    }
    std::string base = waveform_base(options_.vcd_file);
    std::string vcd_file = complete ? base + ".vcd" : partial_path(base + ".vcd");
    std::string view_file = complete ? base + ".gtkw" : partial_path(base + ".gtkw");
    auto file_name = [](const std::string &path) { return path.substr(path.rfind('/') + 1); };
    std::vector<std::string> translate_names;
    for (size_t i = 0; i < translate_out_.size(); i++) {
        std::string path = base + view_.translate_files()[i].suffix;
        translate_names.push_back(file_name(complete ? path : partial_path(path)));
        std::fputs(view_.translate_files()[i].content.c_str(), translate_out_[i]->stream());
    }
    view_.write(view_out_->stream(), file_name(vcd_file), file_name(view_file), translate_names, sc_core::sc_time_stamp().value());
    vcd_out_->keep(complete);
    view_out_->keep(complete);
    for (auto &file : translate_out_) file->keep(complete);
}

// One line, rewritten in place: the launch (when a host program runs
// kernels), how much of its work is done, the wall time since the run began
// and an estimate of what the launch still needs (from this simulate()
// call's pace). done_override (0..1) replaces the initiators' fraction.
void platform::report_progress(double wall_seconds, double done_override)
{
    double done = 0;
    unsigned initiators = 0;
    for (const auto &module : modules_) {
        if (!module->info()->progress) continue;
        done += module->progress();
        initiators++;
    }
    double fraction = done_override >= 0 ? done_override : initiators ? done / initiators : -1;
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    std::string line = "[simtx] ";
    char text[256];
    if (summary_->launch_count()) {
        std::snprintf(text, sizeof text, "launch %zu (%s): ", summary_->launch_count() - 1, summary_->current_kernel().c_str());
        line += text;
    }
    if (fraction >= 0) {
        std::snprintf(text, sizeof text, "%5.1f%%, ", 100 * fraction);
        line += text;
    }
    std::snprintf(text, sizeof text, "%.3f us simulated, %.1f s elapsed", sc_core::sc_time_stamp().to_seconds() * 1e6, elapsed);
    line += text;
    if (fraction > 0.01 && fraction < 1) {
        std::snprintf(text, sizeof text, ", about %.0f s left%s", wall_seconds * (1 - fraction) / fraction,
                      summary_->launch_count() ? " in this launch" : "");
        line += text;
    }
    std::fprintf(stderr, "\r%-100s", line.c_str());
    std::fflush(stderr);
}

std::string platform::simulate()
{
    auto start = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    // Run in slices so progress can be shown; a slice ends early once nothing
    // is left to do (idle blocks schedule nothing, so the event queue drains).
    const sc_core::sc_time slice(10, sc_core::SC_US);
    if (crashed()) return crash_message_;
    const sc_core::sc_time max_time = options_.max_time_ns > 0 ? sc_core::sc_time(options_.max_time_ns, sc_core::SC_NS)
                                                               : sc_core::sc_max_time();
    // A power failure: every instant up to it runs, none after.
    const sc_core::sc_time crash_time = options_.crash.requested()
                                            ? sc_core::sc_time(static_cast<double>(options_.crash.time_ns()), sc_core::SC_NS)
                                            : sc_core::sc_max_time();
    const sc_core::sc_time limit = std::min(max_time, crash_time);
    double last_report = 0;
    bool progress_shown = false;
    std::string error;
    // The watchdog: the end of the last slice in which some block accepted
    // a message or some initiator progressed (a deadlock's sign), and of the
    // last one in which some program made a change visible outside its
    // threads (a livelock's).
    const uint64_t watchdog_ps = static_cast<uint64_t>(options_.watchdog_ns * 1000);
    uint64_t progress_messages = block_module::accepted_messages(), progress_ps = sc_core::sc_time_stamp().value();
    double progress_done = initiators_progress();
    uint64_t visible = visible_changes(), visible_ps = progress_ps;
    // Where a stopped run ends: SystemC time is brought there, so that the
    // statistics state the stop time whether or not the scheduler ran ahead
    // of SystemC time (it does without waveforms).
    sc_core::sc_time stop_time = sc_core::SC_ZERO_TIME;
    // Elaborate and run time 0 (once: a host program calls simulate() again
    // after each kernel launch, and a zero-time start then only warns).
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
    while (block_module::run_error().empty() && sc_core::sc_pending_activity()) {
        sc_core::sc_time now = sc_core::sc_time_stamp();
        sc_core::sc_time next_event = now + sc_core::sc_time_to_pending_activity();
        if (next_event > limit && crash_time <= max_time) {
            crash_message_ = "power failure at " + crash_time.to_string() + " (" + options_.crash.option_text() + ", " +
                             crash_domain_name(options_.crash.domain) + ")";
            error = crash_message_;
            stop_time = limit;
            break;
        }
        if (next_event > limit) {
            error = "stopped at --max-time " + limit.to_string() + " before the work was done";
            stop_time = limit;
            break;
        }
        // At least up to the next event, so every slice makes progress.
        sc_core::sc_time until = std::min(std::max(now + slice, next_event), limit);
        // Not past the watchdog's deadline: a wait on a far wake-up (a
        // timer) must not hide the window without progress before it.
        uint64_t deadline_ps = progress_ps + watchdog_ps;
        bool to_deadline = watchdog_ps && deadline_ps > now.value() && deadline_ps < until.value();
        if (to_deadline) until = sc_core::sc_time::from_value(deadline_ps);
        // Waveforms sample SystemC's time steps: the scheduler may run ahead
        // of them only when none are written.
        if (!trace_file_) set_run_ahead_limit(until);
        sc_core::sc_start(until - now, to_deadline ? sc_core::SC_RUN_TO_TIME : sc_core::SC_EXIT_ON_STARVATION);
        if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
        if (watchdog_ps) {
            // Every instant up to `until` has run (SystemC time may lag
            // behind it while the scheduler runs ahead).
            uint64_t reached_ps = until.value();
            double done = initiators_progress();
            bool moved = block_module::accepted_messages() != progress_messages || done != progress_done;
            const std::string at = sc_core::sc_time::from_value(reached_ps).to_string();
            if (moved) {
                progress_messages = block_module::accepted_messages();
                progress_done = done;
                progress_ps = reached_ps;
            } else if (reached_ps - progress_ps >= watchdog_ps && initiator_waits() && block_module::run_error().empty()) {
                std::fprintf(stderr, "simtx: deadlock report at %s (the blocks holding work):\n%s", at.c_str(), deadlock_report().c_str());
                error = "deadlock: no block took a message and no initiator progressed in the " +
                        sc_core::sc_time::from_value(reached_ps - progress_ps).to_string() + " of simulated time up to " + at +
                        " (--watchdog sets the limit)";
                stop_time = sc_core::sc_time::from_value(reached_ps);
                break;
            }
            // A livelock: programs run (messages move, or one has a tick
            // planned) but none changes anything outside its threads.
            const block_module *running = nullptr;
            uint64_t changes = visible_changes();
            if (changes != visible) {
                visible = changes;
                visible_ps = reached_ps;
            } else if (reached_ps - visible_ps >= watchdog_ps && (running = running_program(moved)) && block_module::run_error().empty()) {
                std::fprintf(stderr, "simtx: livelock report at %s (the blocks holding work):\n%s", at.c_str(), deadlock_report().c_str());
                error = "livelock: no program changed state visible outside its threads (no store, atomic, barrier, "
                        "transaction event or thread exit) in the " +
                        sc_core::sc_time::from_value(reached_ps - visible_ps).to_string() + " of simulated time up to " + at + " while '" +
                        running->basename() + "' ran (--watchdog sets the limit)";
                stop_time = sc_core::sc_time::from_value(reached_ps);
                break;
            }
        }
        if (show_progress_ && wall() - last_report > 0.5) {
            last_report = wall();
            report_progress(last_report);
            progress_shown = true;
        }
    }
    // Nothing is due up to the stop time: this only moves the clock.
    if (stop_time > sc_core::sc_time_stamp()) sc_core::sc_start(stop_time - sc_core::sc_time_stamp(), sc_core::SC_RUN_TO_TIME);
    if (error.empty()) error = block_module::run_error();
    // A completed launch or run ends its line at 100% (with --progress also
    // one too short for a report).
    progress_shown |= options_.progress;
    if (progress_shown && error.empty()) report_progress(wall(), 1.0);
    if (progress_shown) std::fputc('\n', stderr);
    if (error.empty() && !sc_core::sc_pending_activity())
        for (const auto &module : modules_)
            if (!module->finished()) {
                error = std::string("simulation stalled at ") + sc_core::sc_time_stamp().to_string() + ": '" +
                        module->basename() + "' has not finished and no block has work left (deadlock)";
                std::fprintf(stderr, "simtx: deadlock report at %s (the blocks holding work):\n%s",
                             sc_core::sc_time_stamp().to_string().c_str(), deadlock_report().c_str());
                break;
            }
    return error;
}

// The sum of the initiators' progress fractions.
double platform::initiators_progress() const
{
    double done = 0;
    for (const auto &module : modules_)
        if (module->info()->progress) done += module->progress();
    return done;
}

// The changes visible outside their threads that the programs made, summed
// (simtx_block.h, visible_changes).
uint64_t platform::visible_changes() const
{
    uint64_t changes = 0;
    for (const auto &module : modules_) changes += module->visible_changes();
    return changes;
}

// An unfinished initiator running a program, while messages move (its
// loads, say) or it has a tick planned (it issues): the first in creation
// order with a tick planned, else the first one; null when none runs.
const block_module *platform::running_program(bool messages_moved) const
{
    const block_module *first = nullptr;
    for (const auto &module : modules_) {
        if (!module->counts_visible_changes() || module->finished()) continue;
        if (module->tick_planned()) return module.get();
        if (!first) first = module.get();
    }
    return messages_moved ? first : nullptr;
}

// Some unfinished initiator has no tick planned: it waits on other blocks
// (one with a tick planned works, or waits on its own clock, like a trace's
// next request).
bool platform::initiator_waits() const
{
    for (const auto &module : modules_)
        if ((module->info()->progress || module->info()->finished) && !module->finished() && !module->tick_planned()) return true;
    return false;
}

// One line per block holding work, in creation order.
std::string platform::deadlock_report() const
{
    std::string report;
    for (const auto &module : modules_) {
        std::string work = module->pending_work();
        if (!work.empty()) report += std::string("  ") + module->basename() + " (" + module->info()->name + "): " + work + "\n";
    }
    return report.empty() ? "  (none)\n" : report;
}

// The run in progress, for exit() called during it (by a host plugin).
static platform *running = nullptr;

// exit() during the run (a host plugin's): the run failed. It is reported,
// its outputs are kept as partial ones as after any failure, and the
// process ends with status 1 whatever status exit() was given.
void platform::report_exit(int status, void *)
{
    if (!running) return;
    platform &run = *running;
    running = nullptr;
    std::string error = "exit(" + std::to_string(status) + ") was called during the run, ending it (a host program returns " +
                        "its status from simtx_host_main instead; docs/sdk.md)";
    std::fprintf(stderr, "simtx: error: %s\n", error.c_str());
    try {
        run.close_waveforms(false);
        run.write_outputs(std::chrono::duration<double>(std::chrono::steady_clock::now() - run.started_).count(), error);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "simtx: error: %s\n", e.what());
    }
    remove_temporaries();
    std::fflush(nullptr);
    _exit(1);
}

int platform::run()
{
    auto start = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    static bool exit_reported = on_exit(report_exit, nullptr) == 0;
    (void)exit_reported;
    running = this;
    struct run_ends {
        ~run_ends() { running = nullptr; }
    } run_ends;
    std::string error = options_.host_program ? options_.host_program(*this) : simulate();
    if (options_.crash.requested() && !crashed() && error.empty())
        throw input_error(options_.crash.option_text() + ": the crash time " + std::to_string(options_.crash.time_ns()) +
                          " ns is past the end of the run (" + sc_core::sc_time_stamp().to_string() + ")");
    // A failure the host program handled (it recovered the durable image and
    // checked it) ends the run there; without a host program the failure is
    // the run's end. Either way nothing in flight is checked.
    if (crashed()) {
        std::printf("simtx: %s\n", crash_message_.c_str());
        if (error == crash_message_) error.clear();
    }
    if (error.empty()) error = block_module::run_error();
    for (const auto &checker : checkers_) {
        for (const std::string &violation : checker->violations())
            if (error.empty()) error = "protocol violation: " + violation;
        if (error.empty() && checker->in_flight() && !crashed())
            error = std::string("protocol check: ") + checker->name() + " has transactions still in flight at the end";
    }
    if (error.empty()) {
        // Finishing may still find errors (a checker's end-of-run verdict).
        for (const auto &module : modules_) module->finish();
        error = block_module::run_error();
    }
    if (!error.empty()) std::fprintf(stderr, "simtx: error: %s\n", error.c_str());
    close_waveforms(error.empty());
    write_outputs(wall(), error);
    return error.empty() ? 0 : 1;
}

static double peak_memory_mib()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0;
}

void platform::write_json(FILE *out, double wall_seconds, const std::string &error) const
{
    double simulated_s = sc_core::sc_time_stamp().to_seconds();
    std::fprintf(out, "{\n");
    // A failed run's statistics: up to where it stopped, and why.
    if (!error.empty()) std::fprintf(out, "  \"partial\": {\"error\": %s},\n", json_string(error).c_str());
    std::fprintf(out, "  \"simulated\": {\n    \"netlist\": %s,\n    \"seed\": %llu,\n", json_string(net_.recorded_name.empty() ? net_.file : net_.recorded_name).c_str(),
                 static_cast<unsigned long long>(options_.seed));
    std::fprintf(out, "    \"time_ps\": %llu,\n    \"clocks\": {\n",
                 static_cast<unsigned long long>(sc_core::sc_time_stamp().value()));
    for (size_t i = 0; i < net_.clocks.size(); i++) {
        const clock_domain &c = net_.clocks[i];
        std::fprintf(out, "      \"%s\": {\"frequency_mhz\": %.17g, \"period_ps\": %llu, \"cycles\": %llu}%s\n", c.name.c_str(),
                     c.frequency_mhz, static_cast<unsigned long long>(c.period_ps),
                     static_cast<unsigned long long>(sc_core::sc_time_stamp().value() / c.period_ps),
                     i + 1 < net_.clocks.size() ? "," : "");
    }
    std::fprintf(out, "    },\n    \"parameters\": {\n");
    bool first = true;
    for (const instance &inst : net_.instances) {
        std::fprintf(out, "%s      \"%s.clock\": \"%s\"", first ? "" : ",\n", inst.name.c_str(), inst.clock.c_str());
        first = false;
        for (size_t i = 0; i < inst.info->params->count; i++) {
            const simtx_param_spec *spec = &inst.info->params->specs[i];
            char value[1024];
            simtx_param_format(spec, inst.params->data(), value, sizeof value);
            bool quoted = spec->type != SIMTX_PARAM_INT && spec->type != SIMTX_PARAM_DOUBLE && spec->type != SIMTX_PARAM_BOOL;
            std::fprintf(out, ",\n      \"%s.%s\": %s", inst.name.c_str(), spec->name, quoted ? json_string(value).c_str() : value);
        }
    }
    std::fprintf(out, "\n    },\n    \"statistics\": {\n");
    simtx_stats_write_json_members(observer_.get(), out, 6);
    std::fprintf(out, "    }\n  },\n  \"summary\": ");
    summary_->write_json(out, sc_core::sc_time_stamp().value());
    std::fprintf(out, ",\n  \"energy\": ");
    energy_->write_json(out, sc_core::sc_time_stamp().value());
    std::fprintf(out, ",\n  \"host\": {\n");
    std::fprintf(out, "    \"wall_seconds\": %.6f,\n    \"simulated_seconds_per_wall_second\": %.6g,\n", wall_seconds,
                 wall_seconds > 0 ? simulated_s / wall_seconds : 0.0);
    std::fprintf(out, "    \"peak_memory_mib\": %.1f\n  },\n", peak_memory_mib());
    // After host: the sections before it are the simulated results, alike
    // for the same inputs; the record names paths and the command line.
    std::fprintf(out, "  \"run\": ");
    provenance_->write_json(out, options_.seed);
    std::fprintf(out, "\n}\n");
}

void platform::write_text(FILE *out, double wall_seconds, const std::string &error) const
{
    double simulated_s = sc_core::sc_time_stamp().to_seconds();
    std::fprintf(out, "simtx %s%s%s, seed %llu%s\n", net_.file.c_str(), options_.record.workload.empty() ? "" : ", workload ",
                 options_.record.workload.c_str(), static_cast<unsigned long long>(options_.seed), error.empty() ? "" : " (partial: the run failed)");
    summary_->write_text(out, sc_core::sc_time_stamp().value());
    energy_->write_text(out, sc_core::sc_time_stamp().value());
    if (options_.stats_detail) {
        std::fprintf(out, "statistics of every block\n");
        simtx_stats_write_text(observer_.get(), out);
    }
    std::fprintf(out, "host (not simulated; varies from run to run)\n");
    std::fprintf(out, "  wall time         %.3f s\n", wall_seconds);
    std::fprintf(out, "  simulation speed  %.4g simulated us per wall second\n", wall_seconds > 0 ? simulated_s * 1e6 / wall_seconds : 0.0);
    std::fprintf(out, "  peak memory       %.1f MiB\n", peak_memory_mib());
}

void platform::write_outputs(double wall_seconds, const std::string &error)
{
    if (!options_.quiet) write_text(stdout, wall_seconds, error);
    if (stats_out_) {
        write_json(stats_out_->stream(), wall_seconds, error);
        stats_out_->keep(error.empty());
        if (!error.empty()) std::fprintf(stderr, "simtx: partial statistics in %s\n", partial_path(options_.stats_file).c_str());
    }
}

} // namespace simtx
