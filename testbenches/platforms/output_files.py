#!/usr/bin/python3
"""Output files never destroy anything (README, Using simtx).

usage: output_files.py SIMTX WORK_DIR PLUGIN
A symbolic link, FIFO, folder or device named by --stats or --vcd is refused
before the run (exit 2) and left as it was; so is an output that is one of
the run's inputs (the netlist, an included file, a trace, a kernel, the host
plugin; also through a hard link) or another output; a run stopped by
--max-time prints its summary and writes its statistics beside the
requested file, marked partial, leaving a complete file there untouched; a
complete run replaces a regular file and leaves no temporary file behind;
neither does a run ended by a signal. A host plugin (PLUGIN:
plugin_misbehaves.cpp) that calls exit() or throws fails the run (exit 1)
with partial statistics; one that changes directory does not move a
relative --stats; bytes that are not UTF-8 in its arguments or message
leave the statistics valid JSON.
"""
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(simtx, *args, cwd=None):
    return subprocess.run([simtx, "run", *args], capture_output=True, text=True, timeout=120, cwd=cwd, errors="replace")


def temporaries(folder):
    return [name for name in os.listdir(folder) if name.startswith(".")]


def outputs_onto_inputs(simtx, work, plugin):
    """An output onto an input or another output: refused, nothing touched."""
    folder = os.path.join(work, "inputs")
    os.makedirs(folder)
    files = {name: os.path.join(folder, name) for name in ("net.lua", "part.lua", "input.trc", "kernel.elf", "plugin.so", "w.vcd",
                                                            "w.gtkw")}
    with open(files["net.lua"], "w") as f:
        f.write('clock("core", { frequency_mhz = 1000 })\ninclude("part.lua")\n')
    with open(files["part.lua"], "w") as f:
        f.write('block("player", "trace_player", { synthetic_requests = 20 })\nblock("mem", "memory", { latency = 20 })\n'
                'connect("player.memory", "mem.port")\n')
    for name in ("input.trc", "kernel.elf", "w.vcd", "w.gtkw"):
        with open(files[name], "w") as f:
            f.write(f"the {name} before the run\n")
    shutil.copy(plugin, files["plugin.so"])
    os.link(files["net.lua"], os.path.join(folder, "hard_link.json"))
    core = "platforms/simt_1core.lua"
    cases = [
        ("the netlist", [files["net.lua"], "--stats", files["net.lua"]]),
        ("the netlist's include", [files["net.lua"], "--stats", files["part.lua"]]),
        ("the netlist", [files["net.lua"], "--stats", os.path.join(folder, "hard_link.json")]),
        ("the file of parameter player.trace", [files["net.lua"], "--set", f"player.trace={files['input.trc']}", "--stats", files["input.trc"]]),
        ("the kernel", [core, "--workload", "vector_add", "--set", f"workload.kernel={files['kernel.elf']}", "--stats",
                        files["kernel.elf"]]),
        ("the --host plugin", [core, "--host", files["plugin.so"], "--stats", files["plugin.so"], "--", "exit"]),
        ("also written as --stats", [files["net.lua"], "--stats", files["w.vcd"], "--vcd", files["w.vcd"]]),
        ("also written as --stats", [files["net.lua"], "--stats", files["w.gtkw"], "--vcd", files["w.vcd"]]),
        ("also written as --stats", [files["net.lua"], "--stats", files["w.vcd"] + ".partial", "--vcd", files["w.vcd"]]),
    ]
    contents = {name: open(path, "rb").read() for name, path in files.items()}
    for kind, arguments in cases:
        before = sorted(os.listdir(folder))
        result = run(simtx, *arguments, "--quiet")
        check(result.returncode == 2, f"{arguments}: exit {result.returncode}, expected 2; {result.stderr[-300:]}")
        check(kind in result.stderr, f"{arguments}: stderr {result.stderr!r} lacks {kind!r}")
        check(sorted(os.listdir(folder)) == before, f"{arguments}: files changed: {sorted(os.listdir(folder))}")
        for name, path in files.items():
            check(open(path, "rb").read() == contents[name], f"{arguments}: {name} was written")


def misbehaving_plugin(simtx, work, plugin):
    """exit() and exceptions in a plugin fail the run; chdir moves no output;
    bytes that are not UTF-8 leave valid JSON."""
    stats = os.path.join(work, "plugin.json")
    core = "platforms/simt_1core.lua"
    for how, message in (("exit", "exit(0) was called during the run"), ("throw", "threw an exception: plugin_misbehaves threw")):
        with open(stats, "w") as f:
            f.write("an older run's statistics")
        result = run(simtx, core, "--stats", stats, "--vcd", os.path.join(work, "plugin.vcd"), "--host", plugin, "--", how)
        check(result.returncode == 1, f"plugin {how}: exit {result.returncode}, expected 1; {result.stderr[-300:]}")
        check(message in result.stderr, f"plugin {how}: stderr {result.stderr!r} lacks {message!r}")
        check("(partial: the run failed)" in result.stdout, f"plugin {how}: no summary marked partial")
        check(open(stats).read() == "an older run's statistics", f"plugin {how}: the older statistics were replaced")
        partial = json.load(open(stats + ".partial")) if os.path.exists(stats + ".partial") else {}
        check(message in partial.get("partial", {}).get("error", ""), f"plugin {how}: no partial statistics naming the error")
        check(os.path.exists(os.path.join(work, "plugin.vcd.partial")), f"plugin {how}: no partial waveforms")
        check(not temporaries(work), f"plugin {how}: temporary files left: {temporaries(work)}")
        for name in temporaries(work) + [os.path.basename(stats) + ".partial"]:
            if os.path.exists(os.path.join(work, name)):
                os.remove(os.path.join(work, name))

    # A relative --stats stays where it was asked for when the plugin changes directory.
    elsewhere = os.path.join(work, "elsewhere")
    os.makedirs(elsewhere)
    result = run(simtx, os.path.abspath(core), "--quiet", "--stats", "relative.json", "--host", plugin, "--", "chdir", elsewhere,
                 cwd=work)
    check(result.returncode == 0, f"plugin chdir: exit {result.returncode}; {result.stderr[-300:]}")
    check(os.path.exists(os.path.join(work, "relative.json")) and not os.listdir(elsewhere),
          f"plugin chdir: --stats went to {os.listdir(elsewhere)}")

    # Bytes that are not UTF-8 (an argument, the plugin's message): valid JSON, U+FFFD in their place.
    odd = os.fsdecode(b"caf\xe9 \xff\xc0\xaf \xed\xa0\x80 ok\xc3\xa9")
    result = run(simtx, core, "--quiet", "--stats", stats, "--host", plugin, "--", "error", odd)
    check(result.returncode == 1, f"plugin error: exit {result.returncode}; {result.stderr[-300:]}")
    try:
        text = open(stats + ".partial", "rb").read().decode("utf-8") if os.path.exists(stats + ".partial") else "{}"
        document = json.loads(text)
        error = document["partial"]["error"]
        check(error.endswith("caf\ufffd \ufffd\ufffd\ufffd \ufffd\ufffd\ufffd ok\u00e9"), f"plugin error: message {error!r}")
        check(document["run"]["host_plugin"]["arguments"][-1] == error.split(": ")[-1], "plugin error: the argument differs")
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError) as e:
        check(False, f"plugin error: the statistics are no valid JSON: {e}")


def signals_leave_no_temporaries(simtx, work):
    """A run ended by SIGINT, SIGTERM or SIGHUP removes its temporary files."""
    folder = os.path.join(work, "signals")
    os.makedirs(folder)
    small = "testbenches/platforms/netlists/good_small.lua"
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        process = subprocess.Popen([simtx, "run", small, "--quiet", "--set", "player.synthetic_requests=100000000", "--stats",
                                    os.path.join(folder, "s.json"), "--vcd", os.path.join(folder, "w.vcd")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while not temporaries(folder) and time.time() < deadline and process.poll() is None:
            time.sleep(0.02)
        time.sleep(0.2)
        check(process.poll() is None, f"{number.name}: the run ended before the signal")
        process.send_signal(number)
        process.wait(timeout=30)
        check(process.returncode == -number, f"{number.name}: exit {process.returncode}, expected death by the signal")
        check(not temporaries(folder), f"{number.name}: temporary files left: {temporaries(folder)}")
        for name in temporaries(folder):
            os.remove(os.path.join(folder, name))


def main():
    simtx, work, plugin = (os.path.abspath(argument) for argument in sys.argv[1:4])
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
    # The view's translate files (wave.<block>.<probe>.txt) go beside it.
    left = {name for name in set(os.listdir(work)) - before if not re.fullmatch(r"wave\.\w+\.\w+\.txt", name)}
    check(left == {"wave.vcd", "wave.gtkw"}, f"complete run left {sorted(set(os.listdir(work)) - before)}")

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
    check(not temporaries(work), "a temporary file was left behind")

    outputs_onto_inputs(simtx, work, plugin)
    misbehaving_plugin(simtx, work, plugin)
    signals_leave_no_temporaries(simtx, work)
    shutil.rmtree(work, ignore_errors=True)

    for failure in failures:
        print("FAILED:", failure)
    print(f"{0 if failures else 1} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
