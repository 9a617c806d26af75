#!/usr/bin/python3
"""The statistics JSON's "summary" and "run" sections, on BFS (several kernel
launches) on a 2-core GTX480 and on the trace-replay platform:
- the summary's totals equal the per-instance statistics summed by block
  type (thread instructions, L1 hits over lookups, DRAM bytes over time);
- the launches tile the run (each starts where the previous ended, the
  last ends at the end) and their figures add up to the totals;
- only the blocks present have figures (no cache figures without caches);
- every n/a figure says why (a "reason" beside a null value, "n/a: why" on
  the console), the L1s' from their cache_global parameter; the DRAM
  bandwidth share is of the peak from the controllers' parameters;
- the run record names the command line, the netlist and every included
  file with its SHA-256, the defines, the workload and its options, the
  seed and the simtx version; scripts/rerun reproduces the run from it.
usage: run_record_check.py SIMTX SCRATCH"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
simtx, scratch = sys.argv[1], sys.argv[2]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(name, *arguments):
    stats = os.path.join(scratch, name + ".json")
    result = subprocess.run([simtx, "run", *arguments, "--stats", stats], cwd=root, capture_output=True, text=True)
    check(result.returncode == 0, f"{name}: exit {result.returncode}: {result.stderr}")
    return json.load(open(stats)), result.stdout, stats


def by_type(statistics, prefix, name):
    return sum(v for k, v in statistics.items() if k.split(".")[0].startswith(prefix) and k.split(".", 1)[1] == name)


data, stdout, stats_path = run("bfs", "platforms/gtx480.lua", "--define", "cores=2", "--workload", "bfs", "--set", "workload.n=300",
                               "--seed", "3")
statistics, total = data["simulated"]["statistics"], data["summary"]["total"]
thread = sum(v for k, v in statistics.items() if k.endswith(".thread_instructions"))
check(total["thread_instructions"] == {"value": thread, "unit": "instructions"},
      f"thread_instructions {total['thread_instructions']}, the cores' sum {thread}")
for level in ("l1", "l2"):
    hits = sum(v for k, v in statistics.items() if k.startswith(level + "_") and k.endswith(".hits"))
    lookups = sum(v for k, v in statistics.items() if k.startswith(level + "_") and
                  k.split(".")[1] in ("hits", "misses", "sector_misses", "hit_reserved"))
    rate = total[level + "_hit_rate"]["value"]
    # No lookups (the L1s forward BFS's global accesses): no rate, never 0.
    check(rate is None if lookups == 0 else abs(rate - hits / lookups) < 1e-12, f"{level}_hit_rate {rate}, {hits} hits of {lookups}")
check(total["l2_hit_rate"]["value"] is not None, "BFS's L2 had no lookups")
dram_bytes = sum(v for k, v in statistics.items() if k.startswith("dram") and k.split(".")[1] in ("bytes_read", "bytes_written"))
check(abs(total["dram_bandwidth"]["value"] - dram_bytes / (data["simulated"]["time_ps"] / 1000)) < 1e-9, "dram_bandwidth")
check(total["dram_bandwidth"]["unit"] == "GB/s", "dram_bandwidth's unit")
check(total["cycles_core"]["value"] == data["simulated"]["clocks"]["core"]["cycles"], "cycles_core differs from the clocks section")
launches = data["summary"]["launches"]
check(len(launches) > 2, f"{len(launches)} launches for BFS")
check(all(l["kernel"] and l["kernel"] != "?" for l in launches), f"launches without kernel names: {launches}")
check(launches and launches[-1]["end_ps"] == data["simulated"]["time_ps"], "the last launch does not end at the end of the run")
check(all(a["end_ps"] == b["start_ps"] for a, b in zip(launches, launches[1:])), "launches do not tile the run")
for key in ("thread_instructions", "warp_instructions", "dram_reads"):
    check(sum(l["metrics"][key]["value"] for l in launches) == total[key]["value"], f"the launches' {key} do not add up to the total")
check("kernel launches" in stdout and "IPC" in stdout and "L1 hit rate" in stdout, "the console summary lacks launches, IPC or L1")
# Every n/a says why: a "reason" beside each null value (and none beside a
# number), and on the console the reason after "n/a:" on the line.
for where, figures in [("total", total)] + [(f"launch {l['index']}", l["metrics"]) for l in launches]:
    for key, figure in figures.items():
        check((figure["value"] is None) == bool(figure.get("reason")), f"{where} {key}: value {figure['value']}, reason {figure.get('reason')}")
whole_run = stdout.split("summary (whole run)", 1)[-1].split("kernel launches", 1)[0]
unexplained = [line for line in whole_run.splitlines() if "n/a" in line and not line.split("n/a", 1)[1].startswith(": ")]
check("n/a: " in whole_run and not unexplained, f"n/a lines without a reason: {unexplained}")
# The L1s of this GTX480 do not cache global data: the reason comes from that parameter.
parameters = data["simulated"]["parameters"]
if not any(v for k, v in parameters.items() if k.startswith("l1_") and k.endswith(".cache_global")):
    check("cache_global = false" in total["l1_hit_rate"].get("reason", ""), f"l1_hit_rate's reason {total['l1_hit_rate']}")
# DRAM bandwidth over the channels' peak: bus bytes x transfers per clock x the controller's clock.
clocks = data["simulated"]["clocks"]
peak = sum(parameters[f"{name}.bus_bytes"] * parameters[f"{name}.transfers_per_clock"] * clocks[parameters[f"{name}.clock"]]["frequency_mhz"] / 1000
           for name in {k.split(".")[0] for k in parameters if k.startswith("dram") and k.endswith(".transfers_per_clock")})
share = total["dram_bandwidth_share"]
check(share["unit"] == "fraction" and abs(share["value"] - total["dram_bandwidth"]["value"] / peak) < 1e-12,
      f"dram_bandwidth_share {share}, peak {peak} GB/s")
# Load-to-use latency by level: the ldst_units' histograms (core cycles,
# mean in ns at the core clock) summed; the L1 level n/a with its reason.
period_ns = clocks["core"]["period_ps"] / 1000  # the clock the cores and their ldst_units run on
for level in ("l2", "dram"):
    histograms = [v for k, v in statistics.items() if k.endswith(".load_to_use_" + level)]
    count = sum(h["count"] for h in histograms)
    cycles = sum(h["mean"] * h["count"] for h in histograms)
    figure = total["load_to_use_" + level]
    check(figure["unit"] == "ns" and total["load_to_use_" + level + "_loads"]["value"] == count and count > 0 and
          abs(figure["value"] - cycles * period_ns / count) < 1e-6 * figure["value"], f"load_to_use_{level} {figure}, {count} loads")
check("cache_global = false" in total["load_to_use_l1"].get("reason", "") and "load_to_use" not in total,
      f"load_to_use_l1 {total['load_to_use_l1']}")
check("load-to-use latency (mean, by the farthest level that served a load)" in whole_run and " ns (" in whole_run and
      "L1 n/a: the L1s do not cache global data" in whole_run, "no load-to-use line on the console")
check("sm0.thread_instructions" not in stdout, "the per-instance listing is printed without --stats-detail")

record = data["run"]
check(record["command_line"][1:4] == ["run", "platforms/gtx480.lua", "--define"], f"command line {record['command_line']}")
check(record["working_directory"] == root, f"working directory {record['working_directory']}")
paths = [f["path"] for f in record["files"]]
check(paths[0] == "platforms/gtx480.lua" and any(p.endswith("parts/gpu.lua") for p in paths) and
      any(p.endswith("specs/gtx480.lua") for p in paths), f"files {paths}")
for f in record["files"]:
    check(f["sha256"] == hashlib.sha256(open(os.path.join(root, f["path"]), "rb").read()).hexdigest(), f"{f['path']}: wrong hash")
check(record["defines"] == {"cores": "2"} and record["seed"] == 3, f"defines {record['defines']}, seed {record['seed']}")
check(record["workload"] == {"name": "bfs", "options": {"n": "300"}}, f"workload {record['workload']}")
check(record["simtx_version"] and record["simtx_commit"], "no version or commit")
rerun = subprocess.run([sys.executable, os.path.join(root, "scripts", "rerun"), stats_path, "--simtx", simtx,
                        "--out-dir", os.path.join(scratch, "bfs.rerun")], capture_output=True, text=True)
check(rerun.returncode == 0 and "identical" in rerun.stdout, f"rerun: exit {rerun.returncode}: {rerun.stdout} {rerun.stderr}")

trace, _, _ = run("trace", "platforms/trace_replay.lua", "--define", "requests=500")
keys = set(trace["summary"]["total"])
check("trace_requests" in keys and trace["summary"]["total"]["trace_requests"]["value"] == 500, "trace_requests")
check(not keys & {"l1_hit_rate", "l2_hit_rate", "ipc", "dram_bandwidth", "tm_commits"}, f"figures of absent blocks: {sorted(keys)}")
check(trace["summary"]["launches"] == [] and trace["run"]["workload"] is None, "a run without a workload has launches")

for failure in failures:
    print("FAIL:", failure)
print(f"run record: {len(failures)} failures")
sys.exit(1 if failures else 0)
