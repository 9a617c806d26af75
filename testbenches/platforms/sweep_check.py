#!/usr/bin/python3
"""A tiny local sweep (sweep_tiny.json: trace replay, 2 request counts x 2
router latencies x 2 seeds) through scripts/sweep, and checks of its table:
one row per point in grid order, every point ok, each point's completed
requests equal to its --define requests, a longer router latency never
faster, and the same table from GNU parallel (where installed) and from
the points run one by one (as Slurm array tasks run them). usage: sweep_check.py SIMTX SCRATCH"""
import csv
import os
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
simtx, scratch = sys.argv[1], sys.argv[2]
spec = os.path.join(root, "testbenches", "platforms", "sweep_tiny.json")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def sweep(out, *extra):
    shutil.rmtree(out, ignore_errors=True)
    result = subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep"), spec, "--simtx", simtx, "--workdir", root,
                             "--out", out, "--jobs", "2", *extra], capture_output=True, text=True)
    check(result.returncode == 0, f"sweep {' '.join(extra)} exited {result.returncode}: {result.stderr.strip()}")
    return list(csv.DictReader(open(os.path.join(out, "results.csv"))))


rows = sweep(os.path.join(scratch, "pool"), "--runner", "pool")
check(len(rows) == 8, f"{len(rows)} rows, expected 8")
expected = [(r, l, s) for l in ("2", "8") for r in ("300", "1200") for s in ("1", "2")]  # set before define, seeds last
got = [(row["define.requests"], row["set.crossbar.latency"], row["seed"]) for row in rows]
check(got == expected, f"points out of grid order: {got}")
for row in rows:
    check(row["status"] == "ok", f"point {row['point']}: {row['status']}")
    check(row.get("trace_requests (requests)") == row["define.requests"],
          f"point {row['point']}: {row.get('trace_requests (requests)')} requests completed, {row['define.requests']} defined")
by_point = {(r["define.requests"], r["set.crossbar.latency"], r["seed"]): int(r["time_ps"]) for r in rows}
for requests in ("300", "1200"):
    for seed in ("1", "2"):
        check(by_point[(requests, "8", seed)] >= by_point[(requests, "2", seed)],
              f"{requests} requests, seed {seed}: latency 8 finished before latency 2")
check(by_point[("1200", "2", "1")] > by_point[("300", "2", "1")], "1200 requests took no longer than 300")
check(os.path.exists(os.path.join(scratch, "pool", "results.png")), "no plot written")

# GNU parallel, where installed, runs the same points to the same table.
if shutil.which("parallel"):
    sweep(os.path.join(scratch, "parallel"), "--runner", "parallel")
    check(open(os.path.join(scratch, "parallel", "results.csv")).read() == open(os.path.join(scratch, "pool", "results.csv")).read(),
          "GNU parallel gave another table than the process pool")

# One point alone, as a Slurm array task runs it, then gathered: the same table.
single = os.path.join(scratch, "single")
shutil.rmtree(single, ignore_errors=True)
for point in range(8):
    subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep"), spec, "--simtx", simtx, "--workdir", root, "--out", single,
                    "--point", str(point)], check=False)
subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep"), spec, "--out", single, "--gather"], capture_output=True)
check(open(os.path.join(single, "results.csv")).read() == open(os.path.join(scratch, "pool", "results.csv")).read(),
      "points run one by one gave another table than the process pool")

for failure in failures:
    print("FAIL:", failure)
print(f"sweep: {len(rows)} points, {len(failures)} failures")
sys.exit(1 if failures else 0)
