-- Exercises the attachment points of platforms/parts/gpu_memory.lua: a
-- pass-through router (standing in for a commit unit, an AGPM buffer, a
-- write-pending queue...) is inserted after every L1, before every L2 and
-- before every memory, without editing the fragment; data must still check.

clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local inserted = 0
local function stand_in(name, clock)
    return function(index, socket)
        local instance = name .. index
        block(instance, "router", { clock = clock, inputs = 1, outputs = 1, latency = 1, interleave = 1 << 40 })
        connect(socket, instance .. ".inputs[0]")
        inserted = inserted + 1
        return instance .. ".outputs[0]"
    end
end

local cores = 3
local mem = include("../../../platforms/parts/gpu_memory.lua")({
    cores = cores,
    after_l1 = stand_in("l1_buffer", "core"),
    before_l2 = stand_in("commit_unit", "icnt"),
    before_dram = stand_in("wpq", "memory"),
})
assert(inserted == cores + 2 * mem.partitions, "every hook ran once per core or partition")

for i = 0, cores - 1 do
    block("player" .. i, "trace_player", {
        clock = "core", max_outstanding = 16, request_size = 64, synthetic_requests = 1500,
        read_percent = 60, address_base = i * 0x40000, address_range = 0x40000, check_data = true,
    })
    connect("player" .. i .. ".memory", mem.l1_upstream(i))
end
