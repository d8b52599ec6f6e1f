#!/bin/bash
# sanitize.sh [BUILD [OUT]] - compute-sanitizer over every GPU test binary of a
# build directory: the runtime's GPU tests, the sample and the run-time edge
# cases, under memcheck (with GPUFUSE_POOL=off, so that every allocation has
# its own exact bounds, and --leak-check full), racecheck and synccheck.
# One line per tool and binary goes to OUT/summary.txt; the full output of
# each run to OUT/<tool>.<binary>.log.  Exit 0 when every run ends with 0
# errors (or exactly the errors a test provokes on purpose, listed in
# EXPECTED below), 1 otherwise, 77 without a GPU.
#
#   SANITIZE_TOOLS="memcheck racecheck synccheck"   which tools (initcheck too if wanted)
#   SANITIZE_BIG=1      also run test_edge_big (4 GiB of device memory; slow under memcheck)
#   SANITIZE_TIMEOUT=1800   seconds per run
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${1:-$here/build-gpu}" && pwd) || exit 2
out=${2:-$b/sanitize}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$b/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cs=$(command -v compute-sanitizer) || { echo "compute-sanitizer not found"; exit 2; }
if ! nvidia-smi -L > /dev/null 2>&1; then
    echo "no GPU: skipped"
    exit 77
fi
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck}
limit=${SANITIZE_TIMEOUT:-1800}

# "tool binary errors" (tool * for any): errors a test causes on purpose,
# accepted as that count or 0.  test_rt_gpu_memory asks cudaMalloc for 1 PiB
# (test_huge_allocation_fails_cleanly); the sanitizer reports the failing
# API calls (memcheck: 2 on the H200, 2026-11-29).
EXPECTED="* test_rt_gpu_memory 2
* test_rt_gpu_memory_bypass 2"

# binary and its arguments, one per line
progs=()
for t in "$b"/tests/runtime/test_rt_gpu_*; do
    [ -f "$t" ] && [ -x "$t" ] && progs+=("$t")
done
[ -x "$b/samples/basic/sample_basic" ] && progs+=("$b/samples/basic/sample_basic 1")
for t in test_edge test_edge_oom; do
    [ -x "$b/tests/edge/$t" ] && progs+=("$b/tests/edge/$t")
done
[ -x "$b/tests/libcall/test_libcall" ] && progs+=("$b/tests/libcall/test_libcall")
[ "${SANITIZE_BIG:-0}" = 1 ] && [ -x "$b/tests/edge/test_edge_big" ] && progs+=("$b/tests/edge/test_edge_big")

summary=$out/summary.txt
: > "$summary"
bad=0
for tool in $tools; do
    for p in "${progs[@]}"; do
        exe=${p%% *}
        name=$(basename "$exe")
        log=$out/$tool.$name.log
        # racecheck and synccheck instrument every shared-memory access and
        # barrier of cuFFT's own kernels: hours for the FFT test, not our code
        if [ "$tool" != memcheck ] && [ "$name" = test_rt_gpu_fft ]; then
            printf '%-10s %-28s %s\n' "$tool" "$name" "skipped (cuFFT's kernels only)" >> "$summary"
            continue
        fi
        opts=(--tool "$tool" --print-limit 50)
        envs=()
        if [ "$tool" = memcheck ]; then
            opts+=(--leak-check full)
            envs=(GPUFUSE_POOL=off)
        fi
        # shellcheck disable=SC2086
        env "${envs[@]}" timeout "$limit" "$cs" "${opts[@]}" $p > "$log" 2>&1
        rc=$?
        line=$(grep -E '^========= (ERROR|RACECHECK|SYNCCHECK|INITCHECK) SUMMARY' "$log" | tail -1)
        line=${line#========= }
        errors=$(printf '%s\n' "$line" | sed -nE 's/^ERROR SUMMARY: ([0-9]+) error.*/\1/p; s/.*\(([0-9]+) errors?, .*/\1/p' | head -1)
        want=$(printf '%s\n' "$EXPECTED" | awk -v t="$tool" -v n="$name" '($1 == t || $1 == "*") && $2 == n { print $3 }')
        verdict=ok
        if [ "$rc" = 77 ]; then
            verdict=skipped
        elif [ "$rc" != 0 ]; then
            verdict="FAILED (exit status $rc: the test failed, crashed or timed out)"
        elif [ -z "$errors" ]; then
            verdict="FAILED (no summary line)"
        elif [ "$errors" != 0 ] && [ "$errors" != "${want:-0}" ]; then
            verdict="FAILED ($errors errors, ${want:-0} expected)"
        elif [ "$errors" != 0 ]; then
            verdict="ok (expected)"
        fi
        case $verdict in FAILED*) bad=1 ;; esac
        printf '%-10s %-28s rc=%-3s %-60s %s\n' "$tool" "$name" "$rc" "${line:-no summary}" "$verdict" | tee -a "$summary"
    done
done
echo "summary: $summary"
exit $bad
