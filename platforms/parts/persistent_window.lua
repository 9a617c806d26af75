-- The persistent window of the kernel ABI (0xa0000000..0xbfffffff,
-- runtime/kernel/kernel.ld) on persistent memory, as a netlist part: in each
-- memory partition a `router` between the L2 slice and its memories sends
-- the window to an `nvm_controller` (prefix .. "nvm" .. p) and every other
-- address to the partition's DRAM, through parts/gpu_memory.lua's
-- before_dram hook. The routers (prefix .. "mem" .. p) run on the L2 clock
-- (router_clock) and add one cycle to every access that leaves the L2.
--
--   local pm = include("parts/persistent_window.lua")({ spec = spec })
--   include("parts/gpu.lua")({ spec = spec, before_dram = pm.before_dram, clocks = pm.clocks })
--
-- Options (an unknown one is an error):
--   spec         the parameter set (default specs/gtx480.lua): its
--                address_map, `nvm` (nvm_controller parameters, the block's
--                AGPM defaults when absent) and clocks.nvm (MHz, 1200 when
--                absent: AGPM Table IV's memory controller clock)
--   base, size   the window (default the kernel ABI's)
--   params       more nvm_controller parameters for every controller
--   clock        the controllers' clock domain ("nvm")
--   router_clock the routers' clock domain ("l2": the L2 slices')
--   prefix       of the instance names
--   before_dram  a hook to chain in front of the router (as gpu_memory.lua's)
-- Returns { before_dram, clocks = { [clock] = MHz } (for parts/gpu.lua's
-- clocks option), names = { nvm = function(p), router = function(p) } }.

local parts = include("options.lua")
local check, merge, chain = parts.check, parts.merge, parts.chain

return function(options)
    options = check("persistent_window", options, {
        spec = true, base = true, size = true, params = true, clock = true, router_clock = true, prefix = true, before_dram = true,
    })
    local spec = options.spec or include("../specs/gtx480.lua")
    local base = options.base or 0xa0000000
    local size = options.size or 0x20000000
    if base < 0 or size <= 0 then
        error("persistent_window: base and size must be a non-negative address and a positive size, got " ..
              tostring(base) .. " and " .. tostring(size), 2)
    end
    local clock_name = options.clock or "nvm"
    local router_clock = options.router_clock or "l2"
    local prefix = options.prefix or ""
    local names = {
        nvm = function(p) return prefix .. "nvm" .. p end,
        router = function(p) return prefix .. "mem" .. p end,
    }
    local partitions = spec.address_map.partitions
    local interleave = spec.address_map.interleave

    local function route(partition, socket)
        local router = names.router(partition)
        -- One message per L2 cycle and link: the router adds a hop, not a
        -- bandwidth limit (a 128-byte line is one flit).
        block(router, "router", { clock = router_clock, inputs = 1, outputs = 2, latency = 1, queue_depth = 8, bytes_per_cycle = 128 })
        connect(socket, router .. ".inputs[0]")
        block(names.nvm(partition), "nvm_controller", merge(spec.nvm or {}, {
            clock = clock_name, partition = partition, partition_count = partitions, partition_interleave = interleave,
        }, options.params or {}))
        connect(router .. ".outputs[1]", names.nvm(partition) .. ".port", { base = base, size = size })
        -- Below the window goes to DRAM; above it (local memory) nothing is routed.
        return router .. ".outputs[0]", { base = 0, size = base }
    end

    return {
        before_dram = chain(options.before_dram, route),
        clocks = { [clock_name] = (spec.clocks and spec.clocks.nvm) or 1200 },
        names = names,
    }
end
