-- One SIMT core on a router and a simple memory: the smallest GPU platform,
-- for kernel bring-up and tests.
--   simtx run platforms/simt_1core.lua --workload vector_add --set workload.n=4096
local cores = define("cores", 1)
local lanes = define("lanes", 32)

clock("core", { frequency_mhz = 1400 })
clock("memory", { frequency_mhz = 924 })

for i = 0, cores - 1 do
    block("sm" .. i, "simt_core", { clock = "core", core_id = i, lanes = lanes, warps = 48, ctas = 8, scheduler = "gto" })
    block("sm" .. i .. "_lds", "lds", { clock = "core" }) -- shared memory: the defaults (48 KB, 32 banks) match the core's
    connect("sm" .. i .. ".lds", "sm" .. i .. "_lds.core")
    block("sm" .. i .. "_ldst", "ldst_unit", { clock = "core" }) -- global memory: coalescing into 128-byte segments
    connect("sm" .. i .. ".ldst", "sm" .. i .. "_ldst.core")
end
block("crossbar", "router", { clock = "core", inputs = cores, outputs = 1, latency = 5, queue_depth = 8 })
-- Global window 0x10000000.. and persistent window 0xa0000000.. in one memory.
block("dram", "memory", { clock = "memory", latency = 100, bytes_per_cycle = 32, queue_depth = 32, base = 0, size = 0xc0000000 })
for i = 0, cores - 1 do
    connect("sm" .. i .. "_ldst.memory", "crossbar.inputs[" .. i .. "]")
end
connect("crossbar.outputs[0]", "dram.port", { base = 0, size = 0xc0000000 })
