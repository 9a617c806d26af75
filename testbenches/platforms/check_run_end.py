#!/usr/bin/python3
"""A run ends at the instant its last work ends, never at a wake-up a block
left behind (a DRAM controller's next refresh, planned while it was busy):
the cycle count is the busiest core's busy cycles (with the wait for
its launch's invalidating fence) plus the cycle it finished in, and a run shorter than the refresh interval lasts as long with
refresh off.

usage: check_run_end.py SIMTX SCRATCH_DIR
"""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402


def run(simtx, scratch, name, arguments):
    stats_path = pathlib.Path(scratch) / f"run_end_{name}.json"
    subprocess.run([simtx, "run"] + arguments + ["--quiet", "--stats", str(stats_path)], check=True, capture_output=True)
    return json.loads(stats_path.read_text())["simulated"]


def main():
    simtx, scratch = sys.argv[1], sys.argv[2]
    checks = []
    runs = {
        "vector_add": ["platforms/gtx480.lua", "--workload", "vector_add"],
        "vector_add_no_refresh": ["platforms/gtx480.lua", "--workload", "vector_add", "--set", "dram*.refresh=false"],
        "atm_kilotm": ["platforms/gtx480_kilotm.lua", "--workload", "atm", "--set", "workload.n=2880",
                       "--set", "workload.accounts=100000", "--set", "workload.per_thread=4"],
    }
    results = {name: run(simtx, scratch, name, arguments) for name, arguments in runs.items()}
    for name, simulated in results.items():
        stats, cycles = simulated["statistics"], simulated["clocks"]["core"]["cycles"]
        busy = max(value + stats[key.replace(".busy_cycles", ".launch_fence_cycles")]
                   for key, value in stats.items() if key.startswith("sm") and key.endswith(".busy_cycles"))
        checks.append((f"{name}: {cycles} core cycles, the busiest core busy for {busy} (its launch fence included)",
                       cycles == busy + 1))
    refreshes = results["vector_add"]["statistics"]["dram0.refreshes"]
    checks.append((f"vector_add ends before the first refresh (dram0.refreshes = {refreshes})", refreshes == 0))
    with_refresh, without = results["vector_add"]["time_ps"], results["vector_add_no_refresh"]["time_ps"]
    checks.append((f"vector_add lasts {with_refresh} ps with refresh, {without} ps without", with_refresh == without))
    refreshes = results["atm_kilotm"]["statistics"]["dram0.refreshes"]
    checks.append((f"atm_kilotm runs across refreshes (dram0.refreshes = {refreshes})", refreshes > 0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
