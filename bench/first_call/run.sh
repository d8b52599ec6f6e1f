#!/bin/bash
# run.sh BUILD [N] - the first-call probe, each mode in a fresh process, three
# times, with the warm-up the .gf.cu starts (gf_prewarm) and, for modes none
# and blas, without it (GPUFUSE_PREWARM=0); then once under GPUFUSE_PROFILE=1
# (GPU time and bytes staged), and once per mode none, blas and map under
# BUILD/bench/libapitime.so (the CUDA and cuBLAS calls that the first call's
# time goes to); then the CUDA libraries' own once-only costs (libprobe).
b=${1:?usage: run.sh BUILD [N]}
n=${2:-2000}
for rep in 1 2 3; do
    for mode in none wait init props pinned devmem blas map; do
        "$b/bench/first_call" "$mode" "$n"
    done
    for mode in none blas; do
        GPUFUSE_PREWARM=0 "$b/bench/first_call" "$mode" "$n"
    done
done
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
