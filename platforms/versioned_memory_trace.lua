-- SI-TM's versioned memory in the GTX480 memory system, driven by
-- version_traffic agents standing in for the TM side: agent_i -> L1 (which
-- passes the version.h ops, a family crossing the core path, and does not
-- cache global data, as under parts/tm_lazy.lua: a line of one version must
-- not serve a snapshot read of another) -> crossbar -> 6 x (vit ->
-- bulk_copy -> l2 slice -> dram_controller), parts/versioned_memory.lua on
-- parts/gpu_memory.lua. Agent 0 writes and closes a version each round, the
-- others read their snapshots and check that no read returns a newer
-- version's value; every version is made by RowClone FPM copies.
--   simtx run platforms/versioned_memory_trace.lua --check-protocol --stats build/vm.json
-- Defines: agents (2), rounds (8), reads (32), writes (32), versions (8),
-- timestamp_bits (32).

clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local spec = include("specs/gtx480.lua")
local agents = define("agents", 2)
-- One region of 96 KB (whole rows: 4 per partition), at row 64 (the first
-- of subarray 1, so its 8 versions share the subarray), relocated far away.
local region = { 0x1800000, 0x18000, 0x4800000 }
local vm = include("parts/versioned_memory.lua")({ spec = spec, regions = { region } })

for i = 0, agents - 1 do
    block("agent" .. i, "version_traffic", {
        clock = "core",
        closer = i == 0,
        rounds = define("rounds", 8),
        reads = define("reads", 32),
        writes = i == 0 and define("writes", 32) or 0,
        region_base = region[1],
        region_size = region[2],
        control_address = 0x30000000,
        partition_count = spec.address_map.partitions,
        partition_interleave = spec.address_map.interleave,
        start_cycle = 1500 * i, -- readers start while the first copies run
    })
end
local mem = include("parts/gpu_memory.lua")({
    cores = agents, spec = spec, l1 = { cache_global = false }, before_l2 = vm.before_l2, l2 = vm.l2,
})
for i = 0, agents - 1 do connect("agent" .. i .. ".memory", mem.l1_upstream(i)) end
