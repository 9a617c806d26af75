-- TEST ONLY: a deadlock the watchdog must report (testbenches/platforms,
-- watchdog_*). A KILO TM GPU (as platforms/gtx480_kilotm.lua) whose L1s hold
-- fewer pending requests than its transactions keep outstanding (the test
-- sets l1_*.pending_entries below what parts/tm_lazy.lua sizes, see
-- models/protocols/tm_lazy.h), so a TM workload stops making progress;
-- beside it, on a memory of its own, a trace player whose second request
-- is due only after 2 ms keeps the clock going without a message.
include("../../../platforms/parts/gpu.lua")(include("../../../platforms/parts/tm_lazy.lua")({ mode = "kilo" }).gpu)

clock("timer", { frequency_mhz = 1000 })
block("timer_player", "trace_player", { clock = "timer", trace = "far_request.trc" })
block("timer_memory", "memory", { clock = "timer", base = 0xc0000000, size = 0x1000 })
connect("timer_player.memory", "timer_memory.port")
