-- TEST ONLY: a Warp TM GPU (as platforms/gtx480_warptm.lua) that lost its
-- before_l2 hook: tm_units sit between the cores and their ldst_units, but
-- no commit unit is on the way to the L2 slices; one commit_unit is
-- declared off every path, between an idle trace player and a memory, so
-- the workload runner's check (a TM workload needs commit_unit and tm_unit
-- blocks) passes. The first TM message must end the run at once, naming
-- the block that cannot serve it.
local gpu = include("../../../platforms/parts/tm_lazy.lua")({ mode = "warp" }).gpu
gpu.before_l2 = nil
include("../../../platforms/parts/gpu.lua")(gpu)

block("idle_player", "trace_player", { clock = "core", synthetic_requests = 0 })
block("idle_cu", "commit_unit", { clock = "commit", partitions = 6, interleave = 256 })
block("idle_memory", "memory", { clock = "memory" })
connect("idle_player.memory", "idle_cu.upstream")
connect("idle_cu.downstream", "idle_memory.port")
