-- SI-TM's snapshot path without version boundaries yet: Warp TM
-- (platforms/parts/tm_lazy.lua, temporal conflict detection off: the VIT
-- answers a snapshot read with its handle, not the commit units' read
-- stamp) with parts/versioned_memory.lua chained after the commit units,
-- and every tm_unit running the `snapshot` filter (set on the command
-- line: --set 'sm*_tm.filters=snapshot'). Every TX_BEGIN acquires a
-- snapshot at each partition's slice through ldst_unit, L1 and crossbar,
-- every commit or rollback releases it; the region lies outside the
-- workload's data, so no CLOSE is needed for the oracles to pass.
local parts = include("../../../platforms/parts/options.lua")
local vm = include("../../../platforms/parts/versioned_memory.lua")({ regions = { { 0x1800000, 0x18000, 0x4800000 } } })
local tm = include("../../../platforms/parts/tm_lazy.lua")({ mode = "warp", tcd = false, before_l2 = parts.chain(vm.before_l2) })
tm.gpu.l2 = parts.merge(tm.gpu.l2, vm.l2)
include("../../../platforms/parts/gpu.lua")(tm.gpu)
