#!/usr/bin/python3
"""A deterministic mutational fuzzer of the scripts' inputs, in process:
scripts/simtx_inputs.py's parsing and checks of run records (scripts/rerun,
and a point's statistics at scripts/sweep --gather) and of sweep specs.

Each execution takes an input of the corpus (the seeds, then inputs found
along the way), mutates it 1 to 4 times (bytes: bit flips, insertions,
deletions, duplications, truncation, dictionary tokens, splices with another
input; or, where it parses, the JSON tree: a node replaced by a value of
another type, deleted, duplicated, renamed, wrapped) and runs the target on
it. The target may succeed or raise BadInput (exit 2 in the scripts);
anything else, an accepted input breaking an invariant (a rerun running a
recorded program or writing a recorded path; a point command simtx would not
parse; an argument with a NUL or not UTF-8) or an execution longer than -timeout is a finding: the input is
written to ARTIFACT_PREFIX<sha1> and the campaign stops with status 1. An
input is kept in the corpus when its outcome (success, or the message with
its quoted values and numbers blanked) is new, which leads the mutations
past the early checks; half the executions start from an accepted input.
The same seed gives the same campaign.

usage: fuzz_scripts.py record|spec [-runs=N] [-max_total_time=S] [-seed=N]
                       [-timeout=S] [-max_len=BYTES] [-artifact_prefix=P] CORPUS...
  CORPUS   files or folders of seed inputs (each run once as it is first)
  -runs    executions in all, the seeds' included (default 100000)
The last line reports the executions, their rate, the corpus and outcomes.
"""
import argparse
import hashlib
import json
import os
import random
import re
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts"))
import simtx_inputs  # noqa: E402 (found through the path set above)
from simtx_inputs import BadInput  # noqa: E402

# Tokens that reach the checks: the formats' keys, simtx's options, values
# of the wrong kind, characters that break arguments or encodings.
TOKENS = [token.encode() for token in (
    '"run"', '"command_line"', '"working_directory"', '"files"', '"path"', '"sha256"', '"host_plugin"', '"arguments"',
    '"simulated"', '"summary"', '"total"', '"value"', '"unit"', '"host"', '"wall_seconds"', '"time_ps"',
    '"simtx_version"', '"simtx_commit"', '"netlists"', '"workloads"', '"workload_options"', '"set"', '"define"',
    '"seeds"', '"plot"', '"x"', '"y"', '"series"', '"define.cores"', '"seed"', '"netlist"', '"workload"',
    '"--"', '"--host"', '"--stats"', '"--vcd"', '"--trace"', '"--seed"', '"--set"', '"--define"', '"--workload"',
    '"--quiet"', '"--max-time"', '"--crash-at"', '"--crash-seed"', '"--crash-window"', '"--crash-domain"', '"--evil"',
    '"-1"', '"a=b"', '"="', '""', '"/"', '"../x"', '"/dev/zero"', '"\\u0000"', '"\\ud800"', '"\\udcff"',
    '"\\u001b[2J"', "NaN", "Infinity", "-Infinity", "-1", "0", "1e400", "1.5", "123456789012345678901234567890",
    "true", "false", "null", "[]", "{}", "[[[[", '{"a":', ",", ":", '"', "\\")] + [b"\xff", b"\xc3\x28", b"\xed\xa0\x80"]
VALUES = [None, True, False, 0, -1, 1, 2 ** 64, 1.5, -0.0, 1e308, "", "run", "--", "--host", "--stats", "--vcd", "--trace",
          "--evil", "-x", "a=b", "=", "x\0y", "\ud800", "\udcff", "/", "relative/path", "platforms/trace_replay.lua",
          "a" * 64, "0" * 64, "seed", "netlist", "define.cores", "ipc", "simulated_time", [], {}, [1], {"a": [1]}]


class Timeout(Exception):
    """An execution longer than -timeout."""


def outcome(check, *arguments):
    """What check returns ("ok" for nothing), or a BadInput message's shape
    (quoted values and numbers blanked)."""
    try:
        return check(*arguments) or "ok"
    except BadInput as e:
        return re.sub(r"\d+", "0", re.sub(r'"(?:[^"\\]|\\.)*"', '""', str(e)))[:100]


def runnable(command):
    """A command line the scripts can run: strings without NUL, UTF-8 encodable."""
    for argument in command:
        assert isinstance(argument, str) and "\0" not in argument, command
        argument.encode("utf-8")


def check_rerun(data):
    """A run record as scripts/rerun reads it, and the invariants of the
    command it runs: the user's simtx and plugin, the fresh outputs."""
    record = simtx_inputs.Record(data, "record")
    shape = []
    for host in (None, "/user/plugin.so"):
        try:
            command = record.command("/user/simtx", "/fresh", host)
        except BadInput:
            continue
        outputs = record.outputs("/fresh")
        assert all(os.path.dirname(path) == "/fresh" for path in record.written("/fresh")), record.written("/fresh")
        runnable(command)
        assert command[:2] == ["/user/simtx", "run"], command
        pairs, plugin_arguments = simtx_inputs.split_options(command[3:], "command")
        for option, value in pairs:
            if option in simtx_inputs.RERUN_OUTPUTS:
                assert value == outputs[option], (option, value)
            elif option == "--host":
                assert value == host, (option, value)
        assert sum(option == "--stats" for option, _ in pairs) == 1, command
        assert plugin_arguments is None or host is not None, command
        shape = [option for option, _ in pairs] + ["--"] * (plugin_arguments is not None)
    return "ok " + " ".join(shape)  # an accepted record of new options is new

def check_record(data):
    """A statistics file as scripts/rerun and scripts/sweep --gather read it."""
    return outcome(check_rerun, data) + " | " + outcome(lambda: simtx_inputs.point_figures(data, "stats.json") and None)


def check_spec(data):
    """A sweep spec as scripts/sweep reads it: every point's command line is
    one simtx parses as options (checked for the first and the last point)."""
    spec = simtx_inputs.parse_spec(data, "spec")
    count = simtx_inputs.point_count(spec)
    assert 1 <= count <= simtx_inputs.MAX_POINTS, count
    points = simtx_inputs.expand(spec) if count <= 1000 else None
    for point in (points[0], points[-1]) if points else ():
        command = simtx_inputs.point_command(spec, point, "/user/simtx", "/out/stats.json")
        runnable(command)
        assert not command[2].startswith("-") and command[2], command
        pairs, _ = simtx_inputs.split_options(command[3:], "command")
        assert [value for option, value in pairs if option == "--stats"] == ["/out/stats.json"], command
    return "ok " + " ".join(name for name, _ in spec["axes"]) + " " + " ".join(spec["plot"])  # new axes are new

TARGETS = {"record": check_record, "spec": check_spec}


def run(target, data):
    """One execution; returns its outcome."""
    return outcome(lambda: TARGETS[target](simtx_inputs.parse_json(data, "input")))


# --- mutations ---

def random_value(rng, depth=0):
    choice = rng.randrange(10)
    if choice < 5 or depth > 2:
        return rng.choice(VALUES)
    if choice < 7:
        return "".join(chr(rng.choice((rng.randrange(32, 127), rng.randrange(0, 0x300), rng.randrange(0xd800, 0xe000))))
                       for _ in range(rng.randrange(1, 12)))
    if choice < 9:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(VALUES[15:30]) if rng.randrange(2) else "k": random_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def mutate_tree(rng, tree):
    """One change of a parsed JSON value, at a node reached by a random walk
    from the root (so that a small section is chosen as often as a large
    one); returns the new value, which shares all but the containers on the
    walk with the old one (a corpus input's tree is parsed once)."""
    walk, node = [], tree
    while isinstance(node, (dict, list)) and node and (not walk or rng.randrange(4)):
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        walk.append(key)
        node = node[key]
    if not walk or rng.randrange(16) == 0:
        return random_value(rng) if rng.randrange(2) else [tree]
    root = container = tree.copy()
    for key in walk[:-1]:
        container[key] = container[key].copy()
        container = container[key]
    key = walk[-1]
    operation = rng.randrange(6)
    if operation == 0:
        container[key] = random_value(rng)
    elif operation == 1:
        del container[key]
    elif operation == 2 and isinstance(container, list):
        container.insert(key, rng.choice(VALUES) if rng.randrange(2) else node)
    elif operation == 2:
        container[rng.choice(VALUES[15:30])] = container.pop(key)  # renamed
    elif operation == 3:
        container[key] = [node] if rng.randrange(2) else {"value": node}
    elif operation == 4 and isinstance(node, str):
        cut = rng.randrange(len(node) + 1)
        inserted = rng.choice([v for v in VALUES if isinstance(v, str)]) if rng.randrange(2) else random_value(rng, 9)
        container[key] = node[:cut] + (inserted if isinstance(inserted, str) else chr(rng.randrange(0x10000))) + node[cut:]
    else:
        container[key] = rng.choice(VALUES)
    return root


def mutate_bytes(rng, data, corpus):
    operation = rng.randrange(8)
    position = rng.randrange(len(data) + 1)
    if operation == 0 and data:
        position = min(position, len(data) - 1)
        return data[:position] + bytes([data[position] ^ (1 << rng.randrange(8))]) + data[position + 1:]
    if operation == 1:
        return data[:position] + bytes([rng.randrange(256)]) + data[position:]
    if operation == 2:
        return data[:position] + data[position + rng.randrange(1, 64):]
    if operation == 3:
        length = rng.randrange(1, 64)
        return data[:position] + data[position:position + length] * rng.randrange(2, 5) + data[position:]
    if operation == 4:
        return data[:position]
    if operation == 5:
        other = rng.choice(corpus)
        return data[:position] + other[rng.randrange(len(other) + 1):]
    return data[:position] + rng.choice(TOKENS) + data[position:]


NOT_JSON = object()


def parsed(data, cache=None):
    """data's JSON value (NOT_JSON if none, or nested too deeply for the
    mutator), remembered in cache (the corpus' inputs; up to 1000 of them)."""
    if cache is not None and data in cache:
        return cache[data]
    try:
        tree = json.loads(data)
    except (ValueError, RecursionError):
        tree = NOT_JSON
    if cache is not None:
        if len(cache) >= 1000:
            cache.clear()
        cache[data] = tree
    return tree


def mutate(rng, data, corpus, trees):
    """1 to 4 mutations of a corpus input (one half the time), each on its
    tree (3 times in 4, where it is JSON) or its bytes."""
    original, tree = data, None  # while data is None, tree is the current value
    for _ in range(min(4, 1 + int(rng.expovariate(0.7)))):  # mostly one: a near miss of a valid input
        if rng.randrange(4):
            current = tree if data is None else parsed(data, trees if data is original else None)
            if current is not NOT_JSON:
                try:
                    tree, data = mutate_tree(rng, current), None
                    continue
                except RecursionError:
                    pass
        if data is None:
            data = serialised(rng, tree)
        data = mutate_bytes(rng, data, corpus)
    return serialised(rng, tree) if data is None else data


def serialised(rng, tree):
    try:
        text = json.dumps(tree, ensure_ascii=bool(rng.randrange(2)), allow_nan=True)
    except RecursionError:
        return b"[]"
    return text.encode("utf-8", "surrogatepass")


def load_corpus(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, name) for name in os.listdir(path) if os.path.isfile(os.path.join(path, name)))
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise SystemExit(f"fuzz_scripts: {path}: no such file or folder")
    return [open(f, "rb").read() for f in files]


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("usage: ")[1].split("\n  CORPUS")[0])
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("corpus", nargs="+")
    parser.add_argument("-runs", type=int, default=100000)
    parser.add_argument("-max_total_time", type=float, default=0)
    parser.add_argument("-seed", type=int, default=1)
    parser.add_argument("-timeout", type=float, default=10)
    parser.add_argument("-max_len", type=int, default=1 << 17)
    parser.add_argument("-artifact_prefix", default="crash_")
    args = parser.parse_args()
    corpus = load_corpus(args.corpus)
    if not corpus:
        parser.error("no seed input in " + " ".join(args.corpus))
    rng = random.Random(args.seed)
    seeds, features, outcomes, trees, accepted = len(corpus), set(), {"ok": 0, "refused": 0}, {}, []

    def expire(signum, frame):
        raise Timeout(f"an execution took more than {args.timeout} s")
    signal.signal(signal.SIGALRM, expire)
    start = time.monotonic()
    executions = 0
    while executions < args.runs and not (args.max_total_time and time.monotonic() - start > args.max_total_time):
        if executions < seeds:
            data = corpus[executions]
        else:  # half the time from the accepted inputs, the near misses of which reach the deepest checks
            data = mutate(rng, rng.choice(accepted if accepted and rng.randrange(2) else corpus), corpus, trees)[:args.max_len]
        executions += 1
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        try:
            feature = run(args.target, data)
        except Exception:  # noqa: BLE001 (any exception but BadInput is what the fuzzer looks for)
            signal.setitimer(signal.ITIMER_REAL, 0)
            artifact = args.artifact_prefix + hashlib.sha1(data).hexdigest()
            with open(artifact, "wb") as f:
                f.write(data)
            traceback.print_exc()
            print(f"fuzz_scripts: {args.target}: finding after {executions} executions: {artifact}")
            sys.exit(1)
        signal.setitimer(signal.ITIMER_REAL, 0)
        outcomes["ok" if feature.startswith("ok") else "refused"] += 1
        if feature not in features:
            features.add(feature)
            if executions > seeds:
                corpus.append(data)
            if feature.startswith("ok"):
                accepted.append(data)
    seconds = time.monotonic() - start
    print(f"fuzz_scripts: {args.target}: {executions} executions in {seconds:.0f} s ({executions / max(seconds, 1e-9):.0f}/s), "
          f"seed {args.seed}, corpus {seeds}+{len(corpus) - seeds} inputs, {len(features)} outcomes "
          f"({outcomes['ok']} accepted, {outcomes['refused']} refused), 0 findings")


if __name__ == "__main__":
    main()
