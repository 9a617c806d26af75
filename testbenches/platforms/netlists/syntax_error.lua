clock("core", { frequency_mhz = 1000 })
block("player", "trace_player", { max_outstanding = 4 )
