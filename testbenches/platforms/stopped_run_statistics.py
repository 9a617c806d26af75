#!/usr/bin/python3
"""A stopped run's statistics do not depend on waveform output: a run
stopped by --max-time, an injected power failure or the watchdog states the stop time
and the work done until then, the same with and without --vcd (without
waveforms the scheduler runs ahead of SystemC time; issue 26, defect 3).

usage: stopped_run_statistics.py SIMTX WORK_DIR
Compares the JSON's "simulated" and "summary" sections of each run with
and without --vcd, and checks the simulated time is the stop time.
"""
import json
import os
import shutil
import subprocess
import sys

CASES = {
    "max_time": (["platforms/gtx480_pm.lua", "--workload", "pm_stream", "--max-time", "5000"], 5000),
    "crash": (["platforms/gpu_pm.lua", "--workload", "pm_kvs", "--crash-at", "3000"], 3000),
    # The watchdog's stop: 10 us of slices, then 500 us without progress.
    "deadlock": (["testbenches/platforms/netlists/slow_memory.lua"], 510000),
}


def statistics(simtx, work, name, arguments, waveforms):
    stats = os.path.join(work, f"{name}_{'vcd' if waveforms else 'plain'}.json")
    extra = ["--vcd", os.path.join(work, f"{name}.vcd")] if waveforms else []
    result = subprocess.run([simtx, "run", *arguments, "--quiet", "--stats", stats, *extra], capture_output=True, text=True,
                            timeout=120)
    path = stats if os.path.exists(stats) else stats + ".partial"
    if not os.path.exists(path):
        return None, f"no statistics (exit {result.returncode}): {result.stderr[-300:]}"
    document = json.load(open(path))
    return {"simulated": document["simulated"], "summary": document["summary"]}, result.stderr


def main():
    simtx, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = []
    for name, (arguments, stop_ns) in CASES.items():
        plain, plain_err = statistics(simtx, work, name, arguments, False)
        traced, traced_err = statistics(simtx, work, name, arguments, True)
        if plain is None or traced is None:
            failures.append(f"{name}: {plain_err if plain is None else traced_err}")
            continue
        for section in ("simulated", "summary"):
            if plain[section] != traced[section]:
                differing = [key for key in plain[section] if plain[section][key] != traced[section].get(key)]
                failures.append(f"{name}: the '{section}' section differs with --vcd (in {differing})")
        for label, stats in (("without", plain), ("with", traced)):
            time_ps = stats["simulated"]["time_ps"]
            if time_ps != stop_ns * 1000:
                failures.append(f"{name}: {label} --vcd, simulated time {time_ps} ps, not the stop time {stop_ns} ns")
            # At most one instruction per lane per core cycle (gtx480: 15 x 32).
            ipc = stats["summary"]["total"].get("ipc", {}).get("value")
            if ipc is not None and ipc > 15 * 32:
                failures.append(f"{name}: {label} --vcd, IPC {ipc}")
    shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAILED:", failure)
    print(f"{len(CASES)} cases, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
