#!/usr/bin/python3
"""Runs vector_add on platforms/gtx480_pm.lua and checks that the persistent
window reaches the NVM controllers and nothing else does.
usage: check_persistent_window.py SIMTX
- persistent=all, 262144 elements (3 MB, four times the L2), the TLM
  protocol checked: the oracle passes (the data is read back correctly),
  the durable image holds the written-back part of c, the inputs are read
  from the NVM media, the L2's write-backs of c are taken into the WPQs and
  written to the media, and no router or controller sees an address error;
- persistent=output (only c's write-backs, back to back): the WPQs fill and
  refuse writes, and the run still passes;
- persistent=none: the same platform sends the NVM controllers nothing."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from check_report import report  # noqa: E402


def run(simtx, persistent, n):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        result = subprocess.run([simtx, "run", "platforms/gtx480_pm.lua", "--quiet", "--check-protocol", "--stats", out.name,
                                 "--workload", "vector_add", "--set", f"workload.n={n}",
                                 "--set", f"workload.persistent={persistent}"], capture_output=True, text=True)
        stats = json.load(open(out.name))["simulated"]["statistics"] if result.returncode == 0 else {}
    return result, stats


def total(stats, prefix, name):
    return sum(v for k, v in stats.items() if k.startswith(prefix) and k.endswith("." + name) and not isinstance(v, dict))


def main():
    simtx = sys.argv[1]
    checks = []
    result, stats = run(simtx, "all", 262144)
    checks.append(("persistent=all: the run and its oracle pass" + (" (" + result.stderr.strip() + ")" if result.returncode else ""),
                   result.returncode == 0 and "262144 elements correct" in result.stdout))
    # The durable image (gpu_copy_from_durable: media + WPQs, not the L2's
    # dirty lines) holds the written-back part of c and nothing wrong (the
    # workload fails on an element neither 0 nor its sum).
    durable = re.search(r"(\d+) of 262144 elements of c durable", result.stdout)
    checks.append(("the durable image holds part of c", durable is not None and 0 < int(durable.group(1)) < 262144))
    if stats:
        checks.append(("the NVM media serve the inputs", total(stats, "nvm", "media_reads") > 0))
        checks.append(("the WPQs take the L2's write-backs", total(stats, "nvm", "writes") > 0))
        checks.append(("the media hold drained writes", total(stats, "nvm", "media_writes") > 0))
        checks.append(("no write is written to the media twice", total(stats, "nvm", "media_writes") <= total(stats, "nvm", "writes")))
        checks.append(("no address error at the routers", total(stats, "mem", "address_errors") == 0))
        checks.append(("no address error at the controllers", total(stats, "nvm", "address_errors") == 0))
    result, stats = run(simtx, "output", 262144)
    checks.append(("persistent=output: the run passes", result.returncode == 0))
    if stats:
        checks.append(("persistent=output: the WPQs fill and refuse writes (back-pressure through the shim)",
                       total(stats, "nvm", "wpq_full_stalls") > 0))
    result, stats = run(simtx, "none", 4096)
    checks.append(("persistent=none: the run passes", result.returncode == 0))
    if stats:
        checks.append(("persistent=none: the NVM controllers see nothing",
                       total(stats, "nvm", "reads") == 0 and total(stats, "nvm", "writes") == 0))
        checks.append(("persistent=none: the DRAM serves the arrays", total(stats, "dram", "reads") > 0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
