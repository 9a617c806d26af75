#!/usr/bin/python3
"""Idle cores must cost (almost) nothing: one CTA on the 15-core GTX480
platform; the 14 cores without work (and their L1s) are evaluated only at
the launch (its invalidating fence), and the busy core sleeps through its
memory waits.

usage: check_idle_cost.py SIMTX SCRATCH_DIR
"""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402


def run(simtx, scratch, workload, settings):
    stats_path = pathlib.Path(scratch) / f"idle_{workload}.json"
    command = [simtx, "run", "platforms/gtx480.lua", "--quiet", "--stats", str(stats_path), "--workload", workload]
    for setting in settings:
        command += ["--set", setting]
    subprocess.run(command, check=True, capture_output=True)
    simulated = json.loads(stats_path.read_text())["simulated"]
    return simulated["statistics"], simulated["clocks"]["core"]["cycles"]


def main():
    simtx, scratch = sys.argv[1], sys.argv[2]
    checks = []
    for workload, settings in (("vector_add", ["workload.n=256", "workload.block=256"]),
                               ("divergence", ["workload.n=128", "workload.block=128"])):
        stats, cycles = run(simtx, scratch, workload, settings)
        busy = [i for i in range(15) if stats[f"sm{i}.ctas_completed"]]
        checks.append((f"{workload}: exactly one core ran the CTA (got {busy})", len(busy) == 1))
        for i in range(15):
            if i in busy:
                continue
            ticks = stats[f"sm{i}.ticks"]
            # Cycle 0 and the launch hand-over; nothing while the kernel runs.
            checks.append((f"{workload}: idle sm{i} evaluated {ticks} times in {cycles} cycles", ticks <= 2))
            # The launch's invalidating fence (ldst.h), nothing else.
            wakes, fences = stats[f"l1_{i}.accesses"], stats[f"l1_{i}.fences"]
            checks.append((f"{workload}: idle l1_{i} saw {wakes} accesses, {fences} fences", wakes == 1 and fences == 1))
        if busy:
            ticks = stats[f"sm{busy[0]}.ticks"]
            checks.append((f"{workload}: the busy core sleeps through memory waits ({ticks} ticks, {cycles} cycles)",
                           0 < ticks < cycles))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
