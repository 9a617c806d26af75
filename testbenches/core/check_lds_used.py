#!/usr/bin/env python3
"""Runs a shared-memory workload and checks that every core's shared
accesses went to its lds: the lds's requests equal the core's
shared_accesses, at least one core made some, and each CTA's region was
cleared by its lds (clears = CTAs run).

usage: check_lds_used.py SIMTX NETLIST WORKLOAD [simtx run arguments...]"""
import json
import subprocess
import sys
import tempfile


def main():
    simtx, netlist, workload, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with tempfile.NamedTemporaryFile(suffix=".json") as stats_file:
        subprocess.run([simtx, "run", netlist, "--quiet", "--workload", workload, "--stats", stats_file.name] + extra, check=True)
        flat = json.load(open(stats_file.name))["simulated"]["statistics"]
    stats = {}
    for key, value in flat.items():
        block, _, name = key.rpartition(".")
        stats.setdefault(block, {})[name] = value
    cores = [name for name in stats if name + "_lds" in stats and "shared_accesses" in stats[name]]
    if not cores:
        sys.exit("no core with an lds named <core>_lds in the statistics")
    total = 0
    for core in cores:
        accesses, lds = stats[core]["shared_accesses"], stats[core + "_lds"]
        if lds["requests"] != accesses:
            sys.exit(f"{core}: shared_accesses {accesses} but {core}_lds.requests {lds['requests']}")
        if accesses and lds["clears"] != stats[core]["ctas_completed"] + 1:  # + the size check
            sys.exit(f"{core}: {stats[core]['ctas_completed']} CTAs (+ 1 size check) but {core}_lds.clears {lds['clears']}")
        total += accesses
    if total == 0:
        sys.exit("no shared access at all: the workload does not exercise the lds")
    print(f"{len(cores)} cores, {total} shared requests, all served by their lds")


main()
