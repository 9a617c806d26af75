#!/usr/bin/python3
"""Runs simtx with --vcd and checks the GTKWave view written beside the VCD:
its zoom shows the whole run (and not a tiny part of the window), the
marker sits at the run's end, every translate file it names exists beside
it and names every value its signals take in the VCD (values 0..n-1, each
once), level probes (queue depths, occupancies) are analog traces within the
range their name gives when the block knows it, the
named enumerations are translated, and the instance groups follow the
dataflow order of block kinds.

usage: check_generated_view.py [--enum PROBE]... [--repeats PROBE]... -- SIMTX run NETLIST [options...]
  --enum PROBE: a probe (instance.name) that must be shown through a translate file
  --repeats PROBE: a translated probe that shows the same name twice in a row
                   as two changes (a DRAM bank's commands: RD, RD on row hits)
"""
import argparse
import math
import pathlib
import re
import subprocess
import sys
import tempfile

from check_report import report
from vcd_check import parse

# The dataflow order of block kinds (independent of the generator's list).
KIND_ORDER = ["trace_player", "tm_traffic", "row_copy_initiator", "simt_core", "tm_unit", "ldst_unit", "lds",
              "l1_cache", "crossbar", "router", "l2_cache", "commit_unit", "memory", "dram_controller", "nvm_controller"]
# Probe names that are levels whatever block they belong to.
LEVEL = re.compile(r"(queue_depth|_queue|occupancy|in_flight|outstanding|pending_memory|active_warps|held)$")
WAVE_PIXELS = 1000  # the waveform pane width the view's zoom is made for
PIXELS_PER_FRAME = 200  # GTKWave: a frame of 200 pixels spans 2^-zoom time units
FLAG_TRANSLATED, FLAG_ANALOG_STEP = 0x2000, 0x8000


def view_traces(view):
    """[(flags, translate file or None, signal)] and the group names in order."""
    traces, groups, flags, translate = [], [], 0, None
    for line in view.splitlines():
        if line.startswith("@"):
            flags = int(line[1:], 16)
        elif line.startswith("^"):
            translate = line.split(None, 1)[1]
        elif line.startswith("SystemC.") or line.startswith("+{"):
            traces.append((flags, translate if flags & FLAG_TRANSLATED else None, line))
            translate = None
        elif line.startswith("-") and flags & 0x800000:
            groups.append(line[1:])
    return traces, groups


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--enum", action="append", default=[])
    parser.add_argument("--repeats", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    checks = []
    with tempfile.TemporaryDirectory() as folder:
        vcd = pathlib.Path(folder) / "waves.vcd"
        subprocess.run(command + ["--vcd", str(vcd), "--quiet"], check=True)
        text = vcd.read_text()
        view = vcd.with_suffix(".gtkw").read_text()
        names, changes = parse(text)
        end = max(int(t) for t in re.findall(r"^#(\d+)$", text, re.M))

        zoom_line = next((l for l in view.splitlines() if l.startswith("*")), "")
        fields = zoom_line[1:].split()
        zoom = float(fields[0]) if fields else 0.0
        span = 2 ** -zoom / PIXELS_PER_FRAME * WAVE_PIXELS
        checks.append((f"the zoom ({zoom}) shows the whole run ({end} ps in {span:.0f} ps)", span >= end))
        checks.append((f"the zoom ({zoom}) is no wider than twice the run", span < 2 * end or end < WAVE_PIXELS / PIXELS_PER_FRAME))
        checks.append(("the marker is at the run's end", len(fields) > 1 and int(fields[1]) >= end))
        checks.append(("the view starts at time 0", "[timestart] 0\n" in view))

        traces, groups = view_traces(view)
        checks.append(("the view names signals", len(traces) > 0))
        for flags, translate, line in traces:
            alias = re.match(r"\+\{(\S+) 0-(\d+)\} ", line)
            line = line[alias.end():] if alias else line
            signal = line[len("SystemC."):].split("[")[0]
            identifier = names.get("SystemC." + signal)
            checks.append((f"{signal} is in the VCD", identifier is not None))
            if alias:
                maximum = int(alias.group(2))
                highest = max((v for _, v in changes.get(identifier, [])), default=0)
                checks.append((f"{signal} stays within its range 0..{maximum} (reaches {highest})",
                               alias.group(1) == signal.split(".", 1)[1] and highest <= maximum))
            if LEVEL.search(signal) and "[" in line:
                checks.append((f"{signal} is an analog (step) trace", bool(flags & FLAG_ANALOG_STEP)))
            if signal in args.enum:
                checks.append((f"{signal} is translated", translate is not None))
            if translate is None:
                continue
            path = pathlib.Path(folder) / translate
            checks.append((f"{signal}'s translate file {translate} is beside the view", path.is_file()))
            if not path.is_file():
                continue
            entries = [l.split(None, 1) for l in path.read_text().splitlines() if l and not l.startswith("#")]
            keys = [int(k) for k, _ in entries]
            checks.append((f"{translate} names values 0..{len(keys) - 1} once each", keys == list(range(len(keys)))))
            checks.append((f"{translate} names every value", all(n.strip() for _, n in entries)))
            taken = {v for _, v in changes.get(identifier, [])}
            checks.append((f"{translate} names every value {signal} takes ({sorted(taken)})", taken <= set(keys)))
            if signal in args.repeats:
                shown = [dict(entries).get(str(v)) for _, v in changes.get(identifier, [])]
                checks.append((f"{signal} shows a name twice in a row as two changes",
                               any(a == b for a, b in zip(shown, shown[1:]))))
        for signal in args.enum:
            checks.append((f"{signal} is in the view", any(f"SystemC.{signal}[" in l or l.endswith(f"SystemC.{signal}")
                                                          for _, _, l in traces)))

        kinds = [re.search(r"\((\w+)\)$", g) for g in groups]
        checks.append(("every group names its block kind", all(kinds) and kinds))
        ranks = [KIND_ORDER.index(k.group(1)) if k and k.group(1) in KIND_ORDER else len(KIND_ORDER) for k in kinds]
        checks.append((f"groups follow the dataflow order ({[g for g in groups]})", ranks == sorted(ranks)))
        checks.append(("one group per instance", len(groups) == len(set(groups))))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
