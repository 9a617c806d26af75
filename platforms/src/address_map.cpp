// The platform address map: which parameters of which blocks are copies of
// the partition count and interleave, and the check that they all agree with
// the netlist's address_map{ partitions = ..., interleave = ... }.
#include <cstring>

#include "netlist.hpp"

namespace simtx {

namespace {

// A block that splits addresses over the memory partitions and the names of
// its two copies of the map. A new block reading the map adds its row here.
struct address_map_user {
    const char *block;
    const char *partitions;
    const char *interleave;
};

const address_map_user users[] = {
    {"crossbar", "partitions", "interleave"},
    {"l2_cache", "partition_count", "partition_interleave"},
    {"dram_controller", "partition_count", "partition_interleave"},
    {"nvm_controller", "partition_count", "partition_interleave"},
    {"commit_unit", "partitions", "interleave"},
    {"tm_unit", "partitions", "interleave"},
    {"tm_traffic", "partitions", "interleave"},
    {"bulk_copy", "partition_count", "partition_interleave"},
    {"version_traffic", "partition_count", "partition_interleave"},
};

std::string parameter_text(const instance &inst, const char *name)
{
    char text[256];
    simtx_param_format(simtx_param_find(inst.info->params, name), inst.params->data(), text, sizeof text);
    return text;
}

void check_copy(const netlist &net, const instance &inst, const char *parameter, const char *fact, int64_t expected)
{
    const simtx_param_spec *spec = simtx_param_find(inst.info->params, parameter);
    if (!spec) throw std::logic_error(std::string("address map: ") + inst.info->name + " has no parameter " + parameter);
    int64_t value = simtx_param_int(spec, inst.params->data());
    if (value == expected) return;
    throw input_error(inst.where.text() + ": block '" + inst.name + "' (" + inst.info->name + "): parameter '" + parameter + "' = " +
                      std::to_string(value) + " disagrees with the platform's address map (" + fact + " = " + std::to_string(expected) +
                      ", declared at " + net.address_map.where.text() + ")");
}

} // namespace

void check_address_map(const netlist &net)
{
    if (!net.address_map.declared) return;
    for (const instance &inst : net.instances)
        for (const address_map_user &user : users) {
            if (std::strcmp(inst.info->name, user.block) != 0) continue;
            // A notify network (mapping = core) routes to cores, not partitions.
            if (!std::strcmp(user.block, "crossbar") && parameter_text(inst, "mapping") == "core") continue;
            // A crossbar routing by address ranges reads neither: its outputs are its
            // connects' ranges (a peer network to one central table, protocols/peer.h).
            if (!std::strcmp(user.block, "crossbar") && parameter_text(inst, "mapping") == "ranges") continue;
            check_copy(net, inst, user.partitions, "partitions", net.address_map.partitions);
            check_copy(net, inst, user.interleave, "interleave", net.address_map.interleave);
        }
}

} // namespace simtx
