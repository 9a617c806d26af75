-- Warp TM (platforms/parts/tm_lazy.lua) with two more blocks chained into its
-- before_l2 hook (parts/options.lua's chain): pass-through routers standing
-- in for SI-TM's tables sit between each commit unit and its L2 slice, in
-- the order given; a TM workload's oracles must still pass. Defines:
-- bad_range (the first stand-in returns an address range: the chain must
-- refuse it, naming the hook).
local parts = include("../../../platforms/parts/options.lua")
local order = {}
local function stand_in(name, range)
    return function(partition, socket)
        local instance = name .. partition
        block(instance, "router", { clock = "l2", inputs = 1, outputs = 1, latency = 1, interleave = 1 << 40 })
        connect(socket, instance .. ".inputs[0]")
        if partition == 0 then order[#order + 1] = name end
        return instance .. ".outputs[0]", range
    end
end

local bad = define("bad_range", false) and { base = 0, size = 1 << 30 } or nil
local tm = include("../../../platforms/parts/tm_lazy.lua")({
    mode = "warp", before_l2 = parts.chain(stand_in("vit", bad), nil, stand_in("wt")),
})
include("../../../platforms/parts/gpu.lua")(tm.gpu)
assert(order[1] == "vit" and order[2] == "wt" and #order == 2, "the chained hooks ran once each, in order")
