-- Trace replay: a trace player feeding two memories through a router.
-- The default job until a GPU platform exists. Replay a file with
--   simtx run platforms/trace_replay.lua --set player.trace=FILE
-- (DRAMsim3 "0xADDR READ|WRITE CYCLE" or Ramulator "0xADDR R|W" lines);
-- without one, the player makes synthetic traffic.

clock("core", { frequency_mhz = 1400 })
clock("memory", { frequency_mhz = 924 })
technology(include("technology/gtx480_40nm.lua")) -- the energy figures (docs/fidelity.md, Energy)

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
for i = 0, 1 do
    block("memory" .. i, "memory", {
        clock = "memory", latency = 100, bytes_per_cycle = 32, queue_depth = 16,
        base = i * half, size = half,
    })
    connect("crossbar.outputs[" .. i .. "]", "memory" .. i .. ".port", { base = i * half, size = half })
end

connect("player.memory", "crossbar.inputs[0]")
