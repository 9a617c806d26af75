-- A GTX480-like GPU (DESIGN.md reference parameters): 15 SIMT cores of
-- 48 warps x 32 lanes with GTO schedulers (2 per core: SIMD 16x2), 8 CTAs
-- and 32768 registers per core, 16 KB shared memory in 32 banks (the 48 KB L1 +
-- 16 KB shared split, as in the DESIGN reference); the memory
-- side from gtx480_memory.lua (L1D 48 KB per core, crossbar, 6 partitions of
-- L2 128 KB + a GDDR5 dram_controller). Core/icnt 1400 MHz, L2 700 MHz,
-- memory 924 MHz.
--   simtx run platforms/gtx480.lua --workload vector_add --set workload.n=65536
-- Defines: cores (15), lanes (32), scheduler (gto|lrr), memory (caches|simple:
-- a router interleaving 256-byte blocks over 6 memory blocks instead of the
-- cache hierarchy), dram (dram_controller|memory: what ends each partition
-- of the cache hierarchy; memory is the fixed-latency stand-in).
local cores = define("cores", 15)
local lanes = define("lanes", 32)

clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

for i = 0, cores - 1 do
    block("sm" .. i, "simt_core", {
        clock = "core", core_id = i, lanes = lanes, warps = 48, ctas = 8, registers = 32768,
        shared_memory = 16 * 1024, shared_banks = 32, schedulers = 2, scheduler = define("scheduler", "gto"),
        segment_size = 128, sector_size = 32,
    })
end

if define("memory", "caches") == "caches" then
    local gtx480_memory = include("gtx480_memory.lua")
    -- Global data is not cached in L1 (as in the TM configurations), so the
    -- non-coherent L1s never hold stale global data between CTAs.
    local dram = define("dram", "dram_controller")
    local mem = gtx480_memory({ cores = cores, l1 = { cache_global = false }, dram_block = dram,
        dram_params = dram == "memory" and function(_)
            return { latency = 100, bytes_per_cycle = 32, queue_depth = 16, base = 0, size = 0xc0000000 }
        end or nil })
    for i = 0, cores - 1 do connect("sm" .. i .. ".memory", mem.l1_upstream(i)) end
else
    block("crossbar", "router", { clock = "icnt", inputs = cores, outputs = 6, latency = 5, queue_depth = 8, interleave = 256 })
    for p = 0, 5 do
        block("dram" .. p, "memory", { clock = "memory", latency = 100, bytes_per_cycle = 32, queue_depth = 16, base = 0, size = 0xc0000000 })
        connect("crossbar.outputs[" .. p .. "]", "dram" .. p .. ".port")
    end
    for i = 0, cores - 1 do connect("sm" .. i .. ".memory", "crossbar.inputs[" .. i .. "]") end
end
