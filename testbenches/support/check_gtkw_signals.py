#!/usr/bin/python3
"""Checks that every signal a hand-made GTKWave view names exists in the VCD
of the run it is made for, and that every translate file the view names
(beside it, in traces/) is the one simtx writes beside that run's view
(same values, same names). usage: check_gtkw_signals.py SIMTX VIEW NETLIST
[RUN ARGUMENTS...] (default: --define requests=200, for the trace netlists)"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    simtx, view, netlist = sys.argv[1:4]
    arguments = sys.argv[4:] or ["--define", "requests=200"]
    wanted = [l.strip() for l in open(view) if l.startswith("SystemC.")]
    translates = sorted({l.split(None, 1)[1].strip() for l in open(view) if l.startswith("^")})
    failures = []
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
        if translates and f'[savefile] "{os.path.basename(view)}"' not in open(view).read():
            failures.append("the view names translate files but no [savefile] line naming itself (GTKWave finds them through it)")
        for name in translates:
            mine = os.path.join(os.path.dirname(view), name)
            generated = os.path.join(directory, "run." + name)
            if not os.path.isfile(mine):
                failures.append(f"{name}: the view's translate file is missing")
            elif not os.path.isfile(generated):
                failures.append(f"{name}: simtx wrote no run.{name} for this run")
            elif open(mine).read() != open(generated).read():
                failures.append(f"{name} differs from the one simtx writes (copy run.{name})")
    missing = [w for w in wanted if w not in present]
    for m in missing:
        print("not in the VCD:", m)
    for f in failures:
        print("FAILED:", f)
    print(f"{len(wanted) + len(translates) + 1 - len(missing) - len(failures)} passed, {len(missing) + len(failures)} failed")
    return 1 if missing or failures or not wanted else 0


if __name__ == "__main__":
    sys.exit(main())
