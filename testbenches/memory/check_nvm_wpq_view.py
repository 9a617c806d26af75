#!/usr/bin/python3
"""Runs the scenario of traces/nvm_wpq.gtkw, then checks that every signal
the view names exists in the VCD, and that the dump really shows partition
0's write-pending queue full (64 entries) and, later, empty again.

usage: check_nvm_wpq_view.py SIMTX OUTPUT_DIR
"""
import os
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from check_rowclone_view import parse_vcd  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def main():
    simtx, output = sys.argv[1], pathlib.Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    vcd = output / "nvm_wpq.vcd"
    subprocess.run([simtx, "run", "platforms/gtx480_pm.lua", "--quiet", "--workload", "vector_add",
                    "--set", "workload.n=262144", "--set", "workload.persistent=output", "--vcd", str(vcd),
                    "--trace", "l2_0.miss_queue,mem0.*,nvm*.wpq_occupancy,nvm0.read_queue_depth"],
                   cwd=ROOT, check=True, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    values = parse_vcd(vcd)
    failures = []
    view = (ROOT / "traces" / "nvm_wpq.gtkw").read_text()
    signals = [re.sub(r"\[\d+:\d+\]$", "", line) for line in view.splitlines() if line.startswith("SystemC.")]
    for signal in signals:
        if signal not in values:
            failures.append(f"{signal} (in the view) is not in the VCD")
    wpq = values.get("SystemC.nvm0.wpq_occupancy", [])
    full = wpq.index(64) if 64 in wpq else None
    if full is None:
        failures.append(f"nvm0's WPQ never fills (maximum {max(wpq, default=0)} of 64)")
    elif 0 not in wpq[full:]:
        failures.append("nvm0's WPQ never drains after filling")
    for failure in failures:
        print("FAILED:", failure)
    print(f"{len(signals) + 2 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
