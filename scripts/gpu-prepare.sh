#!/bin/bash
# gpu-prepare.sh [SEEDS] - makes, on a machine without a GPU, what
# scripts/gpu-check.sh needs on the GPU machine: build-gpu (release, tests
# on; the libraries the GPU machine lacks in build-gpu/deps), a random batch
# of SEEDS x 25 regions in .deps/gpu-batch, and a PolyBench/C 4.2.1 checkout
# in .deps/polybench when POLYBENCH=<dir> names one.  START=<n> picks the
# first random seed (default 1000).  With POLYBENCH and PPCG=<ppcg binary>
# (bench/ppcg/build.sh builds one), also the build stage of
# bench/polybench.py: every PolyBench binary (plain, host plan, gpufuse CUDA,
# PPCG; SMALL checks and LARGE timings) and a manifest in .deps/pb-build, for
# `scripts/gpu-check.sh pbtime` (PB_ONLY=gemm,... restricts the kernels; 1.5-2.5
# minutes a kernel on the shared 2-core machine, about an hour for all 30).  Object files are
# removed so that the build directory travels light.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
seeds=${1:-40}
. scripts/setup.sh > /dev/null
[ -f build-gpu/build.ninja ] || meson setup build-gpu --buildtype=release -Dtests=enabled > /dev/null
ninja -C build-gpu > /dev/null
meson introspect --tests build-gpu > build-gpu/tests.json
mkdir -p build-gpu/deps
cp -L /usr/lib/x86_64-linux-gnu/libcmocka.so.0 build-gpu/deps/
rm -rf .deps/gpu-batch
python3 tests/random/run.py --gpufuse build-gpu/compiler/gpufuse --gpu-batch .deps/gpu-batch --seeds "$seeds" \
    --start "${START:-1000}" --regions 25 > /dev/null
if [ -n "${POLYBENCH:-}" ]; then
    rm -rf .deps/polybench && mkdir -p .deps && cp -r "$POLYBENCH" .deps/polybench
    if [ -n "${PPCG:-}" ]; then
        nice python3 bench/polybench.py "$POLYBENCH" --gpu build-gpu --ppcg "$PPCG" ${PB_ONLY:+--only "$PB_ONLY"} \
            --build-only .deps/pb-build --workdir "${TMPDIR:-/tmp}/gf-pb-build" -j 1 > .deps/pb-build.log 2>&1 ||
            { tail -20 .deps/pb-build.log; exit 1; }
        head -1 .deps/pb-build.log
        rm -rf "${TMPDIR:-/tmp}/gf-pb-build"
    fi
fi
find build-gpu -name '*.o' -delete
du -sh build-gpu .deps
