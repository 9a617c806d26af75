#!/usr/bin/python3
"""scripts/sweep on malformed inputs (issue 26, defect 6): every bad spec,
--out onto a file, and a malformed point statistics file at --gather end in
exit 2 with a message naming the file and the key, without a Python
traceback; a bad spec is refused before any point runs (the --simtx given is
a script that would leave a mark). usage: sweep_inputs_check.py SIMTX SCRATCH"""
import copy
import csv
import json
import os
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
simtx, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
failures = []
marker = os.path.join(scratch, "a_point_ran")
spy = os.path.join(scratch, "spy_simtx")
with open(spy, "w") as f:
    f.write(f"#!/bin/sh\ntouch {marker}\n")
os.chmod(spy, 0o755)


def check(condition, message):
    if not condition:
        failures.append(message)


def sweep(spec_path, *arguments):
    return subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep"), spec_path, *arguments],
                          capture_output=True, text=True)


def refused(name, result, message):
    check(result.returncode == 2 and result.stderr.startswith("sweep: ") and message in result.stderr and "Traceback" not in result.stderr,
          f"{name}: exit {result.returncode}, expected 2 and '{message}': {result.stderr.strip()[-400:]}")


def write(name, spec):
    path = os.path.join(scratch, name + ".json")
    with open(path, "w") as f:
        f.write(spec if isinstance(spec, str) else json.dumps(spec))
    return path


good = {"netlists": ["platforms/trace_replay.lua"], "define": {"requests": [50]}, "seeds": [1], "plot": {"x": "seed"}}


def spec_with(**changes):
    spec = copy.deepcopy(good)
    spec.update(changes)
    return spec


text = json.dumps(good)
specs = [
    ("truncated", text[:len(text) // 2], "not JSON: "),
    ("list", "[]", "the spec must be a JSON object"),
    ("duplicate_key", text[:-1] + ', "seeds": [2]}', 'duplicate key "seeds"'),
    ("nan", text.replace("[1]", "[NaN]"), "NaN is not JSON"),
    ("unknown_key", spec_with(plots={}), 'unknown key(s) "plots"'),
    ("no_netlists", {"seeds": [1]}, 'no "netlists"'),
    ("netlists_string", spec_with(netlists="platforms/trace_replay.lua"), "netlists: expected a list"),
    ("netlist_number", spec_with(netlists=[5]), 'is no name'),
    ("netlist_option", spec_with(netlists=["--host"]), 'netlists[0]: "--host" is no name'),
    ("workloads_object", spec_with(workloads={"a": 1}), "workloads: expected a list"),
    ("seed_string", spec_with(seeds=["a"]), 'seeds[0]: expected an integer in 0..2^64-1, got "a"'),
    ("seed_negative", spec_with(seeds=[-1]), "seeds[0]: expected an integer in 0..2^64-1"),
    ("seed_boolean", spec_with(seeds=[True]), "seeds[0]: expected an integer in 0..2^64-1, got a boolean"),
    ("seed_huge", spec_with(seeds=[1 << 64]), "seeds[0]: expected an integer in 0..2^64-1, got an integer"),
    ("define_list", spec_with(define=[1]), "define: expected an object"),
    ("define_empty", spec_with(define={"requests": []}), "define.requests: expected a non-empty list"),
    ("define_nested", spec_with(define={"requests": [{"n": 1}]}), "define.requests[0]: expected a string, number or boolean"),
    ("define_equals", spec_with(define={"a=b": [1]}), '"a=b" is no name'),
    ("set_nul", spec_with(set={"crossbar.latency": ["2\u0000"]}), "NUL character"),
    ("options_without_workload", spec_with(workload_options={"n": [1]}), '"workload_options" needs "workloads"'),
    ("too_many_points", spec_with(define={"a": list(range(1000)), "b": list(range(1000))}), "the grid has 1000000 points"),
    ("argument_unknown", spec_with(arguments=["--evil"]), '"--evil" is no simtx run option'),
    ("argument_stats", spec_with(arguments=["--stats", "x.json"]), "--stats is the sweep's own"),
    ("argument_missing_value", spec_with(arguments=["--watchdog"]), "--watchdog has no value"),
    ("argument_object", spec_with(arguments=[{}]), "arguments[0]: expected a string"),
    ("plot_string", spec_with(plot="ipc"), "plot: expected an object"),
    ("plot_unknown_key", spec_with(plot={"x": "seed", "z": "ipc"}), 'plot: unknown key "z"'),
    ("plot_x_unknown", spec_with(plot={"x": "define.nope"}), 'plot.x: "define.nope" is none of the grid\'s coordinates'),
    ("plot_y_number", spec_with(plot={"y": 3}), "plot.y: expected a column name"),
]
for name, spec, message in specs:
    out = os.path.join(scratch, "out_" + name)
    refused(name, sweep(write(name, spec), "--simtx", spy, "--out", out, "--jobs", "1"), message)
    check(not os.path.exists(out), f"{name}: the sweep made its output folder before refusing the spec")
    if name in ("truncated", "plot_unknown_key", "argument_unknown"):  # a Slurm task reads the spec too
        refused(name + " --point", sweep(os.path.join(scratch, name + ".json"), "--simtx", spy, "--out", out, "--point", "0"), message)
check(not os.path.exists(marker), "a point ran with a bad spec")

good_path = write("good", good)
a_file = write("a_file", "{}")
refused("out_file", sweep(good_path, "--simtx", spy, "--out", a_file), "--out " + a_file + ": not a folder")
refused("gather_missing", sweep(good_path, "--out", os.path.join(scratch, "none"), "--gather"), "no such folder")
refused("point_out_of_range", sweep(good_path, "--simtx", spy, "--out", os.path.join(scratch, "range"), "--point", "1"),
        "--point 1: the spec has 1 points")
refused("workdir_missing", sweep(good_path, "--simtx", spy, "--out", os.path.join(scratch, "w"), "--workdir", os.path.join(scratch, "none")),
        "--workdir " + os.path.join(scratch, "none") + ": not a folder")
refused("simtx_missing", sweep(good_path, "--simtx", os.path.join(scratch, "none"), "--out", os.path.join(scratch, "w"), "--point", "0"),
        "--simtx " + os.path.join(scratch, "none") + ": not an executable")
check(not os.path.exists(marker), "a point ran with bad options")

# One real point, then its statistics damaged before gathering again.
out = os.path.join(scratch, "gathered")
result = sweep(good_path, "--simtx", simtx, "--workdir", root, "--out", out, "--jobs", "1", "--runner", "pool")
check(result.returncode == 0, f"the one-point sweep: exit {result.returncode}: {result.stderr}")
stats_path = os.path.join(out, "points", "0", "stats.json")
intact = open(stats_path).read()
data = json.loads(intact)
damaged = [
    ("truncated", intact[:len(intact) // 3], "not JSON: "),
    ("no_host", {k: v for k, v in data.items() if k != "host"}, 'no "host"'),
    ("time_string", {**data, "simulated": {**data["simulated"], "time_ps": "12"}}, "simulated.time_ps: expected a number"),
    ("total_entry_number", {**data, "summary": {"total": {"ipc": 5}}}, 'summary.total."ipc": expected an object'),
    ("total_unit_missing", {**data, "summary": {"total": {"ipc": {"value": 1}}}}, 'summary.total."ipc": no "unit"'),
]
for name, stats, message in damaged:
    with open(stats_path, "w") as f:
        f.write(stats if isinstance(stats, str) else json.dumps(stats))
    result = sweep(good_path, "--out", out, "--gather")
    refused("gather " + name, result, message)
    check(stats_path in result.stderr, f"gather {name}: the message does not name {stats_path}: {result.stderr}")
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
    check(rows and rows[0]["status"] == "bad statistics", f"gather {name}: the table's row {rows}")
with open(stats_path, "w") as f:
    f.write(intact)
refused("plot_y_absent", sweep(write("y_absent", spec_with(plot={"y": "no_such_figure"})), "--out", out, "--gather"),
        'plot.y: "no_such_figure" is no column of the table')
check(sweep(good_path, "--out", out, "--gather").returncode == 0, "gathering the intact statistics again failed")

for failure in failures:
    print("FAIL:", failure)
print(f"sweep inputs: {len(specs)} bad specs, {len(damaged)} damaged statistics, {len(failures)} failures")
sys.exit(1 if failures else 0)
