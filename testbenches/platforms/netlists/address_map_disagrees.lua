-- An L2 slice whose partition count disagrees with the platform's address map.
clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })
local mem = include("../../../platforms/parts/gpu_memory.lua")({ cores = 1, l2 = { partition_count = 4 }, dram_block = "memory" })
block("player", "trace_player", { clock = "core", synthetic_requests = 100, check_data = true })
connect("player.memory", mem.l1_upstream(0))
