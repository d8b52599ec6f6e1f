#!/bin/bash
# valgrind_cli.sh GPUFUSE SRCDIR - the gpufuse command line under valgrind:
# no invalid access, no uninitialised read, no definitely-lost memory, on an
# input with every kind of kernel and on one with rejected regions.
# Exits 77 when valgrind is not installed.
set -u
gpufuse=$1; src=$2
command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rc=0
for f in "$src/samples/basic/kernels.c" "$src/tests/diag/running_sum.c"; do
    [ -f "$f" ] || continue
    valgrind --quiet --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite "$gpufuse" "$f" -o "$tmp/out.gf.cu" -I"$src/include" > "$tmp/log" 2>&1
    r=$?
    # gpufuse exits 0 (warnings included); valgrind's own findings exit 9
    if [ $r -eq 9 ] || grep -q "Invalid \|uninitialised\|definitely lost: [1-9]" "$tmp/log"; then
        echo "valgrind found errors on $f:"; cat "$tmp/log"; rc=1
    else
        echo "clean: $f (gpufuse exit $r)"
    fi
done
exit $rc
