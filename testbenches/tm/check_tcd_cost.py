#!/usr/bin/python3
"""Temporal conflict detection costs only the read-only transactions it
serves (issue 15): on HT, which has none, a warp attempt's core time
(tx_begin to tx_commit) with TCD on is within 10% of TCD off and no query
is sent; on ATM with read-only balance queries some commit at the core
(tcd_commits) with TCD on and none with it off. Both run under the
workloads' oracles and the serializability oracle.

usage: check_tcd_cost.py SIMTX SCRATCH_DIR
"""
import json
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402


def run(simtx, scratch, platform, tcd, workload, settings):
    stats_path = pathlib.Path(scratch) / f"tcd_{platform}_{workload}_{tcd}.json"
    command = [simtx, "run", f"platforms/gtx480_{platform}.lua", "--quiet", "--define", "cores=3", "--define",
               f"tcd={tcd}", "--stats", str(stats_path), "--workload", workload]
    for setting in settings:
        command += ["--set", f"workload.{setting}"]
    subprocess.run(command, check=True, capture_output=True)
    statistics = json.loads(stats_path.read_text())["simulated"]["statistics"]
    total = lambda pattern: sum(value["count"] if isinstance(value, dict) else value
                                for key, value in statistics.items() if re.fullmatch(pattern, key))
    return {"core_cycles": total(r"sm\d+\.tm_core_cycles"), "attempts": total(r"sm\d+\.tm_core_duration"),
            "tcd_commits": total(r"sm\d+_tm\.tcd_commits"), "lwt_queries": total(r"cu\d+\.lwt_queries")}


def main():
    simtx, scratch = sys.argv[1], sys.argv[2]
    checks = []
    for platform in ("kilotm", "warptm"):
        ht = ["n=1024", "buckets=512", "values=1"]
        on, off = (run(simtx, scratch, platform, tcd, "ht", ht) for tcd in ("true", "false"))
        per_attempt = [r["core_cycles"] / r["attempts"] for r in (on, off)]
        checks.append((f"{platform} ht: core cycles per attempt {per_attempt[0]:.0f} with TCD, {per_attempt[1]:.0f} without "
                       "(within 10%)", abs(per_attempt[0] / per_attempt[1] - 1) <= 0.10))
        checks.append((f"{platform} ht: {on['lwt_queries']} TCD queries (none: no read-only transaction)",
                       on["lwt_queries"] == 0))
        atm = ["n=1024", "accounts=100", "queries=50"]
        on, off = (run(simtx, scratch, platform, tcd, "atm", atm) for tcd in ("true", "false"))
        checks.append((f"{platform} atm with queries: {on['tcd_commits']} read-only commits at the core with TCD",
                       on["tcd_commits"] > 0))
        checks.append((f"{platform} atm with queries: {off['tcd_commits']} without", off["tcd_commits"] == 0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
