-- GTX480 with Warp TM and EA/PG's Pause-and-Go (HPCA'16 Section 4.4): the
-- commit units keep reference count tables and broadcast their changes over
-- a notify crossbar to every core's conflict address table; a lane whose
-- transactional load or store hits it pauses until the warp's running
-- attempt ends, then resumes where it stopped (parts/tm_lazy.lua, pg = true;
-- gtx480_warptm.lua --define pg=true is the same platform).
--   simtx run platforms/gtx480_warptm_pg.lua --workload ht --set workload.n=2048
-- Defines: cores, lanes, scheduler, dram (parts/gpu.lua); tokens, tcd,
-- broken (parts/tm_lazy.lua).
include("parts/gpu.lua")(include("parts/tm_lazy.lua")({ mode = "warp", pg = true }).gpu)
