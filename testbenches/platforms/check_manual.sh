#!/bin/sh
# usage: check_manual.sh SIMTX MANPAGE
# The manual page renders without groff warnings and documents every option
# that `simtx --help` lists (roff writes a hyphen as \-).
set -eu
warnings=$(groff -man -Tutf8 -ww -z "$2" 2>&1)
[ -z "$warnings" ] || { echo "$2: groff warns: $warnings"; exit 1; }
missing=0
for option in $("$1" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    roff=$(printf '%s' "$option" | sed 's/-/\\-/g')
    grep -qF -- "$roff" "$2" || { echo "$2 does not document $option"; missing=1; }
done
[ $missing = 0 ] && echo "every option documented"
