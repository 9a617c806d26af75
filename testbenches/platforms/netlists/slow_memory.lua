-- A memory so slow that --max-time stops the run before the work is done.
clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { synthetic_requests = 10 })
block("mem", "memory", { latency = 1000000 })
connect("player.memory", "mem.port")
