#!/bin/sh
# check_workloads.sh [SCALE] - builds the workload C sources with gcc and
# clang (-std=c11 -Wall -Wextra -Werror, no gpufuse: the weak CPU bodies are
# what runs) and checks them at small sizes against float64 references with
# the drivers' metric and tolerances (bench/bench.h).  Needs no GPU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for cc in gcc clang; do
    command -v "$cc" >/dev/null 2>&1 || { echo "$cc: not found, skipped"; continue; }
    echo "== $cc"
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -I"$root/include" -I"$here" \
        -o "$tmp/check_$cc" "$here/check_workloads.c" "$here"/workloads/*.c -lm
    "$tmp/check_$cc" "${1:-1}" || status=1
done
exit $status
