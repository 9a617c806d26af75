#!/usr/bin/python3
"""Opens every shipped view (traces/*.gtkw) and the views simtx generates in a
real GTKWave under a virtual X server and reads back the time range it shows
(GTKWave's Tcl interface): a view must show most of its run (>= 80% of it,
the run filling >= 80% of the window) or, if it names one ("[*] window:"),
its window. Each shipped view runs the command its header names and must be
fitted to that run (traces/fit_view.py leaves it unchanged). Without gtkwave
or xvfb-run the GTKWave part is skipped (exit 77).
usage: gtkw_views_open.py SIMTX (from the source tree's root)"""
import concurrent.futures
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "traces"))
import fit_view  # noqa: E402

SKIP = 77
MOST = 0.8
SCREEN = "-screen 0 1920x1080x24"  # larger than the views' [size], so GTKWave gets the window it asks for
# Generated views: the 947 ns reduction, a trace replay, a 23 us DRAM run.
GENERATED = {
    "reduction": ["platforms/gtx480.lua", "--define", "cores=4", "--workload", "reduction", "--set", "workload.n=2048"],
    "trace_replay": ["platforms/trace_replay.lua", "--define", "requests=200"],
    "dram_rowclone": ["platforms/dram_trace.lua", "--define", "copies=4", "--define", "requests=3000"],
}
TCL = 'puts "WINDOW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime] [gtkwave::getMaxTime]"\ngtkwave::/File/Quit\n'


def header_command(view):
    """The simtx arguments after "build/simtx run" in the view's header."""
    text, collecting = "", False
    for line in open(view):
        body = line[3:].strip() if line.startswith("[*]") else None
        if body is None:
            break
        if body.startswith("build/simtx run "):
            collecting, body = True, body[len("build/simtx run "):]
        if collecting:
            text += " " + body.rstrip("\\")
            if not body.endswith("\\"):
                break
    words = shlex.split(text)
    if "--vcd" in words:
        del words[words.index("--vcd"):words.index("--vcd") + 2]
    return words


def run(simtx, arguments, vcd):
    result = subprocess.run([simtx, "run", *arguments, "--quiet", "--vcd", vcd], capture_output=True, text=True)
    return result.returncode == 0 or print(result.stdout + result.stderr)


def shown(vcd, view, tcl):
    """(start, end, dump's end) GTKWave shows on opening the view, or None.
    A second attempt when GTKWave reports nothing: one run in some twenty
    under load once printed no window (its output is shown)."""
    for attempt in range(2):
        result = subprocess.run(["gtkwave", "-S", tcl, vcd, view], capture_output=True, text=True, timeout=60)
        m = re.search(r"^WINDOW (\d+) (\d+) (\d+)$", result.stdout, re.M)
        if m:
            return tuple(int(g) for g in m.groups())
        print(f"GTKWave reported no window for {view} (exit {result.returncode}):\n{result.stdout}{result.stderr}")
    return None


def judge(name, view, vcd, tcl):
    """A failure message, or None."""
    window = fit_view.named_window(open(view).read().splitlines(), view, fit_view.dump_timing(vcd)[0])
    got = shown(vcd, view, tcl)
    if got is None:
        return f"{name}: GTKWave reported no window"
    start, end, dump_end = got
    want = window or (0, dump_end)
    overlap = max(0, min(end, want[1]) - max(start, want[0]))
    print(f"{name}: shows {start}..{end} of {want[0]}..{want[1]} ({'named window' if window else 'whole run'})")
    if window and not (start <= want[0] and end >= want[1]):
        return f"{name}: shows {start}..{end}, not all of its window {want[0]}..{want[1]}"
    if overlap < MOST * (want[1] - want[0]):
        return f"{name}: shows {overlap} of the {want[1] - want[0]} time units it should"
    if overlap < MOST * (end - start):
        return f"{name}: what it should show fills only {overlap} of the {end - start} time units on screen"
    return None


def shipped_case(simtx, directory, view):
    """(name, view, VCD of the run its header names) or None, and failures."""
    name = os.path.basename(view)
    arguments = header_command(view)
    vcd = os.path.join(directory, name + ".vcd")
    if not arguments:
        return None, [f"{name}: its header names no '[*]   build/simtx run ...' command"]
    if not run(simtx, arguments, vcd):
        return None, [f"{name}: its header's command failed"]
    fitted = os.path.join(directory, name)
    shutil.copy(view, fitted)
    fit_view.fit(fitted, *fit_view.dump_timing(vcd))
    if open(fitted).read() != open(view).read():
        return (name, view, vcd), [f"{name}: not fitted to its run (traces/fit_view.py DUMP {view})"]
    return (name, view, vcd), []


def generated_case(simtx, directory, name, arguments):
    """(name, the view simtx wrote, its VCD) or None, and failures."""
    vcd = os.path.join(directory, "generated_" + name + ".vcd")
    if not run(simtx, arguments, vcd):
        return None, [f"generated {name}: simtx failed"]
    return ("generated " + name, vcd[:-4] + ".gtkw", vcd), []


def main():
    simtx = os.path.abspath(sys.argv[1])
    have_gtkwave = shutil.which("gtkwave") and shutil.which("xvfb-run")
    if have_gtkwave and "SIMTX_UNDER_XVFB" not in os.environ:
        # One virtual X server for all views.
        os.environ["SIMTX_UNDER_XVFB"] = "1"
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", SCREEN, sys.executable, *sys.argv])
    with tempfile.TemporaryDirectory() as directory:
        tcl = os.path.join(directory, "window.tcl")
        open(tcl, "w").write(TCL)
        # Two at a time: the runs, then the GTKWaves (each spends most of its
        # second starting up).
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            prepared = list(pool.map(lambda view: shipped_case(simtx, directory, view), sorted(glob.glob("traces/*.gtkw"))))
            prepared += list(pool.map(lambda item: generated_case(simtx, directory, *item), GENERATED.items()))
            failures = [f for _, found in prepared for f in found]
            cases = [case for case, _ in prepared if case]
            verdicts = list(pool.map(lambda case: judge(*case, tcl), cases)) if have_gtkwave else []
        failures += [v for v in verdicts if v]
        checked = len(prepared) + len(verdicts)
    for failure in failures:
        print("FAILED:", failure)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    if failures:
        return 1
    if not have_gtkwave:
        print("SKIPPED: gtkwave or xvfb-run is not installed (scripts/install-deps installs them); "
              "the views were not opened")
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
