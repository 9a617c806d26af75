"""The inputs of scripts/rerun and scripts/sweep, parsed and checked in one
place, shared by both scripts and their fuzz target
(testbenches/fuzz/fuzz_scripts.py): a statistics file's run record, a sweep
spec, and a sweep point's statistics at gathering.

A statistics file is untrusted input: it may come from anyone, and its run
record names a program, a working directory, files and a command line. The
record's program is never run, and its command line is taken apart as simtx
takes it apart, option by option against simtx run's own table (SIMTX_OPTIONS):
an unknown option, a missing value or a value that could be read as an option
is refused. Everything malformed raises BadInput, whose message names the file
and the field; the scripts print it and exit with status 2. Nothing here runs
a program or writes a file."""
import itertools
import json
import math
import os
import re

# simtx run's options (platforms/src/command_line.cpp) and how many values each
# takes; testbenches/platforms/rerun_check.py compares this table with
# simtx's own usage text, so that a new simtx option is classified here.
SIMTX_OPTIONS = {
    "--set": 1, "--define": 1, "--seed": 1, "--stats": 1, "--vcd": 1, "--trace": 1, "--max-time": 1, "--watchdog": 1,
    "--crash-at": 1, "--crash-seed": 1, "--crash-window": 1, "--crash-domain": 1, "--workload": 1, "--host": 1,
    "--check-protocol": 0, "--no-memcheck": 0, "--quiet": 0, "--stats-detail": 0, "--progress": 0,
}
# The recorded outputs: a rerun writes fresh paths instead.
RERUN_OUTPUTS = ("--stats", "--vcd")
# A sweep sets these itself for every point (the spec's "workloads" and "seeds",
# its own statistics file); --vcd would have every point write one file.
SWEEP_OWN_OPTIONS = ("--seed", "--workload", "--stats", "--vcd", "--trace")
SPEC_KEYS = ("netlists", "workloads", "workload_options", "set", "define", "seeds", "arguments", "plot")
PLOT_KEYS = ("x", "y", "series", "x_label", "y_label")
# A grid larger than this is a typo (and would take the expansion's memory).
MAX_POINTS = 100000
SHA256 = re.compile(r"[0-9a-f]{64}")


class BadInput(Exception):
    """Malformed input; the scripts print the message and exit with status 2."""


def shown(value, limit=80, quoted=True):
    """A value for a message: JSON-quoted (ASCII only, no control character:
    printable whatever it holds), and shortened."""
    text = json.dumps(value) if isinstance(value, str) else kind_of(value)
    if len(text) > limit:
        text = text[:limit - 4] + '..."'
    return text if quoted or not isinstance(value, str) else text[1:-1]


def kind_of(value):
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def _unique_keys(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {shown(key)}")
            seen.add(key)
    return result


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(data, source):
    """JSON text (bytes) strictly: UTF-8, no NaN or Infinity, no duplicate keys."""
    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except UnicodeDecodeError as e:
        raise BadInput(f"{source}: not UTF-8 text (byte {e.start})") from None
    except ValueError as e:
        raise BadInput(f"{source}: not JSON: {e}") from None
    except RecursionError:
        raise BadInput(f"{source}: not JSON: nested too deeply") from None


def read_json(path):
    """A JSON file; only a regular file is read (a FIFO or device would block)."""
    if not os.path.isfile(path):
        raise BadInput(f"{path}: {'no such file' if not os.path.lexists(path) else 'not a regular file'}")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}") from None
    return parse_json(data, path)


def field(container, key, kind, where, required=True):
    """container[key] of the given type (dict, list, str, int or number), or
    None when absent and not required; `where` names the container."""
    if key not in container:
        if required:
            raise BadInput(f"{where}: no \"{key}\"")
        return None
    value = container[key]
    fits = (isinstance(value, (int, float)) and not isinstance(value, bool) if kind == "number"
            else isinstance(value, int) and not isinstance(value, bool) if kind is int
            else isinstance(value, kind))
    if not fits:
        expected = "a number" if kind == "number" else kind_of(kind())
        at = f"{where}.{key}" if ": " in where else f"{where}: {key}"  # where: a file, or a file and a field
        raise BadInput(f"{at}: expected {expected}, got {shown(value)}")
    return value


def argument(value, where):
    """A string that can be a program argument: no NUL, encodable as UTF-8."""
    if not isinstance(value, str):
        raise BadInput(f"{where}: expected a string, got {shown(value)}")
    if "\0" in value:
        raise BadInput(f"{where}: {shown(value)} holds a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{where}: {shown(value)} is not valid Unicode") from None
    return value


def split_options(arguments, where, first=0):
    """simtx run's options as simtx reads them: (option, value) pairs (value
    None for a flag) and the host plugin's arguments after "--" (None without).
    An unknown option, a missing value or a value starting with '-' (which
    would read as an option elsewhere) is refused. Messages name an argument
    as where[first + its index]."""
    pairs, i = [], 0
    while i < len(arguments):
        option = argument(arguments[i], f"{where}[{first + i}]")
        if option == "--":
            if not any(o == "--host" for o, _ in pairs):
                raise BadInput(f"{where}[{first + i}]: arguments after \"--\" are a host plugin's, and there is no --host")
            return pairs, [argument(a, f"{where}[{first + i + 1 + j}]") for j, a in enumerate(arguments[i + 1:])]
        if option not in SIMTX_OPTIONS:
            raise BadInput(f"{where}[{first + i}]: {shown(option)} is no simtx run option")
        if not SIMTX_OPTIONS[option]:
            pairs.append((option, None))
            i += 1
            continue
        if i + 1 >= len(arguments):
            raise BadInput(f"{where}[{first + i}]: {option} has no value")
        value = argument(arguments[i + 1], f"{where}[{first + i + 1}]")
        if value.startswith("-"):
            raise BadInput(f"{where}[{first + i + 1}]: {option}'s value {shown(value)} starts with '-'")
        pairs.append((option, value))
        i += 2
    return pairs, None


# --- run records (scripts/rerun) ---

class Record:
    """A statistics file's run record, checked: what a rerun needs."""

    def __init__(self, data, source):
        if not isinstance(data, dict):
            raise BadInput(f"{source}: expected a JSON object, got {shown(data)}")
        if "run" not in data:
            raise BadInput(f"{source}: no \"run\" section (written by a simtx older than the run record)")
        run = field(data, "run", dict, source)
        where = f"{source}: run"
        self.simulated = field(data, "simulated", dict, source)
        self.summary = field(data, "summary", dict, source)
        self.version = field(run, "simtx_version", str, where)
        self.commit = field(run, "simtx_commit", str, where)
        command = field(run, "command_line", list, where)
        if len(command) < 3 or command[1] != "run":
            raise BadInput(f"{where}.command_line: expected [PROGRAM, \"run\", NETLIST, OPTION...], got {len(command)} "
                           f"argument(s){', the second ' + shown(command[1]) if len(command) > 1 else ''}")
        self.netlist = argument(command[2], f"{where}.command_line[2]")
        if not self.netlist or self.netlist.startswith("-"):
            raise BadInput(f"{where}.command_line[2]: {shown(self.netlist)} is no netlist")
        self.options, self.plugin_arguments = split_options(command[3:], f"{where}.command_line", 3)
        self.working_directory = argument(field(run, "working_directory", str, where), f"{where}.working_directory")
        if not os.path.isabs(self.working_directory):
            raise BadInput(f"{where}.working_directory: {shown(self.working_directory)} is not an absolute path")
        self.files = []
        for i, entry in enumerate(field(run, "files", list, where)):
            if not isinstance(entry, dict):
                raise BadInput(f"{where}.files[{i}]: expected an object, got {shown(entry)}")
            path = argument(field(entry, "path", str, f"{where}.files[{i}]"), f"{where}.files[{i}].path")
            self.files.append((path, self._hash(entry, f"{where}.files[{i}]")))
        plugin = run.get("host_plugin")
        self.uses_host = any(option == "--host" for option, _ in self.options)
        if self.uses_host != isinstance(plugin, dict):
            raise BadInput(f"{where}.host_plugin: {shown(plugin)}, but the command line has "
                           f"{'a' if self.uses_host else 'no'} --host")
        self.plugin_hash = self._hash(plugin, f"{where}.host_plugin") if self.uses_host else None

    @staticmethod
    def _hash(entry, where):
        """An entry's "sha256": 64 hex digits, or null (the file was unreadable)."""
        if "sha256" not in entry:
            raise BadInput(f"{where}: no \"sha256\"")
        digest = entry["sha256"]
        if digest is not None and not (isinstance(digest, str) and SHA256.fullmatch(digest)):
            raise BadInput(f"{where}.sha256: expected 64 hex digits or null, got {shown(digest)}")
        return digest

    def outputs(self, out_dir):
        """The output options of a rerun into out_dir: its statistics and,
        where the recorded run wrote waveforms, its waveforms."""
        paths = {"--stats": os.path.join(out_dir, "stats.json")}
        if any(option == "--vcd" for option, _ in self.options):
            paths["--vcd"] = os.path.join(out_dir, "waves.vcd")
        return paths

    def written(self, out_dir):
        """Every file a rerun into out_dir may write: the outputs, the GTKWave
        view beside the VCD, each also as FILE.partial (a failed run's)."""
        files = list(self.outputs(out_dir).values())
        files += [os.path.join(out_dir, "waves.gtkw")] if len(files) > 1 else []
        return files + [path + ".partial" for path in files]

    def check_host(self, host):
        """A recorded host plugin is a program: only one the user names runs."""
        if self.uses_host and host is None:
            raise BadInput("the recorded run loads a host plugin (--host), which is a program: "
                           "rerun loads only one you name with --host PLUGIN.so")
        if host is not None and not self.uses_host:
            raise BadInput("--host: the recorded run has no host plugin")

    def command(self, simtx, out_dir, host=None):
        """The rerun's command line: simtx (the user's, never the recorded
        program), the recorded netlist and options, the outputs in out_dir, and
        the user's host plugin for the recorded one."""
        self.check_host(host)
        outputs = self.outputs(out_dir)
        command = [simtx, "run", self.netlist]
        for option, value in self.options:
            if option == "--stats":
                continue
            if option in RERUN_OUTPUTS:
                value = outputs[option]
            elif option == "--host":
                value = host
            command += [option] if value is None else [option, value]
        command += ["--stats", outputs["--stats"]]
        return command + (["--"] + self.plugin_arguments if self.plugin_arguments is not None else [])


# --- sweep specs (scripts/sweep) ---

def _values(values, where):
    """A non-empty list of scalar values, as the text simtx gets."""
    if not isinstance(values, list) or not values:
        raise BadInput(f"{where}: expected a non-empty list of values, got {shown(values)}")
    texts = []
    for i, value in enumerate(values):
        if isinstance(value, bool):
            texts.append("true" if value else "false")
        elif isinstance(value, (int, float)):
            if isinstance(value, float) and not math.isfinite(value):
                raise BadInput(f"{where}[{i}]: {value} is not a finite number")
            texts.append(str(value))
        elif isinstance(value, str):
            texts.append(argument(value, f"{where}[{i}]"))
        else:
            raise BadInput(f"{where}[{i}]: expected a string, number or boolean, got {shown(value)}")
    return texts


def _names(values, where):
    """A list of values that are arguments of their own (netlists, workloads)."""
    for i, text in enumerate(_values(values, where)):
        if not isinstance(values[i], str) or not text or text.startswith("-"):
            raise BadInput(f"{where}[{i}]: {shown(values[i])} is no name (a string, not empty, no leading '-')")
    return values


def parse_spec(data, source):
    """A sweep spec (scripts/sweep's help), checked; returned normalised: the
    grid's axes as (coordinate, [value text]) in expansion order, the extra
    arguments, the plot's wishes."""
    if not isinstance(data, dict):
        raise BadInput(f"{source}: the spec must be a JSON object, got {shown(data)}")
    unknown = sorted(set(data) - set(SPEC_KEYS))
    if unknown:
        raise BadInput(f"{source}: unknown key(s) {', '.join(shown(k) for k in unknown)} (known: {', '.join(SPEC_KEYS)})")
    netlists = _names(field(data, "netlists", list, source), f"{source}: netlists")
    workloads = field(data, "workloads", list, source, required=False)
    axes = [("netlist", netlists), ("workload", _names(workloads, f"{source}: workloads") if workloads else [""])]
    for group in ("workload_options", "set", "define"):
        for name, values in (field(data, group, dict, source, required=False) or {}).items():
            argument(name, f"{source}: {group}: name {shown(name)}")
            if not name or "=" in name or name.startswith("-"):
                raise BadInput(f"{source}: {group}: {shown(name)} is no name (not empty, no '=', no leading '-')")
            axes.append((f"{group}.{name}", _values(values, f"{source}: {group}.{name}")))
    seeds = field(data, "seeds", list, source, required=False) or [1]
    for i, seed in enumerate(seeds):
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
            raise BadInput(f"{source}: seeds[{i}]: expected an integer in 0..2^64-1, got {shown(seed)}")
    axes.append(("seed", [str(s) for s in seeds]))
    count = math.prod(len(values) for _, values in axes)
    if count > MAX_POINTS:
        raise BadInput(f"{source}: the grid has {count} points; at most {MAX_POINTS}")
    arguments = field(data, "arguments", list, source, required=False) or []
    arguments = [str(a) if isinstance(a, int) and not isinstance(a, bool) else a for a in arguments]
    pairs, _ = split_options(arguments, f"{source}: arguments")
    for option, _ in pairs:
        if option in SWEEP_OWN_OPTIONS:
            raise BadInput(f"{source}: arguments: {option} is the sweep's own (use the spec's keys; "
                           f"every point writes its own statistics, no waveforms)")
    if workloads and any(option == "--host" for option, _ in pairs):
        raise BadInput(f"{source}: arguments: --host and \"workloads\" exclude each other")
    if data.get("workload_options") and not workloads and not any(option == "--host" for option, _ in pairs):
        raise BadInput(f"{source}: \"workload_options\" needs \"workloads\", or a host plugin (\"arguments\": [\"--host\", ...]) "
                       f"that declares them")
    plot = field(data, "plot", dict, source, required=False) or {}
    for key, value in plot.items():
        if key not in PLOT_KEYS:
            raise BadInput(f"{source}: plot: unknown key {shown(key)} (known: {', '.join(PLOT_KEYS)})")
        if not isinstance(value, str) or not value:
            raise BadInput(f"{source}: plot.{key}: expected {'a label' if key.endswith('_label') else 'a column name'}, "
                           f"got {shown(value)}")
    coordinates = [name for name, _ in axes]
    for key in ("x", "series"):
        if key in plot and plot[key] not in coordinates:
            raise BadInput(f"{source}: plot.{key}: {shown(plot[key])} is none of the grid's coordinates "
                           f"({', '.join(coordinates)})")
    return {"axes": axes, "arguments": arguments, "plot": plot}


def point_count(spec):
    return math.prod(len(values) for _, values in spec["axes"])


def expand(spec):
    """The grid's points, in a fixed order: each a dict of coordinates."""
    names = [name for name, _ in spec["axes"]]
    return [dict(zip(names, combination)) for combination in itertools.product(*(values for _, values in spec["axes"]))]


def point_command(spec, point, simtx, stats):
    """The simtx command line of one point."""
    command = [simtx, "run", point["netlist"], "--quiet", "--stats", stats, "--seed", point["seed"]]
    if point["workload"]:
        command += ["--workload", point["workload"]]
    for key, value in point.items():
        group, _, name = key.partition(".")
        if group == "workload_options":
            command += ["--set", f"workload.{name}={value}"]
        elif group == "set":
            command += ["--set", f"{name}={value}"]
        elif group == "define":
            command += ["--define", f"{name}={value}"]
    return command + spec["arguments"]


def point_figures(data, source):
    """A point's statistics as the table wants them: the simulated time (ps),
    the summary totals as {column: value} (a column names its unit), and the
    wall seconds."""
    if not isinstance(data, dict):
        raise BadInput(f"{source}: expected a JSON object, got {shown(data)}")
    time_ps = field(field(data, "simulated", dict, source), "time_ps", "number", f"{source}: simulated")
    wall = field(field(data, "host", dict, source), "wall_seconds", "number", f"{source}: host")
    figures = {}
    totals = field(field(data, "summary", dict, source, required=False) or {}, "total", dict, f"{source}: summary",
                   required=False) or {}
    for key, entry in totals.items():
        where = f"{source}: summary.total.{shown(key)}"
        if not isinstance(entry, dict):
            raise BadInput(f"{where}: expected an object, got {shown(entry)}")
        unit = argument(field(entry, "unit", str, where), f"{where}.unit")
        if "value" not in entry:
            raise BadInput(f"{where}: no \"value\"")
        value = entry["value"]
        if value is not None:
            field(entry, "value", "number", where)
        name = argument(key, where)
        figures[f"{name} ({unit})" if unit else name] = "" if value is None else value
    # The energy section's totals (docs/fidelity.md, Energy), when the run was estimated.
    energy = data.get("energy")
    if isinstance(energy, dict) and energy.get("estimated") is True:
        for key in ("total", "average_power", "energy_delay_product"):
            entry = energy.get(key)
            where = f"{source}: energy.{key}"
            if not isinstance(entry, dict) or not isinstance(entry.get("unit"), str):
                raise BadInput(f"{where}: expected an object with a value and a unit, got {shown(entry)}")
            value = field(entry, "value", "number", where)
            figures[f"energy {key} ({entry['unit']})"] = value
    return time_ps, figures, wall
