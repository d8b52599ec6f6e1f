#!/bin/bash
# demo.sh - the main job, end to end: sets up, builds gpufuse and the
# quick-start sample (release, in build-rel), prints what gpufuse fuses in
# samples/basic/kernels.c, shows one generated kernel, and runs the sample:
# every function as its plain C body and through gpufuse (on the GPU when
# there is one, otherwise the fused CPU fallback), with timings and checks.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
gf_setup

build=build-rel
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" --buildtype=release > /dev/null
else
    echo "== meson setup $build (release)"
    meson setup "$build" --buildtype=release > /dev/null
fi
echo "== build gpufuse and samples/basic"
ninja -C "$build" compiler/gpufuse samples/basic/sample_basic

src=samples/basic/kernels.c
out=$build/demo/kernels.gf.cu
mkdir -p "$build/demo"
echo
echo "== gpufuse --report $src -o $out"
echo "   (warnings say why a function stays on the CPU; they go to stderr)"
"$build/compiler/gpufuse" --report --color=never "$src" -o "$out" 2>&1

fn=normalize_shift_k0
echo
echo "== an excerpt of $out: kernel $fn (two loops and a temporary, fused)"
awk -v fn="$fn" '
    $0 ~ "^/\\* " fn ":" { print; next }
    !p && $0 ~ "__global__.* " fn "\\(" { print prev; p = 1 }
    p { print; if ($0 == "}") exit }
    { prev = $0 }' "$out"
echo "   ... $(wc -l < "$out") lines in all: kernels (a float4 variant, a scalar"
echo "   one), the CPU fallback, and the extern \"C\" launchers named like the C functions"

echo
echo "== $build/samples/basic/sample_basic"
"$build/samples/basic/sample_basic"
