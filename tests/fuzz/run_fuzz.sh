#!/usr/bin/env bash
# run_fuzz.sh - builds the libFuzzer harness (if needed) and fuzzes the
# gpufuse pipeline for a bounded time.
#   bash tests/fuzz/run_fuzz.sh WORK_DIR [SECONDS] [extra libFuzzer args]
# Seed corpus: samples/, bench/workloads/, and a few
# programs from tests/random/gen.py.  New corpus entries are kept in
# WORK_DIR/corpus; crashes are written to WORK_DIR/crash-* (and the test
# fails).  Exit 77 (skipped) when no clang with libFuzzer is available.
# Leak detection is off: the isl model of every region is never freed
# (docs/testing.md, finding F5), which would stop every run at once.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${1:?usage: run_fuzz.sh WORK_DIR [SECONDS]}
SECS=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
rm -rf "$WORK/seeds"
mkdir -p "$WORK/corpus" "$WORK/seeds"
BIN="$WORK/fuzz_gpufuse"
if [ ! -x "$BIN" ] || [ -n "$(find "$ROOT/compiler" "$HERE/fuzz_gpufuse.c" -newer "$BIN" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
    bash "$HERE/build.sh" "$BIN"
    rc=$?
    [ $rc -eq 0 ] || exit $rc
fi
# (not tests/random/regress/: those are known crashers that would stop the run at once)
for f in "$ROOT"/samples/*/*.c "$ROOT"/bench/workloads/*.c; do
    [ -f "$f" ] && cp "$f" "$WORK/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
done
for s in 1 2 3 4 5 6; do
    python3 "$ROOT/tests/random/gen.py" --seed $s --regions 3 -o "$WORK/seeds/gen_$s.c"
done
rm -f "$WORK"/crash-* "$WORK"/timeout-* "$WORK"/oom-*
cd "$WORK" || exit 1
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
    "$BIN" -detect_leaks=0 -error_exitcode=1 -timeout_exitcode=1 -max_total_time="$SECS" -max_len=8192 \
    -seed="${GF_FUZZ_SEED:-1}" -runs="${GF_FUZZ_RUNS:-1500}" \
    -timeout=30 -rss_limit_mb=4096 -artifact_prefix="$WORK/" -print_final_stats=1 "$@" \
    "$WORK/corpus" "$WORK/seeds" > "$WORK/fuzz.log" 2>&1
rc=$?
grep -v '^INFO:' "$WORK/fuzz.log" | tail -40
found=$(find "$WORK" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \))
if [ -n "$found" ]; then
    echo "fuzzer findings (reproduce: $BIN FILE; shrink: tests/random/shrink.py FILE --whole):"
    echo "$found"
    exit 1
fi
grep -E '^stat::number_of_executed_units|^#[0-9]+ +DONE' "$WORK/fuzz.log"
exit $rc
