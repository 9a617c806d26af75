-- A define the parent gives that no define() reads: a misspelling.
clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { synthetic_requests = 200, check_data = true, read_percent = 50 })
include("include/small_memory.lua", { latancy = 30 })({ name = "mem" })
connect("player.memory", "mem.port")
