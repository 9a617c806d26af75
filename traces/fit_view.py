#!/usr/bin/python3
"""Sets a hand-made GTKWave view's opening time window for a dump: the window
the view names in a header line

    [*] window: 150 ns .. 800 ns

(units ps, ns, us, ms; no such line: the whole dump), written as the view's
[timestart], zoom and window size, as simtx's generated views are zoomed.
Rewrites each VIEW in place (a view finds its translate files beside itself).

usage: fit_view.py DUMP.vcd VIEW.gtkw [VIEW.gtkw...]"""
import math
import re
import sys

# As platforms/src/gtkw_view.cpp writes them: the window, its signal pane, the
# waveform pane's pixels the zoom fits into (GTKWave draws 200 pixels per
# 2^-zoom time units).
WINDOW_SIZE, SIGNALS_WIDTH, WAVE_PIXELS, PIXELS_PER_FRAME = (1400, 800), 320, 1000, 200
NAMED_MARKERS = 26
UNITS = {"fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
WINDOW = re.compile(r"^\[\*\] window: *([0-9.]+) *(fs|ps|ns|us|ms|s) *\.\. *([0-9.]+) *(fs|ps|ns|us|ms|s) *$")
# The lines this script writes (any earlier ones are replaced).
OWN = re.compile(r"^(\[timestart\]|\[size\]|\[pos\]|\[signals_width\]|\[sst_width\]|\[sst_expanded\]|\*)")


def fail(message):
    print(f"fit_view: {message}", file=sys.stderr)
    sys.exit(2)


def dump_timing(vcd):
    """(seconds per time unit, last time) of a VCD."""
    unit, end, header = None, 0, ""
    with open(vcd) as f:
        for line in f:
            if unit is None:
                header += line
                m = re.search(r"\$timescale\s+(\d+)\s*(fs|ps|ns|us|ms|s)\s+\$end", header)
                if m:
                    unit = int(m.group(1)) * UNITS[m.group(2)]
            elif line.startswith("#"):
                end = int(line[1:])
    if unit is None:
        fail(f"{vcd}: no $timescale")
    return unit, end


def named_window(view_lines, view, unit):
    """The view's named window in time units, or None."""
    for number, line in enumerate(view_lines, 1):
        if line.startswith("[*] window:"):
            m = WINDOW.match(line.strip())
            if not m:
                fail(f"{view}:{number}: expected '[*] window: START UNIT .. END UNIT' (e.g. 150 ns .. 800 ns)")
            start = round(float(m.group(1)) * UNITS[m.group(2)] / unit)
            end = round(float(m.group(3)) * UNITS[m.group(4)] / unit)
            if end <= start:
                fail(f"{view}:{number}: the window ends before it starts")
            return start, end
    return None


def zoom_to_fit(span):
    """GTKWave's zoom that shows span time units in WAVE_PIXELS (as gtkw_zoom_to_fit)."""
    frame = span * PIXELS_PER_FRAME / WAVE_PIXELS
    return math.floor(-math.log2(frame) * 1e6) / 1e6 if frame > 1 else 0.0


def fit(view, unit, end):
    lines = open(view).read().splitlines()
    window = named_window(lines, view, unit)
    start, stop = window or (0, end)
    marker = -1 if window else end  # a whole-run view marks the run's end, as a generated one
    own = [f"[timestart] {start}", f"[size] {WINDOW_SIZE[0]} {WINDOW_SIZE[1]}", f"[signals_width] {SIGNALS_WIDTH}",
           "[sst_expanded] 0", f"*{zoom_to_fit(stop - start):f} {marker}" + " -1" * NAMED_MARKERS]
    kept = [l for l in lines if not OWN.match(l)]
    at = next((i + 1 for i, l in enumerate(kept) if l.startswith("[savefile]") or l.startswith("[dumpfile]")), 0)
    while at < len(kept) and (kept[at].startswith("[savefile]") or kept[at].startswith("[dumpfile]")):
        at += 1
    with open(view, "w") as f:
        f.write("\n".join(kept[:at] + own + kept[at:]) + "\n")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    unit, end = dump_timing(sys.argv[1])
    for view in sys.argv[2:]:
        fit(view, unit, end)
    return 0


if __name__ == "__main__":
    sys.exit(main())
