#!/usr/bin/python3
"""Runs a command and checks its exit status and output.

usage: expect.py [--exit N] [--stderr REGEX]... [--stdout REGEX]... [--quiet-stderr]
                 [--no-file PATH]... -- COMMAND...
Each REGEX must match somewhere in that stream; --quiet-stderr requires an
empty stderr; --no-file checks the run did not leave that file behind.
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit", type=int, default=0)
    parser.add_argument("--stderr", action="append", default=[])
    parser.add_argument("--stdout", action="append", default=[])
    parser.add_argument("--no-file", action="append", default=[])
    parser.add_argument("--quiet-stderr", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    for path in args.no_file:
        if os.path.exists(path):
            os.remove(path)
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    failures = []
    if result.returncode != args.exit:
        failures.append(f"exit status {result.returncode}, expected {args.exit}")
    if result.returncode < 0 or "Sanitizer" in result.stderr or "runtime error" in result.stderr:
        failures.append("the process crashed or a sanitizer reported an error")
    for pattern in args.stderr:
        if not re.search(pattern, result.stderr):
            failures.append(f"stderr does not match {pattern!r}")
    for pattern in args.stdout:
        if not re.search(pattern, result.stdout):
            failures.append(f"stdout does not match {pattern!r}")
    for path in args.no_file:
        if os.path.exists(path):
            failures.append(f"{path} was written")
    if args.quiet_stderr and result.stderr:
        failures.append("stderr is not empty")
    if failures:
        print("command:", " ".join(command))
        print("--- stdout ---\n" + result.stdout[-3000:])
        print("--- stderr ---\n" + result.stderr[-3000:])
        for failure in failures:
            print("FAILED:", failure)
        print(f"0 passed, {len(failures)} failed")
        return 1
    checks = 1 + len(args.stderr) + len(args.stdout) + len(args.no_file) + args.quiet_stderr
    print(f"{checks} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
