#!/usr/bin/python3
"""Runs the same simtx command twice, with --stats and --vcd into separate
folders, and requires byte-identical simulated statistics (the JSON's
"simulated" section, as text) and a byte-identical VCD.

A third run without --vcd must give the same statistics too (the tick
scheduler then runs ahead of SystemC's time), and a fourth with another
--seed must change them (the seed reaches every random choice).

usage: determinism.py SIMTX run NETLIST [options...]
"""
import json
import pathlib
import subprocess
import sys
import tempfile

from check_report import report


def run(command, folder, waveforms=True):
    stats = folder / "stats.json"
    vcd = folder / "waves.vcd"
    subprocess.run(command + ["--stats", str(stats), "--quiet"] + (["--vcd", str(vcd)] if waveforms else []),
                   check=True)
    text = stats.read_text()
    simulated = json.loads(text)["simulated"]
    # Compare the exact bytes of the simulated section, not just the values.
    section = text[text.index('"simulated"'):text.index('"host"')]
    return section, simulated, vcd.read_bytes() if waveforms else None


def main():
    command = sys.argv[1:]
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second, \
            tempfile.TemporaryDirectory() as third, tempfile.TemporaryDirectory() as fourth:
        a = run(command + ["--seed", "11"], pathlib.Path(first))
        b = run(command + ["--seed", "11"], pathlib.Path(second))
        running_ahead = run(command + ["--seed", "11"], pathlib.Path(third), waveforms=False)
        c = run(command + ["--seed", "12"], pathlib.Path(fourth))
    checks = [
        ("simulated statistics are byte-identical", a[0] == b[0]),
        ("the VCD is byte-identical", a[2] == b[2]),
        ("statistics are byte-identical without --vcd", a[0] == running_ahead[0]),
        ("the run simulated some time", a[1]["time_ps"] > 0),
        ("the VCD has value changes", a[2].count(b"\n#") > 10),
        ("another seed gives other statistics", a[1]["statistics"] != c[1]["statistics"]),
    ]
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
