-- GTX480 with KILO TM: per-transaction log messages, no intra-warp conflict detection (SI-TM Table 2 parameters; see gtx480_tm.lua).
--   simtx run platforms/gtx480_kilotm.lua --workload ht --set workload.n=2048
include("gtx480_tm.lua")({ mode = "kilo" })
