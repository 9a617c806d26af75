#include "run_summary.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

#include "json_string.hpp"

namespace simtx {

namespace {

const double not_applicable = std::nan("");

// a / b, or n/a when b is 0 (a hit rate without lookups is no rate, not 0).
double ratio(double a, double b) { return b != 0 ? a / b : not_applicable; }

// A parameter's value as its text ("true", "4"; empty when the block has none).
std::string parameter_text(const instance &inst, const char *name)
{
    const simtx_param_spec *spec = simtx_param_find(inst.info->params, name);
    if (!spec) return "";
    char value[128];
    simtx_param_format(spec, inst.params->data(), value, sizeof value);
    return value;
}

std::string format_value(const summary_metric &m)
{
    char text[64];
    if (std::isnan(m.value)) return "n/a";
    if (m.unit == "fraction") std::snprintf(text, sizeof text, "%.2f%%", 100 * m.value);
    else if (m.integer) std::snprintf(text, sizeof text, "%.0f", m.value);
    else if (std::fabs(m.value) >= 1000) std::snprintf(text, sizeof text, "%.1f", m.value);
    else std::snprintf(text, sizeof text, "%.4g", m.value);
    return text;
}

void write_json_number(FILE *out, const summary_metric &m)
{
    if (std::isnan(m.value) || std::isinf(m.value)) std::fputs("null", out);
    else if (m.integer) std::fprintf(out, "%.0f", m.value);
    else std::fprintf(out, "%.17g", m.value);
}

double number_parameter(const instance &inst, const char *name)
{
    std::string value = parameter_text(inst, name);
    return value.empty() ? not_applicable : std::strtod(value.c_str(), nullptr);
}

// The per-launch table's columns (metric, title): what a reader compares across launches.
const char *const launch_columns[][2] = {{"simulated_time", "time ns"}, {"cycles_core", "core cycles"},
                                         {"thread_instructions", "thread instr"}, {"ipc", "IPC"}, {"simd_efficiency", "SIMD eff"},
                                         {"l1_hit_rate", "L1 hit"}, {"l2_hit_rate", "L2 hit"}, {"dram_bandwidth", "DRAM GB/s"},
                                         {"tm_commits", "commits"}, {"tm_aborts", "aborts"}, {"pm_persists", "persists"}};

} // namespace

run_summary::run_summary(const netlist &net, const simtx_observer *observer) : net_(net), observer_(observer)
{
    std::map<std::string, const instance *> by_name;
    for (const instance &inst : net.instances) by_name[inst.name] = &inst;
    for (size_t i = 0; i < simtx_observer_stat_count(observer); i++) {
        std::string name = simtx_observer_stat(observer, i)->name;
        size_t dot = name.find('.');
        auto found = by_name.find(name.substr(0, dot));
        stat_instance_.push_back(dot == std::string::npos || found == by_name.end() ? nullptr : found->second);
        stat_name_.push_back(dot == std::string::npos ? name : name.substr(dot + 1));
    }
}

run_summary::snapshot run_summary::take(uint64_t now_ps) const
{
    snapshot s;
    s.time_ps = now_ps;
    s.values.reserve(2 * stat_name_.size());
    for (size_t i = 0; i < stat_name_.size(); i++) {
        const simtx_stat_entry *e = simtx_observer_stat(observer_, i);
        double value = 0, count = 0;
        switch (e->kind) {
        case SIMTX_STAT_COUNTER: value = static_cast<double>(*static_cast<const uint64_t *>(e->value)); break;
        case SIMTX_STAT_REAL: value = *static_cast<const double *>(e->value); break;
        case SIMTX_STAT_AVERAGE: {
            const auto *a = static_cast<const simtx_average *>(e->value);
            value = a->sum;
            count = static_cast<double>(a->count);
            break;
        }
        case SIMTX_STAT_HISTOGRAM: {
            const auto *h = static_cast<const simtx_histogram *>(e->value);
            value = static_cast<double>(h->sum);
            count = static_cast<double>(h->count);
            break;
        }
        }
        s.values.push_back(value);
        s.values.push_back(count);
    }
    return s;
}

void run_summary::begin_launch(const std::string &kernel, const std::string &shape, uint64_t now_ps)
{
    launches_.push_back({kernel, shape, take(now_ps)});
}

const std::string &run_summary::current_kernel() const
{
    static const std::string none;
    return launches_.empty() ? none : launches_.back().kernel;
}

bool run_summary::has(const char *type) const { return first(type) != nullptr; }

const instance *run_summary::first(const char *type) const
{
    for (const instance &inst : net_.instances)
        if (!std::strcmp(inst.info->name, type)) return &inst;
    return nullptr;
}

// The statistic summed over every block of the type, over the span (a
// histogram's or average's sum, or with count its sample count).
double run_summary::sum(const interval &span, const char *type, const char *statistic, bool count) const
{
    double total = 0;
    for (size_t i = 0; i < stat_name_.size(); i++) {
        if (!stat_instance_[i] || std::strcmp(stat_instance_[i]->info->name, type) || stat_name_[i] != statistic) continue;
        size_t at = 2 * i + (count ? 1 : 0);
        total += span.to->values[at] - (span.from ? span.from->values[at] : 0);
    }
    return total;
}

// The statistic times a weight of its block (flits x its flit bytes), summed.
double run_summary::sum_weighted(const interval &span, const char *type, const char *statistic,
                                 const std::function<double(const instance &)> &weight) const
{
    double total = 0;
    for (size_t i = 0; i < stat_name_.size(); i++) {
        if (!stat_instance_[i] || std::strcmp(stat_instance_[i]->info->name, type) || stat_name_[i] != statistic) continue;
        double value = span.to->values[2 * i] - (span.from ? span.from->values[2 * i] : 0);
        total += value * weight(*stat_instance_[i]);
    }
    return total;
}

// The DRAM channels' peak in GB/s: each controller's bus bytes x transfers
// per command clock x its clock (MHz / 1000 gives transfers per ns).
double run_summary::dram_peak_bandwidth() const
{
    double peak = 0;
    for (const instance &inst : net_.instances)
        if (!std::strcmp(inst.info->name, "dram_controller"))
            peak += number_parameter(inst, "bus_bytes") * number_parameter(inst, "transfers_per_clock") *
                    net_.clock_of(inst).frequency_mhz / 1000;
    return peak;
}

// Why a cache level's hit rate is n/a: no accesses, or accesses that looked
// nothing up because the level does not cache global data.
std::string run_summary::no_lookup_reason(const char *type, const std::string &level, double accesses) const
{
    if (accesses == 0) return "no " + level + " accesses";
    for (const instance &inst : net_.instances)
        if (!std::strcmp(inst.info->name, type) && parameter_text(inst, "cache_global") == "false") {
            char reason[160];
            std::snprintf(reason, sizeof reason, "the %ss do not cache global data (cache_global = false): their %.0f accesses bypassed them",
                          level.c_str(), accesses);
            return reason;
        }
    return "no lookups: the " + level + " accesses bypassed the cache";
}

// Load-to-use latency by the level that served each load: the ldst_units'
// load_to_use_<level> histograms (cycles, first beat to values, mem.h
// LEVELS) and the ldss' load_to_use, as the mean in ns per level and the
// loads counted; one console line gathers them, each n/a with its reason.
void run_summary::add_load_to_use(const interval &span, std::vector<summary_metric> &m) const
{
    auto ns_per_cycle = [&](const instance &inst) { return static_cast<double>(net_.clock_of(inst).period_ps) / 1000; };
    double global_loads = 0;
    for (const char *level : {"unattributed", "l1", "l2", "dram", "nvm", "memory"})
        global_loads += sum(span, "ldst_unit", ("load_to_use_" + std::string(level)).c_str(), true);
    auto l1_bypasses = [&] {
        for (const instance &inst : net_.instances)
            if (!std::strcmp(inst.info->name, "l1_cache") && parameter_text(inst, "cache_global") == "false") return true;
        return false;
    };
    struct level {
        const char *key, *name, *type, *statistic; // type: the block measuring it
        bool shown;
        std::string absent; // why no load is expected there; empty: a count of 0 is explained below
    };
    std::vector<level> levels = {
        {"l1", "L1", "ldst_unit", "load_to_use_l1", true,
         !has("l1_cache") ? "no L1 in this platform" : l1_bypasses() ? "the L1s do not cache global data (cache_global = false)" : ""},
        {"l2", "L2", "ldst_unit", "load_to_use_l2", true, has("l2_cache") ? "" : "no L2 in this platform"},
        {"dram", "DRAM", "ldst_unit", "load_to_use_dram", true, has("dram_controller") ? "" : "no DRAM controller in this platform"},
        {"nvm", "NVM", "ldst_unit", "load_to_use_nvm", has("nvm_controller"), ""},
        {"memory", "fixed-latency memory", "ldst_unit", "load_to_use_memory", has("memory"), ""},
        {"unattributed", "unattributed", "ldst_unit", "load_to_use_unattributed", sum(span, "ldst_unit", "load_to_use_unattributed", true) > 0, ""},
        {"shared", "shared memory", "lds", "load_to_use", has("lds"), ""},
    };
    // A cache level's hit rate over all its lookups (loads, stores, atomics), beside its n/a.
    auto hit_rate_note = [&](const char *key, const char *name) {
        std::string type = std::string(key) + "_cache";
        double hits = sum(span, type.c_str(), "hits");
        double lookups = hits + sum(span, type.c_str(), "misses") + sum(span, type.c_str(), "sector_misses") + sum(span, type.c_str(), "hit_reserved");
        if (lookups == 0) return std::string();
        char note[64];
        std::snprintf(note, sizeof note, " (%s hit rate %.2f%%)", name, 100 * hits / lookups);
        return std::string(note);
    };
    std::string line;
    for (const level &l : levels) {
        if (!l.shown) continue;
        double loads = sum(span, l.type, l.statistic, true);
        double mean = ratio(sum_weighted(span, l.type, l.statistic, ns_per_cycle), loads);
        std::string reason = !l.absent.empty()              ? l.absent
                             : !std::strcmp(l.type, "lds") ? "no shared-memory loads"
                             : global_loads == 0           ? "no global loads"
                             : l.key[0] == 'l' ? "none of the " + std::to_string(static_cast<long long>(global_loads)) + " global loads was served by the " +
                                                     l.name + " alone" + hit_rate_note(l.key, l.name)
                                               : "none of the " + std::to_string(static_cast<long long>(global_loads)) + " global loads reached the " + l.name;
        m.push_back({"load_to_use_" + std::string(l.key), std::string("load-to-use latency, ") + l.name + " (mean)", "ns", mean, false,
                     std::isnan(mean) ? reason : "", summary_metric::shown::json, ""});
        m.push_back({"load_to_use_" + std::string(l.key) + "_loads", std::string("loads served by the ") + l.name, "loads", loads, true, "",
                     summary_metric::shown::json, ""});
        char figure[96];
        if (std::isnan(mean)) line += std::string(line.empty() ? "" : "; ") + l.name + " n/a: " + reason;
        else {
            std::snprintf(figure, sizeof figure, "%s%s %.1f ns (%.0f loads)", line.empty() ? "" : "; ", l.name, mean, loads);
            line += figure;
        }
    }
    m.push_back({"load_to_use", "load-to-use latency (mean, by the farthest level that served a load)", "", 0, false, "",
                 summary_metric::shown::console, line});
}

std::vector<summary_metric> run_summary::metrics(const interval &span) const
{
    std::vector<summary_metric> m;
    // reason: why the value is n/a, from the statistics or parameters (kept only when it is).
    auto add = [&](const std::string &key, const std::string &label, const std::string &unit, double value, bool integer,
                   const std::string &reason = "") {
        m.push_back({key, label, unit, value, integer, std::isnan(value) ? reason : "", summary_metric::shown::both, ""});
    };
    auto counter = [&](const char *type, const char *statistic) { return sum(span, type, statistic); };
    uint64_t ps = span.to->time_ps - (span.from ? span.from->time_ps : 0);
    double ns = static_cast<double>(ps) / 1000;
    auto cycles_of = [&](const char *type) {
        const instance *inst = first(type);
        return static_cast<double>(ps / net_.clock_of(*inst).period_ps);
    };
    // Bytes per ns is GB/s.
    auto bandwidth = [&](double bytes) { return ratio(bytes, ns); };
    const char *no_time = "no simulated time";

    add("simulated_time", "simulated time", "ns", ns, false);
    for (const clock_domain &c : net_.clocks) {
        char label[128];
        std::snprintf(label, sizeof label, "cycles, clock %s (%g MHz)", c.name.c_str(), c.frequency_mhz);
        add("cycles_" + c.name, label, "cycles", static_cast<double>(ps / c.period_ps), true);
    }
    if (has("simt_core")) {
        double warp = counter("simt_core", "warp_instructions"), thread = counter("simt_core", "thread_instructions");
        double lanes = number_parameter(*first("simt_core"), "lanes");
        add("warp_instructions", "warp instructions", "instructions", warp, true);
        add("thread_instructions", "thread instructions", "instructions", thread, true);
        add("ipc", "IPC (thread instructions per core cycle)", "instructions/cycle", ratio(thread, cycles_of("simt_core")), false,
            "no core cycles");
        add("simd_efficiency", "SIMD efficiency (active lanes of the warps' lanes)", "fraction", ratio(thread, warp * lanes), false,
            "no warp instructions");
        add("ctas_completed", "CTAs completed", "CTAs", counter("simt_core", "ctas_completed"), true);
        double warp_slots = number_parameter(*first("simt_core"), "warps");
        add("achieved_occupancy", "achieved occupancy (resident warps of the warps a core holds, while busy)", "fraction",
            ratio(counter("simt_core", "resident_warp_cycles"), counter("simt_core", "busy_cycles") * warp_slots), false,
            "no core held a CTA");
        double stalls = counter("simt_core", "stall_memory") + counter("simt_core", "stall_scoreboard") +
                        counter("simt_core", "stall_pipeline") + counter("simt_core", "stall_barrier") + counter("simt_core", "stall_idle");
        // The cores' stall counters count core cycles without an issue, one reason each.
        add("stall_memory_share", "stall cycles waiting on memory (of core cycles without an issue)", "fraction",
            ratio(counter("simt_core", "stall_memory"), stalls), false, "no core cycle without an issue");
    }
    if (has("lds")) {
        add("lds_requests", "shared-memory requests", "requests", counter("lds", "requests"), true);
        add("lds_bank_conflict_cycles", "shared-memory bank-conflict cycles", "cycles", counter("lds", "bank_conflict_cycles"), true);
    }
    for (const char *level : {"l1", "l2"}) {
        std::string type = std::string(level) + "_cache", upper = level[1] == '1' ? "L1" : "L2";
        if (!has(type.c_str())) continue;
        double hits = counter(type.c_str(), "hits"), accesses = counter(type.c_str(), "accesses");
        double lookups = hits + counter(type.c_str(), "misses") + counter(type.c_str(), "sector_misses") + counter(type.c_str(), "hit_reserved");
        add(std::string(level) + "_accesses", upper + " accesses", "requests", accesses, true);
        add(std::string(level) + "_hit_rate", upper + " hit rate (hits of lookups)", "fraction", ratio(hits, lookups), false,
            no_lookup_reason(type.c_str(), upper, accesses));
    }
    if (has("ldst_unit")) add_load_to_use(span, m);
    if (has("crossbar")) {
        double request = sum_weighted(span, "crossbar", "request_flits", [](const instance &inst) { return number_parameter(inst, "flit_bytes"); });
        // The reply network's flits are reply_flit_bytes, or flit_bytes when that is 0.
        double reply = sum_weighted(span, "crossbar", "reply_flits", [](const instance &inst) {
            double bytes = number_parameter(inst, "reply_flit_bytes");
            return bytes > 0 ? bytes : number_parameter(inst, "flit_bytes");
        });
        add("crossbar_request_bandwidth", "crossbar request bandwidth (flit bytes)", "GB/s", bandwidth(request), false, no_time);
        add("crossbar_reply_bandwidth", "crossbar reply bandwidth (flit bytes)", "GB/s", bandwidth(reply), false, no_time);
    }
    if (has("router")) add("router_requests", "router requests forwarded", "messages", counter("router", "requests"), true);
    if (has("dram_controller")) {
        double hits = counter("dram_controller", "row_hits");
        double served = hits + counter("dram_controller", "row_misses") + counter("dram_controller", "row_conflicts");
        add("dram_reads", "DRAM reads", "requests", counter("dram_controller", "reads"), true);
        add("dram_writes", "DRAM writes", "requests", counter("dram_controller", "writes"), true);
        double dram_bandwidth = bandwidth(counter("dram_controller", "bytes_read") + counter("dram_controller", "bytes_written"));
        add("dram_bandwidth", "DRAM bandwidth (bytes read and written)", "GB/s", dram_bandwidth, false, no_time);
        add("dram_bandwidth_share", "DRAM bandwidth (of the channels' peak)", "fraction", ratio(dram_bandwidth, dram_peak_bandwidth()), false,
            no_time);
        add("dram_row_hit_rate", "DRAM row-buffer hit rate (row hits of requests)", "fraction", ratio(hits, served), false, "no DRAM requests");
        add("dram_activates", "DRAM activates", "commands", counter("dram_controller", "activates"), true);
    }
    if (has("memory")) {
        add("memory_requests", "fixed-latency memory requests", "requests", counter("memory", "reads") + counter("memory", "writes") + counter("memory", "atomics"), true);
        add("memory_bandwidth", "fixed-latency memory bandwidth", "GB/s", bandwidth(counter("memory", "bytes_read") + counter("memory", "bytes_written")), false,
            no_time);
    }
    // Transactions of the cores' tm_units (lanes) and of TM traffic generators.
    if (has("tm_unit") || has("tm_traffic")) {
        double commits = counter("tm_unit", "commits") + counter("tm_traffic", "tm_n_commits");
        double aborts = counter("tm_unit", "aborts") + counter("tm_traffic", "tm_n_aborts");
        add("tm_commits", "TM commits", "transactions", commits, true);
        add("tm_aborts", "TM aborts (attempts)", "attempts", aborts, true);
        add("tm_aborts_per_commit", "TM aborts per commit", "attempts/transaction", ratio(aborts, commits), false, "no commits");
    }
    if (has("tm_unit")) {
        for (const char *cause : {"validation", "intra_warp", "early", "timeout", "fault"}) {
            std::string statistic = std::string("aborts_") + cause, label = cause;
            for (char &c : label) c = c == '_' ? '-' : c;
            add("tm_aborts_" + std::string(cause), "  aborts: " + label, "attempts", counter("tm_unit", statistic.c_str()), true);
        }
        add("tm_tcd_commits", "TM read-only commits by TCD", "transactions", counter("tm_unit", "tcd_commits"), true);
        add("tm_log_traffic", "TM log traffic to the commit units", "bytes", counter("tm_unit", "log_bytes"), true);
        // EA/PG's filters, only when the platform has them at work.
        if (double updates = counter("tm_unit", "cat_updates")) {
            add("tm_cat_updates", "EA/PG conflict address table updates", "entries", updates, true);
            add("tm_cat_hit_rate", "EA/PG conflict address table hit rate", "fraction",
                ratio(counter("tm_unit", "cat_hits"), counter("tm_unit", "cat_lookups")), false, "no lookups");
        }
        if (double pauses = counter("tm_unit", "pauses")) {
            add("tm_pauses", "Pause-and-Go pauses", "pauses", pauses, true);
            add("tm_lanes_paused", "Pause-and-Go lanes paused", "lanes", counter("tm_unit", "lanes_paused"), true);
        }
    }
    if (has("simt_core") && has("tm_unit")) {
        double wasted = counter("simt_core", "tm_wasted_instructions");
        add("tm_wasted_instructions", "TM wasted thread instructions", "instructions", wasted, true);
        add("tm_wasted_share", "TM wasted work (of thread instructions)", "fraction",
            ratio(wasted, counter("simt_core", "thread_instructions")), false, "no thread instructions");
        // Summed over warps: an attempt's cycles count once per warp that wasted them.
        add("tm_wasted_cycles", "TM wasted warp-cycles (aborted attempts, summed over warps)", "warp-cycles",
            counter("simt_core", "tm_wasted_cycles"), true);
    }
    if (has("commit_unit")) {
        add("commit_unit_validations", "commit units: validation reads", "words", counter("commit_unit", "tm_n_validations"), true);
        add("commit_unit_writes", "commit units: write-backs", "words", counter("commit_unit", "tm_n_commit_writes"), true);
        add("commit_unit_hazards", "commit units: IDs waiting on an older writer", "transactions", counter("commit_unit", "hazards"), true);
    }
    if (has("nvm_controller")) {
        add("pm_persists", "PM persists (writes into the WPQs)", "requests", counter("nvm_controller", "writes"), true);
        add("pm_persists_clwb", "  persists by clwb", "requests", counter("nvm_controller", "persists_clwb"), true);
        add("pm_persists_non_temporal", "  persists by non-temporal store", "requests", counter("nvm_controller", "persists_non_temporal"), true);
        add("pm_persists_writeback", "  persists by eviction write-back", "requests", counter("nvm_controller", "persists_writeback"), true);
        add("pm_media_writes", "PM media writes", "accesses", counter("nvm_controller", "media_writes"), true);
        add("pm_reads", "PM reads", "requests", counter("nvm_controller", "reads"), true);
        add("pm_wpq_full_stalls", "PM writes refused: WPQ full", "stalls", counter("nvm_controller", "wpq_full_stalls"), true);
        add("pm_bandwidth", "PM bandwidth (bytes read and written)", "GB/s",
            bandwidth(counter("nvm_controller", "bytes_read") + counter("nvm_controller", "bytes_written")), false, no_time);
    }
    if (has("trace_player")) {
        add("trace_requests", "trace requests completed", "requests", counter("trace_player", "reads") + counter("trace_player", "writes"), true);
        add("trace_bandwidth", "trace bandwidth (bytes read and written)", "GB/s",
            bandwidth(counter("trace_player", "bytes_read") + counter("trace_player", "bytes_written")), false, no_time);
        add("trace_read_latency", "trace read latency (mean)", "cycles",
            ratio(sum(span, "trace_player", "read_latency"), sum(span, "trace_player", "read_latency", true)), false, "no reads");
    }
    if (has("row_copy_initiator")) add("row_copies", "RowClone copies", "operations", counter("row_copy_initiator", "copies"), true);
    return m;
}

void run_summary::write_text(FILE *out, uint64_t now_ps) const
{
    snapshot end = take(now_ps);
    std::vector<summary_metric> total = metrics({nullptr, &end});
    size_t width = 0;
    for (const summary_metric &m : total)
        if (m.show != summary_metric::shown::json) width = std::max(width, m.label.size());
    std::fprintf(out, "summary (whole run)\n");
    for (const summary_metric &m : total) {
        if (m.show == summary_metric::shown::json) continue;
        if (m.show == summary_metric::shown::console) {
            std::fprintf(out, "  %-*s  %s\n", static_cast<int>(width), m.label.c_str(), m.text.c_str());
            continue;
        }
        std::string unit = m.unit == "fraction" ? "" : "  " + m.unit;
        if (!m.reason.empty()) unit = ": " + m.reason;
        std::fprintf(out, "  %-*s  %14s%s\n", static_cast<int>(width), m.label.c_str(), format_value(m).c_str(), unit.c_str());
    }
    if (launches_.empty()) return;
    // One row per launch, with the columns this netlist has.
    std::vector<std::vector<summary_metric>> rows;
    for (size_t i = 0; i < launches_.size(); i++)
        rows.push_back(metrics({&launches_[i].start, i + 1 < launches_.size() ? &launches_[i + 1].start : &end}));
    std::vector<size_t> columns;
    std::vector<std::string> header = {"#", "kernel", "grid x block"};
    for (const auto &column : launch_columns)
        for (size_t c = 0; c < total.size(); c++)
            if (total[c].key == column[0]) {
                columns.push_back(c);
                header.push_back(column[1]);
            }
    std::vector<std::vector<std::string>> cells = {header};
    for (size_t i = 0; i < rows.size(); i++) {
        std::vector<std::string> row = {std::to_string(i), launches_[i].kernel, launches_[i].shape};
        for (size_t c : columns) row.push_back(format_value(rows[i][c]));
        cells.push_back(row);
    }
    std::vector<size_t> widths(header.size(), 0);
    for (const auto &row : cells)
        for (size_t c = 0; c < row.size(); c++) widths[c] = std::max(widths[c], row[c].size());
    std::fprintf(out, "kernel launches (%zu)\n", launches_.size());
    for (const auto &row : cells) {
        std::fputs(" ", out);
        for (size_t c = 0; c < row.size(); c++)
            std::fprintf(out, c < 3 ? " %-*s" : " %*s", static_cast<int>(widths[c]), row[c].c_str());
        std::fputc('\n', out);
    }
}

void run_summary::write_json(FILE *out, uint64_t now_ps) const
{
    snapshot end = take(now_ps);
    auto members = [&](const std::vector<summary_metric> &all, int indent) {
        std::vector<summary_metric> list;
        for (const summary_metric &m : all)
            if (m.show != summary_metric::shown::console) list.push_back(m);
        for (size_t i = 0; i < list.size(); i++) {
            std::fprintf(out, "%s%*s\"%s\": {\"value\": ", i ? ",\n" : "", indent, "", list[i].key.c_str());
            write_json_number(out, list[i]);
            std::fprintf(out, ", \"unit\": %s", json_string(list[i].unit).c_str());
            if (!list[i].reason.empty()) std::fprintf(out, ", \"reason\": %s", json_string(list[i].reason).c_str());
            std::fputc('}', out);
        }
        std::fputc('\n', out);
    };
    std::fprintf(out, "{\n    \"total\": {\n");
    members(metrics({nullptr, &end}), 6);
    std::fprintf(out, "    },\n    \"launches\": [");
    for (size_t i = 0; i < launches_.size(); i++) {
        const snapshot &stop = i + 1 < launches_.size() ? launches_[i + 1].start : end;
        std::fprintf(out, "%s\n      {\"index\": %zu, \"kernel\": %s, \"grid_x_block\": %s, \"start_ps\": %llu, \"end_ps\": %llu,\n", i ? "," : "",
                     i, json_string(launches_[i].kernel).c_str(), json_string(launches_[i].shape).c_str(),
                     static_cast<unsigned long long>(launches_[i].start.time_ps), static_cast<unsigned long long>(stop.time_ps));
        std::fprintf(out, "       \"metrics\": {\n");
        members(metrics({&launches_[i].start, &stop}), 8);
        std::fprintf(out, "       }}");
    }
    std::fprintf(out, "%s]\n  }", launches_.empty() ? "" : "\n    ");
}

} // namespace simtx
