#!/usr/bin/python3
"""scripts/rerun on untrusted statistics files (issue 26, defects 5 and 6):
- the recorded program is never run: a record naming a script as its simtx
  reruns with the simtx beside scripts/rerun (a copy of the scripts beside a
  build/simtx), and the script never runs;
- the rerun writes its statistics and waveforms to a fresh folder, never over
  the recorded run's files (their inodes and times stay), and refuses an
  --out-dir already holding a file it would write;
- a recorded host plugin is loaded only when the user names one (--host);
- every malformed or smuggling record ends in exit 2 with a message naming
  the field, before any run, without a Python traceback;
- scripts/simtx_inputs.py's table of simtx options is simtx's own (its usage
  text), so that a new option gets classified, and rerun --help lists it.
usage: rerun_check.py SIMTX PLUGIN.so SCRATCH"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
simtx, plugin, scratch = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(os.path.join(scratch, "tmp"))
# A rerun without --out-dir writes to a fresh temporary folder: keep those here.
environment = dict(os.environ, TMPDIR=os.path.join(scratch, "tmp"))
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def rerun(stats, *arguments, script=os.path.join(root, "scripts", "rerun")):
    return subprocess.run([sys.executable, script, stats, *arguments], capture_output=True, text=True, env=environment)


def write(name, record):
    path = os.path.join(scratch, name)
    with open(path, "w") as f:
        f.write(record if isinstance(record, str) else json.dumps(record))
    return path


def identity(path):
    if not os.path.exists(path):
        return None
    info = os.stat(path)
    return info.st_ino, info.st_mtime_ns, open(path, "rb").read()


# A recorded run with statistics and waveforms.
recorded = os.path.join(scratch, "recorded")
os.makedirs(recorded)
outputs = [os.path.join(recorded, name) for name in ("run.json", "run.vcd", "run.gtkw")]
result = subprocess.run([simtx, "run", "platforms/trace_replay.lua", "--define", "requests=40", "--seed", "5", "--stats", outputs[0],
                         "--vcd", outputs[1], "--trace", "player.*", "--quiet"], cwd=root, capture_output=True, text=True)
check(result.returncode == 0, f"the recorded run: exit {result.returncode}: {result.stderr}")
record = json.load(open(outputs[0]))
before = [identity(path) for path in outputs]

# Rerun into a fresh folder: identical, and the recorded files untouched.
result = rerun(outputs[0], "--simtx", simtx)
check(result.returncode == 0 and "identical" in result.stdout, f"rerun: exit {result.returncode}: {result.stdout} {result.stderr}")
check([identity(path) for path in outputs] == before, "the rerun rewrote the recorded run's statistics or waveforms")
fresh = re.search(r"\((.*)/stats.json\)", result.stdout)
check(fresh and os.path.dirname(fresh.group(1)) == os.path.join(scratch, "tmp") and
      all(os.path.isfile(os.path.join(fresh.group(1), name)) for name in ("stats.json", "waves.vcd", "waves.gtkw")),
      f"the rerun's outputs are not in a fresh temporary folder: {result.stdout}")
out_dir = os.path.join(scratch, "out")
result = rerun(outputs[0], "--simtx", simtx, "--out-dir", out_dir)
check(result.returncode == 0 and os.path.isfile(os.path.join(out_dir, "waves.vcd")), f"rerun --out-dir: {result.stdout} {result.stderr}")
kept = identity(os.path.join(out_dir, "stats.json"))
result = rerun(outputs[0], "--simtx", simtx, "--out-dir", out_dir)
check(result.returncode == 2 and "stats.json" in result.stderr and identity(os.path.join(out_dir, "stats.json")) == kept,
      f"a second rerun into the same --out-dir: exit {result.returncode}: {result.stderr}")

# The recorded program is a script; the rerun uses the simtx beside scripts/rerun.
marker = os.path.join(scratch, "program_ran")
program = write("program.sh", f"#!/bin/sh\ntouch {marker}\n")
os.chmod(program, 0o755)
tree = os.path.join(scratch, "tree")
os.makedirs(os.path.join(tree, "build"))
shutil.copytree(os.path.join(root, "scripts"), os.path.join(tree, "scripts"))
os.symlink(simtx, os.path.join(tree, "build", "simtx"))
hostile = copy.deepcopy(record)
hostile["run"]["command_line"][0] = program
result = rerun(write("program.json", hostile), script=os.path.join(tree, "scripts", "rerun"))
check(not os.path.exists(marker), "rerun ran the recorded program")
check(result.returncode == 0 and "identical" in result.stdout, f"rerun with the simtx beside it: exit {result.returncode}: {result.stderr}")
os.remove(os.path.join(tree, "build", "simtx"))
result = rerun(os.path.join(scratch, "program.json"), script=os.path.join(tree, "scripts", "rerun"))
check(result.returncode == 2 and "--simtx" in result.stderr and not os.path.exists(marker),
      f"rerun without a simtx beside it: exit {result.returncode}: {result.stderr}")

# A host plugin run: reproduced only with the user's --host.
plugin_copy = os.path.join(scratch, "plugin.so")
shutil.copy(plugin, plugin_copy)
host_stats = os.path.join(scratch, "host.json")
result = subprocess.run([simtx, "run", "platforms/simt_1core.lua", "--stats", host_stats, "--quiet", "--host", plugin_copy, "--", "pass",
                         "x y"], cwd=root, capture_output=True, text=True)
check(result.returncode == 0, f"the plugin run: exit {result.returncode}: {result.stderr}")
result = rerun(host_stats, "--simtx", simtx)
check(result.returncode == 2 and "--host PLUGIN.so" in result.stderr, f"a plugin run without --host: exit {result.returncode}: {result.stderr}")
result = rerun(host_stats, "--simtx", simtx, "--host", plugin_copy)
check(result.returncode == 0 and "identical" in result.stdout, f"a plugin run with --host: exit {result.returncode}: {result.stderr}")


def mutated(change):
    data = copy.deepcopy(record)
    change(data)
    return data


def command_plus(*arguments):
    return lambda d: d["run"]["command_line"].extend(arguments)


def setter(*keys_and_value):
    *keys, last, value = keys_and_value

    def change(data):
        for key in keys:
            data = data[key]
        data[last] = value
    return change


text = open(outputs[0]).read()
refused = [
    ("truncated", text[:len(text) // 2], "not JSON: "),
    ("not_object", "[1, 2]", "expected a JSON object"),
    ("nan", text.replace('"seed": 5', '"seed": NaN'), "NaN is not JSON"),
    ("no_run", mutated(lambda d: d.pop("run")), 'no "run" section'),
    ("run_string", mutated(setter("run", "x")), "run: expected an object"),
    ("no_command_line", mutated(lambda d: d["run"].pop("command_line")), 'run: no "command_line"'),
    ("command_line_string", mutated(setter("run", "command_line", "simtx run x.lua")), "command_line: expected a list"),
    ("command_line_short", mutated(setter("run", "command_line", ["simtx"])), "command_line: expected [PROGRAM"),
    ("not_run", mutated(setter("run", "command_line", 1, "describe")), 'the second "describe"'),
    ("argument_number", mutated(command_plus("--seed", 7)), "command_line[15]: expected a string, got an integer"),
    ("argument_nul", mutated(command_plus("--define", "requests=4\u0000")), "NUL character"),
    ("unknown_option", mutated(command_plus("--evil")), '"--evil" is no simtx run option'),
    ("smuggled_host", mutated(command_plus("--host", "/tmp/evil.so")), 'run.host_plugin: null, but the command line has a --host'),
    ("plugin_arguments", mutated(command_plus("--", "x")), 'arguments after "--" are a host plugin\'s'),
    ("missing_value", mutated(command_plus("--seed")), "--seed has no value"),
    ("option_as_value", mutated(command_plus("--set", "--host")), "--set's value \"--host\" starts with '-'"),
    ("netlist_option", mutated(setter("run", "command_line", 2, "--host")), 'command_line[2]: "--host" is no netlist'),
    ("relative_directory", mutated(setter("run", "working_directory", "platforms")), "is not an absolute path"),
    ("directory_number", mutated(setter("run", "working_directory", 5)), "working_directory: expected a string"),
    ("no_directory", mutated(setter("run", "working_directory", "/no/such/folder")), "does not exist"),
    ("files_object", mutated(setter("run", "files", {})), "files: expected a list"),
    ("file_hash_missing", mutated(lambda d: d["run"]["files"][0].pop("sha256")), 'files[0]: no "sha256"'),
    ("file_hash_wrong", mutated(setter("run", "files", 0, "sha256", "abc")), "expected 64 hex digits"),
    ("file_folder", mutated(setter("run", "files", 0, "path", "platforms")), '"platforms": not a regular file'),
    ("no_simulated", mutated(lambda d: d.pop("simulated")), 'no "simulated"'),
    ("version_number", mutated(setter("run", "simtx_version", 1)), "simtx_version: expected a string"),
]
for name, data, message in refused:
    out = os.path.join(scratch, "refused", name)
    result = rerun(write(name + ".json", data), "--simtx", simtx, "--out-dir", out)
    check(result.returncode == 2 and result.stderr.startswith("rerun: ") and message in result.stderr and "Traceback" not in result.stderr,
          f"{name}: exit {result.returncode}, expected 2 and '{message}': {result.stderr.strip()[-400:]}")
    check(not os.path.exists(os.path.join(out, "stats.json")), f"{name}: the refused record ran")
check([identity(path) for path in outputs] == before, "a refused rerun touched the recorded run's files")

# The scripts' table of simtx options is simtx's own.
usage = subprocess.run([simtx, "run"], capture_output=True, text=True).stderr
documented = {m.group(1): int(bool(m.group(2))) for m in re.finditer(r"^  (--[a-z-]+)( [A-Z])?", usage, re.M)}
sys.path.insert(0, os.path.join(root, "scripts"))
import simtx_inputs  # noqa: E402 (the scripts' folder is on the path only now)
check(documented == simtx_inputs.SIMTX_OPTIONS, f"simtx run's options {documented}, scripts/simtx_inputs.py's {simtx_inputs.SIMTX_OPTIONS}")
helped = rerun("--help").stdout
check(all(option in helped.split() or option + "," in helped.split() for option in documented), f"rerun --help lacks options: {helped}")

for failure in failures:
    print("FAIL:", failure)
print(f"rerun: {len(refused)} refused records, {len(failures)} failures")
sys.exit(1 if failures else 0)
