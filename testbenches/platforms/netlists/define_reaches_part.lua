-- A define given by the parent reaches the part's define(): latency = -3 is
-- out of range for the memory the part declares.
clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { synthetic_requests = 200, check_data = true, read_percent = 50 })
local memory = include("include/small_memory.lua", { latency = define("latency", -3) })
memory({ name = "mem" })
connect("player.memory", "mem.port")
