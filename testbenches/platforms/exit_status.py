#!/usr/bin/python3
"""The exit-status table of README.md, checked: one input of each kind.

usage: exit_status.py SIMTX KERNEL_DIR WORK_DIR
Reads the table's rows (input or outcome | status | ...) and runs, for each
row, the input below with the same label; the run must exit with the row's
status and its stderr must match the case's pattern. A row without a case,
or a case without a row, fails the test.
"""
import os
import re
import subprocess
import sys

NETLISTS = "testbenches/platforms/netlists"


def cases(kernels, work):
    core = "platforms/simt_1core.lua"
    return {
        "the run completed, every oracle passed":
            (["run", core, "--quiet", "--workload", "vector_add", "--set", "workload.n=64"], r"^$"),
        "a run-time error reported by a block":
            (["run", core, "--workload", "vector_add", "--set", "workload.n=64", "--set",
              f"workload.kernel={kernels}/bad_illegal_O2.elf"], r"illegal instruction at 0x"),
        "an oracle failed":
            (["run", core, "--workload", "vector_add", "--set", "workload.n=64", "--set",
              f"workload.kernel={kernels}/bad_wrong_result_O2.elf"], r"vector_add: c\[0\] = -?[0-9]+, expected"),
        "a kernel access outside every live allocation":
            (["run", core, "--workload", "vector_add", "--set", "workload.n=64", "--set",
              f"workload.kernel={kernels}/bad_out_of_bounds_O2.elf"],
             r"memcheck: invalid 4-byte store at 0x[0-9a-f]+ by lane 5 at pc 0x[0-9a-f]+ <vector_add.*nearest: allocation"),
        "`--max-time` reached":
            (["run", f"{NETLISTS}/slow_memory.lua", "--quiet", "--max-time", "5000"], r"stopped at --max-time 5 us"),
        "a deadlock or livelock":
            (["run", core, "--quiet", "--watchdog", "1000", "--workload", "vector_add", "--set", "workload.n=64", "--set",
              f"workload.kernel={kernels}/bad_spin_O2.elf"], r"livelock: no program changed state visible outside its threads"),
        "an injected power failure":
            (["run", "platforms/gpu_pm.lua", "--quiet", "--workload", "vector_add", "--crash-at", "300"],
             r"workload 'vector_add': power failure at 300 ns"),
        "command line":
            (["run", f"{NETLISTS}/good_small.lua", "--seed", "many"], r"--seed: expected a non-negative integer, got 'many'"),
        "netlist":
            (["run", f"{NETLISTS}/unknown_parameter.lua"], r"unknown_parameter.lua:3: block 'mem' \(memory\) has no parameter"),
        "`--set` or `--define` value":
            (["run", f"{NETLISTS}/good_small.lua", "--set", "mem.latency=-4"], r"--set 'mem.latency=-4': block 'mem'"),
        "trace file":
            (["run", f"{NETLISTS}/good_small.lua", "--set", f"player.trace={NETLISTS}/bad_trace.trc"],
             r"bad_trace.trc:4: bad address '0x10G0'"),
        "kernel file":
            (["run", core, "--workload", "vector_add", "--set", f"workload.kernel={kernels}/bad_jump_table_O2.elf"],
             r"indirect jump at 0x[0-9a-f]+ <vector_add"),
        "workload or workload option":
            (["run", core, "--workload", "vector_add", "--set", "workload.block=0"], r"workload.block: expected an integer"),
        "host plugin":
            (["run", core, "--host", f"{work}/no_such_plugin.so"], r"--host .*no_such_plugin.so: cannot load the host plugin"),
        "output path":
            (["run", f"{NETLISTS}/good_small.lua", "--stats", work], r"--stats .*is a folder"),
    }


def readme_rows():
    rows = []
    in_table = False
    for line in open("README.md"):
        if line.startswith("| input or outcome | status |"):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                break
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells[1].isdigit():
                rows.append((re.sub(r" \(.*", "", cells[0]), int(cells[1])))
    return rows


def main():
    simtx, kernels, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    inputs = cases(kernels, work)
    rows = readme_rows()
    failures = []
    if not rows:
        failures.append("README.md has no exit-status table")
    for label in set(inputs) - {label for label, _ in rows}:
        failures.append(f"case '{label}' has no row in the README's table")
    for label, status in rows:
        if label not in inputs:
            failures.append(f"README row '{label}' has no case")
            continue
        arguments, pattern = inputs[label]
        result = subprocess.run([simtx, *arguments], capture_output=True, text=True, timeout=120)
        if result.returncode != status:
            failures.append(f"{label}: exit status {result.returncode}, the README says {status}; stderr: {result.stderr[-500:]}")
        elif not re.search(pattern, result.stderr, re.MULTILINE):
            failures.append(f"{label}: stderr {result.stderr[-500:]!r} does not match {pattern!r}")
    for failure in failures:
        print("FAILED:", failure)
    print(f"{len(rows) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
