-- The GTX480 memory system (parts/gpu_memory.lua, specs/gtx480.lua) driven
-- by trace players, one per core:
--   player_i -> l1_i -> crossbar -> 6 x (l2 slice -> memory).
-- Each player makes synthetic traffic in its own address window (L1s are not
-- coherent, so players must not share data) and, with check_data, checks
-- that every read returns the last data it wrote there.
--   simtx run platforms/memory_system_trace.lua --define cores=15 --check-protocol
-- Defines: cores, requests (per player), window (bytes per player),
-- read_percent, pattern (random|stream), cache_global (L1 caching global
-- data), dram (the block ending each partition).

clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local cores = define("cores", 4)
local window = define("window", 0x100000) -- 1 MiB per player: > the L2s' 768 KB in total
local mem = include("parts/gpu_memory.lua")({
    cores = cores,
    l1 = { cache_global = define("cache_global", true) },
    dram_block = define("dram", "memory"),
})

for i = 0, cores - 1 do
    block("player" .. i, "trace_player", {
        clock = "core",
        max_outstanding = 32,
        request_size = define("request_size", 64),
        synthetic_requests = define("requests", 5000),
        synthetic_pattern = define("pattern", "random"),
        read_percent = define("read_percent", 70),
        address_base = i * window,
        address_range = window,
        check_data = true,
    })
    connect("player" .. i .. ".memory", mem.l1_upstream(i))
end
