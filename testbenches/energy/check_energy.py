#!/usr/bin/python3
"""The energy report of a run (platforms/src/energy_report.cpp): its sums add
up, every counted event has a figure, the console shows it, and a second run
gives the same figures to the bit.

usage: check_energy.py [--all-figures-used] SIMTX RUN-ARGS...   (from the repository root)
--all-figures-used: every figure of the block types present prices an event
(catches a misspelt event name in the technology file).
"""
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from check_report import report  # noqa: E402


def run(simtx, args, scratch, name):
    stats = pathlib.Path(scratch) / f"{name}.json"
    text = subprocess.run([simtx, "run", *args, "--stats", str(stats)], check=True, capture_output=True, text=True).stdout
    return text, json.loads(stats.read_text())


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)


def main():
    all_used = sys.argv[1:2] == ["--all-figures-used"]
    argv = sys.argv[2:] if all_used else sys.argv[1:]
    simtx, args = argv[0], argv[1:]
    with tempfile.TemporaryDirectory() as scratch:
        text, first = run(simtx, args, scratch, "first")
        _, second = run(simtx, args, scratch, "second")
    energy = first["energy"]
    checks = [("the run is estimated", energy.get("estimated") is True)]
    blocks = energy["blocks"]
    total = sum(b["static"]["value"] + sum(e["energy"]["value"] for e in b["events"].values()) for b in blocks.values())
    checks.append((f"the blocks' energies add up to the total ({total} vs {energy['total']['value']})", close(total, energy["total"]["value"])))
    by_type = sum(t["total"]["value"] for t in energy["by_type"].values())
    checks.append(("the block types add up to the total", close(by_type, energy["total"]["value"])))
    wrong = [f"{name}.{event}" for name, b in blocks.items() for event, e in b["events"].items()
             if not close(e["energy"]["value"], e["count"] * e["per_event"]["value"])]
    checks.append((f"each event's energy is its count times its figure (not: {wrong[:5]})", not wrong))
    unpriced = [name for name in energy["unpriced"]
                if blocks[name.split(".")[0]]["events"][name.split(".", 1)[1]]["count"]]
    checks.append((f"every counted event has a figure (not: {unpriced[:5]})", not unpriced))
    time_s = first["simulated"]["time_ps"] * 1e-12
    power = energy["total"]["value"] * 1e-12 / time_s
    checks.append(("the average power is the energy over the time", close(power, energy["average_power"]["value"])))
    checks.append(("the energy-delay product is energy x time",
                   close(energy["total"]["value"] * 1e-12 * time_s, energy["energy_delay_product"]["value"])))
    leaking = [name for name, b in blocks.items() if b["static_power"]["value"] > 0 and not b["static"]["value"] > 0]
    checks.append((f"every block with leakage leaks for the whole run, idle or not (not: {leaking[:5]})", not leaking))
    if energy["launches"]:
        launches = sum(launch["total"]["value"] for launch in energy["launches"])
        checks.append((f"the launches' energies add up to at most the run's ({launches} vs {energy['total']['value']})",
                       launches <= energy["total"]["value"] * (1 + 1e-9)))
    if all_used:
        checks.append((f"every figure of the block types present prices an event (not: {energy['unused_figures']})",
                       not energy["unused_figures"]))
    figures = energy["figures"]
    checks.append(("every figure names its source and note", all(f["source"] and f["note"] for f in figures.values())))
    checks.append(("the console prints the energy by block type", "energy (whole run" in text and "avg power" in text))
    checks.append(("a second run gives the same energy section", first["energy"] == second["energy"]))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
