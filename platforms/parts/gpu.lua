-- A GPU as a netlist part: its clock domains, SIMT cores (each with its
-- LD/ST unit for global memory, an `ldst_unit` block named sm<i>_ldst, and
-- its shared memory, an `lds` block named sm<i>_lds) and the memory side
-- of parts/gpu_memory.lua (L1s, crossbar, memory partitions of an L2 slice
-- and a DRAM channel), all from one parameter set (`spec`, default
-- specs/gtx480.lua).
--
--   include("parts/gpu.lua")()                       -- platforms/gtx480.lua
--   include("parts/gpu.lua")({ spec = my_spec, before_l2 = ... })
--
-- Options (an unknown one is an error):
--   spec                the parameter set (a table like specs/gtx480.lua's)
--   cores, lanes,       the define() of the same name when not given
--   scheduler, memory,  (defaults: the spec's, memory "caches", dram
--   dram                "dram_controller")
--   core                more simt_core parameters, for every core
--   lds                 more lds parameters, for every core's lds
--   ldst                more ldst_unit parameters, for every core's ldst_unit
--   core_side(core, socket)   hook between a core and its ldst_unit (where a
--                       tm_unit will go): receives the core's initiator
--                       socket ("sm3.ldst"), may insert blocks, returns the
--                       initiator socket that reaches the ldst_unit; the
--                       ldst_unit's memory socket reaches the L1
--   before_l1(core, socket)   hook between a core's ldst_unit (after
--                       coalescing) and its L1 (where AGPM's path selector
--                       goes): receives the ldst_unit's memory socket
--                       ("sm3_ldst.memory"), returns the initiator socket
--                       that reaches the L1
--   after_l1, before_l2, before_dram, l1, l2, crossbar: as parts/gpu_memory.lua
--   clocks              more clock domains to declare, { name = MHz }
--
-- memory = "simple" replaces the cache hierarchy by a router interleaving
-- the address map's chunks over one fixed-latency `memory` per partition.
-- dram = "memory" ends each partition of the cache hierarchy with that
-- fixed-latency stand-in instead of a dram_controller (spec.simple_dram:
-- latency, bytes_per_cycle, and queue_depth, 16 when absent).
-- Returns { spec, cores, names = { core = function(i) } , memory = the
-- gpu_memory result (caches only) }.

local parts = include("options.lua")
local check, merge, passthrough = parts.check, parts.merge, parts.passthrough

return function(options)
    options = check("gpu", options, {
        spec = true, cores = true, lanes = true, scheduler = true, memory = true, dram = true, core = true, lds = true, ldst = true, core_side = true, before_l1 = true,
        after_l1 = true, before_l2 = true, before_dram = true, l1 = true, l2 = true, crossbar = true, clocks = true,
    })
    local spec = options.spec or include("../specs/gtx480.lua")
    local cores = options.cores or define("cores", spec.cores)
    local lanes = options.lanes or define("lanes", spec.core.lanes)
    local scheduler = options.scheduler or define("scheduler", spec.core.scheduler)
    local core_side = options.core_side or passthrough
    local before_l1 = options.before_l1 or passthrough
    local partitions = spec.address_map.partitions
    local function core_name(i) return "sm" .. i end

    -- Clock domains, in a fixed order (the statistics list them so).
    for _, name in ipairs({ "core", "icnt", "l2" }) do clock(name, { frequency_mhz = spec.clocks[name] }) end
    local extra = {}
    for name in pairs(options.clocks or {}) do extra[#extra + 1] = name end
    table.sort(extra)
    for _, name in ipairs(extra) do clock(name, { frequency_mhz = options.clocks[name] }) end
    clock("memory", { frequency_mhz = spec.clocks.memory })

    local core_params = merge(spec.core, { lanes = lanes, scheduler = scheduler }, options.core or {})
    local lds_params = merge(spec.lds or {}, options.lds or {})
    local ldst_params = merge(spec.ldst or {}, options.ldst or {})
    if (core_params.shared_memory or 48 * 1024) > (lds_params.size or 48 * 1024) then
        error("gpu: the cores' shared_memory (" .. tostring(core_params.shared_memory or 48 * 1024) ..
              ") exceeds the lds's size (" .. tostring(lds_params.size or 48 * 1024) .. ")", 2)
    end
    local function declare_core(i)
        block(core_name(i), "simt_core", merge(core_params, { clock = "core", core_id = i }))
        block(core_name(i) .. "_lds", "lds", merge(lds_params, { clock = "core" }))
        connect(core_name(i) .. ".lds", core_name(i) .. "_lds.core")
        block(core_name(i) .. "_ldst", "ldst_unit", merge(ldst_params, { clock = "core" }))
    end
    for i = 0, cores - 1 do declare_core(i) end

    local result = { spec = spec, cores = cores, names = { core = core_name } }
    local target -- the socket core i's memory path ends at
    if (options.memory or define("memory", "caches")) == "caches" then
        local dram = options.dram or define("dram", "dram_controller")
        local simple = spec.simple_dram
        result.memory = include("gpu_memory.lua")({
            spec = spec, cores = cores, after_l1 = options.after_l1, before_l2 = options.before_l2,
            before_dram = options.before_dram, l1 = options.l1, l2 = options.l2, crossbar = options.crossbar,
            dram_block = dram,
            dram_params = dram == "memory" and function(_)
                return { latency = simple.latency, bytes_per_cycle = simple.bytes_per_cycle, queue_depth = simple.queue_depth or 16, base = 0, size = 0xc0000000 }
            end or nil,
        })
        target = result.memory.l1_upstream
    else
        address_map(spec.address_map)
        local simple = spec.simple_dram
        block("crossbar", "router", { clock = "icnt", inputs = cores, outputs = partitions, latency = spec.crossbar.latency,
                                      queue_depth = 8, interleave = spec.address_map.interleave })
        for p = 0, partitions - 1 do
            block("dram" .. p, "memory", { clock = "memory", latency = simple.latency, bytes_per_cycle = simple.bytes_per_cycle,
                                           queue_depth = 16, base = 0, size = 0xc0000000 })
            connect("crossbar.outputs[" .. p .. "]", "dram" .. p .. ".port")
        end
        target = function(i) return "crossbar.inputs[" .. i .. "]" end
    end
    for i = 0, cores - 1 do
        connect(core_side(i, core_name(i) .. ".ldst"), core_name(i) .. "_ldst.core")
        connect(before_l1(i, core_name(i) .. "_ldst.memory"), target(i))
    end
    return result
end
