#!/usr/bin/python3
"""EA/PG's Pause-and-Go on the TM platforms (--define pg=true, alone and
with ea=true): lanes whose transactional access hits the core's conflict
address table pause and resume once their warp's running attempt ended
(every pause is resumed: resumes == pauses), on Warp TM and KILO TM, on HT,
ATM and RBT, with 64-lane warps (paused lanes in both beats of a request),
beside doomed attempts rolled back by faults (tx_rollback), and at -O0
(lanes paused inside calls resume inside them); with tables far too small for the run, updates are dropped and
the results stay correct; under heavy contention (ATM on two accounts)
every transfer commits and the run ends (no livelock, no watchdog: only
committing transactions hold the table, so a paused or early-aborted lane
never aborts them). Every run passes the workload's oracle and the
serializability oracle (a failing oracle fails the run).

usage: check_pause_and_go.py SIMTX SCRATCH_DIR
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
    atm = ["n=2048", "accounts=200"]
    rbt = ["n=512"]
    small = ("--set", "cu*.rct_entries=16", "--set", "sm*_tm.cat_entries=8")
    cases = [("warptm_pg_ht", "warptm", ["pg"], "ht", ht, ()),
             ("warptm_pg_atm", "warptm", ["pg"], "atm", atm, ()),
             ("warptm_pg_rbt", "warptm", ["pg"], "rbt", rbt, ()),
             ("warptm_eapg_ht", "warptm", ["ea", "pg"], "ht", ht, ()),
             ("warptm_eapg_atm", "warptm", ["ea", "pg"], "atm", atm, ()),
             ("kilotm_pg_ht", "kilotm", ["pg"], "ht", ht, ()),
             ("kilotm_pg_atm", "kilotm", ["pg"], "atm", atm, ()),
             ("warptm_eapg_rbt_64_lanes", "warptm", ["ea", "pg"], "rbt", rbt, ("--define", "lanes=64")),
             ("warptm_eapg_tx_rollback", "warptm", ["ea", "pg"], "tx_rollback", [], ()),
             ("warptm_eapg_bintree_O0", "warptm", ["ea", "pg"], "bintree", ["opt=O0"], ()),
             ("warptm_pg_rbt_O0", "warptm", ["pg"], "rbt", rbt + ["opt=O0"], ()),
             ("warptm_pg_ht_small_tables", "warptm", ["pg"], "ht", ht, small),
             ("warptm_eapg_atm_contention", "warptm", ["ea", "pg"], "atm", ["n=256", "accounts=2"], ())]
    for name, platform, defines, workload, settings, extra in cases:
        total, error = run(simtx, scratch, "pg_" + name, platform, defines, workload, settings, extra)
        checks.append((f"{name}: the run and its oracles pass {error or ''}", total is not None))
        if total is None:
            continue
        pauses, resumes = total(r"sm\d+_tm\.pauses"), total(r"sm\d+_tm\.resumes")
        lanes = total(r"sm\d+_tm\.lanes_paused")
        checks.append((f"{name}: {pauses} pauses ({lanes} lanes), {resumes} resumes", pauses > 0 and resumes == pauses))
        if "ea" in defines:
            early = total(r"sm\d+_tm\.aborts_early")
            checks.append((f"{name}: {early} lanes aborted early beside the pauses", early > 0))
        if name.endswith("small_tables"):
            dropped = total(r"cu\d+\.rct_overflows"), total(r"sm\d+_tm\.cat_overflows")
            checks.append((f"{name}: {dropped[0]} references and {dropped[1]} updates dropped", min(dropped) > 0))
        if name.endswith("contention"):
            commits = total(r"sm\d+_tm\.commits")
            checks.append((f"{name}: {commits} of 256 transfers committed", commits == 256))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
