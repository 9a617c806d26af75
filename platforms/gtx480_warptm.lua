-- GTX480 with Warp TM (parts/tm_lazy.lua on parts/gpu.lua, SI-TM Table 2
-- parameters: specs/gtx480.lua, with its 6 x 256 KB L2 for TM).
--   simtx run platforms/gtx480_warptm.lua --workload ht --set workload.n=2048
-- Defines: cores, lanes, scheduler, dram (parts/gpu.lua); tokens, tcd,
-- broken (parts/tm_lazy.lua).
include("parts/gpu.lua")(include("parts/tm_lazy.lua")({ mode = "warp" }).gpu)
