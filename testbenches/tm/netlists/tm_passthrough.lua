-- The GTX480 memory system with a commit unit in front of every L2 slice
-- (platforms/parts/tm_lazy.lua), driven by trace players checking every read
-- against the last write: ordinary traffic must pass the commit units
-- unchanged. Defines: cores, requests, ideal.
clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("commit", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local cores = define("cores", 4)
local tm = include("../../../platforms/parts/tm_lazy.lua")({ mode = define("ideal", false) and "ideal" or "kilo" })
local mem = include("../../../platforms/parts/gpu_memory.lua")({
    cores = cores, l1 = tm.gpu.l1, before_l2 = tm.before_l2,
})
assert(tm.partitions == mem.partitions, "tm_lazy and gpu_memory agree on the partitions")

for i = 0, cores - 1 do
    block("player" .. i, "trace_player", {
        clock = "core", max_outstanding = 16, request_size = 64, synthetic_requests = define("requests", 1500),
        read_percent = 60, address_base = i * 0x40000, address_range = 0x40000, check_data = true,
    })
    connect("player" .. i .. ".memory", mem.l1_upstream(i))
end
