-- A small valid platform the error tests start from.
clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { synthetic_requests = 200, check_data = true, read_percent = 50 })
block("mem", "memory", { latency = 20 })
connect("player.memory", "mem.port")
