#!/usr/bin/python3
"""Benchmarks one GDDR5 channel (platforms/dram_trace.lua): sustained bandwidth,
average latency and activate rate on synthetic traffic, RowClone copy
latencies, and simulation speed on a 5M-request trace. Builds nothing: give
it a built simtx.

usage: /usr/bin/python3 scripts/bench_dram.py [--simtx build/simtx] [--output build/bench_dram.txt]
                                              [--requests 50000] [--trace-requests 5000000]
                                              [--speed-only] [--repeat N]
--repeat N runs each speed measurement N times and reports the run with the
median CPU time, with the range (other load on a shared machine only ever
slows a run down).
"""
import argparse
import json
import os
import pathlib
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
NETLIST = "platforms/dram_trace.lua"


def run(simtx, settings, defines=(), stats=True):
    """Runs the platform; returns (statistics, parameters, clock, wall seconds, CPU seconds)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        stats_path = f.name
    command = [simtx, "run", NETLIST, "--quiet", "--stats", stats_path]
    for key, value in settings.items():
        command += ["--set", f"{key}={value}"]
    for key, value in defines:
        command += ["--define", f"{key}={value}"]
    start = time.perf_counter()
    cpu_start = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                            env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    wall = time.perf_counter() - start
    cpu_end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_end.ru_utime - cpu_start.ru_utime) + (cpu_end.ru_stime - cpu_start.ru_stime)
    if result.returncode != 0:
        sys.exit(f"bench_dram: {' '.join(command)} failed:\n{result.stderr}")
    data = json.load(open(stats_path))["simulated"]
    os.unlink(stats_path)
    return data["statistics"], data["parameters"], data["clocks"]["dram"], wall, cpu


def bandwidth_table(simtx, requests, out):
    out.append("## Sustained bandwidth of one GDDR5 channel (x32 H5GQ1H24AFR at 924 MHz, "
               "pin bandwidth 16 B/clock = 14.78 GB/s)")
    out.append(f"{requests} requests each, 64 outstanding at the player, controller queue 16, timing checker on.")
    out.append("latency: controller arrival to response ready (the player's issue-to-response in brackets);"
               " ACT/kclk: activates per 1000 DRAM clocks.")
    out.append("")
    out.append("| pattern | reads | size | GB/s | % of pins | avg latency ns | ACT/kclk | row hit rate |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for pattern in ("random", "stream"):
        for reads in (100, 80, 50):
            for size in (64, 128):
                stats, params, clock, _, _ = run(simtx, {
                    "dram.check_timing": "true", "player.synthetic_pattern": pattern,
                    "player.read_percent": reads, "player.request_size": size, "player.check_data": "false",
                }, [("requests", requests)])
                period_ns = clock["period_ps"] / 1000.0
                cycles = stats["player.cycles"]
                moved = stats["dram.bytes_read"] + stats["dram.bytes_written"]
                gbps = moved / (cycles * period_ns)
                pins = 16 / period_ns
                lat = [stats["dram.read_latency"], stats["dram.write_latency"]]
                n = sum(h["count"] for h in lat)
                latency = sum(h["mean"] * h["count"] for h in lat) / n * period_ns
                plat = [stats["player.read_latency"], stats["player.write_latency"]]
                player_latency = sum(h["mean"] * h["count"] for h in plat) / n * period_ns
                rows.append(dict(pattern=pattern, reads=reads, size=size, gbps=gbps, latency_ns=latency,
                                 acts=stats["dram.activates_per_kilocycle"], hit=stats["dram.row_hit_rate"]))
                out.append(f"| {pattern} | {reads}% | {size} B | {gbps:.2f} | {100 * gbps / pins:.0f}% | "
                           f"{latency:.0f} ({player_latency:.0f}) | {stats['dram.activates_per_kilocycle']:.1f} | "
                           f"{stats['dram.row_hit_rate']:.2f} |")
    out.append("")
    return rows


def rowclone_table(simtx, out):
    _, params, clock, _, _ = run(simtx, {}, [("requests", 1)])
    period_ns = clock["period_ps"] / 1000.0
    p = {k.split(".", 1)[1]: v for k, v in params.items() if k.startswith("dram.")}
    burst = p["burst_length"] // p["transfers_per_clock"]
    bursts = p["row_bytes"] // (p["bus_bytes"] * p["burst_length"])
    formulas = {
        "FPM (same subarray)": ("2 tRAS + tRP", 2 * p["tRAS"] + p["tRP"]),
        "PSM (bank 0 -> bank 4)": ("tRRD + tRCD + (n-1) tCCDL + tWL + burst + tWR + tRP",
                                   p["tRRD"] + p["tRCD"] + (bursts - 1) * p["tCCDL"] + p["tWL"] + burst + p["tWR"] + p["tRP"]),
        "through the controller (bank 0 -> bank 4)": ("n RD, then n WR", None),
        "through the controller (same subarray)": ("n RD, PRE/ACT, n WR", None),
    }
    cases = {
        "FPM (same subarray)": ({}, [("copy_target", 0x8000)]),
        "PSM (bank 0 -> bank 4)": ({}, [("copy_target", 0x80)]),
        "through the controller (bank 0 -> bank 4)": ({"dram.row_copy_mode": "controller"}, [("copy_target", 0x80)]),
        "through the controller (same subarray)": ({"dram.row_copy_mode": "controller"}, [("copy_target", 0x8000)]),
    }
    out.append(f"## RowClone: one {p['row_bytes']} B row on an idle channel ({bursts} bursts of "
               f"{p['bus_bytes'] * p['burst_length']} B; tRAS={p['tRAS']}, tRP={p['tRP']} cycles, "
               f"1 cycle = {period_ns:.3f} ns)")
    out.append("service: first command to completion; end to end: the copier's issue to response (router included).")
    out.append("")
    out.append("| copy | formula | formula cycles | service cycles | service ns | end-to-end ns | vs FPM |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    rows = {}
    for name, (settings, defines) in cases.items():
        settings = dict(settings, **{"dram.check_timing": "true", "player.synthetic_requests": 0})
        stats, _, _, _, _ = run(simtx, settings, [("copies", 4), ("copy_period", 2000)] + defines)
        service = stats["dram.copy_service_latency"]["mean"]
        rows[name] = service
        text, cycles = formulas[name]
        fpm = rows.get("FPM (same subarray)", service)
        out.append(f"| {name} | {text} | {cycles if cycles is not None else '-'} | {service:.0f} | "
                   f"{service * period_ns:.1f} | {stats['copier.latency']['mean'] * period_ns:.1f} | "
                   f"{service / fpm:.1f}x |")
    out.append("")
    return rows


def speed(simtx, trace_requests, repeat, out):
    path = pathlib.Path(tempfile.gettempdir()) / f"bench_dram_{trace_requests}.trace"
    if not path.exists() or path.stat().st_size == 0:
        r = random.Random(1)
        with open(path, "w") as f:  # Ramulator format, uniformly random 64-byte lines, 2/3 reads
            lines = [f"0x{r.randrange(0, 1 << 21) << 6:08x} {'W' if r.random() < 1 / 3 else 'R'}\n"
                     for _ in range(trace_requests)]
            f.writelines(lines)
    out.append(f"## Simulation speed: {trace_requests} random 64 B requests (2/3 reads) replayed from {path}")
    out.append("Whole run (reading and parsing the trace included); player data checking off. CPU seconds (user + system)"
               " are the fairer figure on a shared machine; load average at the start: "
               f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs.")
    if repeat > 1:
        out.append(f"Each row: the median of {repeat} runs by CPU time; CPU s range in brackets; the last column is the"
                   " fastest run (other load only slows runs down).")
    out.append("")
    best_column = " requests/s (CPU, fastest run) |" if repeat > 1 else ""
    out.append("| timing checker | wall s | CPU s | requests/s (wall) | requests/s (CPU) | simulated DRAM cycles |"
               " DRAM cycles/CPU s |" + best_column)
    out.append("| --- " * (8 if repeat > 1 else 7) + "|")
    rows = {}
    for check in ("false", "true"):
        runs = sorted((run(simtx, {"player.trace": str(path), "player.check_data": "false", "dram.check_timing": check})
                       for _ in range(repeat)), key=lambda r: r[4])
        stats, _, clock, wall, cpu = runs[len(runs) // 2]
        spread = f" ({runs[0][4]:.2f}-{runs[-1][4]:.2f})" if repeat > 1 else ""
        served = stats["dram.reads"] + stats["dram.writes"]
        rows[check] = served / cpu
        best = f" {served / runs[0][4]:,.0f} |" if repeat > 1 else ""
        out.append(f"| {'on' if check == 'true' else 'off'} | {wall:.2f} | {cpu:.2f}{spread} | {served / wall:,.0f} | "
                   f"{served / cpu:,.0f} | {clock['cycles']:,} | {clock['cycles'] / cpu:,.0f} |{best}")
    out.append("")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simtx", default="build/simtx")
    parser.add_argument("--output", default="build/bench_dram.txt")
    parser.add_argument("--requests", type=int, default=50000)
    parser.add_argument("--trace-requests", type=int, default=5000000)
    parser.add_argument("--speed-only", action="store_true", help="only the simulation-speed table")
    parser.add_argument("--repeat", type=int, default=1, help="runs per speed measurement (median reported)")
    args = parser.parse_args()
    simtx = str((pathlib.Path.cwd() / args.simtx).resolve())
    out = []
    if not args.speed_only:
        bandwidth_table(simtx, args.requests, out)
        rowclone_table(simtx, out)
    speed(simtx, args.trace_requests, args.repeat, out)
    text = "\n".join(out)
    print(text)
    output = pathlib.Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n")
    print(f"written to {output}")


if __name__ == "__main__":
    main()
