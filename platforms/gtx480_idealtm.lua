-- GTX480 with ideal TM (upper bound: commit units validate without log-transfer or L2 cost, exact conflict detection) (SI-TM Table 2 parameters; see gtx480_tm.lua).
--   simtx run platforms/gtx480_idealtm.lua --workload ht --set workload.n=2048
include("gtx480_tm.lua")({ mode = "ideal" })
