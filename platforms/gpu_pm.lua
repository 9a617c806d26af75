-- The AGPM paper's GPU with persistent memory (specs/agpm.lua: Table IV):
-- 20 SIMT cores of 64 warps x 32 lanes with 4 GTO schedulers, 24 KB L1Ds,
-- a crossbar, 16 L2 slices of 128 KB; behind each slice a router sends the
-- persistent window (0xa0000000..) to an nvm_controller (160/480 ns media,
-- an ADR write-pending queue) and the rest to a 160 ns DRAM stand-in
-- (parts/persistent_window.lua).
--   simtx run platforms/gpu_pm.lua --workload vector_add --set workload.persistent=all
-- Defines (parts/gpu.lua): cores, lanes, scheduler.

local spec = include("specs/agpm.lua")
local pm = include("parts/persistent_window.lua")({ spec = spec })
include("parts/gpu.lua")({ spec = spec, dram = "memory", before_dram = pm.before_dram, clocks = pm.clocks })
