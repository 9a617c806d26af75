#!/bin/sh
# simtx-cc keeps paths with spaces (and quotes) whole: a source, an include
# folder, a define value and the output in a folder named with a space.
# usage: simtx_cc_space.sh SIMTX_CC EXAMPLES_DIR WORK_DIR
set -eu
cc=$1 examples=$2 work=$3
folder="$work/a dir's"
rm -rf "$work"
mkdir -p "$folder"
cp "$examples/saxpy/saxpy_kernel.c" "$folder/saxpy kernel.c"
cp "$examples/saxpy/saxpy.h" "$folder/"
"$cc" -O1 -I "$folder" -D 'UNUSED=a b' "$folder/saxpy kernel.c" -o "$folder/saxpy kernel.elf" --depfile "$folder/k.d"
test -s "$folder/saxpy kernel.elf"
grep -q "a\\\\ dir's/saxpy.h" "$folder/k.d"
grep -q "^$work/a\\\\ dir's/saxpy\\\\ kernel.elf:" "$folder/k.d"
echo "compiled $folder/saxpy kernel.elf"
