#!/usr/bin/python3
"""Runs the scenario of traces/nvm_crash.gtkw (a power failure in the middle
of pm_stream on platforms/gpu_pm.lua), then checks that the run recovered a
consistent durable image, that every signal the view names is in the VCD,
that the dump ends at the failure, and that the write-pending queues held
writes before it.

usage: check_nvm_crash_view.py SIMTX OUTPUT_DIR
"""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "testbenches" / "memory"))
from check_rowclone_view import parse_vcd  # noqa: E402

CRASH_NS = 7000


def last_time_ps(vcd):
    last = 0
    with open(vcd) as f:
        for line in f:
            if line.startswith("#"):
                last = int(line[1:])
    return last


def main():
    simtx, output = sys.argv[1], pathlib.Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    vcd = output / "nvm_crash.vcd"
    view = (ROOT / "traces" / "nvm_crash.gtkw").read_text()
    command = [simtx, "run", "platforms/gpu_pm.lua", "--quiet", "--workload", "pm_stream", "--set", "workload.persist=nt",
               "--crash-at", str(CRASH_NS), "--vcd", str(vcd),
               "--trace", "sm0.pending_memory,sm0.stall_reason,l2_0.miss_queue,mem0.*,nvm*.wpq_occupancy"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    failures = []
    if result.returncode != 0 or "0 torn, 0 lost" not in result.stdout:
        failures.append(f"the run (exit {result.returncode}) did not recover a consistent image:\n{result.stdout}{result.stderr}")
    values = parse_vcd(vcd) if vcd.exists() else {}
    signals = [re.sub(r"\[\d+:\d+\]$", "", line) for line in view.splitlines() if line.startswith("SystemC.")]
    for signal in signals:
        if signal not in values:
            failures.append(f"{signal} (in the view) is not in the VCD")
    if vcd.exists() and not CRASH_NS * 1000 - 2000 <= last_time_ps(vcd) <= CRASH_NS * 1000:
        failures.append(f"the dump ends at {last_time_ps(vcd)} ps, not at the failure ({CRASH_NS} ns)")
    busiest = max((max(v, default=0) for k, v in values.items() if k.endswith("wpq_occupancy")), default=0)
    if busiest == 0:
        failures.append("no write-pending queue ever held a write")
    for failure in failures:
        print("FAILED:", failure)
    print(f"{len(signals) + 3 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
