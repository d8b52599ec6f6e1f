#!/bin/bash
# gpu-check.sh PART OUT - the correctness checks one visit to the GPU machine
# runs, from a build directory made on a machine without a GPU (build-gpu:
# `scripts/gpu-prepare.sh` makes it and the inputs below).  PART splits the
# work into calls that fit the machine's per-command limit:
#   tests     every GPU test binary of the build, the sample under
#             GPUFUSE_VERIFY=abort, the first-call probe
#   golden    every golden region through the CUDA back end against its C body
#             (tests/golden/diffcheck.py --cuda), verify mode on
#   corpus    tests/realworld on the GPU (run.py --gpu), verify mode on
#   random    the random batch made by gpu-prepare.sh (.deps/gpu-batch)
#   polybench PolyBench/C 4.2.1 (.deps/polybench) through bench/polybench.sh --gpu
#   pbtime    the run stage of bench/polybench.py on .deps/pb-build (made by
#             gpu-prepare.sh with POLYBENCH and PPCG): SMALL checks of the
#             plain, host, gpufuse and PPCG builds, then LARGE wall times
#             (PB_REPS processes per GPU and host build, default 3;
#             PB_PLAIN_REPS for the 1-thread C, default 1), beside PPCG.
#             PB_ONLY=gemm,2mm,... runs those kernels only (to split the 30
#             over two calls); timings past PB_BUDGET s (default 520) are
#             reported as not run.  Table in OUT/pbtime.md
# Logs go under OUT; the last lines of each part summarise it.
set -u
part=${1:?usage: gpu-check.sh tests|golden|corpus|random|polybench|pbtime OUT}
out=${2:?usage: gpu-check.sh PART OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
b=$here/build-gpu
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
export LD_LIBRARY_PATH=$b/deps:$b/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GPUFUSE_QUIET=1
mkdir -p "$out"
jobs=$(nproc)
case $part in
tests)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt" 2>&1
    {
        echo "== sample (GPU path, host arrays staged, verify mode)"
        GPUFUSE_VERIFY=abort "$b/samples/basic/sample_basic" 16 > "$out/sample.log" 2>&1
        echo "sample_basic rc=$?"
        echo "== the build's GPU-using tests (suites gpu, edge, libcall, samples, runtime)"
        mkdir -p "$out/tests" && RUN_TESTS_LOGS=$out/tests timeout 500 python3 "$here/scripts/run_tests.py" "$b" --skip realworld_gpu \
            gpu edge libcall samples runtime -j 4
        echo "run_tests rc=$?"
        echo "== first call in a fresh process"
        bash "$here/bench/first_call/run.sh" "$b" 2000 > "$out/first_call.log" 2>&1
        tail -4 "$out/first_call.log"
    } 2>&1 | tee "$out/tests.txt"
    ;;
golden)
    GPUFUSE_VERIFY=abort python3 "$here/tests/golden/diffcheck.py" --gpufuse "$b/compiler/gpufuse" \
        --cuda "$b/runtime" --jobs "$jobs" > "$out/golden.log" 2>&1
    echo "golden diffcheck --cuda rc=$?"; tail -5 "$out/golden.log"
    ;;
corpus)
    python3 "$here/tests/realworld/run.py" --gpufuse "$b/compiler/gpufuse" --gpu "$b" -j "$jobs" \
        --markdown "$out/realworld.md" > "$out/realworld.log" 2>&1
    echo "realworld --gpu rc=$?"; tail -15 "$out/realworld.log"
    ;;
random)
    bash "$here/tests/random/gpu_batch.sh" "$b" "$here/.deps/gpu-batch" > "$out/random.log" 2>&1
    echo "random batch rc=$?"; cp "$here/.deps/gpu-batch/results.txt" "$out/random-results.txt" 2>/dev/null
    tail -6 "$out/random.log"
    ;;
polybench)
    bash "$here/bench/polybench.sh" "$here/.deps/polybench" --gpu "$b" --out "$out/polybench.md" \
        > "$out/polybench.log" 2>&1
    echo "polybench rc=$?"; cat "$out/polybench.md" 2>/dev/null | tail -45
    ;;
pbtime)
    python3 "$here/bench/polybench.py" --run-only "$here/.deps/pb-build" --gpu "$b" --reps "${PB_REPS:-3}" \
        --plain-reps "${PB_PLAIN_REPS:-1}" --omp 16 --budget "${PB_BUDGET:-520}" --timeout 120 \
        ${PB_ONLY:+--only "$PB_ONLY"} --out "$out/pbtime.md" > "$out/pbtime.log" 2>&1
    echo "pbtime rc=$?"; tail -50 "$out/pbtime.md" 2>/dev/null || tail -20 "$out/pbtime.log"
    ;;
*) echo "unknown part $part"; exit 2 ;;
esac
