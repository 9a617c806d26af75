#!/usr/bin/python3
"""SI-TM (platforms/gtx480_sitm.lua, cc=ts) on the workloads whose runs
issue 28's results showed serialised:
- red-black tree (RBT1's mix, smaller): no word every operation writes.
  The kernel wrote the root's colour on every insert (RSTM's RBTree writes
  it only when it is red) and nil's parent on every remove (CLRS's
  sentinel trick; RSTM has null children): under write-write detection any
  two operations then conflicted, and the Writer Table refused all but one
  writer of a warp per round (1,640 single-writer aborts for 100 commits on
  RBT1). Now a single-writer abort is a real conflict: few.
- linked list (LL1, 100 inserts): a warp whose re-runs commit some lanes
  every round makes progress and never asks to run alone (the rule counted
  re-runs, so after 8 rounds every lane left ran alone, each alone round
  draining every core: 14 alone requests on LL1 seed 2).
- GraphCut 1: lockstep lanes dooming one another still finish: after 8
  rounds that commit nothing the warp runs alone until its lanes all
  committed (back in lockstep after each commit alone, they doomed one
  another for 8 more rounds each time: 2,932 single-writer aborts).
usage: check_sitm_progress.py SIMTX"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_sitm import check, failures, run as run_netlist  # noqa: E402 (the same helpers)


def run(simtx, directory, name, workload, *arguments):
    """A cc=ts run of `workload` with every oracle on: its statistics."""
    return run_netlist(simtx, directory, name, "--define", "cc=ts", *arguments, oracle=True, workload=(workload,))


def main():
    simtx = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        rbt = run(simtx, directory, "rbt", "rbt", "--seed", "2", "--set", "workload.n=100", "--set", "workload.prefill=1000",
                  "--set", "workload.removes=50")
        commits, single = rbt.get("sitm_cc.commits", 0), rbt.get("sitm_cc.single_writer_aborts", -1)
        print("rbt: %d commits, %d single-writer aborts, %d alone requests" % (commits, single, rbt.get("sitm_cc.alone_requests", -1)))
        check(commits == 100, "rbt: 100 operations committed")
        check(0 <= single <= commits // 10, "rbt: single-writer aborts at most one per 10 commits (no word written by every operation)")
        check(rbt.get("sitm_cc.alone_requests", -1) == 0, "rbt: no warp asked to run alone")

        ll1 = run(simtx, directory, "ll1", "list", "--seed", "2", "--set", "workload.n=100")
        print("ll1: %d commits, %d alone requests" % (ll1.get("sitm_cc.commits", 0), ll1.get("sitm_cc.alone_requests", -1)))
        check(ll1.get("sitm_cc.commits") == 100, "ll1: 100 inserts committed")
        check(ll1.get("sitm_cc.alone_requests", -1) == 0, "ll1: warps that commit lanes every round never run alone")

        gc1 = run(simtx, directory, "gc1", "graphcut", "--seed", "2", "--set", "workload.vertices=60", "--set", "workload.edges=180",
                  "--set", "workload.threads=32")
        print("gc1: %d commits, %d alone requests" % (gc1.get("sitm_cc.commits", 0), gc1.get("sitm_cc.alone_requests", -1)))
        check(gc1.get("sitm_cc.commits", 0) > 0 and gc1.get("sitm_cc.begins") == gc1.get("sitm_cc.ends"), "gc1: finished, every begun transaction ended")
        # Each of a lane's ceil(180 / 32) = 6 transactions runs at most 8
        # lockstep rounds before the warp runs it alone (and stays alone
        # until its lanes all committed), each round dooming at most 31
        # lanes at the Writer Table. Going back to lockstep after each
        # commit alone made 2,932.
        single = gc1.get("sitm_cc.single_writer_aborts", -1)
        print("gc1: %d single-writer aborts" % single)
        check(0 <= single <= 6 * 8 * 31, "gc1: at most 8 lockstep rounds per transaction before it runs alone")
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("SI-TM progress checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
