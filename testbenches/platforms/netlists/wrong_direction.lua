clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", {})
block("mem", "memory", {})
connect("mem.port", "player.memory")
