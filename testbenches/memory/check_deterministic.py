#!/usr/bin/python3
"""Runs a netlist twice and checks the simulated statistics and the VCD are
identical. usage: check_deterministic.py SIMTX NETLIST [simtx run args...]"""
import filecmp
import json
import subprocess
import sys
import tempfile


def main():
    simtx, netlist, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as d:
        results = []
        for run in (1, 2):
            stats, vcd = f"{d}/stats{run}.json", f"{d}/run{run}.vcd"
            if subprocess.run([simtx, "run", netlist, "--quiet", "--stats", stats, "--vcd", vcd] + extra,
                              capture_output=True).returncode:
                print("simtx failed")
                return 1
            results.append((json.load(open(stats))["simulated"], vcd))
        same_stats = results[0][0] == results[1][0]
        same_vcd = filecmp.cmp(results[0][1], results[1][1], shallow=False)
    print("statistics", "identical" if same_stats else "DIFFER", "; VCD", "identical" if same_vcd else "DIFFERS")
    print(f"{same_stats + same_vcd} passed, {2 - same_stats - same_vcd} failed")
    return 0 if same_stats and same_vcd else 1


if __name__ == "__main__":
    sys.exit(main())
