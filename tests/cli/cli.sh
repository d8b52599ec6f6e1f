#!/usr/bin/env bash
# cli.sh - the gpufuse command line as gcc and clang users expect it
# (docs/cli.md):  bash tests/cli/cli.sh GPUFUSE
# --opt V and --opt=V, "did you mean", the hint to put compiler flags after
# '--', the -W options, depfiles (-MD -MF -MT -MQ -MP), -p with Meson's and
# CMake's compile_commands.json (and one found above the input), -v,
# --report beside an output on stdout, NO_COLOR / CLICOLOR_FORCE.
set -u
GF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fails=0
ok() { printf '  ok    %s\n' "$1"; }
bad() { printf '  FAIL  %s\n' "$1"; fails=$((fails + 1)); }
# check NAME COMMAND...: the command must succeed
check() { name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
# run ARGS...: gpufuse with stdout/stderr in out.txt/err.txt, status in $rc
run() { "$GF" "$@" > out.txt 2> err.txt; rc=$?; }
has() { grep -qF -- "$1" "${2:-err.txt}"; }

cat > k.c <<'C'
#include <gpufuse.h>
GPUFUSE void scale(int n, float a, float x[n]) { for (int i = 0; i < n; i++) x[i] *= a; }
GPUFUSE void running(int n, float x[n]) { float acc = 0; for (int i = 0; i < n; i++) { acc += x[i]; x[i] = acc; } }
C
echo "gpufuse command line ($GF)"

# --opt V and --opt=V
run k.c --target=host -o a.gf.c && run k.c --target host -o b.gf.c
check '--target host = --target=host' cmp -s a.gf.c b.gf.c
run --emit ir --prefix gf_ k.c
check '--emit ir --prefix gf_' has 'region scale' out.txt

# misspellings and compiler flags
run k.c --tagret=cuda
check '--tagret: did you mean --target' test $rc = 2 -a -n "$(grep -F "did you mean '--target'?" err.txt)"
run k.c --fastmath
check '--fastmath: did you mean --fast-math' has "did you mean '--fast-math'?"
run k.c -O2
check '-O2: compiler flags go after --' test $rc = 2 -a -n "$(grep -F "compiler flags go to clang after '--'" err.txt)"
run k.c -Wall
check '-Wall: compiler flags go after --' has "after '--'"
run k.c --arch=sm_90
check '--arch is gone, and says why' test $rc = 2 -a -n "$(grep -F 'give nvcc the architecture' err.txt)"
run k.c -o
check '-o without its argument' test $rc = 2 -a -n "$(grep -F "'-o' needs an argument" err.txt)"
run k.c -o out.gf.cu -- -O2 -Wall -DX=1
check 'compiler flags after -- are accepted' test $rc = 0

# warning options
run k.c -o w.gf.cu
check 'the running sum is a warning [-Wgpufuse-dependence]' test $rc = 0 -a -n "$(grep -F 'warning: ' err.txt | grep -F '[-Wgpufuse-dependence]')"
run -Wno-gpufuse-dependence k.c -o w.gf.cu
check '-Wno-gpufuse-dependence hides it' test $rc = 0 -a ! -s err.txt
run -Wno-gpufuse-dependence -Wgpufuse-dependence k.c -o w.gf.cu
check '-Wgpufuse-dependence after it shows it again' has '[-Wgpufuse-dependence]'
rm -f e.gf.cu
for opt in -Werror --strict -Werror=gpufuse-dependence; do
    run $opt k.c -o e.gf.cu
    check "$opt makes it an error (exit 1, no output)" test $rc = 1 -a ! -e e.gf.cu -a -n "$(grep -F 'error: ' err.txt | grep -F '[-Werror,-Wgpufuse-dependence]')"
done
run -Werror -Wno-error=gpufuse-dependence k.c -o e.gf.cu
check '-Wno-error=gpufuse-dependence keeps it a warning' test $rc = 0 -a -n "$(grep -F 'warning: ' err.txt)"
run -Werror=gpufuse-loop k.c -o e.gf.cu
check '-Werror=gpufuse-loop leaves other warnings alone' test $rc = 0
run -w k.c -o e.gf.cu
check '-w: no warnings' test $rc = 0 -a ! -s err.txt
run -Wgpufuse-dependance k.c -o e.gf.cu
check 'unknown warning option: warned, with the closest name' has "unknown warning option '-Wgpufuse-dependance'; did you mean '-Wgpufuse-dependence'?"

# the JSON report: versioned, and a region kept on the CPU says why, where
# (even with its warning hidden)
run k.c --emit=report --report=json -Wno-gpufuse-dependence
check '--report=json: format and version' python3 -c '
import json, sys
d = json.load(open("out.txt"))
assert d["format"] == "gpufuse-report" and d["version"] == 1, d
r = {x["name"]: x for x in d["regions"]}
assert r["scale"]["status"] == "fused" and "reason" not in r["scale"], r["scale"]
w = r["running"]["reason"]
assert r["running"]["status"] == "cpu" and w["flag"] == "-Wgpufuse-dependence", w
assert w["file"].endswith("k.c") and w["line"] == 3 and w["column"] > 0 and "acc" in w["message"], w
'
# CUDA graphs: the report says which launchers may replay one, and why not
cat > g.c <<'C'
#include <gpufuse.h>
GPUFUSE void axpy(int n, float a, const float x[n], float y[n]) { for (int i = 0; i < n; i++) y[i] += a * x[i]; }
GPUFUSE float total(int n, const float x[n]) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
GPUFUSE void steps(int t, int n, float a[n], float b[n]) { for (int s = 0; s < t; s++) { for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + a[i + 1]) * 0.5f; for (int i = 1; i < n - 1; i++) a[i] = b[i]; } }
GPUFUSE void mm(int n, const float A[n][n], const float B[n][n], float C[n][n]) {
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { float acc = 0; for (int k = 0; k < n; k++) acc += A[i][k] * B[k][j]; C[i][j] = acc; } }
C
run g.c --emit=report
check '--report: a map replays a CUDA graph' test "$(grep -c 'CUDA graph: a repeated call' out.txt)" = 1
check '  ... a reduction result read back keeps it out' has 'CUDA graph: none (line 3: a scalar result is read back from the device)' out.txt
check '  ... a host loop keeps it out' has 'CUDA graph: none (line 4: a host loop around kernels)' out.txt
check '  ... a library call keeps it out' has 'CUDA graph: none (line 6: a library call)' out.txt
run g.c --emit=report --report=json
check '--report=json: cuda_graph and cuda_graph_why' python3 -c '
import json
r = {x["name"]: x for x in json.load(open("out.txt"))["regions"]}
assert r["axpy"]["cuda_graph"] is True and r["axpy"]["cuda_graph_why"] is None, r["axpy"]
assert r["steps"]["cuda_graph"] is False and r["steps"]["cuda_graph_why"] == "line 4: a host loop around kernels", r["steps"]
assert r["mm"]["cuda_graph"] is False and "library call" in r["mm"]["cuda_graph_why"], r["mm"]
assert r["axpy"]["one_block"] is False and r["steps"]["one_block"] is False, r
'
# a region of maps only, in one block when small; the limit the report names is the one the kernels use
cat > ob.c <<'C'
#include <gpufuse.h>
GPUFUSE void two(int n, float y[restrict n], float z[restrict n]) { for (int i = 0; i < n; i++) y[i] *= 2; for (int i = 0; i < n; i++) z[i] = y[n - 1 - i]; }
C
run ob.c --emit=report
check '--report: maps in one block when small' has 'one block: when every kernel has at most 4096 elements, one launch of two_blk runs the 2 kernels' out.txt
check '  ... the report and templates/device.cuh say the same limit' grep -q '^#define GF_BLOCK_ELEMS 4096$' "$ROOT/templates/device.cuh"
run ob.c --emit=report --report=json
check '--report=json: one_block' python3 -c '
import json
r = {x["name"]: x for x in json.load(open("out.txt"))["regions"]}
assert r["two"]["one_block"] is True, r["two"]
'
# every -Wgpufuse-NAME the compiler uses is one the options know
unknown=''
for w in $(grep -ohE '"-Wgpufuse-[a-z-]+"' "$ROOT"/compiler/*.c "$ROOT"/compiler/*/*.c | tr -d '"' | sort -u); do
    "$GF" "-Wno-${w#-W}" --version > /dev/null 2> err.txt
    grep -q unknown err.txt && unknown="$unknown $w"
done
check "every warning the compiler emits can be named${unknown:+ (unknown:$unknown)}" test -z "$unknown"

# depfiles
mkdir -p 'inc dir' && printf 'typedef float real;\n' > 'inc dir/p#1.h'
printf '#include "p#1.h"\n#include "p#1.h"\n#include <gpufuse.h>\nGPUFUSE void s(int n, real x[n]) { for (int i = 0; i < n; i++) x[i] *= 2.0f; }\n' > 'd s.c'
run 'd s.c' -o 'o$t.gf.cu' -MD -MP -- -I'inc dir'
check '-MD: FILE.d beside -o FILE.x' test -f 'o$t.gf.d'
check '  ... target and spaces, # and $ escaped' grep -qF 'o$$t.gf.cu: d\ s.c \' 'o$t.gf.d'
check '  ... each header once' test "$(grep -c 'p\\#1.h \\$' 'o$t.gf.d')" = 1
check '  ... -MP: a phony target per header' grep -qxF 'inc\ dir/p\#1.h:' 'o$t.gf.d'
run 'd s.c' -o x.gf.cu -MF dep.d -MT 'a b' -MQ 'c d$' -- -I'inc dir'
check '-MF, -MT (as given), -MQ (escaped)' grep -qF 'a b c\ d$$: d\ s.c \' dep.d
run 'd s.c' -o y.gf.cu --depfile y.d -- -I'inc dir'
check '--depfile FILE = -MD -MF FILE' grep -qF 'y.gf.cu: d\ s.c' y.d
run 'd s.c' -o - -MD -- -I'inc dir'
check '-MD with the output on stdout needs -MF' test $rc = 2
if command -v make > /dev/null; then
    printf 'out.gf.cu:\n\ttouch out.gf.cu\n-include o$$t.gf.d\n' > Makefile
    check 'make reads the depfile' make -s -n out.gf.cu
    mv 'inc dir/p#1.h' gone.h
    check '  ... and, thanks to -MP, still works when the header is gone' make -s -n out.gf.cu
    mv gone.h 'inc dir/p#1.h'
fi

# -p: compile_commands.json from Meson and CMake, found through libclang
mkdir -p proj/src proj/inc && printf 'typedef float real;\n' > proj/inc/params.h
cat > proj/src/kernels.c <<'C'
#include "params.h"
#include <gpufuse.h>
#ifndef FACTOR
#error "FACTOR is not defined: the flags did not come from the database"
#endif
GPUFUSE void scale(int n, real x[n]) { for (int i = 0; i < n; i++) x[i] *= FACTOR; }
C
printf 'int main(void) { return 0; }\n' > proj/src/main.c
printf "project('p', 'c')\nexecutable('app', 'src/main.c', 'src/kernels.c', include_directories: 'inc', c_args: ['-DFACTOR=2.0f'])\n" > proj/meson.build
printf 'cmake_minimum_required(VERSION 3.13)\nproject(p C)\nadd_executable(app src/main.c src/kernels.c)\ntarget_include_directories(app PRIVATE inc)\ntarget_compile_definitions(app PRIVATE FACTOR=2.0f)\n' > proj/CMakeLists.txt
cd proj
run src/kernels.c -o none.gf.cu
check 'without a database the header is not found (exit 1)' test $rc = 1
if command -v meson > /dev/null && meson setup mbuild > /dev/null 2>&1; then
    run -p mbuild src/kernels.c -o m.gf.cu
    check '-p with a Meson database (relative -I, the input relative to here)' test $rc = 0 -a -n "$(grep -F 'extern "C" void scale' m.gf.cu)"
    # (the #include of the user's header is the header as clang found it)
    check '  ... the output names the input as given, no absolute path' \
        test -n "$(grep -F '{"scale", "src/kernels.c",' m.gf.cu)" -a -z "$(grep -v '^#include' m.gf.cu | grep -F "$T")"
    mkdir -p mbuild/sub
    run -p mbuild/sub src/kernels.c -o m2.gf.cu
    check '-p DIR: the database in a directory above DIR' test $rc = 0
    ln -s mbuild/compile_commands.json compile_commands.json
    run -v src/kernels.c -o m3.gf.cu
    check 'no -p: the database above the input, as clang-tidy finds it' test $rc = 0 -a -n "$(grep -F "flags for 'src/kernels.c' from" err.txt)"
    run src/kernels.c -o m4.gf.cu -- -DFACTOR=3.0f -Iinc
    check "  ... not when '--' gives the flags" test $rc = 0
    rm compile_commands.json
    (cd src && "$GF" -p ../mbuild kernels.c -o ../m5.gf.cu 2> ../err.txt)
    check '-p from another directory' test -s m5.gf.cu
else
    echo '  skip  Meson database (meson not usable)'
fi
if command -v cmake > /dev/null && cmake -S . -B cbuild -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > /dev/null 2>&1; then
    run -p cbuild src/kernels.c -o c.gf.cu
    check '-p with a CMake database (absolute paths, "command" strings)' test $rc = 0 -a -n "$(grep -F 'extern "C" void scale' c.gf.cu)"
else
    echo '  skip  CMake database (cmake not usable)'
fi
run -p /nonexistent src/kernels.c
check '-p without a database: an error' test $rc = 1 -a -n "$(grep -F 'no compile_commands.json' err.txt)"
run -p cbuild src/main.c -o x.gf.cu
cd ..

# -v, --report beside stdout, colours
run -v k.c -o v.gf.cu -- -DFOO='a b'
check '-v prints the arguments libclang parses with' has "gpufuse: libclang parses: -D__GPUFUSE__ -xc -resource-dir"
check '  ... quoted for the shell' has "'-DFOO=a b' k.c"
run --report k.c -o -
check '--report goes to stderr when the output is stdout' test -n "$(grep -F 'region scale' err.txt)" -a -z "$(grep -F 'region scale' out.txt)"
run --report k.c -o r.gf.cu
check '  ... and to stdout otherwise' has 'region scale' out.txt
esc=$(printf '\033')
CLICOLOR_FORCE=1 "$GF" k.c -o c.gf.cu 2> err.txt
check 'CLICOLOR_FORCE=1: colours without a terminal' grep -q "$esc" err.txt
NO_COLOR=1 CLICOLOR_FORCE=1 "$GF" k.c -o c.gf.cu 2> err.txt
check 'NO_COLOR: no colours' test -z "$(grep "$esc" err.txt)"
NO_COLOR=1 "$GF" --color=always k.c -o c.gf.cu 2> err.txt
check '--color=always over NO_COLOR' grep -q "$esc" err.txt
CLICOLOR_FORCE=1 "$GF" --color never k.c -o c.gf.cu 2> err.txt
check '--color never over CLICOLOR_FORCE' test -z "$(grep "$esc" err.txt)"

# remarks and SARIF
run -Rgpufuse k.c -o rm.gf.cu
check '-Rgpufuse: a remark per nest, at its loop, with kernel and block size' \
    test -n "$(grep -F 'k.c:2:50: remark: loop nest of lines 2-2 runs in kernel scale_k0, alone: map, 1-D' err.txt | grep -F 'blocks of 256 threads')"
check '  ... and per function what its launcher copies in and out' \
    has "k.c:2:14: remark: 'scale': 1 loop nest in 1 kernel; for host arrays the launcher copies in x[0..n - 1] and out x[0..n - 1]"
run k.c -o rm.gf.cu
check '  ... only when asked for' test -z "$(grep -F remark: err.txt)"
cat > red.c <<'C'
#include <gpufuse.h>
GPUFUSE float total(int n, const float x[n]) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
C
run -Rgpufuse red.c -o rd.gf.cu
check '  ... a grid reduction: its deterministic finish' has 'deterministic finish, blocks of 256'
run -Rgpufuse --atomic-reductions red.c -o ra.gf.cu
check '  ... under --atomic-reductions: finished with atomics, as the kernel is' \
    test -n "$(grep -F 'finished with atomics, blocks of 256' err.txt)" -a -n "$(grep -F 'gf_atomic_add(gf_out_s' ra.gf.cu)"
if command -v python3 > /dev/null; then
    sarif_ok() { # FILE EXPECTED(python expression over results r)
        python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['version'] == '2.1.0' and d['runs'][0]['tool']['driver']['name'] == 'gpufuse'
r = d['runs'][0]['results']
loc = lambda x: x['locations'][0]['physicalLocation']
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
    }
    "$GF" --diagnostics-format=sarif -Rgpufuse k.c -o s.gf.cu 2> s.sarif
    check '--diagnostics-format=sarif: one SARIF 2.1.0 log on stderr' \
        sarif_ok s.sarif "[(x['ruleId'], x['level'], loc(x)['region']['startLine'], loc(x)['region']['startColumn']) for x in r] == [('gpufuse-remark', 'note', 2, 14), ('gpufuse-remark', 'note', 2, 50), ('gpufuse-dependence', 'warning', 3, 58)] and loc(r[2])['artifactLocation']['uri'] == 'k.c'"
    "$GF" --diagnostics-format sarif -Werror k.c -o s.gf.cu 2> s.sarif; rc=$?
        check '  ... -Werror: the warning is an error result' sarif_ok s.sarif "[x['level'] for x in r] == ['error']"
    test $rc = 1 || bad '  ... exit status with -Werror and SARIF'
    printf '#include "missing.h"\n' > 'm s.c'
    "$GF" --diagnostics-format=sarif 'm s.c' -o m.gf.cu 2> m.sarif
    check "  ... clang's own errors are results too (file name as a URI)" \
        sarif_ok m.sarif "r[0]['ruleId'] == 'clang' and r[0]['level'] == 'error' and 'missing.h' in r[0]['message']['text'] and loc(r[0])['artifactLocation']['uri'] == 'm%20s.c'"
fi

# --target=host in a static library: the file compiled with -DGPUFUSE_UNIT
# pulls the generated one out of the archive (its anchor), not the weak body
if command -v gcc > /dev/null; then
    cat > lib_main.c <<'C'
void scale(int n, float a, float x[n]);
int main(void) { float x[4] = {1, 2, 3, 4}; scale(4, 2.0f, x); return x[3] != 8.0f; }
C
    run --target=host k.c -o k.gf.c
    gcc -c -I"$ROOT/include" -DGPUFUSE_UNIT=k k.c -o k.o && gcc -c -fopenmp -I"$ROOT/include" k.gf.c -o k.gf.o &&
        ar rcs libk.a k.o k.gf.o && gcc lib_main.c -L. -lk -fopenmp -o lib_main > /dev/null 2>&1
    check '--target=host: a static library links the generated functions' \
        sh -c './lib_main && nm lib_main | grep -q " gf_seq_scale$"'
fi

echo "command line: $fails failure(s)"
[ $fails -eq 0 ]
