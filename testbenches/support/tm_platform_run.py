"""One run of a shipped TM platform for the EA/PG checks: --quiet on 3
cores with the given defines switched on and workload options set; returns
(total, None), where total(pattern) sums the statistics whose names match
the regular expression, or (None, the error's last line) when the run
failed (a failing oracle fails the run)."""
import json
import pathlib
import re
import subprocess


def run(simtx, scratch, name, platform, defines, workload, settings, extra=()):
    stats_path = pathlib.Path(scratch) / f"{name}.json"
    command = [simtx, "run", f"platforms/gtx480_{platform}.lua", "--quiet", "--define", "cores=3",
               "--stats", str(stats_path), "--workload", workload, *extra]
    for define in defines:
        command += ["--define", f"{define}=true"]
    for setting in settings:
        command += ["--set", f"workload.{setting}"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        return None, result.stderr.strip().splitlines()[-1:]
    statistics = json.loads(stats_path.read_text())["simulated"]["statistics"]
    return (lambda pattern: sum(value for key, value in statistics.items() if re.fullmatch(pattern, key))), None
