-- A peer network (models/protocols/peer.h) beside a GPU memory system whose
-- address map is declared (parts/gpu_memory.lua): a crossbar with mapping =
-- ranges from one stand-in block per partition (a trace player) to one
-- central table at a reserved range (a memory). The elaborator must take
-- it (a ranges crossbar does not route by the address map), and every
-- sender's data must check through the network.
clock("core", { frequency_mhz = 1400 })
clock("icnt", { frequency_mhz = 1400 })
clock("l2", { frequency_mhz = 700 })
clock("memory", { frequency_mhz = 924 })

local table_base, slice = 0x7f000000, 0x1000
local mem = include("../../../platforms/parts/gpu_memory.lua")({ cores = 1 })
block("player", "trace_player", { clock = "core", synthetic_requests = 200, address_range = 0x10000, check_data = true })
connect("player.memory", mem.l1_upstream(0))

block("peer", "crossbar", { clock = "icnt", cores = mem.partitions, partitions = 1, mapping = "ranges" })
for p = 0, mem.partitions - 1 do
    block("sender" .. p, "trace_player", {
        clock = "l2", max_outstanding = 4, request_size = 8, synthetic_requests = 100, read_percent = 50,
        address_base = table_base + p * slice, address_range = slice, check_data = true,
    })
    connect("sender" .. p .. ".memory", "peer.cores[" .. p .. "]")
end
block("table", "memory", { clock = "l2", latency = 4, base = table_base, size = mem.partitions * slice })
connect("peer.partitions[0]", "table.port", { base = table_base, size = mem.partitions * slice })
