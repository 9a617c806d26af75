-- A GTX480-like GPU (specs/gtx480.lua: the SI-TM / EA/PG GPGPU-Sim
-- configuration): 15 SIMT cores of 48 warps x 32 lanes with 2 GTO
-- schedulers, L1D 48 KB per core (not caching global data), a crossbar, 6
-- partitions of an L2 slice of 128 KB and a GDDR5 dram_controller.
--   simtx run platforms/gtx480.lua --workload vector_add --set workload.n=65536
-- Defines (parts/gpu.lua): cores (15), lanes (32), scheduler (gto|lrr),
-- memory (caches|simple: a router interleaving 256-byte chunks over 6
-- fixed-latency memories instead of the cache hierarchy), dram
-- (dram_controller|memory: what ends each partition of the cache hierarchy;
-- memory is the fixed-latency stand-in).

-- Global data is not cached in L1 (as in the TM configurations), so the
-- non-coherent L1s never hold stale global data between CTAs.
include("parts/gpu.lua")({ l1 = { cache_global = false } })
