#!/usr/bin/python3
"""The write-skew workload over seeds 1..N on one platform (issue 28's
acceptance): with --expect fail, at least one seed must fail (exit 1) with
the snapshot-isolation checker naming a write-skew cycle, and every other
seed must pass; with --expect pass, every seed must pass with the checker's
acyclic verdict and the workload's own check.

usage: check_write_skew.py SIMTX NETLIST --expect pass|fail [--seeds N] [-- simtx options...]
"""
import argparse
import re
import subprocess
import sys

CYCLE = re.compile(r"snapshot-isolation checker: dependency cycle \(write skew, [0-9]+ transactions\): commit [0-9]+ -rw 0x[0-9a-f]+-> ")
ACYCLIC = re.compile(r"snapshot-isolation checker: [0-9]+ committed transactions, [a-z ]+, dependency graph .* acyclic")
SUMMARY = re.compile(r"write_skew: [0-9]+ pairs, exactly one thread of each left")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("simtx")
    parser.add_argument("netlist")
    parser.add_argument("--expect", choices=["pass", "fail"], required=True)
    parser.add_argument("--seeds", type=int, default=8)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    options = argv[split + 1:]
    failures, cycles = [], 0
    for seed in range(1, args.seeds + 1):
        command = [args.simtx, "run", args.netlist, "--workload", "write_skew", "--seed", str(seed), *options]
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if result.returncode == 1 and CYCLE.search(result.stderr):
            cycles += 1
            print(f"seed {seed}: rejected: {result.stderr.strip().splitlines()[-1]}")
            continue
        if result.returncode == 0 and ACYCLIC.search(result.stdout) and SUMMARY.search(result.stdout):
            print(f"seed {seed}: serializable, exactly one thread of each pair left")
            continue
        failures.append(f"seed {seed}: exit {result.returncode}: {result.stderr.strip()[-400:]}")
    if args.expect == "pass" and cycles:
        failures.append(f"{cycles} of {args.seeds} seeds produced a write-skew cycle")
    if args.expect == "fail" and not cycles:
        failures.append(f"no seed of 1..{args.seeds} produced a write-skew cycle")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{cycles} of {args.seeds} seeds rejected with a write-skew cycle; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
