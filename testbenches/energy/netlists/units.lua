-- Figures in other units than the canonical ones (check_units.py): nJ and
-- fJ become pJ, mW becomes W; a fixed-latency memory behind a trace player.
clock("core", { frequency_mhz = 1000 })
technology({ name = "units", blocks = {
    memory = {
        static = { 500, "mW", "a test figure", "exact" },
        read_byte = { 0.002, "nJ", "a test figure", "exact" },
        write_byte = { 3000, "fJ", "a test figure", "exact" },
    },
} })
block("mem", "memory", { latency = 10 })
block("player", "trace_player", { synthetic_requests = 100, read_percent = 50, request_size = 64, check_data = true })
connect("player.memory", "mem.port")
