#!/bin/bash
# run.sh BUILD_DIR OUTDIR [--quick] [--dry-run]
#
# The library benchmark in one command (about 1-2 minutes on an H200):
#   BUILD_DIR/bench/libs/bench_libs   gf_sgemm, gf_fft_c2c, gf_gemm_epilogue, vsqrt, the FFT
#                                     pipelines with cuFFT callbacks (impl gpufuse)
#   BUILD_DIR/bench/libs/bench_forms  the BLAS-shaped nests of bench/workloads/blasforms.c beside the
#                                     same cuBLAS calls made directly, f32 and f64 (form_* lines)
#   cpu_table                         the same in plain C, gcc -O3 -fopenmp (impl c_openmp); rebuilt
#                                     here with this machine's gcc -march=native when gcc exists,
#                                     else BUILD_DIR/bench/libs/cpu_table
#   peers_libs.py                     CuPy, PyTorch, torch.compile, numpy
# Each part runs under its own time limit, so one failure costs only its
# own lines.  Writes OUTDIR/libs.jsonl, OUTDIR/libs.md, OUTDIR/libs.log.
# --dry-run (no GPU): skips bench_libs, runs the peers with numpy standing in.
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR OUTDIR [--quick] [--dry-run]" >&2; exit 2; }
build=$1; out=$2; shift 2
quick=""; dry=""
for a in "$@"; do
    case $a in --quick) quick=--quick ;; --dry-run) dry=--dry-run ;; *) echo "unknown $a" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 2
res=$out/libs.jsonl; logf=$out/libs.log
: > "$res"; : > "$logf"
t0=$(date +%s)
say() { echo "[libs/run.sh $(( $(date +%s) - t0 ))s] $*" | tee -a "$logf" >&2; }
failed() {  # WORKLOAD IMPL MESSAGE
    printf '{"workload": "%s", "impl": "%s", "ms": null, "tflops": null, "gbs": null, "bytes": null, "ok": false, "err": "%s", "max_err": null, "tol": null, "reps": 0, "note": null}\n' "$1" "$2" "$3" >> "$res"
}
# part LIMIT IMPL CMD...: runs CMD, JSON lines to libs.jsonl, the rest to the log
part() {
    local limit=$1 impl=$2; shift 2
    say "$impl: $*"
    timeout -k 5 "$limit" "$@" 2>>"$logf" | tee -a "$logf" | grep '^{' >> "$res"
    local rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] || say "$impl exited with status $rc"
    return "$rc"
}
all="sgemm_10000 fft2_1024_c64 gemm_bias_relu_8192 sqrt_1e8 fft_power_2e24_c64 fft_conv_2e24_c64"
missing() {  # IMPL MESSAGE WORKLOADS...: a failed line for each workload without a line
    local impl=$1 msg=$2 w; shift 2
    for w in "$@"; do grep -q "\"workload\": \"$w\", \"impl\": \"$impl\"" "$res" || failed "$w" "$impl" "$msg"; done
}

# cuBLAS/cuFFT: if the toolkit's copies are not on the loader path, use the
# ones PyTorch's wheels carry.
PYTHON=${PYTHON:-python3}
bin=$build/bench/libs/bench_libs
if [ -x "$bin" ] && ldd "$bin" 2>/dev/null | grep -q 'not found'; then
    extra=$("$PYTHON" - <<'PY' 2>/dev/null
import glob, os, site
dirs = set()
for sp in site.getsitepackages():
    for pat in ("nvidia/*/lib", "nvidia/cu13/lib"):
        for d in glob.glob(os.path.join(sp, pat)):
            if glob.glob(os.path.join(d, "libcu*.so*")):
                dirs.add(d)
print(":".join(sorted(dirs)))
PY
)
    [ -n "$extra" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$extra
    say "missing libraries: $(ldd "$bin" | grep 'not found' | tr -s ' \t' ' '); added $extra"
fi

# 1. gpufuse
if [ -n "$dry" ]; then
    say "dry run: bench_libs skipped"
elif [ -x "$bin" ]; then
    part 120 gpufuse "$bin" $quick
    rc=$?
    missing gpufuse "bench_libs exited with status $rc and printed no result" $all
else
    missing gpufuse "bench_libs was not built" $all
fi

# 1b. the BLAS forms against cuBLAS called directly
forms=$build/bench/libs/bench_forms
if [ -n "$dry" ]; then
    say "dry run: bench_forms skipped"
elif [ -x "$forms" ]; then
    part 120 gpufuse "$forms" $quick
    rc=$?
    grep -q '"workload": "form_' "$res" || failed form_all gpufuse "bench_forms exited with status $rc and printed no result"
else
    failed form_all gpufuse "bench_forms was not built"
fi

# 2. plain C, all cores
cpu=$build/bench/libs/cpu_table
if command -v gcc >/dev/null && gcc -O3 -march=native -fopenmp -o "$out/cpu_table" "$here/cpu_table.c" -lm 2>>"$logf"; then
    cpu=$out/cpu_table
    say "cpu_table built here: gcc -O3 -march=native -fopenmp"
fi
if [ -x "$cpu" ]; then
    part 90 c_openmp "$cpu" $quick
fi
missing c_openmp "cpu_table failed or was not built" sgemm_10000 fft2_1024_c64 sqrt_1e8

# 3. peers, one process each
for impl in cupy torch torch.compile numpy; do
    case $impl in torch.compile) lim=120; ws="gemm_bias_relu_8192" ;; numpy) lim=90; ws="sgemm_10000 fft2_1024_c64 sqrt_1e8" ;; *) lim=60; ws=$all ;; esac
    [ -n "$dry" ] && [ "$impl" = numpy ] && ws=$all
    part "$lim" "$impl" "$PYTHON" "$here/peers_libs.py" --impl "$impl" $quick $dry
    missing "$impl" "peers_libs.py --impl $impl timed out or crashed" $ws
done

"$PYTHON" "$here/report_libs.py" "$res" "$out/libs.md" 2>>"$logf" || say "report_libs.py failed"
say "done: $res, $out/libs.md"
