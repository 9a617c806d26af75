#!/usr/bin/python3
"""Golden statistics: a few short runs covering every block, whose simulated
time, clock cycles and statistics must stay exactly as recorded in
testbenches/golden/expected/<case>.json. A pure refactoring or speed-up must
leave them untouched; a change meant to alter behaviour updates them in the
same commit, which then shows the effect stat by stat in its diff.

usage: golden.py check SIMTX CASE        (a test: lists what differs)
       golden.py update SIMTX [CASE...]  (rewrites the expected files)
       golden.py list
Run from anywhere; the runs use the repository as working directory.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
EXPECTED = pathlib.Path(__file__).resolve().parent / "expected"

# name: the simtx run arguments (each well under a second in a release build).
CASES = {
    "gtx480_vector_add": ["platforms/gtx480.lua", "--workload", "vector_add", "--set", "workload.n=16384"],
    "gtx480_bfs": ["platforms/gtx480.lua", "--workload", "bfs"],
    "gtx480_histogram": ["platforms/gtx480.lua", "--workload", "histogram"],
    "gtx480_spmv": ["platforms/gtx480.lua", "--workload", "spmv"],
    "gtx480_divergence": ["platforms/gtx480.lua", "--workload", "divergence"],
    "gtx480_reduction": ["platforms/gtx480.lua", "--workload", "reduction"],
    "kilotm_atm": ["platforms/gtx480_kilotm.lua", "--workload", "atm"],
    "warptm_bintree": ["platforms/gtx480_warptm.lua", "--workload", "bintree", "--set", "workload.n=512"],
    "warptm_list": ["platforms/gtx480_warptm.lua", "--workload", "list", "--set", "workload.n=100"],
    "idealtm_ht": ["platforms/gtx480_idealtm.lua", "--workload", "ht"],
    # EA/PG (issue 26, 12c): read-only queries share reads with the transfers (Early-Abort must not count
    # read-read), Pause-and-Go on HT's buckets, both on SpMV with its loads inside (x read by every row).
    "warptm_ea_atm": ["platforms/gtx480_warptm_ea.lua", "--workload", "atm", "--set", "workload.n=1024",
                      "--set", "workload.accounts=100", "--set", "workload.queries=50"],
    "warptm_pg_ht": ["platforms/gtx480_warptm_pg.lua", "--workload", "ht", "--set", "workload.n=2048",
                     "--set", "workload.buckets=256"],
    "warptm_eapg_spmv_tm": ["platforms/gtx480_warptm_eapg.lua", "--workload", "spmv_tm", "--set", "workload.n=500",
                            "--set", "workload.loads_inside=1"],
    # SI-TM's versioned memory: under Warp TM with snapshot reads and
    # read-only commits at the core, and alone behind trace agents.
    "warptm_versioned_atm": ["platforms/gtx480_warptm_versioned.lua", "--workload", "atm", "--set", "workload.n=1024",
                             "--set", "workload.queries=50"],
    "versioned_memory_trace": ["platforms/versioned_memory_trace.lua", "--define", "rounds=4"],
    "dram_rowclone_checked": ["platforms/dram_trace.lua", "--define", "copies=20", "--define", "check_timing=true"],
    "dram_stream_writes": ["platforms/dram_trace.lua", "--set", "player.synthetic_pattern=stream",
                           "--set", "player.read_percent=50", "--set", "player.request_size=128"],
    "memory_system_trace": ["platforms/memory_system_trace.lua"],
    # Persistent memory: the arrays in NVM, c larger than the L2 (write-backs into the WPQs).
    "gpu_pm_vector_add": ["platforms/gpu_pm.lua", "--workload", "vector_add", "--set", "workload.n=262144",
                          "--set", "workload.persistent=all"],
    "trace_replay": ["platforms/trace_replay.lua"],
    "si_localtm_counter": ["platforms/si_localtm.lua", "--define", "cores=2", "--workload", "localtm_basic", "--set",
                           "workload.mode=counter"],
}


def simulate(simtx, case):
    """The recorded part of a run's statistics: time, clocks, statistics."""
    with tempfile.TemporaryDirectory() as scratch:
        stats = pathlib.Path(scratch) / "stats.json"
        subprocess.run([simtx, "run", *CASES[case], "--quiet", "--stats", str(stats)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        simulated = json.loads(stats.read_text())["simulated"]
    return {key: simulated[key] for key in ("netlist", "seed", "time_ps", "clocks", "statistics")}


def check(simtx, case):
    expected = json.loads((EXPECTED / f"{case}.json").read_text())
    actual = simulate(simtx, case)
    checks = [(f"{key} is {expected[key]} (got {actual[key]})", actual[key] == expected[key])
              for key in ("netlist", "seed", "time_ps", "clocks")]
    names = sorted(set(expected["statistics"]) | set(actual["statistics"]))
    differing = [name for name in names if expected["statistics"].get(name) != actual["statistics"].get(name)]
    for name in differing[:20]:
        print(f"{name}: expected {expected['statistics'].get(name)}, got {actual['statistics'].get(name)}")
    checks.append((f"{len(differing)} of {len(names)} statistics differ from expected/{case}.json"
                   " (scripts/update-golden rewrites it when the change is meant)", not differing))
    return report(checks)


def update(simtx, cases):
    EXPECTED.mkdir(exist_ok=True)
    for case in cases or CASES:
        # One statistic per line: a behaviour change reads as a diff.
        (EXPECTED / f"{case}.json").write_text(json.dumps(simulate(simtx, case), indent=1, sort_keys=True) + "\n")
        print("updated", case)
    return 0


def main():
    if sys.argv[1:2] == ["list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) >= 3 and sys.argv[1] == "update":
        unknown = [case for case in sys.argv[3:] if case not in CASES]
        if unknown:
            sys.exit(f"golden.py: unknown case {', '.join(unknown)} (golden.py list)")
        return update(sys.argv[2], sys.argv[3:])
    if len(sys.argv) == 4 and sys.argv[1] == "check" and sys.argv[3] in CASES:
        return check(sys.argv[2], sys.argv[3])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
