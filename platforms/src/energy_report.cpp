#include "energy_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "json_string.hpp"
#include "simtx_energy.h"

namespace simtx {

namespace {

// The dram_controller's device events, derived from its currents.
const char *const dram_device_events[] = {"act", "pre", "rd", "wr", "ref", "copy_act", "transfer", "active_cycle"};
const char *const dram_device_figures[] = {"vdd", "idd0", "idd2n", "idd3n", "idd4r", "idd4w", "idd5", "device_bits"};

double parameter_number(const instance &inst, const char *name)
{
    const simtx_param_spec *spec = simtx_param_find(inst.info->params, name);
    if (!spec) throw std::logic_error(std::string("energy: ") + inst.info->name + " has no parameter " + name);
    return static_cast<double>(simtx_param_int(spec, inst.params->data()));
}

// Energies as text: the largest unit that keeps the number at least 1.
std::string energy_text(double pj)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1e12, "J"}, {1e9, "mJ"}, {1e6, "uJ"}, {1e3, "nJ"}, {1, "pJ"}};
    char text[64];
    for (const auto &u : units)
        if (std::fabs(pj) >= u.scale || u.scale == 1) {
            std::snprintf(text, sizeof text, "%.4g %s", pj / u.scale, u.unit);
            break;
        }
    return text;
}

void write_number(FILE *out, double value)
{
    if (!std::isfinite(value)) std::fputs("null", out);
    else std::fprintf(out, "%.17g", value);
}

void write_quantity(FILE *out, double value, const char *unit)
{
    std::fputs("{\"value\": ", out);
    write_number(out, value);
    std::fprintf(out, ", \"unit\": \"%s\"}", unit);
}

} // namespace

double energy_report::totals::total() const
{
    double sum = 0;
    for (double e : event_pj) sum += e;
    for (double e : static_pj) sum += e;
    return sum;
}

energy_report::energy_report(const netlist &net, const simtx_observer *observer) : net_(net)
{
    const technology &tech = net.technology;
    std::map<std::string, size_t> by_name;
    for (size_t i = 0; i < net.instances.size(); i++) by_name[net.instances[i].name] = i;
    static_w_.assign(net.instances.size(), 0.0);
    std::map<std::string, std::set<std::string>> events_of_type; // what the figures may name
    for (size_t i = 0; i < simtx_observer_energy_count(observer); i++) {
        const simtx_energy_entry *e = simtx_observer_energy(observer, i);
        std::string name = e->name;
        size_t dot = name.find('.');
        auto found = by_name.find(name.substr(0, dot));
        if (dot == std::string::npos || found == by_name.end()) continue;
        const instance &inst = net.instances[found->second];
        std::string event = name.substr(dot + 1);
        events_of_type[inst.info->name].insert(event);
        const technology_figure *figure = tech.find(inst.info->name, event);
        events_.push_back({found->second, event, e->count, figure ? figure->value : 0.0, figure ? "technology" : "none", e->doc});
    }
    for (size_t i = 0; i < net.instances.size(); i++) {
        const instance &inst = net.instances[i];
        if (const technology_figure *figure = tech.find(inst.info->name, "static")) static_w_[i] = figure->value;
        if (!std::strcmp(inst.info->name, "dram_controller")) derive_dram(i);
    }
    // A figure of a type the netlist has that names none of its events
    // here: a misspelt event, or one only some configurations count (the
    // RCT's with Early-Abort); listed in the JSON, never an error.
    for (const technology_figure &f : tech.figures) {
        bool present = false;
        for (const instance &inst : net.instances) present |= f.block_type == inst.info->name;
        if (!present || f.name == "static" || events_of_type[f.block_type].count(f.name)) continue;
        bool device = false;
        for (const char *name : dram_device_figures) device |= f.block_type == "dram_controller" && f.name == name;
        if (!device) unused_figures_.push_back(f.block_type + "." + f.name);
    }
    std::sort(unused_figures_.begin(), unused_figures_.end());
}

// The dram_controller's device: DRAMPower-style command energies from the
// currents (simtx_energy.h), at this controller's timings and clock, for
// the devices its bus holds (bus_bytes x 8 / device_bits in lock step).
void energy_report::derive_dram(size_t index)
{
    const instance &inst = net_.instances[index];
    const technology &tech = net_.technology;
    double figure[8];
    for (size_t i = 0; i < 8; i++) {
        const technology_figure *f = tech.find("dram_controller", dram_device_figures[i]);
        if (!f) return; // no device currents: its events stay unpriced
        figure[i] = f->value;
    }
    simtx_dram_currents currents{figure[0], figure[1], figure[2], figure[3], figure[4], figure[5], figure[6]};
    simtx_dram_times times{static_cast<double>(net_.clock_of(inst).period_ps) / 1000, parameter_number(inst, "tRAS"),
                           parameter_number(inst, "tRP"), parameter_number(inst, "tRFC"),
                           parameter_number(inst, "burst_length") / parameter_number(inst, "transfers_per_clock")};
    double devices = std::max(1.0, parameter_number(inst, "bus_bytes") * 8 / figure[7]);
    simtx_dram_energies e;
    simtx_dram_energies_derive(&currents, &times, devices, &e);
    const double per_event[] = {e.act_pj, e.pre_pj, e.rd_pj, e.wr_pj, e.ref_pj, e.copy_act_pj, e.transfer_pj, e.active_cycle_pj};
    for (priced_event &p : events_) {
        if (p.instance != index) continue;
        for (size_t i = 0; i < 8; i++)
            if (p.event == dram_device_events[i]) {
                p.pj = per_event[i];
                p.basis = "derived";
            }
    }
    static_w_[index] += e.precharged_w;
}

std::vector<uint64_t> energy_report::counts() const
{
    std::vector<uint64_t> c;
    c.reserve(events_.size());
    for (const priced_event &e : events_) c.push_back(*e.count);
    return c;
}

void energy_report::begin_launch(const std::string &kernel, uint64_t now_ps)
{
    if (net_.technology.declared()) launches_.push_back({kernel, now_ps, counts()});
}

energy_report::totals energy_report::between(const launch *from, const std::vector<uint64_t> &to_counts, uint64_t to_ps) const
{
    totals t;
    t.time_ps = to_ps - (from ? from->start_ps : 0);
    for (size_t i = 0; i < events_.size(); i++)
        t.event_pj.push_back(simtx_energy_dynamic_pj(to_counts[i] - (from ? from->counts[i] : 0), events_[i].pj));
    for (double w : static_w_) t.static_pj.push_back(simtx_energy_static_pj(w, t.time_ps));
    return t;
}

void energy_report::write_text(FILE *out, uint64_t now_ps) const
{
    if (!net_.technology.declared()) {
        std::fprintf(out, "energy: not estimated (the netlist declares no technology; platforms/technology/)\n");
        return;
    }
    std::vector<uint64_t> end = counts();
    totals run = between(nullptr, end, now_ps);
    double total = run.total();
    // By block type, in the netlist's order of first appearance.
    std::vector<std::string> types;
    std::map<std::string, double> dynamic, leakage;
    std::map<std::string, size_t> blocks;
    for (const instance &inst : net_.instances) {
        if (!blocks[inst.info->name]++) types.push_back(inst.info->name);
    }
    for (size_t i = 0; i < events_.size(); i++) dynamic[net_.instances[events_[i].instance].info->name] += run.event_pj[i];
    for (size_t i = 0; i < net_.instances.size(); i++) leakage[net_.instances[i].info->name] += run.static_pj[i];
    std::string techs;
    for (const std::string &n : net_.technology.names) techs += (techs.empty() ? "" : ", ") + n;
    std::fprintf(out, "energy (whole run; technology %s)\n", techs.c_str());
    std::fprintf(out, "  %-20s %6s %12s %12s %12s %7s %10s\n", "block type", "blocks", "dynamic", "static", "total", "share", "avg power");
    for (const std::string &type : types) {
        double sum = dynamic[type] + leakage[type];
        if (sum == 0) continue;
        std::fprintf(out, "  %-20s %6zu %12s %12s %12s %6.2f%% %8.4g W\n", type.c_str(), blocks[type], energy_text(dynamic[type]).c_str(),
                     energy_text(leakage[type]).c_str(), energy_text(sum).c_str(), total > 0 ? 100 * sum / total : 0.0,
                     simtx_energy_average_w(sum, run.time_ps));
    }
    double seconds = static_cast<double>(run.time_ps) * 1e-12;
    std::fprintf(out, "  %-20s %6s %12s %12s %12s %7s %8.4g W\n", "total", "", "", "", energy_text(total).c_str(), "",
                 simtx_energy_average_w(total, run.time_ps));
    std::fprintf(out, "  energy-delay product %.4g J*s\n", total * 1e-12 * seconds);
    size_t unpriced = 0;
    for (const priced_event &e : events_) unpriced += e.basis == "none" && *e.count;
    if (unpriced)
        std::fprintf(out, "  %zu counted events have no figure in the technology (priced at 0; the JSON's energy.unpriced lists them)\n", unpriced);
    if (launches_.empty()) return;
    std::fprintf(out, "energy per kernel launch\n  %-3s %-20s %12s %10s\n", "#", "kernel", "energy", "avg power");
    for (size_t i = 0; i < launches_.size(); i++) {
        bool last = i + 1 == launches_.size();
        totals t = between(&launches_[i], last ? end : launches_[i + 1].counts, last ? now_ps : launches_[i + 1].start_ps);
        std::fprintf(out, "  %-3zu %-20s %12s %8.4g W\n", i, launches_[i].kernel.c_str(), energy_text(t.total()).c_str(),
                     simtx_energy_average_w(t.total(), t.time_ps));
    }
}

void energy_report::write_types_json(FILE *out, const totals &t, int indent) const
{
    std::vector<std::string> types;
    std::map<std::string, double> dynamic, leakage;
    for (const instance &inst : net_.instances)
        if (std::find(types.begin(), types.end(), inst.info->name) == types.end()) types.push_back(inst.info->name);
    for (size_t i = 0; i < events_.size(); i++) dynamic[net_.instances[events_[i].instance].info->name] += t.event_pj[i];
    for (size_t i = 0; i < net_.instances.size(); i++) leakage[net_.instances[i].info->name] += t.static_pj[i];
    for (size_t i = 0; i < types.size(); i++) {
        const std::string &type = types[i];
        std::fprintf(out, "%s%*s\"%s\": {\"dynamic\": ", i ? ",\n" : "", indent, "", type.c_str());
        write_quantity(out, dynamic[type], "pJ");
        std::fputs(", \"static\": ", out);
        write_quantity(out, leakage[type], "pJ");
        std::fputs(", \"total\": ", out);
        write_quantity(out, dynamic[type] + leakage[type], "pJ");
        std::fputs(", \"average_power\": ", out);
        write_quantity(out, simtx_energy_average_w(dynamic[type] + leakage[type], t.time_ps), "W");
        std::fputc('}', out);
    }
    std::fputc('\n', out);
}

void energy_report::write_json(FILE *out, uint64_t now_ps) const
{
    if (!net_.technology.declared()) {
        std::fputs("{\"estimated\": false, \"reason\": \"the netlist declares no technology (platforms/technology/)\"}", out);
        return;
    }
    std::vector<uint64_t> end = counts();
    totals run = between(nullptr, end, now_ps);
    double seconds = static_cast<double>(run.time_ps) * 1e-12;
    std::fputs("{\n    \"estimated\": true,\n    \"technology\": [", out);
    for (size_t i = 0; i < net_.technology.names.size(); i++)
        std::fprintf(out, "%s%s", i ? ", " : "", json_string(net_.technology.names[i]).c_str());
    std::fputs("],\n    \"total\": ", out);
    write_quantity(out, run.total(), "pJ");
    std::fputs(",\n    \"average_power\": ", out);
    write_quantity(out, simtx_energy_average_w(run.total(), run.time_ps), "W");
    std::fputs(",\n    \"energy_delay_product\": ", out);
    write_quantity(out, run.total() * 1e-12 * seconds, "J*s");
    std::fputs(",\n    \"by_type\": {\n", out);
    write_types_json(out, run, 6);
    std::fputs("    },\n    \"blocks\": {\n", out);
    for (size_t b = 0; b < net_.instances.size(); b++) {
        std::fprintf(out, "%s      \"%s\": {\"type\": \"%s\", \"static\": ", b ? ",\n" : "", net_.instances[b].name.c_str(), net_.instances[b].info->name);
        write_quantity(out, run.static_pj[b], "pJ");
        std::fputs(", \"static_power\": ", out);
        write_quantity(out, static_w_[b], "W");
        std::fputs(", \"events\": {", out);
        bool first = true;
        for (size_t i = 0; i < events_.size(); i++) {
            if (events_[i].instance != b) continue;
            std::fprintf(out, "%s\n        \"%s\": {\"count\": %llu, \"per_event\": ", first ? "" : ",", events_[i].event.c_str(),
                         static_cast<unsigned long long>(end[i]));
            first = false;
            write_quantity(out, events_[i].pj, "pJ");
            std::fputs(", \"energy\": ", out);
            write_quantity(out, run.event_pj[i], "pJ");
            std::fprintf(out, ", \"basis\": \"%s\"}", events_[i].basis.c_str());
        }
        std::fprintf(out, "%s}}", first ? "" : "\n      ");
    }
    std::fputs("\n    },\n    \"launches\": [", out);
    for (size_t i = 0; i < launches_.size(); i++) {
        bool last = i + 1 == launches_.size();
        uint64_t stop = last ? now_ps : launches_[i + 1].start_ps;
        totals t = between(&launches_[i], last ? end : launches_[i + 1].counts, stop);
        std::fprintf(out, "%s\n      {\"index\": %zu, \"kernel\": %s, \"start_ps\": %llu, \"end_ps\": %llu, \"total\": ", i ? "," : "", i,
                     json_string(launches_[i].kernel).c_str(), static_cast<unsigned long long>(launches_[i].start_ps),
                     static_cast<unsigned long long>(stop));
        write_quantity(out, t.total(), "pJ");
        std::fputs(", \"average_power\": ", out);
        write_quantity(out, simtx_energy_average_w(t.total(), t.time_ps), "W");
        std::fputs(",\n       \"by_type\": {\n", out);
        write_types_json(out, t, 8);
        std::fputs("       }}", out);
    }
    std::fprintf(out, "%s],\n    \"unpriced\": [", launches_.empty() ? "" : "\n    ");
    bool first = true;
    for (const priced_event &e : events_)
        if (e.basis == "none") {
            std::fprintf(out, "%s%s", first ? "" : ", ", json_string(net_.instances[e.instance].name + "." + e.event).c_str());
            first = false;
        }
    std::fputs("],\n    \"unused_figures\": [", out);
    for (size_t i = 0; i < unused_figures_.size(); i++) std::fprintf(out, "%s%s", i ? ", " : "", json_string(unused_figures_[i]).c_str());
    // The figures, sorted (a Lua table's order is not stable), with their sources.
    std::vector<const technology_figure *> figures;
    for (const technology_figure &f : net_.technology.figures) figures.push_back(&f);
    std::sort(figures.begin(), figures.end(), [](const technology_figure *a, const technology_figure *b) {
        return a->block_type != b->block_type ? a->block_type < b->block_type : a->name < b->name;
    });
    std::fputs("],\n    \"figures\": {", out);
    for (size_t i = 0; i < figures.size(); i++) {
        const technology_figure &f = *figures[i];
        std::fprintf(out, "%s\n      \"%s.%s\": {\"value\": ", i ? "," : "", f.block_type.c_str(), f.name.c_str());
        write_number(out, f.value);
        std::fprintf(out, ", \"unit\": \"%s\", \"source\": %s, \"note\": %s}", f.unit.c_str(), json_string(f.source).c_str(), json_string(f.note).c_str());
    }
    std::fputs("\n    }\n  }", out);
}

} // namespace simtx
