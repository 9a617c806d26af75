// The GTKWave view (save file) written beside a run's VCD: one group per
// instance, groups ordered by block kind along the dataflow (cores, LD/ST,
// L1, interconnect, L2 and commit units, memories), enumerations shown by
// name through translate files written beside the view, levels (queue
// depths, occupancies) as analog step traces, zoomed to the whole run.
#ifndef SIMTX_GTKW_VIEW_HPP
#define SIMTX_GTKW_VIEW_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "simtx_stats.h"

namespace simtx {

// A translate file: "value name" lines for one enumeration.
struct gtkw_translate_file {
    std::string suffix;  // after the view's base name: ".<block>.<probe>.txt"
    std::string content;
};

class gtkw_view {
  public:
    // A traced probe (in VCD order) of the instance_index-th instance, of
    // the given block kind (empty: unknown, shown last).
    void add(const simtx_probe_entry &probe, const std::string &block_kind, size_t instance_index);

    // The translate files the view refers to (one per distinct enumeration).
    const std::vector<gtkw_translate_file> &translate_files() const { return translate_files_; }

    // Writes the view for a run that ended at end_ps; names are written as
    // given (relative names are found beside the view); translate_names[i]
    // names translate_files()[i].
    void write(FILE *out, const std::string &dump_name, const std::string &view_name,
               const std::vector<std::string> &translate_names, uint64_t end_ps) const;

  private:
    struct signal {
        std::string name, instance, block_kind;
        unsigned width;
        simtx_probe_kind kind;
        uint64_t level_maximum;
        size_t instance_index, translate; // translate: index in translate_files_ (enumerations)
    };
    std::vector<signal> signals_;
    std::vector<gtkw_translate_file> translate_files_;
};

// GTKWave's zoom that fits span time units into the waveform pane of the
// window a view asks for (traces/fit_view.py computes the same).
double gtkw_zoom_to_fit(uint64_t span);

// Where a block kind's group goes in a view (dataflow order; unknown kinds last).
unsigned gtkw_kind_rank(const std::string &block_kind);

} // namespace simtx

#endif
