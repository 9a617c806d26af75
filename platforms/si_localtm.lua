-- A Southern Islands-like GPU with GPU-LocalTM (specs/southern_islands.lua:
-- 32 compute units of 40 wavefronts x 64 work-items, 4 schedulers, a 64 KiB
-- LDS of 32 banks with a 2-cycle latency; parts/localtm.lua: transactions in
-- the LDS). Kernels use gpu.h's gpu_tx_begin/gpu_tx_commit and a region of
-- runtime/kernel/gpu_localtm.h.
--   simtx run platforms/si_localtm.lua --workload localtm_ht
-- Defines: perfect (false: Perfect GPU-LocalTM, the same behaviour with no
-- added cycle), broken (TEST ONLY: filters that ignore other wavefronts),
-- and cores, lanes, scheduler, memory, dram (parts/gpu.lua).
include("parts/gpu.lua")(include("parts/localtm.lua")().gpu)
