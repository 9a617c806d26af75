#!/bin/sh
# usage: debian_package.sh BUILD_DIR [OUT_DIR]
# Builds the Debian package of BUILD_DIR with CPack, shows its control
# fields and checks its contents, unpacks it into a scratch folder and runs
# the unpacked simtx (the default simulation: gtx480.lua, vector_add) and
# simtx-cc. The .deb is left in OUT_DIR when given.
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
echo "unpacked simtx ran the default simulation; unpacked simtx-cc compiled a kernel"
[ $# -lt 2 ] || cp "$deb" "$2"
