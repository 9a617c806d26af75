-- GTX480 with Warp TM and both of EA/PG's early conflict resolutions
-- (HPCA'16 Section 7.4): Early-Abort before the logs are sent and
-- Pause-and-Go at each transactional access, on one set of reference count
-- and conflict address tables (parts/tm_lazy.lua, ea = true, pg = true).
--   simtx run platforms/gtx480_warptm_eapg.lua --workload ht --set workload.n=2048
-- Defines: cores, lanes, scheduler, dram (parts/gpu.lua); tokens, tcd,
-- broken (parts/tm_lazy.lua).
include("parts/gpu.lua")(include("parts/tm_lazy.lua")({ mode = "warp", ea = true, pg = true }).gpu)
