#!/bin/bash
# gpu-session.sh OUT [bench options] - what one visit to the GPU machine runs,
# from a build directory made on a machine without a GPU (build-gpu, release):
# the sample checked against its C bodies, the GPU test binaries, the same
# under compute-sanitizer (scripts/sanitize.sh), and the benchmark harness
# with its peers.  Results go under OUT.
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
    echo "== GPU tests"
    for t in "$b"/tests/*/test_*; do
        [ -x "$t" ] || continue
        "$t" > "$out/$(basename "$t").log" 2>&1
        echo "$(basename "$t") rc=$?"
    done
    echo "== compute-sanitizer (memcheck, racecheck, synccheck) over the GPU tests"
    bash "$here/scripts/sanitize.sh" "$b" "$out/sanitize"
    echo "sanitize rc=$?"
} > "$out/checks.txt" 2>&1
cat "$out/checks.txt"
bash "$here/bench/run.sh" "$b" "$out/bench" "$@"
