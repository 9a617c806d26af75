// A platform's technology data: the figures the energy report prices each
// block's energy events with (docs/fidelity.md, Energy). A netlist declares
// them with technology(T), T a table a technology file returns
// (platforms/technology/*.lua):
//
//   { name = "gtx480_40nm", blocks = { l1_cache = {
//       static = { 0.2, "W", "source", "uncertainty" },
//       hit = { 60, "pJ", "source", "uncertainty" }, ... }, ... } }
//
// Each figure is { value, unit, source, note }: where the number comes from
// and a one-line note of how uncertain it is. `static` is the block's
// leakage power (W); the dram_controller's device is given by its currents
// (idd0.., vdd, device_bits) instead of per-command energies. Several calls
// add up; a figure given twice is an error, a technology (by name)
// declared again is ignored (parts sharing a spec each declare it).
#ifndef SIMTX_TECHNOLOGY_HPP
#define SIMTX_TECHNOLOGY_HPP

#include <string>
#include <vector>

struct lua_State;

namespace simtx {

struct technology_figure {
    std::string block_type, name;
    double value = 0; // in the canonical unit: pJ, W, mA, V or bits
    std::string unit; // the canonical unit
    std::string source, note;
    std::string technology; // the name of the file's table that gave it
};

struct technology {
    std::vector<std::string> names; // each technology() call's name, in order
    std::vector<technology_figure> figures;

    bool declared() const { return !names.empty(); }
    const technology_figure *find(const std::string &block_type, const std::string &name) const;
};

// Reads the technology table at index of L's stack into `into`; throws
// std::runtime_error with a message naming the figure (the caller adds
// the netlist line).
void read_technology(lua_State *L, int index, technology &into);

} // namespace simtx

#endif
