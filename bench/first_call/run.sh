#!/bin/bash
# run.sh BUILD [N] - the first-call probe, each mode in a fresh process, three
# times; then once under GPUFUSE_PROFILE=1 (GPU time and bytes staged), and
# once per mode none, blas and map under BUILD/bench/libapitime.so (the CUDA
# and cuBLAS calls that the first call's time goes to).
b=${1:?usage: run.sh BUILD [N]}
n=${2:-2000}
for rep in 1 2 3; do
    for mode in none init props pinned devmem blas map; do
        "$b/bench/first_call" "$mode" "$n"
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
