#!/usr/bin/python3
"""Runs the RowClone scenario of traces/dram_rowclone.gtkw, then checks that
every signal the view names exists in the VCD, and that the dump really shows
bank 0 copying (state 3) while another bank serves traffic (state 1).

usage: check_rowclone_view.py SIMTX OUTPUT_DIR
"""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def parse_vcd(path):
    """Returns {full.signal.name: [values in time order]}."""
    codes, values, scopes = {}, {}, []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "$scope":
                scopes.append(words[2])
            elif words[0] == "$upscope":
                scopes.pop()
            elif words[0] == "$var":
                name = ".".join(scopes + [words[4]])
                codes.setdefault(words[3], []).append(name)
                values[name] = []
            elif words[0][0] == "b" and len(words) == 2 and words[1] in codes:
                for name in codes[words[1]]:
                    values[name].append(int(words[0][1:], 2))
            elif words[0][0] in "01" and len(words) == 1 and words[0][1:] in codes:
                for name in codes[words[0][1:]]:
                    values[name].append(int(words[0][0]))
    return values


def main():
    simtx, output = sys.argv[1], pathlib.Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    vcd = output / "dram_rowclone.vcd"
    subprocess.run([simtx, "run", "platforms/dram_trace.lua", "--quiet", "--define", "copies=4", "--define",
                    "requests=3000", "--set", "player.read_percent=70", "--set", "dram.check_timing=true",
                    "--vcd", str(vcd)], cwd=ROOT, check=True, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    values = parse_vcd(vcd)
    failures = []
    view = (ROOT / "traces" / "dram_rowclone.gtkw").read_text()
    signals = [re.sub(r"\[\d+:\d+\]$", "", line) for line in view.splitlines() if line.startswith("SystemC.")]
    if len(signals) < 10:
        failures.append(f"the view names only {len(signals)} signals")
    for signal in signals:
        if signal not in values:
            failures.append(f"{signal} (in the view) is not in the VCD")
    bank0 = values.get("SystemC.dram.bank0_state", [])
    if bank0.count(3) < 4:
        failures.append(f"bank 0 shows {bank0.count(3)} copies, expected 4")
    if 1 not in values.get("SystemC.dram.bank4_state", []):
        failures.append("bank 4 never shows an open row next to the copies")
    for failure in failures:
        print("check_rowclone_view:", failure, file=sys.stderr)
    print(f"{len(signals) + 2 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
