-- AGPM (adaptive log-path selection for durable GPU transactions) as a
-- netlist part: a path selector per SM between its ldst_unit and its L1
-- (`agpm_selector` sm<i>_path, through parts/gpu.lua's before_l1 hook) and
-- one `agpm_tracker` ("agpm") holding the L1- and L2-level AGPM buffers,
-- bound to the sampled core's L1 monitor and every L2 slice's monitor
-- (models/protocols/monitor.h), to each selector's reports and decision
-- sockets (models/protocols/agpm.h).
--
--   local agpm = include("parts/agpm.lua")({ spec = spec })
--   local gpu = include("parts/gpu.lua")({ spec = spec, before_l1 = agpm.before_l1, ... })
--   agpm.bind(gpu)
--
-- Options (an unknown one is an error):
--   spec      the parameter set (specs/agpm.lua): its cores, address_map
--             and `agpm` table ({ tracker = ..., selector = ... })
--   policy    the selectors' policy: nt | clwb | agpm | themis | pmem_spec |
--             bucl (default: define("path", "agpm"))
--   tracker, selector   more parameters over the spec's
--   cores     (default define("cores", spec.cores))
-- The tracker is there under every policy (its statistics give Table II's
-- variables and the reason for any run); only agpm and themis follow its
-- decisions. Returns { before_l1, crossbar, bind(gpu) (after parts/gpu.lua),
-- names }: `crossbar` (parameters for parts/gpu.lua's crossbar option) splits
-- the crossbar's flits by the log flags (Figure 5's bytes L1 -> L2 and
-- L2 -> L1 by path: pm_log with non_temporal, pm_log alone the temporal
-- path and its cleans, none the data).

local parts = include("options.lua")
local check, merge = parts.check, parts.merge

local policies = { nt = true, clwb = true, agpm = true, themis = true, pmem_spec = true, bucl = true }

return function(options)
    options = check("agpm", options, { spec = true, policy = true, tracker = true, selector = true, cores = true })
    local spec = options.spec or include("../specs/agpm.lua")
    local policy = options.policy or define("path", "agpm")
    if not policies[policy] then
        error("agpm: path must be nt, clwb, agpm, themis, pmem_spec or bucl, got '" .. tostring(policy) .. "'", 2)
    end
    local cores = options.cores or define("cores", spec.cores)
    local partitions = spec.address_map.partitions
    local settings = spec.agpm or {}
    local names = { tracker = "agpm", selector = function(i) return "sm" .. i .. "_path" end }
    local tracker_params = merge(settings.tracker or {}, { clock = "core", cores = cores, partitions = partitions },
                                 options.tracker or {})
    block(names.tracker, "agpm_tracker", tracker_params)

    local function before_l1(i, socket)
        local name = names.selector(i)
        block(name, "agpm_selector", merge(settings.selector or {}, { clock = "core", core = i, policy = policy }, options.selector or {}))
        connect(socket, name .. ".upstream")
        connect(name .. ".report", names.tracker .. ".reports[" .. i .. "]")
        connect(names.tracker .. ".decisions[" .. i .. "]", name .. ".decision")
        return name .. ".downstream"
    end

    local function bind(gpu)
        local memory = gpu.memory
        if not memory then error("agpm: the GPU has no cache hierarchy (memory = \"caches\" is needed)", 2) end
        connect(memory.names.l1(tracker_params.sampled_core or 0) .. ".monitor", names.tracker .. ".l1")
        for p = 0, partitions - 1 do connect(memory.names.l2(p) .. ".monitor", names.tracker .. ".l2[" .. p .. "]") end
    end

    return { before_l1 = before_l1, crossbar = { count_flags = "pm_log,non_temporal" }, bind = bind, names = names, policy = policy }
end
