#!/bin/sh
# usage: determinism.sh SIMTX OUTDIR ARGS...
# Runs the same job twice; the statistics (without the host section) and the
# VCD (without its date) must be identical, a third run without --vcd (the
# tick scheduler then runs ahead of SystemC's time) must give the same
# statistics, and a different seed must still produce a valid run.
simtx=$1 out=$2
shift 2
mkdir -p "$out" || exit 1
for run in 1 2; do
    "$simtx" run "$@" --seed 7 --stats "$out/stats$run.json" --vcd "$out/wave$run.vcd" --quiet >/dev/null || exit 1
    sed '/"host"/,$d' "$out/stats$run.json" > "$out/stats$run.sim"
    sed '/^\$date/,/^\$end/d' "$out/wave$run.vcd" > "$out/wave$run.sim"
done
[ -s "$out/stats1.sim" ] && [ -s "$out/wave1.sim" ] || { echo "empty outputs"; exit 1; }
grep -q "sm0.warp_instructions" "$out/stats1.sim" || { echo "no SIMT statistics"; exit 1; }
grep -q "stall_reason" "$out/wave1.sim" || { echo "no SIMT probes in the VCD"; exit 1; }
cmp "$out/stats1.sim" "$out/stats2.sim" || { echo "statistics differ between identical runs"; exit 1; }
cmp "$out/wave1.sim" "$out/wave2.sim" || { echo "VCDs differ between identical runs"; exit 1; }
"$simtx" run "$@" --seed 7 --stats "$out/stats3.json" --quiet >/dev/null || exit 1
sed '/"host"/,$d' "$out/stats3.json" > "$out/stats3.sim"
cmp "$out/stats1.sim" "$out/stats3.sim" || { echo "statistics differ without --vcd"; exit 1; }
echo "statistics and VCD identical"
