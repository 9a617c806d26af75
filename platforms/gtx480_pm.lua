-- The GTX480-like GPU of gtx480.lua with persistent memory: in every memory
-- partition the persistent window (0xa0000000..) goes to an nvm_controller
-- (AGPM Table IV media timing, an ADR write-pending queue) and every other
-- address to the partition's GDDR5 dram_controller
-- (parts/persistent_window.lua).
--   simtx run platforms/gtx480_pm.lua --workload vector_add --set workload.n=65536 --set workload.persistent=all
-- Defines: those of gtx480.lua (parts/gpu.lua).

local pm = include("parts/persistent_window.lua")()
include("parts/gpu.lua")({ l1 = { cache_global = false }, before_dram = pm.before_dram, clocks = pm.clocks })
