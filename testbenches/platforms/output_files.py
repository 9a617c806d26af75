#!/usr/bin/python3
"""Output files never destroy anything (README, Using simtx).

usage: output_files.py SIMTX WORK_DIR
A symbolic link, FIFO, folder or device named by --stats or --vcd is refused
before the run (exit 2) and left as it was; a run stopped by --max-time
prints its summary and writes its statistics beside the requested file,
marked partial, leaving a complete file there untouched; a complete run
replaces a regular file and leaves no temporary file behind.
"""
import json
import os
import shutil
import stat
import subprocess
import sys

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(simtx, *args):
    return subprocess.run([simtx, "run", *args], capture_output=True, text=True, timeout=120)


def main():
    simtx, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    small = "testbenches/platforms/netlists/good_small.lua"
    slow = "testbenches/platforms/netlists/slow_memory.lua"

    # Refused before the run, nothing touched.
    target = os.path.join(work, "target.json")
    with open(target, "w") as f:
        f.write("keep")
    os.symlink(target, os.path.join(work, "link.json"))
    os.mkfifo(os.path.join(work, "fifo.json"))
    os.mkdir(os.path.join(work, "folder"))
    # A device node of its own (a regression must not replace /dev/null); only root may make one.
    cases = [("--stats", "link.json", "a symbolic link"), ("--stats", "fifo.json", "a FIFO"),
             ("--stats", "folder", "a folder"), ("--vcd", "folder", "a folder"),
             ("--vcd", "/", "expected a file name"), ("--stats", "missing/x.json", "no folder")]
    try:
        os.mknod(os.path.join(work, "device.json"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        cases.append(("--stats", "device.json", "a device"))
    except PermissionError:
        print("not root: the device case is skipped")
    for option, path, kind in cases:
        full = os.path.join(work, path)
        before = sorted(os.listdir(work))
        result = run(simtx, small, "--quiet", option, full)
        check(result.returncode == 2, f"{option} {path}: exit {result.returncode}, expected 2")
        check(kind in result.stderr and option in result.stderr, f"{option} {path}: stderr {result.stderr!r} lacks {kind!r}")
        check(result.stdout == "", f"{option} {path}: the run started")
        check(sorted(os.listdir(work)) == before, f"{option} {path}: files changed: {sorted(os.listdir(work))}")
    check(os.path.islink(os.path.join(work, "link.json")), "the symbolic link was replaced")
    check(open(target).read() == "keep", "the link's target was written")
    if os.path.exists(os.path.join(work, "device.json")):
        check(stat.S_ISCHR(os.lstat(os.path.join(work, "device.json")).st_mode), "the device node was replaced")

    # A complete run replaces a regular file, leaving nothing else.
    stats = os.path.join(work, "stats.json")
    with open(stats, "w") as f:
        f.write("old")
    before = set(os.listdir(work))
    result = run(simtx, small, "--quiet", "--stats", stats, "--vcd", os.path.join(work, "wave.vcd"))
    check(result.returncode == 0, f"complete run: exit {result.returncode}: {result.stderr}")
    complete = open(stats).read()
    check("partial" not in json.loads(complete), "a complete run's statistics are marked partial")
    check(set(os.listdir(work)) == before | {"wave.vcd", "wave.gtkw"}, f"complete run left {sorted(set(os.listdir(work)) - before)}")

    # --max-time: summary printed, partial statistics beside, the complete file kept.
    result = run(simtx, slow, "--max-time", "5000", "--stats", stats, "--vcd", os.path.join(work, "wave.vcd"))
    check(result.returncode == 1, f"--max-time: exit {result.returncode}, expected 1")
    check("stopped at --max-time" in result.stderr, f"--max-time: stderr {result.stderr!r}")
    check("(partial: the run failed)" in result.stdout and "fixed-latency memory requests" in result.stdout,
          "--max-time: no summary marked partial")
    check(open(stats).read() == complete, "--max-time overwrote the complete statistics")
    partial = json.load(open(stats + ".partial"))
    check("--max-time" in partial.get("partial", {}).get("error", ""), f"partial statistics not marked: {list(partial)}")
    check(partial["simulated"]["time_ps"] > 0, "partial statistics are empty")
    check(os.path.exists(os.path.join(work, "wave.vcd.partial")) and os.path.exists(os.path.join(work, "wave.gtkw.partial")),
          "--max-time: no partial waveforms")
    check(not [name for name in os.listdir(work) if name.startswith(".")], "a temporary file was left behind")
    shutil.rmtree(work, ignore_errors=True)

    for failure in failures:
        print("FAILED:", failure)
    print(f"{0 if failures else 1} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
