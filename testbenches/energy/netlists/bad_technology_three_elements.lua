-- A bad technology figure stops the run before it starts (exit 2), naming it.
clock("core", { frequency_mhz = 1000 })
technology({ name = "bad", blocks = { memory = { read_byte = { 1, "pJ", "a datasheet" } } } })
block("mem", "memory", {})
block("player", "trace_player", { synthetic_requests = 10 })
connect("player.memory", "mem.port")
