// The energy report (docs/fidelity.md, Energy): every block's energy events
// (simtx_observe_energy) priced with the platform's technology figures
// (technology.hpp), plus each block's leakage over the simulated time, for
// the whole run and for each kernel launch, by block type and by block and
// event. Printed after the run summary and written to the JSON's "energy"
// section (outside "simulated": the statistics stay as they were). The
// dram_controller's device energies are derived from its currents and the
// controller's timings (simtx_energy.h).
#ifndef SIMTX_ENERGY_REPORT_HPP
#define SIMTX_ENERGY_REPORT_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "netlist.hpp"
#include "simtx_stats.h"

namespace simtx {

class energy_report {
  public:
    // Both must outlive the report; the platform is built.
    energy_report(const netlist &net, const simtx_observer *observer);

    // A kernel launch starts at now_ps (the previous one ends there).
    void begin_launch(const std::string &kernel, uint64_t now_ps);

    void write_text(FILE *out, uint64_t now_ps) const;
    void write_json(FILE *out, uint64_t now_ps) const; // the "energy" member's value, at indent 2

  private:
    struct priced_event {
        size_t instance;
        std::string event; // without the instance
        const uint64_t *count;
        double pj;            // per count
        std::string basis;    // "technology" (a figure), "derived" (DRAM currents), "none" (no figure)
        const char *doc;
    };
    struct totals {
        uint64_t time_ps = 0;
        std::vector<double> event_pj;    // per priced event
        std::vector<double> static_pj;   // per instance
        double total() const;
    };
    struct launch {
        std::string kernel;
        uint64_t start_ps;
        std::vector<uint64_t> counts; // per priced event, at the start
    };

    std::vector<uint64_t> counts() const;
    totals between(const launch *from, const std::vector<uint64_t> &to_counts, uint64_t to_ps) const;
    void derive_dram(size_t instance);
    void write_types_json(FILE *out, const totals &t, int indent) const;

    const netlist &net_;
    std::vector<priced_event> events_;
    std::vector<double> static_w_; // per instance
    std::vector<launch> launches_;
    std::vector<std::string> unused_figures_; // "type.event": figures of present types naming no event here
};

} // namespace simtx

#endif
