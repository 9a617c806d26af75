-- GTX480 with Warp TM and EA/PG's Early-Abort (HPCA'16 Section 4.3): the
-- commit units keep reference count tables, broadcast their changes over a
-- notify crossbar to every core's conflict address table, and each core
-- aborts lanes whose logs hit it before sending them (parts/tm_lazy.lua,
-- ea = true; gtx480_warptm.lua --define ea=true is the same platform).
--   simtx run platforms/gtx480_warptm_ea.lua --workload ht --set workload.n=2048
-- Defines: cores, lanes, scheduler, dram (parts/gpu.lua); tokens, tcd,
-- broken (parts/tm_lazy.lua).
include("parts/gpu.lua")(include("parts/tm_lazy.lua")({ mode = "warp", ea = true }).gpu)
