#!/bin/sh
# usage: debian_package.sh BUILD_DIR [OUT_DIR]
# Builds the Debian package of BUILD_DIR with CPack, shows its control
# fields and checks its contents, unpacks it into a scratch folder and runs
# the unpacked simtx (the default simulation: gtx480.lua, vector_add) and
# simtx-cc, and builds, runs and crash-tests the durable example copied out
# of the package's docs. The .deb is left in OUT_DIR when given.
set -eu
build=$(cd "$1" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/simtx-deb.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

(cd "$scratch" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/package" > cpack.log) || {
    cat "$scratch/cpack.log" >&2
    exit 1
}
deb=$(ls "$scratch"/package/simtx_*.deb)
dpkg-deb -f "$deb" Package Version Depends
dpkg-deb -c "$deb" > "$scratch/contents"
for file in ./usr/bin/simtx ./usr/bin/simtx-cc ./usr/include/simtx/host_api.h ./usr/share/simtx/platforms/gtx480.lua \
    ./usr/share/simtx/platforms/parts/gpu.lua ./usr/share/simtx/kernel/gpu.h ./usr/share/simtx/kernel/kernel.ld \
    ./usr/share/simtx/kernels/vector_add_O2.elf simtx/simtxConfig.cmake simtx/simtx_kernel.cmake pkgconfig/simtx.pc \
    ./usr/share/doc/simtx/sdk.md ./usr/share/doc/simtx/README.md ./usr/share/doc/simtx/examples/bank/bank_host.c \
    ./usr/share/doc/simtx/models/memory/l1_cache/README.md ./usr/share/simtx/traces/tm_commit_units.gtkw \
    ./usr/share/simtx/traces/fit_view.py ./usr/share/man/man1/simtx.1 ./usr/include/simtx/durable_recovery.h \
    ./usr/include/simtx/gpu_durable_layout.h ./usr/bin/simtx-crash-campaign ./usr/share/doc/simtx/examples/durable/durable_host.c; do
    grep -q "$file\$" "$scratch/contents" || {
        echo "FAILED: $deb has no $file" >&2
        exit 1
    }
done
echo "$(wc -l < "$scratch/contents") entries, among them:"
grep -E "bin/|host_api.h|simtxConfig.cmake|simtx.pc|gtx480.lua$" "$scratch/contents" | awk '{print "  " $NF}'

dpkg-deb -x "$deb" "$scratch/root"
# A bare netlist name is an installed platform, recorded by its name under
# platforms/ (the same from any prefix); a misspelt one gets the nearest.
(cd "$scratch" && "$scratch/root/usr/bin/simtx" run gtx480.lua --workload vector_add --quiet --stats run.json)
grep -q '"netlist": "platforms/gtx480.lua"' "$scratch/run.json" || { echo "FAILED: recorded netlist is not platforms/gtx480.lua" >&2; exit 1; }
"$scratch/root/usr/bin/simtx" platforms | grep -q "gtx480_warptm.lua" || { echo "FAILED: simtx platforms lists no gtx480_warptm.lua" >&2; exit 1; }
if "$scratch/root/usr/bin/simtx" run gtx48.lua 2> "$scratch/misspelt"; then echo "FAILED: a misspelt platform ran" >&2; exit 1; fi
grep -q "did you mean 'gtx480.lua'" "$scratch/misspelt" || { cat "$scratch/misspelt" >&2; echo "FAILED: no did-you-mean" >&2; exit 1; }
man -l "$scratch/root/usr/share/man/man1/simtx.1" 2>&1 | grep -q "crash-domain" || { echo "FAILED: the manual page does not render" >&2; exit 1; }
printf '#include "gpu.h"\nGPU_KERNEL void k(const unsigned *a) { (void)a; }\n' > "$scratch/k.c"
"$scratch/root/usr/bin/simtx-cc" "$scratch/k.c" -o "$scratch/k.elf"
# The durable example from the package alone (issue 32 part 4): its
# folder copied out of the package's docs into an empty one, built against
# the unpacked prefix, run crash-free, then through a crash campaign of its
# own by the packaged simtx-crash-campaign.
mkdir "$scratch/user"
cp -R "$scratch/root/usr/share/doc/simtx/examples/durable" "$scratch/user/durable"
cmake -S "$scratch/user/durable" -B "$scratch/user/build" -DCMAKE_PREFIX_PATH="$scratch/root/usr" -DCMAKE_BUILD_TYPE=Release > "$scratch/user/build.log" &&
    cmake --build "$scratch/user/build" >> "$scratch/user/build.log" || { cat "$scratch/user/build.log" >&2; echo "FAILED: the packaged durable example does not build" >&2; exit 1; }
(cd "$scratch/user" && "$scratch/root/usr/bin/simtx" run gpu_pm.lua --quiet --host build/libdurable.so) > "$scratch/user/run.log" 2>&1 || true
grep -q "^durable: 2048 elements updated in 16 CTAs; 0 torn, 0 lost$" "$scratch/user/run.log" || {
    cat "$scratch/user/run.log" >&2; echo "FAILED: the packaged durable example's run" >&2; exit 1; }
(cd "$scratch/user" && "$scratch/root/usr/bin/simtx-crash-campaign" --host build/libdurable.so --points 12 --jobs 2 --set workload.n=512) \
    > "$scratch/user/campaign.log" 2>&1 || { cat "$scratch/user/campaign.log" >&2; echo "FAILED: the durable example's crash campaign" >&2; exit 1; }
grep -E "^\| libdurable.so \| - \| [0-9]+ \| 12 \| [0-9]+ \| 0 \| 0 \| 0 \|" "$scratch/user/campaign.log" || {
    cat "$scratch/user/campaign.log" >&2; echo "FAILED: a torn, lost or failed crash point" >&2; exit 1; }
echo "the packaged durable example built, ran and survived 12 crash points"
echo "unpacked simtx ran the default simulation; unpacked simtx-cc compiled a kernel"
[ $# -lt 2 ] || cp "$deb" "$2"
