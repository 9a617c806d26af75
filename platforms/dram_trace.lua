-- One GDDR5 channel (dram_controller) fed straight by a trace player.
--   simtx run platforms/dram_trace.lua --set player.trace=FILE
-- replays a DRAMsim3 ("0xADDR READ|WRITE CYCLE") or Ramulator ("0xADDR R|W")
-- trace; without one the player makes synthetic traffic:
--   --set player.synthetic_pattern=stream --set player.read_percent=80
--   --set player.request_size=128
-- --define copies=N adds a row_copy_initiator issuing N RowClone copies
-- (every copy_period cycles) next to the traffic, through a router.
-- The player runs on the DRAM clock so it can offer one request per cycle.

clock("dram", { frequency_mhz = 924 })
technology(include("technology/gtx480_40nm.lua")) -- the energy figures (docs/fidelity.md, Energy)

block("player", "trace_player", {
    clock = "dram",
    max_outstanding = 64,
    request_size = 64,
    synthetic_requests = define("requests", 20000),
    synthetic_pattern = "random",
    read_percent = 100,
    address_range = 0x8000000, -- the whole 1 Gb device
    check_data = true,
})

block("dram", "dram_controller", { clock = "dram", check_timing = define("check_timing", false) })

local copies = define("copies", 0)
if copies > 0 then
    block("copier", "row_copy_initiator", {
        clock = "dram",
        copies = copies,
        start_cycle = 200,
        period = define("copy_period", 400),
        -- Rows 0 and 1 of bank 0 share subarray 0: Fast Parallel Mode.
        source_address = define("copy_source", 0x0),
        target_address = define("copy_target", 0x8000),
        stride = define("copy_stride", 0x10000), -- two rows on: the next pair, same subarray
    })
    block("mux", "router", { clock = "dram", inputs = 2, outputs = 1, latency = 1, queue_depth = 8, bytes_per_cycle = 128 })
    connect("player.memory", "mux.inputs[0]")
    connect("copier.memory", "mux.inputs[1]")
    connect("mux.outputs[0]", "dram.port", { base = 0, size = 0x8000000 })
else
    connect("player.memory", "dram.port")
end
