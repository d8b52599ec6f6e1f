#!/bin/bash
# run.sh BUILD [N] - the first-call probe, each mode in a fresh process, three
# times, then the same under GPUFUSE_PROFILE=1 (GPU time and bytes staged).
b=${1:?usage: run.sh BUILD [N]}
n=${2:-2000}
for rep in 1 2 3; do
    for mode in none init props pinned devmem blas map; do
        "$b/bench/first_call" "$mode" "$n"
    done
done
GPUFUSE_PROFILE=1 "$b/bench/first_call" none "$n"
