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
    ./usr/share/simtx/kernels/vector_add_O2.elf simtx/simtxConfig.cmake simtx/simtx_kernel.cmake pkgconfig/simtx.pc; do
    grep -q "$file\$" "$scratch/contents" || {
        echo "FAILED: $deb has no $file" >&2
        exit 1
    }
done
echo "$(wc -l < "$scratch/contents") entries, among them:"
grep -E "bin/|host_api.h|simtxConfig.cmake|simtx.pc|gtx480.lua$" "$scratch/contents" | awk '{print "  " $NF}'

dpkg-deb -x "$deb" "$scratch/root"
# A bare netlist name is an installed platform.
(cd "$scratch" && "$scratch/root/usr/bin/simtx" run gtx480.lua --workload vector_add --quiet)
printf '#include "gpu.h"\nGPU_KERNEL void k(const unsigned *a) { (void)a; }\n' > "$scratch/k.c"
"$scratch/root/usr/bin/simtx-cc" "$scratch/k.c" -o "$scratch/k.elf"
echo "unpacked simtx ran the default simulation; unpacked simtx-cc compiled a kernel"
[ $# -lt 2 ] || cp "$deb" "$2"
