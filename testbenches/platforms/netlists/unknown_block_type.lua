clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", {})

block("mem", "memroy", { latency = 20 })
