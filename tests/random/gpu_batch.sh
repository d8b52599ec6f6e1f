#!/usr/bin/env bash
# gpu_batch.sh - runs a batch of random differential programs on a GPU.
#
#   bash tests/random/gpu_batch.sh BUILD_DIR BATCH_DIR
#
# BATCH_DIR comes from `tests/random/run.py --gpu-batch BATCH_DIR` (made on
# any machine): p_SEED.c (regions + driver), p_SEED.gf.cu (what gpufuse
# emitted with --prefix=gf_), include/, PROGRAMS.  BUILD_DIR is a meson build
# of this repository holding runtime/libgpufuse.so.  Each program is built
# with gcc (the C bodies and the driver) and nvcc -arch=sm_90 (the fused
# kernels), linked against libgpufuse, and run: every region runs as its C
# body and through the launcher on the GPU, and every array is compared.
# A .gf.cu that is missing is regenerated with BUILD_DIR/compiler/gpufuse.
#
# Writes BATCH_DIR/results.txt and prints the totals; exit 1 on any mismatch,
# build failure or crash.  JOBS builds (default: every core) and RUN_JOBS runs
# (default 4) at a time; RUN_TIMEOUT seconds per program (default 300).
# 1000 regions (40 programs of 25): about a minute of builds on 16 cores and
# well under a minute of runs.
set -u
if [ $# -ne 2 ]; then
    echo "usage: bash tests/random/gpu_batch.sh BUILD_DIR BATCH_DIR" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd) || exit 2
DIR=$(cd "$2" && pwd) || exit 2
ARCH=${GPU_ARCH:-sm_90}
JOBS=${JOBS:-$(nproc)}
LIBDIR="$BUILD/runtime"
if [ ! -e "$LIBDIR/libgpufuse.so" ]; then
    echo "gpu_batch.sh: no $LIBDIR/libgpufuse.so (build the runtime first: ninja -C $BUILD)" >&2
    exit 2
fi
command -v nvcc >/dev/null || { echo "gpu_batch.sh: nvcc not found" >&2; exit 2; }
INC="$DIR/include"
[ -d "$INC" ] || INC="$(cd "$(dirname "$0")/../.." && pwd)/include"
[ -s "$DIR/PROGRAMS" ] || (cd "$DIR" && ls p_*.c | sed 's/\.c$//' > PROGRAMS)

build_one() {
    p=$1
    cd "$DIR" || exit 1
    # a binary built beforehand (elsewhere, from the same files) is reused
    if [ -x "$p.bin" ] && [ "$p.bin" -nt "$p.gf.cu" ] && [ "$p.bin" -nt "$p.c" ]; then
        echo "BUILT $p"
        return
    fi
    {
        if [ ! -s "$p.gf.cu" ]; then
            "$BUILD/compiler/gpufuse" "$p.c" --prefix=gf_ -o "$p.gf.cu" -I"$INC" 2> "$p.gpufuse.log" ||
                { echo "BUILD-FAIL $p gpufuse"; exit 0; }
        fi
        nvcc -O2 -arch="$ARCH" -I"$INC" -c "$p.gf.cu" -o "$p.gf.o" > "$p.build.log" 2>&1 ||
            { echo "BUILD-FAIL $p nvcc"; exit 0; }
        gcc -O1 -std=gnu11 -I"$INC" -c "$p.c" -o "$p.o" >> "$p.build.log" 2>&1 ||
            { echo "BUILD-FAIL $p gcc"; exit 0; }
        nvcc -arch="$ARCH" "$p.o" "$p.gf.o" -o "$p.bin" -L"$LIBDIR" -lgpufuse -Xlinker -rpath="$LIBDIR" -lm \
            >> "$p.build.log" 2>&1 || { echo "BUILD-FAIL $p link"; exit 0; }
        echo "BUILT $p"
    }
}
export -f build_one
export DIR BUILD INC ARCH LIBDIR

start=$(date +%s)
xargs -a "$DIR/PROGRAMS" -P "$JOBS" -I{} bash -c 'build_one {}' > "$DIR/build.txt"
built=$(date +%s)
: > "$DIR/results.txt"
# runs: RUN_JOBS processes at a time share the GPU (each has its own context;
# the regions of one program run one after the other)
run_one() {
    p=$1
    cd "$DIR" || exit 1
    [ -x "$p.bin" ] || exit 0
    # the cost model off: every region's kernels run, at these small sizes too
    GPUFUSE_COST_MODEL=0 timeout "${RUN_TIMEOUT:-300}" "./$p.bin" > "$p.out" 2>&1
    echo $? > "$p.rc"
}
export -f run_one
export RUN_TIMEOUT
RUN_JOBS=${RUN_JOBS:-4}
rm -f "$DIR"/p_*.rc
xargs -a "$DIR/PROGRAMS" -P "$RUN_JOBS" -I{} bash -c 'run_one {}'
while read -r p; do
    [ -x "$DIR/$p.bin" ] || continue
    rc=$(cat "$DIR/$p.rc" 2>/dev/null || echo 255)
    grep -E '^(MISMATCH|REJECT|SUMMARY)' "$DIR/$p.out" >> "$DIR/results.txt"
    if [ "$rc" -gt 1 ]; then
        echo "CRASH $p exit $rc" >> "$DIR/results.txt"
        tail -5 "$DIR/$p.out" | sed "s/^/  $p: /" >> "$DIR/results.txt"
    elif [ "$rc" -eq 1 ] && ! grep -q '^MISMATCH' "$DIR/$p.out"; then
        echo "CRASH $p exit 1 without MISMATCH" >> "$DIR/results.txt"
        tail -5 "$DIR/$p.out" | sed "s/^/  $p: /" >> "$DIR/results.txt"
    fi
done < "$DIR/PROGRAMS"
done_t=$(date +%s)
grep BUILD-FAIL "$DIR/build.txt" >> "$DIR/results.txt"

programs=$(wc -l < "$DIR/PROGRAMS")
nbuilt=$(grep -c '^BUILT' "$DIR/build.txt")
compared=$(awk -F'compared=' '/^SUMMARY/ {split($2, a, " "); s += a[1]} END {print s + 0}' "$DIR/results.txt")
rejected=$(awk -F'rejected=' '/^SUMMARY/ {split($2, a, " "); s += a[1]} END {print s + 0}' "$DIR/results.txt")
mism=$(grep -c '^MISMATCH' "$DIR/results.txt")
crashes=$(grep -c '^CRASH' "$DIR/results.txt")
bfail=$(grep -c '^BUILD-FAIL' "$DIR/results.txt")
echo "gpufuse random differential test on the GPU ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
echo "  programs        $programs ($nbuilt built in $((built - start)) s, run in $((done_t - built)) s)"
echo "  regions compared $compared (rejected by gpufuse: $rejected)"
echo "  mismatches      $mism"
echo "  crashes         $crashes"
echo "  build failures  $bfail"
grep -E '^(MISMATCH|CRASH|BUILD-FAIL)' "$DIR/results.txt" | head -40
echo "details: $DIR/results.txt, $DIR/p_*.out, $DIR/p_*.build.log"
[ "$mism" -eq 0 ] && [ "$crashes" -eq 0 ] && [ "$bfail" -eq 0 ]
