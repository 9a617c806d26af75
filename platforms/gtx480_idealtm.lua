-- GTX480 with ideal TM, the upper bound: commit units validate without
-- log-transfer or L2 cost, exact conflict detection (parts/tm_lazy.lua on
-- parts/gpu.lua, SI-TM Table 2 parameters: specs/gtx480.lua).
--   simtx run platforms/gtx480_idealtm.lua --workload ht --set workload.n=2048
-- Defines: cores, lanes, scheduler, dram (parts/gpu.lua); tokens, tcd,
-- broken (parts/tm_lazy.lua).
include("parts/gpu.lua")(include("parts/tm_lazy.lua")({ mode = "ideal" }).gpu)
