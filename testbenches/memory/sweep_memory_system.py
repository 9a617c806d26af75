#!/usr/bin/python3
"""Load sweep of the GTX480 memory system: trace players (random 64-byte
traffic, 70% reads, 1 MiB each) on 1..15 cores. Prints achieved bandwidth,
read latency and hit rates per core count.
usage: testbenches/memory/sweep_memory_system.py [build/simtx] [extra simtx args...]"""
import json
import subprocess
import sys
import tempfile


def run(simtx, cores, extra):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([simtx, "run", "platforms/memory_system_trace.lua", "--quiet", "--stats", out.name,
                        "--define", f"cores={cores}", "--define", "requests=3000"] + extra, check=True)
        data = json.load(open(out.name))["simulated"]
    s = data["statistics"]
    core_mhz = next(c["frequency_mhz"] for c in data["clocks"] if c["name"] == "core") if isinstance(data.get("clocks"), list) else 1400
    players = [f"player{i}" for i in range(cores)]
    cycles = max(s[f"{p}.cycles"] for p in players)
    moved = sum(s[f"{p}.bytes_read"] + s[f"{p}.bytes_written"] for p in players)
    latency = sum(s[f"{p}.read_latency"]["mean"] * s[f"{p}.read_latency"]["count"] for p in players) / \
        sum(s[f"{p}.read_latency"]["count"] for p in players)
    l2_hits = sum(s[f"l2_{i}.hits"] for i in range(6))
    l2_lookups = sum(s[f"l2_{i}.hits"] + s[f"l2_{i}.misses"] + s[f"l2_{i}.sector_misses"] + s[f"l2_{i}.hit_reserved"]
                     for i in range(6))
    return cycles, moved / cycles, moved / cycles * core_mhz / 1000, latency, l2_hits / l2_lookups


def main():
    simtx = sys.argv[1] if len(sys.argv) > 1 else "build/simtx"
    extra = sys.argv[2:]
    print(f"{'cores':>5} {'cycles':>8} {'B/cycle':>8} {'GB/s':>7} {'read lat':>9} {'L2 hit':>7}")
    for cores in (1, 2, 4, 8, 15):
        cycles, per_cycle, gbs, latency, hit = run(simtx, cores, extra)
        print(f"{cores:>5} {cycles:>8} {per_cycle:>8.1f} {gbs:>7.1f} {latency:>9.0f} {hit:>7.2f}")


if __name__ == "__main__":
    sys.exit(main())
