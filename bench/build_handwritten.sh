#!/bin/sh
# build_handwritten.sh OUTDIR - builds the hand-written CUDA peers
# (OUTDIR/bench_cuda) with plain nvcc, without Meson or the gpufuse compiler.
# NVCC and ARCH (default 90) may be set in the environment.
set -eu
out=${1:?usage: build_handwritten.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
arch=${ARCH:-90}
mkdir -p "$out"
"$nvcc" -O3 -std=c++17 -lineinfo \
    -gencode=arch=compute_$arch,code=sm_$arch -gencode=arch=compute_$arch,code=compute_$arch \
    -Xcompiler -Wall,-Wextra -Werror all-warnings \
    -I"$here" -o "$out/bench_cuda" "$here/handwritten.cu"
echo "built $out/bench_cuda"
