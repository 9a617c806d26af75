#!/usr/bin/python3
"""Checks that every signal a hand-made GTKWave view names exists in the VCD
of the run it is made for. usage: check_gtkw_signals.py SIMTX VIEW NETLIST
[RUN ARGUMENTS...] (default: --define requests=200, for the trace netlists)"""
import re
import subprocess
import sys
import tempfile


def main():
    simtx, view, netlist = sys.argv[1:4]
    arguments = sys.argv[4:] or ["--define", "requests=200"]
    wanted = [l.strip() for l in open(view) if l.startswith("SystemC.")]
    with tempfile.TemporaryDirectory() as directory:
        vcd = directory + "/run.vcd"
        if subprocess.run([simtx, "run", netlist, "--quiet", "--vcd", vcd, *arguments]).returncode:
            print("simtx failed")
            return 1
        scopes, present = [], set()
        for line in open(vcd):
            words = line.split()
            if not words:
                continue
            if words[0] == "$scope":
                scopes.append(words[2])
            elif words[0] == "$upscope":
                scopes.pop()
            elif words[0] == "$var":
                name = words[4]
                width = int(words[2])
                suffix = f"[{width - 1}:0]" if width > 1 else ""
                present.add(".".join(scopes + [name]) + suffix)
            elif words[0] == "$enddefinitions":
                break
    missing = [w for w in wanted if w not in present]
    for m in missing:
        print("not in the VCD:", m)
    print(f"{len(wanted) - len(missing)} passed, {len(missing)} failed")
    return 1 if missing or not wanted else 0


if __name__ == "__main__":
    sys.exit(main())
