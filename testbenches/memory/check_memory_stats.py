#!/usr/bin/python3
"""Runs the memory-system netlist and checks its statistics for the policy
the run asks for. usage: check_memory_stats.py SIMTX MODE [simtx run args...]
MODE: cached (L1 hits expected), uncached (no L1 hit, every L1 read forwarded),
any (only the accounting checks)."""
import json
import subprocess
import sys
import tempfile


def main():
    simtx, mode, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run = subprocess.run([simtx, "run", "platforms/memory_system_trace.lua", "--check-protocol", "--quiet",
                              "--stats", out.name] + extra)
        if run.returncode != 0:
            print("simtx failed with status", run.returncode)
            return 1
        stats = json.load(open(out.name))["simulated"]["statistics"]
    failures = []

    def expect(condition, text):
        if not condition:
            failures.append(text)

    def value(name):
        v = stats[name]
        return v["mean"] if isinstance(v, dict) else v

    l1s = sorted({k.split(".")[0] for k in stats if k.startswith("l1_")})
    l2s = sorted({k.split(".")[0] for k in stats if k.startswith("l2_")})
    expect(len(l2s) == 6, f"6 L2 slices expected, found {len(l2s)}")
    for l1 in l1s:
        player = "player" + l1[3:]
        expect(value(f"{l1}.accesses") == value(f"{player}.reads") + value(f"{player}.writes"),
               f"{l1}: accesses differ from its player's requests")
        expect(value(f"{player}.error_responses") == 0, f"{player}: error responses")
        if mode == "uncached":
            expect(value(f"{l1}.hits") == 0, f"{l1}: hits while not caching global data")
            expect(value(f"{l1}.forwarded") == value(f"{l1}.accesses"), f"{l1}: not every access forwarded")
        if mode == "cached":
            expect(value(f"{l1}.hits") > 0, f"{l1}: no hits")
            expect(value(f"{l1}.hit_reserved") > 0, f"{l1}: no MSHR merges")
        expect(value(f"{l1}.writebacks") == 0, f"{l1}: a write-through L1 wrote back")
    total_l1_down = sum(value(f"{l1}.forwarded") + value(f"{l1}.fills") for l1 in l1s)
    expect(value("icnt.request_packets") == total_l1_down, "crossbar requests differ from what the L1s sent")
    expect(value("icnt.reply_packets") == value("icnt.request_packets"), "crossbar replies differ from requests")
    expect(sum(value(f"{l2}.accesses") for l2 in l2s) == total_l1_down, "L2 accesses differ from crossbar requests")
    for l2 in l2s:
        dram = "dram" + l2[3:]
        expect(value(f"{l2}.accesses") > 0, f"{l2}: no traffic (interleaving broken?)")
        expect(value(f"{dram}.reads") == value(f"{l2}.fills"), f"{dram}: reads differ from {l2}'s fills")
        expect(value(f"{dram}.writes") == value(f"{l2}.writebacks"), f"{dram}: writes differ from {l2}'s writebacks")
    for f in failures:
        print("check failed:", f)
    print(f"{len(l1s) * 4 + len(l2s) * 3 + 4 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
