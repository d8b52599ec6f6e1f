#!/bin/bash
# run.sh BUILD [N] - the first-call probe, each mode in a fresh process, three
# times, with the warm-up the .gf.cu starts (gf_prewarm_load) and, for modes
# none, work and blas, without it (GPUFUSE_PREWARM=0); then once under
# GPUFUSE_PROFILE=1 (the profile table at exit), and once per mode none,
# blas and map under BUILD/bench/libapitime.so (the CUDA and cuBLAS calls
# that the first call's time goes to); then the CUDA libraries' own
# once-only costs (libprobe).  Ends with a table of the first call's
# "extra" (wall time minus its transfers minus its GPU time; the goal of
# issue 15 is at most 5 ms) by mode: "none" is a first call right after
# the context, "work" one after 50 ms of the program's own CPU work.
# FIRST_CALL_QUICK=1: only the modes none, work and blas and the table.
b=${1:?usage: run.sh BUILD [N]}
n=${2:-2000}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
modes="none work wait init props pinned devmem blas map"
[ "${FIRST_CALL_QUICK:-0}" = 1 ] && modes="none work blas"
for rep in 1 2 3; do
    for mode in $modes; do
        "$b/bench/first_call" "$mode" "$n" | tee -a "$log"
    done
    for mode in none work blas; do
        GPUFUSE_PREWARM=0 "$b/bench/first_call" "$mode" "$n" | tee -a "$log"
    done
done
[ "${FIRST_CALL_QUICK:-0}" = 1 ] || {
GPUFUSE_PROFILE=1 "$b/bench/first_call" none "$n"
for mode in none blas map; do
    echo "== apitime: mode $mode"
    LD_PRELOAD=$b/bench/libapitime.so "$b/bench/first_call" "$mode" "$n"
done
for rep in 1 2 3; do
    for mode in gemv gemvex gemm gemmwarm gemmbg pin; do
        "$b/bench/libprobe" "$mode" "$n"
    done
done
}
echo "== first call of fc_gesummv (n $n): ms, median of 3 processes"
python3 - "$log" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    if line.startswith('{'):
        r = json.loads(line)
        runs.setdefault((r['mode'], r['prewarm']), []).append(r)
print(f"{'mode':8} {'prewarm':7} {'first':>8} {'transfers':>9} {'GPU':>7} {'extra':>7} {'later':>7} {'later extra':>11}  goal (extra <= 5)")
for (mode, pw), rs in runs.items():
    med = lambda f: statistics.median(f(r) for r in rs)
    extra = med(lambda r: r['extra_ms'][0])
    print(f"{mode:8} {str(pw):7} {med(lambda r: r['call_ms'][0]):8.2f} {med(lambda r: r['transfer_ms']):9.2f} "
          f"{med(lambda r: r['gpu_ms'][0]):7.2f} {extra:7.2f} {med(lambda r: r['call_ms'][2]):7.2f} "
          f"{med(lambda r: r['extra_ms'][2]):11.2f}  {'met' if extra <= 5 else 'NOT met'}")
PY
