-- TM traffic on the GTX480 memory system with a commit unit per partition
-- (platforms/parts/tm_lazy.lua): one tm_traffic block per core, each with its
-- own pool of words (so its serializability oracle sees its whole history),
-- all sharing the commit units, the global commit-ID order and the L2s.
--   simtx run testbenches/tm/netlists/tm_traffic.lua --check-protocol
-- Defines: cores, agents (per core), transactions (per agent), pool_words,
-- ideal (gtx480_idealtm's commit units), broken (the test-only broken
-- validation: the oracle must fail the run), lwh_entries.
clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("commit", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local cores = define("cores", 4)
local tm = include("../../../platforms/parts/tm_lazy.lua")({
    mode = define("ideal", false) and "ideal" or "kilo",
    params = { skip_validation_check = define("broken", false), lwh_entries = define("lwh_entries", 4096) },
})
local mem = include("../../../platforms/parts/gpu_memory.lua")({
    cores = cores, l1 = tm.gpu.l1, before_l2 = tm.before_l2,
})

for i = 0, cores - 1 do
    block("tm" .. i, "tm_traffic", {
        clock = "core", core_id = i, agents = define("agents", 16), transactions = define("transactions", 10),
        pool_words = define("pool_words", 48), address_base = 0x180000 * (i + 1), partitions = mem.partitions,
    })
    connect("tm" .. i .. ".memory", mem.l1_upstream(i))
end
