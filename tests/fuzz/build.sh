#!/usr/bin/env bash
# build.sh - builds the libFuzzer harness for the gpufuse compiler.
#   bash tests/fuzz/build.sh OUT_BINARY [CLANG]
# Compiles compiler/**/*.c (all but main.c) and fuzz_gpufuse.c with
# clang -fsanitize=fuzzer,address,undefined, links libclang-16 and isl.
# Exit 77 when no clang with libFuzzer is available.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$1
CC=${2:-}
if [ -z "$CC" ]; then
    for c in clang-16 clang-15 clang-14 clang; do
        if command -v $c > /dev/null; then CC=$c; break; fi
    done
fi
[ -n "$CC" ] || { echo "no clang: skipped"; exit 77; }
LLVM=$(llvm-config-16 --prefix 2>/dev/null || echo /usr/lib/llvm-16)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$TMP/probe.c"
if ! $CC -fsanitize=fuzzer "$TMP/probe.c" -o "$TMP/probe" 2> /dev/null; then
    echo "$CC has no libFuzzer: skipped"
    exit 77
fi
python3 "$ROOT/templates/embed.py" "$TMP/templates.h" "$ROOT/templates/common.h" "$ROOT/templates/device.cuh"
SRC=$(ls "$ROOT"/compiler/*.c "$ROOT"/compiler/*/*.c | grep -v '/main\.c$')
$CC -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer -w \
    -DGFC_RESOURCE_DIR="\"$LLVM/lib/clang/16\"" -DGFC_INCLUDE_DIR="\"$ROOT/include\"" \
    -DGFC_INSTALL_INCLUDE_DIR="\"/usr/local/include\"" -D_POSIX_C_SOURCE=200809L \
    -I"$ROOT/compiler" -I"$ROOT/compiler/ir" -I"$TMP" -I"$LLVM/include" \
    $SRC "$HERE/fuzz_gpufuse.c" \
    -L"$LLVM/lib" -lclang -lisl -lm -Wl,-rpath,"$LLVM/lib" -o "$OUT"
echo "built $OUT"
