#!/bin/bash
# polybench_modes.sh DIR [REPS] - where a PolyBench call's wall time goes on
# the GPU: runs each LARGE gpufuse binary of a `bench/polybench.py
# --build-only DIR` directory (DIR/<kernel>/time/gpu) under the runtime's
# switches that change what a first call pays, REPS processes each (default
# 3, the median printed, in ms), then once under GPUFUSE_PROFILE=calls (the
# call's phases: map = staging in, launch = kernels and library calls
# queued with any wait for the warm-up, end = copies back and sync), and
# the host plan (DIR/<kernel>/time/host) with OMP_NUM_THREADS=${OMP:-16}:
#   auto             as built (GPUFUSE_BLAS unset: the kernel until cuBLAS pays)
#   blas=1           GPUFUSE_BLAS=1: cuBLAS for every library form, warmed at start
#   blas=0           GPUFUSE_BLAS=0: the launchers' own kernels, cuBLAS never loaded
#   prewarm=0        GPUFUSE_PREWARM=0: no warm-up thread
# MODES="auto blas=0" picks columns (default: all four).  Needs libgpufuse on
# LD_LIBRARY_PATH.  PB_ONLY=gemm,atax restricts the kernels.
set -u
dir=${1:?usage: polybench_modes.sh DIR [REPS]}
reps=${2:-3}
median() { sort -g | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "-"}'; }
# one process: PolyBench prints the kernel's time in seconds (POLYBENCH_TIME)
one() { env "$@" 2> /dev/null | awk 'NF == 1 && $1 ~ /^[0-9.]+$/ {printf "%.2f\n", $1 * 1000}'; }
modes=${MODES:-auto blas=1 blas=0 prewarm=0}
env_of() { case $1 in auto) ;; blas=*) echo "GPUFUSE_BLAS=${1#blas=}" ;; prewarm=*) echo "GPUFUSE_PREWARM=${1#prewarm=}" ;; esac; }
printf '%-12s' kernel; for m in $modes; do printf ' %9s' "$m"; done; printf ' %9s\n' host
for k in $(ls "$dir"); do
    exe=$dir/$k/time/gpu
    [ -x "$exe" ] || continue
    case ",${PB_ONLY:-$k}," in *",$k,"*) ;; *) continue ;; esac
    row=()
    for m in $modes; do
        mode=$(env_of "$m")
        row+=("$(for r in $(seq "$reps"); do (cd "$dir/$k/time" && one $mode ./gpu); done | median)")
    done
    host=$( (cd "$dir/$k/time" && one OMP_NUM_THREADS="${OMP:-16}" ./host) )
    printf '%-12s' "$k"; printf ' %9s' "${row[@]}" "${host:--}"; printf '\n'
    for m in $modes; do
        [ "$m" = auto ] || [ "$m" = blas=1 ] || continue
        mode=$(env_of "$m")
        (cd "$dir/$k/time" && env GPUFUSE_PROFILE=calls $mode ./gpu 2>&1 > /dev/null) |
            grep -E '^gpufuse profile: |^kernel_' | head -4 | sed -E "s/^(gpufuse profile: )?/    ${mode:-auto}: /"
    done
done
