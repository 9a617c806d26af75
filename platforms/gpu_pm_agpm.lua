-- The AGPM paper's GPU with persistent memory (platforms/gpu_pm.lua:
-- specs/agpm.lua's Table IV, an nvm_controller per L2 slice for the
-- persistent window) with AGPM's hardware (parts/agpm.lua): a path selector
-- per SM between its LD/ST unit and its L1, the AGPM tracker on the L1 and
-- L2 monitors. Log updates (gpu_persist_log: a durable kernel with
-- workload.persist=adaptive) take the path the policy chooses:
--   simtx run platforms/gpu_pm_agpm.lua --workload pm_stream --set workload.persist=adaptive --define path=agpm
-- Defines: path = agpm | nt | clwb | themis | pmem_spec | bucl (default
-- agpm); parts/gpu.lua's cores, lanes, scheduler.

local spec = include("specs/agpm.lua")
local pm = include("parts/persistent_window.lua")({ spec = spec })
local agpm = include("parts/agpm.lua")({ spec = spec })
local gpu = include("parts/gpu.lua")({ spec = spec, dram = "memory", before_dram = pm.before_dram, clocks = pm.clocks,
                                       before_l1 = agpm.before_l1, crossbar = agpm.crossbar })
agpm.bind(gpu)
