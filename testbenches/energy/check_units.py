#!/usr/bin/python3
"""A technology's figures are converted to pJ and W (technology.cpp), and a
run is priced with them by hand: 100 requests of 64 bytes, half reads,
against a fixed-latency memory (netlists/units.lua).

usage: check_units.py SIMTX   (from the repository root)
"""
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402


def main():
    with tempfile.TemporaryDirectory() as scratch:
        stats = pathlib.Path(scratch) / "stats.json"
        subprocess.run([sys.argv[1], "run", "testbenches/energy/netlists/units.lua", "--quiet", "--stats", str(stats)], check=True)
        document = json.loads(stats.read_text())
    energy, time_ps = document["energy"], document["simulated"]["time_ps"]
    mem = energy["blocks"]["mem"]
    read, write = mem["events"]["read_byte"], mem["events"]["write_byte"]
    by_hand = 0.5 * time_ps + read["count"] * 2.0 + write["count"] * 3.0  # W x ps = pJ
    checks = [
        ("500 mW is 0.5 W", mem["static_power"]["value"] == 0.5),
        ("0.002 nJ is 2 pJ", read["per_event"]["value"] == 2.0),
        ("3000 fJ is 3 pJ", abs(write["per_event"]["value"] - 3.0) < 1e-12),
        (f"the bytes are counted: {read['count']} read, {write['count']} written of 6400", read["count"] + write["count"] == 6400),
        ("the trace player has no energy events (it stands in for a core)", energy["blocks"]["player"]["events"] == {}),
        (f"the total is priced by hand ({by_hand} pJ, got {energy['total']['value']})", abs(energy["total"]["value"] - by_hand) < 1e-6 * by_hand),
        ("the figures keep their source", energy["figures"]["memory.static"]["source"] == "a test figure"),
    ]
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
