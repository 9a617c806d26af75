-- Commit units (KILO TM / Warp TM) for the GTX480 memory side: one
-- `commit_unit` per memory partition, between the crossbar and the L2 slice,
-- through gtx480_memory.lua's before_l2 hook. Commit units run on their own
-- clock domain (700 MHz in the papers: SI-TM Table 2), which the includer
-- declares. The unit of partition 0 also hands out commit IDs (the
-- allocator, at address 0). See models/tm/commit_unit/README.md and
-- models/protocols/tm_lazy.h.
--
--   clock("commit", { frequency_mhz = 700 })
--   local tm_memory = include("tm_memory.lua")
--   local tm = tm_memory({ partitions = 6, interleave = 256 })      -- KILO TM / Warp TM
--   -- gtx480_idealtm: tm_memory({ ideal = true })
--   local mem = include("gtx480_memory.lua")({
--       cores = 15, l1 = tm.l1_params, before_l2 = tm.before_l2,
--   })
--
-- Options: partitions and interleave (must match gtx480_memory's; defaults
-- 6 and 256), clock ("commit"), prefix (instance names: prefix .. "cu" .. p),
-- ideal (the ideal TM of gtx480_idealtm), params (more commit_unit
-- parameters for every unit, e.g. { lwh_entries = 1024 }). The returned
-- table has before_l2, names.cu(p), and l1_params: the L1 settings TM needs
-- (global data not cached; pending_entries for the TM requests a core keeps
-- outstanding, see "held requests" in tm_lazy.h).

return function(options)
    options = options or {}
    local partitions = options.partitions or 6
    local interleave = options.interleave or 256
    local clock_name = options.clock or "commit"
    local prefix = options.prefix or ""
    local function name(p) return prefix .. "cu" .. p end

    local function before_l2(partition, socket)
        local params = {
            clock = clock_name, partition = partition, partitions = partitions, interleave = interleave,
            cid_allocator = partition == 0, validation = options.ideal and "ideal" or "values",
        }
        for k, v in pairs(options.params or {}) do params[k] = v end
        block(name(partition), "commit_unit", params)
        connect(socket, name(partition) .. ".upstream")
        return name(partition) .. ".downstream"
    end

    return {
        before_l2 = before_l2, names = { cu = name }, partitions = partitions,
        l1_params = { cache_global = false, pending_entries = options.l1_pending_entries or 512 },
    }
end
