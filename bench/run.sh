#!/bin/bash
# run.sh BUILD_DIR OUTDIR [--quick] [--only w1,w2] [--no-peers] [--peers p1,p2]
#
# The whole benchmark in one command: BUILD_DIR/bench/bench_cuda (hand-written
# CUDA and the device copy bandwidth), BUILD_DIR/bench/bench_gpufuse (when it
# was built) and bench/peers.py (CuPy, cupy.fuse, PyTorch, torch.compile,
# jax.jit).  Every JSON line goes to OUTDIR/results.jsonl, progress to stderr
# and OUTDIR/run.log; then bench/report.py writes OUTDIR/results.md and
# OUTDIR/results.png.  Each driver workload runs in its own process and each
# Python framework in its own, under time limits, so a crash or a hang costs
# only its own lines (which are then recorded as failed).  Expect about 3-4
# minutes on an H200, most of it torch.compile.
set -u
usage() { echo "usage: $0 BUILD_DIR OUTDIR [--quick] [--only w1,w2] [--no-peers] [--peers p1,p2]" >&2; exit 2; }
[ $# -ge 2 ] || usage
build=$1; out=$2; shift 2
quick=""; only=""; peers="torch,torch.compile,jax.jit,cupy,cupy.fuse"
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=--quick ;;
        --only) [ $# -ge 2 ] || usage; only=$2; shift ;;
        --no-peers) peers="" ;;
        --peers) [ $# -ge 2 ] || usage; peers=$2; shift ;;
        *) usage ;;
    esac
    shift
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 2
results=$out/results.jsonl; runlog=$out/run.log
: > "$results"; : > "$runlog"
t_start=$(date +%s)
say() { echo "[run.sh $(( $(date +%s) - t_start ))s] $*" | tee -a "$runlog" >&2; }

all_workloads="chain dot softmax softmax_short layernorm sqrt jacobi blackscholes"
workloads=${only:+$(echo "$only" | tr ',' ' ')}
workloads=${workloads:-$all_workloads}

# The peers' python: the one that has the frameworks.
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import numpy' 2>/dev/null && [ -x /opt/torch/.venv/bin/python3 ]; then
    PYTHON=/opt/torch/.venv/bin/python3
fi

# failed WORKLOAD IMPL MESSAGE: a JSON line for a measurement that produced none.
failed() {
    printf '{"workload":"%s","impl":"%s","ms":null,"gbs":null,"bytes":null,"ok":false,"err":"%s","max_err":null,"tol":null,"wall_ms":null,"reps":0}\n' \
        "$1" "$2" "$3" >> "$results"
}
has_line() { grep -q "\"workload\": *\"$1\", *\"impl\": *\"$2\"" "$results"; }

# run_driver BINARY IMPL: one process per workload, 60 s each at most
# (a few seconds is normal: context, inputs, check, 34 calls).
run_driver() {
    local bin=$1 impl=$2 w rc list
    list=$workloads
    [ "$impl" = cuda ] && list="copy $list"   # the chart's yardstick, always
    if [ ! -x "$bin" ]; then
        say "$bin not built: $impl recorded as missing"
        for w in $list; do failed "$w" "$impl" "$(basename "$bin") was not built"; done
        return
    fi
    for w in $list; do
        say "$impl $w"
        timeout -k 10 60 "$bin" --only "$w" $quick 2>&1 >>"$results" | tee -a "$runlog" >&2
        rc=${PIPESTATUS[0]}
        if ! has_line "$w" "$([ "$w" = copy ] && echo copy || echo "$impl")"; then
            if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then failed "$w" "$impl" "timed out after 60 s"
            else failed "$w" "$impl" "$(basename "$bin") exited with status $rc and printed no result"; fi
        fi
    done
}

# run_peers PEERS BUDGET LIMIT: one Python process (one framework).
run_peers() {
    local p=$1 budget=$2 limit=$3 rc w q
    say "python peers $p (budget ${budget}s, limit ${limit}s)"
    timeout -k 10 "$limit" "$PYTHON" "$here/peers.py" --peers "$p" \
        --workloads "$(echo $workloads | tr ' ' ',')" --budget "$budget" $quick \
        2>&1 >>"$results" | tee -a "$runlog" >&2
    rc=${PIPESTATUS[0]}
    for q in $(echo "$p" | tr ',' ' '); do
        for w in $workloads; do
            has_line "$w" "$q" || failed "$w" "$q" "peers.py exited with status $rc before measuring it"
        done
    done
}

command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/meta.txt" 2>/dev/null
say "build $build, out $out, workloads: $workloads${quick:+ (quick)}"
run_driver "$build/bench/bench_cuda" cuda
run_driver "$build/bench/bench_gpufuse" gpufuse
run_driver "$build/bench/bench_gpufuse_opt" gpufuse-opt
if [ -n "$peers" ]; then
    sel() { echo "$peers" | tr ',' '\n' | grep -xE "$1" | paste -sd, -; }
    tp=$(sel 'torch|torch\.compile'); jp=$(sel 'jax\.jit'); cp=$(sel 'cupy|cupy\.fuse')
    # budget and limit (s) per framework: 8/7 of the 7-workload values, untimed
    [ -n "$tp" ] && run_peers "$tp" 230 320
    [ -n "$jp" ] && run_peers "$jp" 105 170
    [ -n "$cp" ] && run_peers "$cp" 105 170
fi
say "$(grep -c . "$results") measurements in $results"
meta=(); [ -s "$out/meta.txt" ] && meta=(--meta "$out/meta.txt")
"$PYTHON" "$here/report.py" "$results" --md "$out/results.md" --png "$out/results.png" "${meta[@]}" 2>&1 | tee -a "$runlog" >&2
say "wrote $out/results.md and $out/results.png in $(( $(date +%s) - t_start )) s"
