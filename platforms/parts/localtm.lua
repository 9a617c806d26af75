-- GPU-LocalTM (../shared/papers/gpu-localtm.txt) as a netlist part: every
-- core's lds runs the `localtm` policy (models/core/lds/lds_localtm.c:
-- Bloom filters, shadow memory, conflict masks, serialisation), the cores
-- send their tx.h events to the lds (simt_core tm_events = lds: shared
-- lanes inside a transaction are transactional, global lanes plain) and
-- each lds's tx_events socket reaches its core's (TX_ABORT, for the
-- wavefronts a work-group serialisation aborts). No tm_unit, no commit
-- units: the transaction never leaves the compute unit.
--
--   include("parts/gpu.lua")(include("parts/localtm.lua")({ perfect = false }).gpu)
--
-- Options (an unknown one is an error):
--   spec      the parameter set (default specs/southern_islands.lua)
--   perfect   Perfect GPU-LocalTM: the same behaviour, no added cycle
--             (default: define("perfect", false))
--   broken    TEST ONLY: filters that ignore other wavefronts, so the
--             oracles must fail (default: define("broken", false))
--   lds       more lds parameters for every core's lds
--
-- Returns { gpu = the options of parts/gpu.lua (spec, core, lds, l1,
-- core_side: add more before passing it) }.

local parts = include("options.lua")
local check, merge = parts.check, parts.merge

return function(options)
    options = check("localtm", options or {}, { spec = true, perfect = true, broken = true, lds = true })
    local spec = options.spec or include("../specs/southern_islands.lua")
    local perfect = options.perfect
    if perfect == nil then perfect = define("perfect", false) end
    local broken = options.broken
    if broken == nil then broken = define("broken", false) end
    return {
        gpu = {
            spec = spec,
            core = { tm_events = "lds", tm_warp_tokens = spec.tm.warp_tokens },
            lds = merge({ policy = "localtm", perfect = perfect, broken_filters = broken, max_wavefronts = spec.core.warps },
                        options.lds or {}),
            -- Global data is not cached in L1 (as in the TM configurations),
            -- so the non-coherent L1s hold no stale global data between CTAs.
            l1 = { cache_global = false },
            -- The hook runs once per core after its blocks are declared: the
            -- lds's TX_ABORTs go to its core; the ldst path stays direct.
            core_side = function(i, socket)
                connect("sm" .. i .. "_lds.tx_events", "sm" .. i .. ".tx_events")
                return socket
            end,
        },
    }
end
