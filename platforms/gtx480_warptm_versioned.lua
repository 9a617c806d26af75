-- Warp TM with SI-TM's versioned memory (ISCA'17 §5, issue A; see
-- models/protocols/version.h): parts/tm_lazy.lua (Warp TM, temporal
-- conflict detection off: a VIT slice answers a snapshot read with its
-- handle, not the read stamp) with parts/versioned_memory.lua chained after
-- the commit units, which close a version at the newest retired ID and hold
-- each ACQUIRE until a CLOSE covers it (commit_unit version_close); every
-- tm_unit runs the `snapshot` filter, so each transactional load reads the
-- attempt's snapshot, and read-only transactions commit at the core on it
-- without validation (pre-commit check snapshot_ro, before the intra-warp
-- check), serialized at their snapshot point. One region covers the start of the GPU heap (the
-- workloads' data); a host program adds its own with gpu_malloc_versioned
-- (runtime/host_api.h; atm: --set workload.versioned=1).
--   simtx run platforms/gtx480_warptm_versioned.lua --workload atm --check-protocol
-- Defines: as parts/tm_lazy.lua and parts/versioned_memory.lua (versions,
-- timestamp_bits).
local parts = include("parts/options.lua")
local heap = 0x10100000 -- runtime/host_api.h GPU_HEAP_BASE
local probe = include("parts/versioned_memory.lua")({})
local base = heap // probe.align * probe.align
local vm = include("parts/versioned_memory.lua")({ regions = { { base, probe.version_stride, 0x4800000 } } })
local tm = include("parts/tm_lazy.lua")({
    mode = "warp", tcd = false, filters = { "snapshot" }, precommit = { "snapshot_ro" }, params = { version_close = true }, before_l2 = parts.chain(vm.before_l2),
})
tm.gpu.l2 = parts.merge(tm.gpu.l2, vm.l2)
include("parts/gpu.lua")(tm.gpu)
