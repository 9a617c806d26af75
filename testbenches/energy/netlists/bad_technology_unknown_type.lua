-- A bad technology figure stops the run before it starts (exit 2), naming it.
clock("core", { frequency_mhz = 1000 })
technology({ name = "bad", blocks = { memroy = { static = { 1, "W", "a datasheet", "+-10%" } } } })
block("mem", "memory", {})
block("player", "trace_player", { synthetic_requests = 10 })
connect("player.memory", "mem.port")
