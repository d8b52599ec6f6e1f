#!/bin/bash
# gpu-session.sh OUT [bench options] - what one visit to the GPU machine runs,
# from a build directory made on a machine without a GPU (build-gpu, release):
# the sample checked against its C bodies, the GPU test binaries, and the
# benchmark harness with its peers.  Results go under OUT.
set -u
out=${1:?usage: gpu-session.sh OUT [bench options]}; shift
here=$(cd "$(dirname "$0")/.." && pwd)
b=$here/build-gpu
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$b/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt" 2>&1
{
    echo "== sample (GPU path, host arrays staged)"
    "$b/samples/basic/sample_basic" 16
    echo "rc=$?"
    echo "== sample under compute-sanitizer (memcheck)"
    GPUFUSE_POOL=off compute-sanitizer --tool memcheck --print-limit 20 "$b/samples/basic/sample_basic" 1 2>&1 | tail -5
    echo "== GPU tests"
    for t in "$b"/tests/*/test_*; do
        [ -x "$t" ] || continue
        "$t" > "$out/$(basename "$t").log" 2>&1
        echo "$(basename "$t") rc=$?"
    done
} > "$out/checks.txt" 2>&1
cat "$out/checks.txt"
bash "$here/bench/run.sh" "$b" "$out/bench" "$@"
