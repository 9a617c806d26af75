#!/usr/bin/python3
"""GPU-LocalTM's Table 1 attempt by attempt on the whole platform: runs
platforms/si_localtm.lua with workload localtm_basic (mode table1, 4-lane
wavefronts) and a waveform of the lds's probes of wavefront 0 (its mode,
TCM and TCM OLD), and checks the states the wavefront goes through, in
order, against the paper's Table 1: each attempt's TCM at its begin, after
its conflicts and at its commit, TCM OLD and the mode after it. Attempt 2
ends with every lane in the TCM and still runs Lines 15-16 (TX Commit)
before its retry: the core must have issued instructions with no active
lane (tx.h, THE EMPTY WALK).

usage: check_localtm_table1.py SIMTX [--define perfect=true]"""
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from vcd_check import parse  # noqa: E402

NORMAL, TX, WF_SERIAL = 0, 1, 2
# (mode, TCM, TCM OLD); bit i = WIi (the paper prints WI0 first).
EXPECTED = [
    (NORMAL, 0x0, 0x0),
    (TX, 0x0, 0x0),         # attempt 1 begins: TX, TCM 0000
    (TX, 0xC, 0x0),         # WI2 and WI3 conflict in the "else" leg
    (TX, 0xC, 0xC),         # commit: WI0, WI1 commit; TCM OLD := 0011
    (TX, 0x0, 0xC),         # attempt 2 begins: TX, TCM 0000
    (TX, 0xC, 0xC),         # WI2 and WI3 conflict again; the attempt ends with TCM = TCM OLD
    (WF_SERIAL, 0x8, 0xC),  # attempt 3: wavefront serial, TCM 0001 (WI3 held), WI2 runs
    (TX, 0x8, 0x8),         # WI2 commits; TCM OLD := 0001, back to TX
    (TX, 0x0, 0x8),         # attempt 4 begins: TX, TCM 0000, WI3 runs
    (NORMAL, 0x0, 0x0),     # WI3 commits: NORMAL
]


def main():
    simtx, extra = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as directory:
        vcd = pathlib.Path(directory) / "table1.vcd"
        stats = pathlib.Path(directory) / "table1.json"
        command = [simtx, "run", "platforms/si_localtm.lua", "--quiet", "--define", "cores=1", "--define", "lanes=4", *extra,
                   "--workload", "localtm_basic", "--set", "workload.mode=table1", "--vcd", str(vcd), "--trace", "sm0_lds.w0_*",
                   "--stats", str(stats)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode:
            print(result.stdout + result.stderr)
            return 1
        names, changes = parse(vcd.read_text())
        active = json.loads(stats.read_text())["simulated"]["statistics"]["sm0.active_lanes"]
    prefix = next(name[: -len("sm0_lds.w0_mode")] for name in names if name.endswith("sm0_lds.w0_mode"))
    signals = [changes[names[prefix + "sm0_lds.w0_" + probe]] for probe in ("mode", "tcm", "tcm_old")]
    times = sorted({time for signal in signals for time, _ in signal})
    states, current = [], [0, 0, 0]
    for time in times:
        for i, signal in enumerate(signals):
            for at, value in signal:
                if at == time:
                    current[i] = value
        if not states or states[-1] != tuple(current):
            states.append(tuple(current))
    if states != EXPECTED:
        print("wavefront 0 went through (mode, TCM, TCM OLD):")
        for state in states:
            print(f"  ({state[0]}, 0x{state[1]:x}, 0x{state[2]:x})")
        print("expected Table 1's:")
        for state in EXPECTED:
            print(f"  ({state[0]}, 0x{state[1]:x}, 0x{state[2]:x})")
        return 1
    if active["min"] != 0 or active["log2_buckets"][0] == 0:
        print(f"no instruction issued with no active lane ({active}): attempt 2, every lane in the TCM, re-ran before its TX Commit")
        return 1
    print(f"Table 1: wavefront 0 went through the {len(EXPECTED)} states of the paper's four attempts, "
          f"attempt 2 walking to its TX Commit with no lane ({active['log2_buckets'][0]} issues)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
