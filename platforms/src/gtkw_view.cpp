#include "gtkw_view.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace simtx {

// GTKWave trace flags (its save-file format, "@" lines, hexadecimal).
namespace {
constexpr unsigned long flag_binary = 0x8, flag_decimal = 0x4, flag_right_justify = 0x20, flag_blank = 0x200,
                        flag_translated = 0x2000, flag_analog_step = 0x8000, flag_analog_stretch = 0x20000,
                        flag_analog_full_scale = 0x80000, flag_group_begin = 0x800000, flag_group_end = 0x1000000;
// Rows an analog trace takes: taller shows a queue's shape, shorter keeps
// more signals on screen.
constexpr int analog_rows = 3;
// The window the view asks for, its signal pane (the hierarchy pane beside
// it is collapsed), and the pixels of the waveform pane the zoom fits the
// run into: the window's width less the signal pane and GTKWave's frames and
// scroll bar (64 pixels measured under GTKWave 3.3), with a small margin so
// the run's end stays on screen.
constexpr int window_width = 1400, window_height = 800, signals_width = 320, wave_pixels = 1000;
// GTKWave draws a "frame" of 200 pixels per 2^-zoom time units (its zoom
// base is 2), so a pixel is 2^-zoom / 200 time units.
constexpr double pixels_per_frame = 200;
// GTKWave keeps 26 named markers (A-Z) after the primary one.
constexpr int named_markers = 26;
} // namespace

double gtkw_zoom_to_fit(uint64_t span)
{
    // GTKWave shows no less than 1 time unit per frame (zoom 0); rounded
    // down at the save file's 6 decimals so that the run's end stays on screen.
    double frame = static_cast<double>(span) * pixels_per_frame / wave_pixels;
    return frame > 1 ? std::floor(-std::log2(frame) * 1e6) / 1e6 : 0;
}

unsigned gtkw_kind_rank(const std::string &block_kind)
{
    static const char *const order[] = {"trace_player", "tm_traffic",  "row_copy_initiator", "version_traffic", "simt_core",
                                        "tm_unit",      "ldst_unit",   "lds",                "l1_cache",        "crossbar",
                                        "router",       "l2_cache",    "commit_unit",        "vit",             "bulk_copy",
                                        "memory",       "dram_controller", "nvm_controller"};
    for (unsigned i = 0; i < sizeof order / sizeof *order; i++)
        if (block_kind == order[i]) return i;
    return sizeof order / sizeof *order;
}

// "bank12_state" -> "bankN_state": one translate file serves every bank.
static std::string probe_pattern(const std::string &probe)
{
    std::string pattern;
    for (size_t i = 0; i < probe.size(); i++) {
        if (std::isdigit(static_cast<unsigned char>(probe[i]))) {
            if (i == 0 || !std::isdigit(static_cast<unsigned char>(probe[i - 1]))) pattern += 'N';
        } else {
            pattern += probe[i];
        }
    }
    return pattern;
}

void gtkw_view::add(const simtx_probe_entry &probe, const std::string &block_kind, size_t instance_index)
{
    std::string name = probe.name;
    std::string instance = name.substr(0, name.find('.'));
    signal s{name, instance, block_kind, probe.width, probe.kind, probe.level_maximum, instance_index, 0};
    if (probe.kind == SIMTX_PROBE_ENUM) {
        std::string content = "# " + block_kind + " " + probe_pattern(name.substr(name.find('.') + 1)) + ": " + probe.doc + "\n";
        for (unsigned v = 0; v < probe.value_name_count; v++) content += std::to_string(v) + " " + probe.value_names[v] + "\n";
        auto same = std::find_if(translate_files_.begin(), translate_files_.end(),
                                 [&](const gtkw_translate_file &f) { return f.content == content; });
        if (same == translate_files_.end()) {
            translate_files_.push_back({"." + block_kind + "." + probe_pattern(name.substr(name.find('.') + 1)) + ".txt", content});
            same = translate_files_.end() - 1;
        }
        s.translate = static_cast<size_t>(same - translate_files_.begin());
    }
    signals_.push_back(s);
}

void gtkw_view::write(FILE *out, const std::string &dump_name, const std::string &view_name,
                      const std::vector<std::string> &translate_names, uint64_t end_ps) const
{
    std::fprintf(out, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] 0\n[size] %d %d\n[signals_width] %d\n[sst_expanded] 0\n",
                 dump_name.c_str(), view_name.c_str(), window_width, window_height, signals_width);
    std::fprintf(out, "*%f %llu", gtkw_zoom_to_fit(end_ps), static_cast<unsigned long long>(end_ps));
    for (int i = 0; i < named_markers; i++) std::fputs(" -1", out);
    std::fputs("\n[treeopen] SystemC.\n", out);

    // Groups by block kind along the dataflow, then in netlist order; the
    // probes within an instance keep the block's order.
    std::vector<size_t> order(signals_.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const signal &x = signals_[a], &y = signals_[b];
        unsigned rx = gtkw_kind_rank(x.block_kind), ry = gtkw_kind_rank(y.block_kind);
        return rx != ry ? rx < ry : x.instance_index < y.instance_index;
    });
    std::string instance, group; // group: "instance (block kind)", at its beginning and its end
    for (size_t i : order) {
        const signal &s = signals_[i];
        if (s.instance != instance) {
            if (!group.empty()) std::fprintf(out, "@%lx\n-%s\n", flag_group_end | flag_blank, group.c_str());
            instance = s.instance;
            group = s.block_kind.empty() ? s.instance : s.instance + " (" + s.block_kind + ")";
            std::fprintf(out, "@%lx\n-%s\n", flag_group_begin | flag_blank, group.c_str());
        }
        std::string range = s.width > 1 ? "[" + std::to_string(s.width - 1) + ":0]" : "";
        if (s.kind == SIMTX_PROBE_ENUM) {
            std::fprintf(out, "@%lx\n^%zu %s\nSystemC.%s%s\n", flag_translated | flag_decimal | flag_right_justify,
                         s.translate + 1, translate_names[s.translate].c_str(), s.name.c_str(), range.c_str());
        } else if (s.kind == SIMTX_PROBE_LEVEL && s.width > 1) {
            // GTKWave scales an analog trace to the values in the dump; a
            // known range goes into the trace's name (an alias, without dots:
            // GTKWave shows an alias from its last dot on).
            std::string alias = s.level_maximum ? "+{" + s.name.substr(s.name.find('.') + 1) + " 0-" + std::to_string(s.level_maximum) + "} " : "";
            std::fprintf(out, "@%lx\n%sSystemC.%s%s\n@%lx\n", flag_analog_step | flag_analog_full_scale | flag_decimal | flag_right_justify,
                         alias.c_str(), s.name.c_str(), range.c_str(), flag_analog_stretch);
            for (int row = 1; row < analog_rows; row++) std::fputs("-\n", out);
        } else {
            std::fprintf(out, "@%lx\nSystemC.%s%s\n", s.width > 1 ? flag_decimal | flag_right_justify : flag_binary | flag_right_justify,
                         s.name.c_str(), range.c_str());
        }
    }
    if (!group.empty()) std::fprintf(out, "@%lx\n-%s\n", flag_group_end | flag_blank, group.c_str());
}

} // namespace simtx
