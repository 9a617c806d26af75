-- A define the parent gives with a type other than the default's.
clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { synthetic_requests = 200, check_data = true, read_percent = 50 })
include("include/small_memory.lua", { latency = "slow" })({ name = "mem" })
connect("player.memory", "mem.port")
