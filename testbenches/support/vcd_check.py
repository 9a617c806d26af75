#!/usr/bin/python3
"""Runs simtx with --vcd and checks the waveform: it parses (gtkwave's
vcd2fst converts it), the expected signals are declared in their scopes,
each changes value, changes are at increasing times, and the .gtkw view
beside it names the same signals.

usage: vcd_check.py --signal SCOPE.NAME [--signal ...] -- SIMTX run NETLIST [options...]
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from check_report import report


def parse(vcd_text):
    """Returns {full name: identifier}, {identifier: [(time, value)]}."""
    names, changes, scopes = {}, {}, []
    time = 0
    header, _, body = vcd_text.partition("$enddefinitions")
    for line in header.splitlines():
        words = line.split()
        if words[:2] == ["$scope", "module"]:
            scopes.append(words[2])
        elif words[:1] == ["$upscope"]:
            scopes.pop()
        elif words[:1] == ["$var"]:
            names[".".join(scopes + [words[4]])] = words[3]
            changes[words[3]] = []
    for line in body.splitlines():
        if line.startswith("#"):
            time = int(line[1:])
        elif line.startswith("b"):
            value, identifier = line[1:].split()
            changes[identifier].append((time, int(value, 2)))
        elif line[:1] in ("0", "1") and line[1:] in changes:
            changes[line[1:]].append((time, int(line[0])))
    return names, changes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--signal", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    checks = []
    with tempfile.TemporaryDirectory() as folder:
        vcd = pathlib.Path(folder) / "waves.vcd"
        subprocess.run(command + ["--vcd", str(vcd), "--quiet"], check=True)
        converter = shutil.which("vcd2fst")
        converted = subprocess.run([converter, str(vcd), str(vcd.with_suffix(".fst"))],
                                   capture_output=True) if converter else None
        checks.append(("vcd2fst is installed (Debian package gtkwave)", converter is not None))
        checks.append(("vcd2fst converts the VCD", converted is not None and converted.returncode == 0
                       and vcd.with_suffix(".fst").stat().st_size > 0))
        text = vcd.read_text()
        view = vcd.with_suffix(".gtkw").read_text()
        names, changes = parse(text)
        times = [int(t) for t in re.findall(r"^#(\d+)$", text, re.M)]
        checks.append(("timestamps increase", times == sorted(times) and len(times) == len(set(times))))
        checks.append(("the view loads this VCD", '[dumpfile] "waves.vcd"' in view))
        for signal in args.signal:
            identifier = names.get("SystemC." + signal)
            checks.append((f"{signal} is declared", identifier is not None))
            values = [v for _, v in changes.get(identifier, [])]
            checks.append((f"{signal} changes value", len(set(values)) > 1))
            checks.append((f"{signal} is in the view", f"SystemC.{signal}[" in view or f"SystemC.{signal}\n" in view))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
