// The run summary: GPU-wide figures (time and cycles per clock domain,
// instructions, IPC, SIMD efficiency, hit rates, bandwidths, TM and PM
// outcomes) for the whole run and for each kernel launch, computed from the
// statistics summed by block type (a type's figures appear only when the
// netlist has such a block). Printed by default and written to the JSON's
// "summary" section with units; the per-instance listing stays in the
// JSON's "simulated" section (and on the console with --stats-detail).
#ifndef SIMTX_RUN_SUMMARY_HPP
#define SIMTX_RUN_SUMMARY_HPP

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "netlist.hpp"
#include "simtx_stats.h"

namespace simtx {

struct summary_metric {
    std::string key;   // JSON member name
    std::string label; // console text
    std::string unit;  // "fraction" prints as a percentage on the console
    double value;      // NaN: not applicable (no lookups, no time), null in the JSON
    bool integer;
    std::string reason; // why the value is not applicable (empty when it is)
    // Where it appears: a line of several figures (text) is console only,
    // the figures it gathers are JSON members only.
    enum class shown { both, console, json } show = shown::both;
    std::string text; // console only: printed instead of value and unit
};

class run_summary {
  public:
    // Both must outlive the summary; the observer's statistics are all
    // registered (the platform is built).
    run_summary(const netlist &net, const simtx_observer *observer);

    // A kernel launch starts at simulated time now_ps: the previous one (if
    // any) ends there. Snapshots the counters (per launch, not per cycle).
    void begin_launch(const std::string &kernel, const std::string &shape, uint64_t now_ps);
    size_t launch_count() const { return launches_.size(); }
    const std::string &current_kernel() const;

    // The run's totals and each launch's figures at simulated time now_ps.
    void write_text(FILE *out, uint64_t now_ps) const;
    void write_json(FILE *out, uint64_t now_ps) const; // the "summary" member's value, at indent 2

  private:
    struct snapshot {
        uint64_t time_ps = 0;
        std::vector<double> values; // two per statistic: value (or sum) and count
    };
    struct launch {
        std::string kernel, shape;
        snapshot start;
    };
    struct interval {
        const snapshot *from; // nullptr: the start of the run
        const snapshot *to;
    };

    snapshot take(uint64_t now_ps) const;
    std::vector<summary_metric> metrics(const interval &span) const;
    double sum(const interval &span, const char *type, const char *statistic, bool count = false) const;
    double sum_weighted(const interval &span, const char *type, const char *statistic,
                        const std::function<double(const instance &)> &weight) const;
    bool has(const char *type) const;
    double dram_peak_bandwidth() const;
    std::string no_lookup_reason(const char *type, const std::string &level, double accesses) const;
    void add_load_to_use(const interval &span, std::vector<summary_metric> &m) const;
    const instance *first(const char *type) const;

    const netlist &net_;
    const simtx_observer *observer_;
    std::vector<const instance *> stat_instance_; // per statistic: its instance
    std::vector<std::string> stat_name_;          // per statistic: its name without the instance
    std::vector<launch> launches_;
};

} // namespace simtx

#endif
