#!/usr/bin/python3
"""SI-TM timestamp overflow end to end (version.h, OVERFLOW; ISCA'17 §4.3):
a run of platforms/gtx480_warptm_versioned.lua with small creation times
must pass every oracle (the serializability oracle and the workload's own,
named by a regular expression of its stdout), with the protocol checked,
while every VIT slice overflows and running transactions are aborted for it
(the tm_units' aborts_overflow), as its --stats JSON shows.

usage: check_sitm_overflow.py SIMTX WORKLOAD_ORACLE_REGEX -- SIMTX_RUN_ARGUMENTS...
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402

SLICES = 6  # gtx480: one VIT slice per memory partition


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    simtx, workload_oracle, arguments = sys.argv[1], sys.argv[2], sys.argv[4:]
    with tempfile.TemporaryDirectory() as scratch:
        stats_path = pathlib.Path(scratch) / "stats.json"
        command = [simtx, "run", "platforms/gtx480_warptm_versioned.lua", "--check-protocol", "--stats", str(stats_path), *arguments]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        checks = [(f"exit status 0 (got {result.returncode}: {result.stderr.strip().splitlines()[-1:]})", result.returncode == 0)]
        checks.append(("serializability oracle consistent",
                       re.search(r"serializability oracle: \d+ committed transactions replayed in commit order, consistent", result.stdout) is not None))
        checks.append((f"workload oracle matches {workload_oracle!r}", re.search(workload_oracle, result.stdout) is not None))
        if result.returncode == 0:
            statistics = json.loads(stats_path.read_text())["simulated"]["statistics"]
            overflows = [statistics.get(f"vit{p}.overflows", 0) for p in range(SLICES)]
            aborts = sum(value for key, value in statistics.items() if re.fullmatch(r"sm\d+_tm\.aborts_overflow", key))
            print(f"overflows per slice {overflows}, aborts_overflow {aborts}")
            checks.append((f"every slice overflowed (vit*.overflows {overflows})", all(count > 0 for count in overflows)))
            checks.append((f"running transactions aborted by the overflows (aborts_overflow {aborts})", aborts > 0))
            created = statistics.get("vit0.versions_created", 0)
            checks.append((f"versions made (vit0.versions_created {created})", created > 0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
