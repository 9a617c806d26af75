-- GTX480 with Warp TM (SI-TM Table 2 parameters; see gtx480_tm.lua).
--   simtx run platforms/gtx480_warptm.lua --workload ht --set workload.n=2048
include("gtx480_tm.lua")({ mode = "warp" })
