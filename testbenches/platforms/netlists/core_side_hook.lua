-- The core_side hook of parts/gpu.lua: a pass-through router (standing in
-- for a TM unit) between every core and its ldst_unit, inserted
-- without editing the part; the workload's oracle must still pass.
local inserted = 0
local gpu = include("../../../platforms/parts/gpu.lua")({
    cores = 2, l1 = { cache_global = false },
    core_side = function(core, socket)
        local name = "ldst" .. core
        block(name, "router", { clock = "core", inputs = 1, outputs = 1, latency = 1, interleave = 1 << 40 })
        connect(socket, name .. ".inputs[0]")
        inserted = inserted + 1
        return name .. ".outputs[0]"
    end,
})
assert(inserted == gpu.cores, "the hook ran once per core")
