#!/bin/sh
# usage: expect_exit.sh STATUS REGEX COMMAND...
# Passes when COMMAND exits with STATUS and its stderr matches REGEX.
status=$1 pattern=$2
shift 2
errors=$(mktemp)
"$@" >/dev/null 2>"$errors"
actual=$?
if [ "$actual" -ne "$status" ]; then
    echo "expected exit status $status, got $actual; stderr:"; cat "$errors"; rm -f "$errors"; exit 1
fi
if ! grep -Eq -- "$pattern" "$errors"; then
    echo "stderr does not match '$pattern':"; cat "$errors"; rm -f "$errors"; exit 1
fi
cat "$errors"; rm -f "$errors"
