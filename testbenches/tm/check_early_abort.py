#!/usr/bin/python3
"""EA/PG's Early-Abort on the TM platforms (--define ea=true): the commit
units' reference count tables reach the cores' conflict address tables over
the notify network and lanes abort at the core (aborts_early), on Warp TM
and KILO TM; with tables far too small for the run, updates are dropped
(rct_overflows, cat_overflows) and the results stay correct. Every run
passes the workload's oracle and the serializability oracle (a failing
oracle fails the run).

usage: check_early_abort.py SIMTX SCRATCH_DIR
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402
from tm_platform_run import run  # noqa: E402


def main():
    simtx, scratch = sys.argv[1], sys.argv[2]
    checks = []
    ht = ["n=2048", "buckets=256", "values=1"]
    cases = [("warptm_ht", "warptm", "ht", ht, ()),
             ("kilotm_atm", "kilotm", "atm", ["n=2048", "accounts=200"], ()),
             ("warptm_ht_small_tables", "warptm", "ht", ht, ("--set", "cu*.rct_entries=16", "--set", "sm*_tm.cat_entries=8"))]
    for name, platform, workload, settings, extra in cases:
        total, error = run(simtx, scratch, "ea_" + name, platform, ["ea"], workload, settings, extra)
        checks.append((f"{name}: the run and its oracles pass {error or ''}", total is not None))
        if total is None:
            continue
        early, broadcasts = total(r"sm\d+_tm\.aborts_early"), total(r"cu\d+\.cat_update_messages")
        packets = total(r"notify\.request_packets")
        checks.append((f"{name}: {early} lanes aborted early", early > 0))
        checks.append((f"{name}: {broadcasts} update broadcasts, {packets} notify packets", broadcasts > 0 and packets > 0))
        if name.endswith("small_tables"):
            dropped = total(r"cu\d+\.rct_overflows"), total(r"sm\d+_tm\.cat_overflows")
            checks.append((f"{name}: {dropped[0]} references and {dropped[1]} updates dropped", min(dropped) > 0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
