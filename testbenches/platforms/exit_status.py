#!/usr/bin/python3
"""The exit-status table of README.md, checked: one input of each kind.

usage: exit_status.py SIMTX KERNEL_DIR WORK_DIR PLUGIN (testbenches/platforms/plugin_misbehaves.cpp)
Reads the table's rows (input or outcome | status | ...) and runs, for each
row, the inputs below with the same label (one, or a list: one of each kind
the row names); each run must exit with the row's status and its stderr
must match the case's pattern. A row without a case,
or a case without a row, fails the test.
"""
import os
import re
import shutil
import subprocess
import sys

NETLISTS = "testbenches/platforms/netlists"


def cases(kernels, work, plugin):
    core = "platforms/simt_1core.lua"
    fifo = os.path.join(work, "fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    netlist_copy = shutil.copy(f"{NETLISTS}/good_small.lua", os.path.join(work, "copy.lua"))
    return {
        "the run completed, every oracle passed": [
            (["run", core, "--quiet", "--workload", "vector_add", "--set", "workload.n=64"], r"^$"),
            # Decimal, whatever the leading zeros (not octal: 0900000 is no error).
            (["run", core, "--quiet", "--workload", "vector_add", "--set", "workload.n=64", "--watchdog", "0900000"], r"^$")],
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
        "a host plugin that calls `exit()` or throws an exception": [
            (["run", core, "--quiet", "--host", plugin, "--", "exit"], r"exit\(0\) was called during the run"),
            (["run", core, "--quiet", "--host", plugin, "--", "throw"], r"threw an exception: plugin_misbehaves threw on purpose")],
        "command line": [
            (["run", f"{NETLISTS}/good_small.lua", "--seed", "many"], r"--seed: expected a non-negative integer, got 'many'"),
            (["run", f"{NETLISTS}/good_small.lua", "--watchdog", " -1"], r"--watchdog: expected a non-negative integer, got ' -1'"),
            (["run", f"{NETLISTS}/good_small.lua", "--max-time", " -1"], r"--max-time: expected a non-negative integer, got ' -1'"),
            (["run", f"{NETLISTS}/good_small.lua", "--max-time", "0"], r"--max-time: expected a time after 0 ns"),
            (["run", f"{NETLISTS}/good_small.lua", "--max-time", "18446744073709552"], r"--max-time: .* past the longest simulated time")],
        "crash injection":  [
            (["run", core, "--workload", "pm_kvs", "--crash-at", "300"], r"--crash-at 300: .*simt_1core.lua has no nvm_controller"),
            (["run", "platforms/gpu_pm.lua", "--workload", "pm_kvs", "--crash-at", "3000", "--max-time", "2000"],
             r"--crash-at 3000: the crash time 3000 ns is past --max-time 2000 ns"),
            (["run", "platforms/gpu_pm.lua", "--workload", "vector_add", "--set", "workload.n=64", "--crash-at", "100000000"],
             r"--crash-at 100000000: the crash time 100000000 ns is past the end of the run")],
        "netlist": [
            (["run", f"{NETLISTS}/unknown_parameter.lua"], r"unknown_parameter.lua:3: block 'mem' \(memory\) has no parameter"),
            (["run", fifo], r"netlist .*fifo: '.*fifo' is a FIFO")],
        "`--set` or `--define` value": [
            (["run", f"{NETLISTS}/good_small.lua", "--set", "mem.latency=-4"], r"--set 'mem.latency=-4': block 'mem'"),
            # A value checked against another parameter: the option is blamed, not the netlist line.
            (["run", "platforms/gtx480_warptm_ea.lua", "--set", "sm*_tm.cat_entries=1"],
             r"--set 'sm\*_tm.cat_entries=1': block 'sm0_tm' \(tm_unit\): cat_entries 1 must be at least cat_ways")],
        "trace file":
            (["run", f"{NETLISTS}/good_small.lua", "--set", f"player.trace={NETLISTS}/bad_trace.trc"],
             r"bad_trace.trc:4: bad address '0x10G0'"),
        "kernel file": [
            (["run", core, "--workload", "vector_add", "--set", f"workload.kernel={kernels}/bad_jump_table_O2.elf"],
             r"indirect jump at 0x[0-9a-f]+ <vector_add"),
            (["run", core, "--workload", "vector_add", "--set", f"workload.kernel={fifo}"], r"kernel '.*fifo' is not a regular file")],
        "workload or workload option":
            (["run", core, "--workload", "vector_add", "--set", "workload.block=0"], r"workload.block: expected an integer"),
        "host plugin": [
            (["run", core, "--host", f"{work}/no_such_plugin.so"], r"--host .*no_such_plugin.so: cannot load the host plugin"),
            (["run", core, "--host", fifo], r"--host .*fifo: '.*fifo' is a FIFO")],
        "output path": [
            (["run", f"{NETLISTS}/good_small.lua", "--stats", work], r"--stats .*is a folder"),
            (["run", f"{NETLISTS}/good_small.lua", "--stats", ""], r"--stats: expected a file name, got ''"),
            (["run", f"{NETLISTS}/good_small.lua", "--stats", f"{work}/same.vcd", "--vcd", f"{work}/same.vcd"],
             r"--vcd .*same.vcd: .* is also written as --stats"),
            # A copy: before the fix the netlist was overwritten.
            (["run", netlist_copy, "--stats", netlist_copy], r"--stats .*copy.lua: .* is the netlist")],
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
    simtx, kernels, work, plugin = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    inputs = cases(kernels, work, plugin)
    rows = readme_rows()
    failures = []
    checked = 0
    if not rows:
        failures.append("README.md has no exit-status table")
    for label in set(inputs) - {label for label, _ in rows}:
        failures.append(f"case '{label}' has no row in the README's table")
    for label, status in rows:
        if label not in inputs:
            failures.append(f"README row '{label}' has no case")
            continue
        for arguments, pattern in inputs[label] if isinstance(inputs[label], list) else [inputs[label]]:
            checked += 1
            try:
                result = subprocess.run([simtx, *arguments], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                                        errors="replace")
            except subprocess.TimeoutExpired:
                failures.append(f"{label}: {arguments[1:]}: still running after 60 s")
                continue
            if result.returncode != status:
                failures.append(f"{label}: {arguments[1:]}: exit status {result.returncode}, the README says {status}; "
                                f"stderr: {result.stderr[-500:]}")
            elif not re.search(pattern, result.stderr, re.MULTILINE):
                failures.append(f"{label}: {arguments[1:]}: stderr {result.stderr[-500:]!r} does not match {pattern!r}")
    for failure in failures:
        print("FAILED:", failure)
    print(f"{len(rows)} rows, {checked} inputs, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
