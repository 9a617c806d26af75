-- An AMD Southern Islands-like GPU, the baseline of GPU-LocalTM
-- (../shared/papers/gpu-localtm.txt, section 2 and Table 2: Multi2sim 4.2's
-- SI model), as data. The paper gives the compute units and the LDS; where
-- it is silent the values are the GTX480 set's (specs/gtx480.lua), each
-- marked "GTX480" below. Read by parts/gpu.lua and parts/localtm.lua:
--
--   local spec = include("specs/southern_islands.lua")
--
-- What the model does not reproduce (models/core/lds/README.md, LocalTM):
--   * SI's 4 SIMD units of 16 lanes issue a 64-wide wavefront over 4 cycles;
--     simtx issues one wavefront instruction per scheduler per cycle, so the
--     4 schedulers stand for the 4 SIMD units and alu_latency 4 for the
--     4-cycle issue of a 64-wide operation.
--   * Scalar registers (Table 2: 2048 per CU) and the scalar unit are not
--     modelled: TX Begin/Commit are tx.h events of the wavefront.
--   * Table 2 prints the LDS as 65546 bytes: a typo for 64 KiB.
local spec = include("gtx480.lua")
spec.name = "southern_islands"

-- Table 2: "Compute Units (CU) 32".
spec.cores = 32

spec.core.lanes = 64                 -- section 2: 64 work-items per wavefront
spec.core.schedulers = 4             -- Table 2: "SIMD Units per CU 4" (one issue each per cycle)
spec.core.warps = 40                 -- not in the paper: SI's 10 wavefronts per SIMD unit (Multi2sim's default)
spec.core.registers = 65536          -- Table 2: "Vector Registers per CU 65536"
spec.core.shared_memory = 64 * 1024  -- section 2: "64KB of LDS"
spec.core.alu_latency = 4            -- a 64-wide vector op on a 16-lane SIMD: 4 cycles
-- scheduler (gto), ctas (8), latencies of mul/div/fp/branch/local: GTX480.

spec.lds.size = 64 * 1024            -- section 2, Table 2 ("65546 bytes": 64 KiB)
spec.lds.banks = 32                  -- Table 2: "LDS Banks 32"; consecutive words in consecutive banks
spec.lds.bank_width = 4              -- section 3.3: a bank holds words (address % 32)
spec.lds.latency = 2                 -- Table 2: "LDS Latency 2 cycles"

-- No transactional-warp tokens (KILO TM's): every wavefront may run a
-- LocalTM transaction at once.
spec.tm.warp_tokens = 0

-- Clocks, the L1/L2 caches, the crossbar, the address map and the DRAM:
-- GTX480 (the paper names none; Multi2sim 4.2's SI defaults are not in it).
return spec
