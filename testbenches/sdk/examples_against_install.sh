#!/bin/sh
# usage: examples_against_install.sh BUILD_DIR EXAMPLES_DIR
# Installs BUILD_DIR into a scratch prefix, builds examples/saxpy and
# examples/bank against it as a user outside the tree would (find_package;
# a kernel rebuilt when its header changes),
# builds saxpy once more by hand (simtx-cc, pkg-config), and runs each on two
# netlists of the installed platforms; every run's oracles must pass.
set -eu
build=$1
examples=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/simtx-sdk.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
export SC_COPYRIGHT_MESSAGE=DISABLE

cmake --install "$build" --prefix "$prefix" > "$scratch/install.log"
simtx=$prefix/bin/simtx
platforms=$prefix/share/simtx/platforms

# The projects are copied: the header test below edits one.
cp -R "$examples" "$scratch/sources"
for example in saxpy bank durable; do
    cmake -S "$scratch/sources/$example" -B "$scratch/$example" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$scratch/$example.log"
    cmake --build "$scratch/$example" >> "$scratch/$example.log"
done
# A kernel is rebuilt when a header it includes changes (simtx_add_kernel's depfile).
echo "/* edited */" >> "$scratch/sources/saxpy/saxpy.h"
cmake --build "$scratch/saxpy" | grep -q "kernel saxpy_O2.elf" || {
    echo "FAILED: saxpy_O2.elf was not rebuilt after saxpy.h changed" >&2
    exit 1
}

# run NETLIST PLUGIN EXPECTED [ARGS...]: the run passes and prints EXPECTED.
run() {
    netlist=$1 plugin=$2 expected=$3
    shift 3
    output=$("$simtx" run "$platforms/$netlist" --define cores=2 --quiet --host "$plugin" "$@") || {
        echo "FAILED: simtx run $netlist --host $plugin $*" >&2
        exit 1
    }
    echo "$output" | grep -E "$expected" || {
        echo "FAILED: simtx run $netlist --host $plugin $* printed no line matching '$expected':" >&2
        echo "$output" >&2
        exit 1
    }
}
run gtx480.lua "$scratch/saxpy/libsaxpy.so" "^saxpy: 10000 elements correct, [1-9][0-9]* thread instructions$"
run simt_1core.lua "$scratch/saxpy/libsaxpy.so" "^saxpy: 1000 elements correct" -- "$scratch/saxpy/saxpy_O2.elf" 1000
run gtx480_warptm.lua "$scratch/bank/libbank.so" "^bank: 64 accounts exact after 1024 transfers; serializability oracle: 1024 commits replayed, consistent"
run gtx480_kilotm.lua "$scratch/bank/libbank.so" "^bank: 16 accounts exact after 256 transfers; serializability oracle: 256 commits replayed, consistent" \
    --set workload.threads=128 --set workload.accounts=16
# Installed, the plugin finds its kernel beside itself, from any folder; its
# declared options are checked before the run (exit 2, named).
cmake --install "$scratch/bank" --prefix "$scratch/bank-prefix" > "$scratch/bank-install.log"
[ -f "$scratch/bank-prefix/lib/bank/bank_O2.elf" ] || { echo "FAILED: bank_O2.elf not installed beside libbank.so" >&2; exit 1; }
mkdir "$scratch/elsewhere"
(cd "$scratch/elsewhere" && run gtx480_warptm.lua "$scratch/bank-prefix/lib/bank/libbank.so" "^bank: 8 accounts exact" --set workload.accounts=8)
for bad in "workload.acounts=8:has no option 'acounts' (did you mean 'accounts'?)" "workload.threads=0:expected an integer in 1..1048576"; do
    status=0
    "$simtx" run "$platforms/gtx480_warptm.lua" --quiet --host "$scratch/bank/libbank.so" --set "${bad%%:*}" 2> "$scratch/bad.err" || status=$?
    [ $status = 2 ] && grep -qF "${bad#*:}" "$scratch/bad.err" || {
        echo "FAILED: --set ${bad%%:*}: exit status $status (expected 2 and '${bad#*:}'):" >&2; cat "$scratch/bad.err" >&2; exit 1; }
done

# The durable example: crash-free, then a crash campaign of its own through the installed script.
run gpu_pm.lua "$scratch/durable/libdurable.so" "^durable: 2048 elements updated in 16 CTAs; 0 torn, 0 lost$"
"$prefix/bin/simtx-crash-campaign" --host "$scratch/durable/libdurable.so" --points 40 --jobs 2 --set workload.n=512 > "$scratch/campaign.log" || {
    cat "$scratch/campaign.log" >&2; echo "FAILED: the durable example's crash campaign" >&2; exit 1; }
grep -E "^\| libdurable.so \| - \| [0-9]+ \| 40 \| [1-9][0-9]* \| 0 \| 0 \| 0 \|" "$scratch/campaign.log" || {
    cat "$scratch/campaign.log" >&2; echo "FAILED: no rolled-back point, or a torn/lost/failed one" >&2; exit 1; }

# Without CMake: one command per kernel and per plugin.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$(find "$prefix" -type d -name pkgconfig | tr '\n' ':')"
simtx_cc=$(pkg-config --variable=simtx_cc simtx)
"$simtx_cc" -O1 "$examples/saxpy/saxpy_kernel.c" -o "$scratch/saxpy_by_hand.elf"
# shellcheck disable=SC2046 # cflags are words
cc -shared -fPIC -Wall -Werror $(pkg-config --cflags simtx) "$examples/saxpy/saxpy_host.c" -o "$scratch/libsaxpy_by_hand.so"
run gtx480.lua "$scratch/libsaxpy_by_hand.so" "^saxpy: 300 elements correct" -- "$scratch/saxpy_by_hand.elf" 300
# A bare netlist name is an installed platform.
(cd "$scratch" && "$simtx" run simt_1core.lua --quiet --host ./libsaxpy_by_hand.so -- saxpy_by_hand.elf 50) | grep -q "^saxpy: 50 elements correct"
echo "examples against the install: 6 runs passed"
