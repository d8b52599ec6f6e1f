#!/usr/bin/env bash
# polybench.sh - PolyBench/C 4.2.1 as published, through gpufuse.
#
#   bench/polybench.sh PATH [--check-size SMALL] [--only gemm,lu] [--out table.md]
#   bench/polybench.sh PATH --gpu BUILD_DIR [--time-size LARGE] [--reps 3] [--omp 16] [--ppcg /path/to/ppcg]
#   bench/polybench.sh PATH --gpu BUILD_DIR --ppcg PPCG --build-only DIR   (compilers, no runs)
#   bench/polybench.sh --run-only DIR [--gpu BUILD_DIR] [--reps 3] [--plain-reps 1] [--only ...]
#
# PATH is a PolyBench/C 4.2.1 checkout (the one with utilities/benchmark_list).
# In a copy of each of the 30 kernels only `static` -> `GPUFUSE` on the kernel
# function changes (and `#include <gpufuse.h>` is added).  Reports, per kernel:
# acceptance (and the diagnostic), whether the host target's dump
# (-DPOLYBENCH_DUMP_ARRAYS) equals the plain build's, and with --gpu whether
# the CUDA target's does, and the wall time per kernel call (PolyBench's own
# -DPOLYBENCH_TIME) of the plain C, the host plan with 16 OpenMP threads, the
# GPU (and PPCG with --ppcg).  Prints a markdown table.  Details: --help and
# docs/realworld.md.  Nothing of PolyBench is copied into this repository.
set -u
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/polybench.py" "$@"
