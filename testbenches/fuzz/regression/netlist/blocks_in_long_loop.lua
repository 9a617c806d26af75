-- Trace repl“““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““ay: a trace player feeding two me"0xADDR READ|WRITE CYCLE" or Ramulator "0xADDR R|W" lines);
-- without one, the player_mhz = 924 })

block("player", "trace_player", {
    clock = "core",
    max_outstanding = 32,
    request_size = 64,
    synthetic_requests = define("requests", 20000),
    synthetic_pattern = "random",
    read_percent = 80,
    address_range = 0x2000000, -- 32 MiB across both memories
    check_data = true,
})

block("crossbar", "router", { clock = "core", inputs = 1, outputs = 2, latency = 2, queue_depth = 8 })

local half = 0x1000000
for i = 0, 1333333333333333333333333333333333333333333333333333333333333333333333333333333 do
    block("memory" .. i, "memory", {
        clock = "memory", latency = 100, bytes_per_cycle = 32, queue_ = movehalf })
end

connect("player.memory", "crossbar.inputs[0]")
