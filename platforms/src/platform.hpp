// Builds the SystemC modules of a validated netlist, runs the simulation and
// writes statistics (JSON and text) and waveforms (VCD and a GTKWave view).
#ifndef SIMTX_PLATFORM_HPP
#define SIMTX_PLATFORM_HPP

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "block_sc.hpp"
#include "crash_injection.hpp"
#include "energy_report.hpp"
#include "gtkw_view.hpp"
#include "netlist.hpp"
#include "output_file.hpp"
#include "protocol_checker.hpp"
#include "provenance.hpp"
#include "run_summary.hpp"

namespace simtx {

struct run_options {
    std::string stats_file;             // JSON; empty: none
    std::string vcd_file;               // empty: no waveforms
    std::vector<std::string> trace_globs; // probes to dump; empty: all
    uint64_t seed = 1;
    double max_time_ns = 0;             // 0: until the work is done
    // The watchdog (docs/architecture.md, Deadlocks): stops the run as a
    // deadlock once, for this much simulated time, no block has accepted a
    // message, no initiator's progress has moved, and some unfinished
    // initiator sleeps (waits on others), while housekeeping (refresh,
    // timers) keeps the clock going; and as a livelock once, for this much
    // simulated time, no program changed state visible outside its threads
    // (simtx_block.h, visible_changes) while one runs; 0: never. Longer
    // spends more wall time before a deadlock is reported; shorter may stop
    // an initiator that waits on a block working for a long time without a
    // message, or a long compute or load-only phase.
    double watchdog_ns = 500000;
    crash_options crash;                // a power failure injected (crash_injection.hpp)
    bool quiet = false;                 // no text summary
    bool stats_detail = false;          // the text lists every block's statistics after the summary
    bool progress = false;              // progress on stderr even when it is not a terminal
    run_record record;                  // how the run was asked for (the JSON's "run" section)
    bool check_protocol = false;        // a protocol checker on every binding
    // A host program (a workload) that drives the run itself: it accesses
    // memory, launches kernels and calls platform::simulate() as often as it
    // needs; it returns an error text, empty when its oracle passed.
    std::function<std::string(class platform &)> host_program;
};

class platform {
  public:
    platform(const netlist &net, const run_options &options);
    ~platform();

    // Runs to completion; returns the process exit status (0 ok, 1 failed run).
    // A failed run still prints its summary and keeps its statistics and
    // waveforms, marked partial, beside the requested files.
    int run();

    // Simulates until no block has work left, an error, --max-time or an
    // injected power failure; returns the error text, empty when none. May
    // be called repeatedly; after a failure it only repeats the failure.
    std::string simulate();
    // Whether an injected power failure stopped the run (crashed() then
    // says why).
    bool crashed() const { return !crash_message_.empty(); }
    const std::string &crash_message() const { return crash_message_; }
    crash_domain persistence_domain() const { return options_.crash.domain; }

    block_module *find(const std::string &name) const;
    const std::vector<std::unique_ptr<block_module>> &modules() const { return modules_; }
    simtx_observer *observer() const { return observer_.get(); }

    // A host program announces each kernel launch before simulating it: the
    // summary's per-launch figures and the progress line name it.
    void begin_launch(const std::string &kernel, const std::string &shape);

  private:
    static void report_exit(int status, void *);
    void open_waveforms();
    void close_waveforms(bool complete);
    void report_progress(double wall_seconds, double done_override = -1);
    double initiators_progress() const;
    bool initiator_waits() const;
    uint64_t visible_changes() const;
    const block_module *running_program(bool messages_moved) const;
    std::string deadlock_report() const;
    void write_outputs(double wall_seconds, const std::string &error);
    void write_json(FILE *out, double wall_seconds, const std::string &error) const;
    void write_text(FILE *out, double wall_seconds, const std::string &error) const;

    const netlist &net_;
    run_options options_;
    // Created first, so a path that cannot be written stops the run before it starts.
    std::unique_ptr<output_file> stats_out_, vcd_out_, view_out_;
    std::vector<std::unique_ptr<output_file>> translate_out_; // the view's translate files
    // Declared before the modules: it must outlive them, also when the
    // constructor throws half-way.
    std::unique_ptr<simtx_observer, void (*)(simtx_observer *)> observer_;
    std::vector<std::unique_ptr<block_module>> modules_;
    std::vector<std::unique_ptr<protocol_checker>> checkers_;
    sc_core::sc_trace_file *trace_file_ = nullptr;
    gtkw_view view_;
    bool show_progress_ = false;
    std::string crash_message_; // empty: no power failure (yet)
    std::unique_ptr<run_summary> summary_;   // after the modules: it reads their statistics
    std::unique_ptr<energy_report> energy_;  // likewise: it reads their energy events
    std::unique_ptr<provenance> provenance_;
    std::chrono::steady_clock::time_point started_; // for the progress line's elapsed time
};

uint64_t instance_seed(uint64_t seed, const std::string &instance_name);

// The VCD base name of --vcd FILE (FILE without .vcd): FILE.vcd and FILE.gtkw.
std::string waveform_base(const std::string &vcd_option);

} // namespace simtx

#endif
