#!/usr/bin/env bash
# bad_inputs.sh - a catalogue of bad inputs for the gpufuse command line.
#   bash tests/random/bad_inputs.sh GPUFUSE
# Every case must end in exit 0, 1 or 2 (never a signal, never an internal
# error), with the documented code, and must leave no output file (nor a
# temporary) behind when it fails.  Also times 500 vs 2000 regions (the
# growth must stay roughly linear: at most 6x for 4x the regions).
set -u
GF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
cd "$T" || exit 1
fails=0
# Known bugs (docs/testing.md): reported as XFAIL while they fail; when one
# passes (XPASS) the script fails so that it is taken off this list.
KNOWN='|'
is_known() { case $KNOWN in *"|$1|"*) return 0;; esac; return 1; }
ok() {
    if is_known "$cur"; then printf '  XPASS %s (a known bug is fixed: take it off KNOWN)\n' "$1"; fails=$((fails + 1))
    else printf '  ok    %s\n' "$1"; fi
}
bad() {
    if is_known "$cur"; then printf '  XFAIL %s\n' "$1"
    else printf '  FAIL  %s\n' "$1"; fails=$((fails + 1)); fi
}

# expect NAME WANTED_CODES OUTPUT_THAT_MUST_NOT_EXIST -- gpufuse args...
expect() {
    name=$1 want=$2 out=$3 cur=$1
    shift 4
    ( timeout 300 "$GF" "$@" > stdout.txt 2> stderr.txt ) 2> /dev/null
    rc=$?
    if [ $rc -gt 2 ]; then
        bad "$name: exit $rc ($( [ $rc -gt 128 ] && kill -l $((rc - 128)) 2>/dev/null)) $(tail -c 300 stderr.txt)"
    elif ! echo " $want " | grep -q " $rc "; then
        bad "$name: exit $rc, wanted $want: $(tail -c 300 stderr.txt)"
    elif grep -q 'internal error' stderr.txt; then
        bad "$name: internal error: $(tail -c 300 stderr.txt)"
    elif [ "$out" != - ] && [ $rc -ne 0 ] && ls "$out"* > /dev/null 2>&1; then
        bad "$name: exit $rc but left $(ls -d "$out"*)"
    else
        ok "$name (exit $rc)"
    fi
}

echo "gpufuse bad inputs ($GF)"
: > empty.c
expect 'empty file' '0' - -- empty.c -o empty.gf.cu
head -c 4096 /dev/urandom > garbage.c 2>/dev/null || python3 -c 'import os,sys; sys.stdout.buffer.write(os.urandom(4096))' > garbage.c
expect 'binary garbage' '1' garbage.gf.cu -- garbage.c -o garbage.gf.cu
printf '\x00\x01\x02GPUFUSE void f(\xff\xfe' > nul.c
expect 'NUL bytes and a cut-off region' '1' nul.gf.cu -- nul.c -o nul.gf.cu
expect 'missing file' '1 2' missing.gf.cu -- does_not_exist.c -o missing.gf.cu
mkdir adir.c
expect 'a directory as input' '1 2' adir.gf.cu -- adir.c -o adir.gf.cu
cat > ok.c <<'C'
#include <gpufuse.h>
GPUFUSE void scale(int n, float a, float x[n]) { for (int i = 0; i < n; i++) x[i] *= a; }
C
mkdir ro && chmod a-w ro
if [ "$(id -u)" = 0 ]; then
    # root writes anywhere: use a path under a file instead
    expect 'unwritable -o (a path under a regular file)' '1' ok.c/out.gf.cu -- ok.c -o ok.c/out.gf.cu
else
    expect 'unwritable -o (read-only directory)' '1' ro/out.gf.cu -- ok.c -o ro/out.gf.cu
fi
expect 'unwritable -o (missing directory)' '1' nodir/out.gf.cu -- ok.c -o nodir/out.gf.cu
expect '-o is a directory' '1' - -- ok.c -o ro
cur=''
[ -d ro ] && [ -z "$(ls -A ro)" ] && ok '  ... the directory is untouched' || bad '-o directory was modified'
printf '#include <gpufuse.h>\nGPUFUSE void f(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] = ; }\n' > syn.c
expect 'syntax error in a region' '1' syn.gf.cu -- syn.c -o syn.gf.cu

python3 - <<'PY'
n = 5000
open('parens.c', 'w').write('#include <gpufuse.h>\nGPUFUSE void f(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] = '
                            + '(' * n + 'x[i]' + ')' * n + '; }\n')
open('terms2000.c', 'w').write('#include <gpufuse.h>\nGPUFUSE void f(int n, const float a[n], float y[n]) {\n'
                           '    for (int i = 0; i < n; i++)\n        y[i] = ' + ' + '.join(['a[i]'] * 2000) + ';\n}\n')
open('terms.c', 'w').write('#include <gpufuse.h>\nGPUFUSE void f(int n, const float a[n], float y[n]) {\n'
                           '    for (int i = 0; i < n; i++)\n        y[i] = ' + ' + '.join(['a[i]'] * 20000) + ';\n}\n')
open('unary.c', 'w').write('#include <gpufuse.h>\nGPUFUSE void f(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] = '
                           + '-' * 3000 + 'x[i]; }\n')
for depth, name in ((17, 'deepnest17.c'), (200, 'deepnest.c')):
    nest = '#include <gpufuse.h>\nGPUFUSE void f(int n, float x[n]) {\n'
    for d in range(depth):
        nest += '  ' * d + f'for (int i{d} = 0; i{d} < 2; i{d}++)\n'
    nest += '  x[0] += 1.0f;\n}\n'
    open(name, 'w').write(nest)
def regions(k, path):
    with open(path, 'w') as f:
        f.write('#include <gpufuse.h>\n#include <math.h>\n')
        for r in range(k):
            f.write(f'GPUFUSE void f{r}(int n, const float x[n], float y[n])\n{{\n'
                    f'    for (int i = 0; i < n; i++)\n        y[i] = sqrtf(x[i] * x[i] + {r}.0f);\n}}\n')
regions(500, 'r500.c')
regions(2000, 'r2000.c')
PY
expect '5000 nested parentheses' '0 1' - -- parens.c -o parens.gf.cu
expect 'a + a + ... 2000 terms' '0 1' - -- terms2000.c -o terms2000.gf.cu
expect 'a + a + ... 20000 terms' '0 1' - -- terms.c -o terms.gf.cu
expect '3000 nested unary minus' '0 1' - -- unary.c -o unary.gf.cu
expect '17 nested loops' '0 1' - -- deepnest17.c -o deepnest17.gf.cu
expect '200 nested loops' '0 1' - -- deepnest.c -o deepnest.gf.cu
t0=$(date +%s.%N)
expect '500 regions' '0' - -- r500.c -o r500.gf.cu
t1=$(date +%s.%N)
expect '2000 regions' '0' - -- r2000.c -o r2000.gf.cu
t2=$(date +%s.%N)
s500=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
s2000=$(python3 -c "print(f'{$t2 - $t1:.2f}')")
ratio=$(python3 -c "print(f'{($t2 - $t1) / ($t1 - $t0):.2f}')")
echo "  time  500 regions ${s500}s, 2000 regions ${s2000}s: ratio $ratio (linear: 4)"
cur=''
if python3 -c "import sys; sys.exit(0 if $ratio > 6 else 1)"; then bad "2000 regions took ${ratio}x the time of 500 (worse than linear)"; fi
cur=''
n=$(grep -c '^extern "C" void f[0-9]*(' r2000.gf.cu 2>/dev/null)
[ "$n" -ge 2000 ] && ok "  ... 2000 launchers written" || bad "only $n of 2000 launchers in r2000.gf.cu"

# Output files (issue 13): an output that is the input is refused (exit 1,
# the input untouched) however it is named; devices, pipes, our standard
# streams and symlinks are written through, not replaced; an existing
# file keeps its mode and, when unchanged, its time stamp; a read-only one
# is an error.
cp ok.c ok.orig
refuse() { # NAME -- args...: exit 1 and ok.c unchanged
    name=$1; shift 2
    expect "$name" '1' - -- "$@"
    cur=''
    if ! cmp -s ok.c ok.orig; then bad "  ... $name overwrote the input"; cp ok.orig ok.c; fi
    grep -q 'is the input file\|is the same file' stderr.txt || bad "  ... $name: no clear message: $(head -c 200 stderr.txt)"
}
ln -s ok.c link.c
ln ok.c hard.c
refuse '-o the input' -- ok.c -o ok.c
refuse '-o ./input' -- ok.c -o ./ok.c
refuse '-o the input by its absolute path' -- ok.c -o "$T/ok.c"
refuse '-o a symlink to the input' -- ok.c -o link.c
refuse '-o a hard link to the input' -- ok.c -o hard.c
refuse '--depfile=the input' -- ok.c -o dep1.gf.cu --depfile=ok.c
refuse '--depfile=the output' -- ok.c -o dep2.gf.cu --depfile=dep2.gf.cu
cur=''
[ -e dep1.gf.cu ] && bad '  ... a refused depfile left its output' || ok '  ... a refused depfile left no output'
expect '-o /dev/null' '0' - -- ok.c -o /dev/null
cur=''
[ -c /dev/null ] && ok '  ... /dev/null is still a device' || bad '/dev/null was replaced'
( "$GF" ok.c -o /dev/stdout > viastdout.txt 2> /dev/null ) && grep -q '^extern "C" void scale' viastdout.txt &&
    ok '-o /dev/stdout into a file' || bad '-o /dev/stdout into a file'
( "$GF" ok.c -o /dev/stdout 2> /dev/null | grep -q '^extern "C" void scale' ) && ok '-o /dev/stdout into a pipe' ||
    bad '-o /dev/stdout into a pipe'
mkfifo fifo.gf.cu
( cat fifo.gf.cu > fromfifo.txt & "$GF" ok.c -o fifo.gf.cu 2> /dev/null; wait )
[ -p fifo.gf.cu ] && grep -q '^extern "C" void scale' fromfifo.txt && ok '-o a named pipe is written through' ||
    bad '-o a named pipe'
ln -s target.gf.cu sym.gf.cu
expect '-o a dangling symlink' '0' - -- ok.c -o sym.gf.cu
cur=''
[ -L sym.gf.cu ] && grep -q '^extern "C" void scale' target.gf.cu && ok '  ... its target was created' ||
    bad '  ... the symlink was replaced or its target not written'
printf 'old\n' > target.gf.cu
expect '-o a symlink to a file' '0' - -- ok.c -o sym.gf.cu
cur=''
[ -L sym.gf.cu ] && grep -q '^extern "C" void scale' target.gf.cu && ok '  ... written through to its target' ||
    bad '  ... the symlink was replaced'
printf 'old\n' > moded.gf.cu && chmod 640 moded.gf.cu
expect 'an existing output' '0' - -- ok.c -o moded.gf.cu
cur=''
[ "$(stat -c %a moded.gf.cu)" = 640 ] && ok '  ... keeps its mode (640)' || bad "  ... mode became $(stat -c %a moded.gf.cu)"
touch -d '2001-01-01' moded.gf.cu
expect 'the same output again' '0' - -- ok.c -o moded.gf.cu
cur=''
[ "$(stat -c %Y moded.gf.cu)" = "$(date -d 2001-01-01 +%s)" ] && ok '  ... unchanged bytes: the file is not rewritten' ||
    bad '  ... an unchanged output was rewritten'
printf 'old\n' > hl.gf.cu && ln hl.gf.cu hl2.gf.cu
expect 'an output with two names' '0' - -- ok.c -o hl.gf.cu
cur=''
cmp -s hl.gf.cu hl2.gf.cu && ok '  ... both names see the new text' || bad '  ... the hard link was broken'
printf 'old\n' > ro.gf.cu && chmod 444 ro.gf.cu
if [ "$(id -u)" = 0 ]; then
    chmod a+rx "$T" && chmod a+rwx "$T/ro" && chmod a+r ok.c
    ( timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$GF" ok.c -o ro.gf.cu > stdout.txt 2> stderr.txt )
else
    ( timeout 60 "$GF" ok.c -o ro.gf.cu > stdout.txt 2> stderr.txt )
fi
rc=$?
cur=''
[ $rc = 1 ] && grep -q "cannot write 'ro.gf.cu': Permission denied" stderr.txt && [ "$(cat ro.gf.cu)" = old ] &&
    ok '-o a read-only file: an error, the file untouched' || bad "-o a read-only file: exit $rc $(head -c 200 stderr.txt)"
# file names printed into generated code: comments and the launcher's string
mkdir -p 'we*'
weird=$'we*/ird"na\\me\nx??).c'
cp ok.c "$weird"
expect 'a file name with */, ", \\, ?? and a newline' '0' - -- "$weird" -o weird.gf.cu
expect '  ... the same with --target=host' '0' - -- "$weird" --target=host -o weird.gf.c
cur=''
if command -v cc > /dev/null; then
    cc -std=c11 -fsyntax-only -I"$ROOT/include" weird.gf.c 2> cc.txt && ok '  ... the .gf.c compiles' ||
        bad "  ... the .gf.c does not compile: $(head -c 300 cc.txt)"
    { echo '#include <stdio.h>'; echo 'typedef struct gf_site { const char *function, *file; int line, slot; } gf_site;'
      grep 'static gf_site gf_site_' weird.gf.cu; echo 'int main(void) { fputs(gf_site_.file, stdout); return 0; }'; } > site.c
    if cc -o site site.c 2> cc.txt && [ "$(./site)" = "$weird" ]; then ok '  ... the launcher names the file exactly'
    else bad "  ... the launcher's file name is wrong: $(head -c 300 cc.txt)"; fi
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$NVCC" ]; then
    "$NVCC" -arch=sm_90 -I"$ROOT/include" -c weird.gf.cu -o weird.o 2> nvcc.txt && ok '  ... the .gf.cu compiles (nvcc)' ||
        bad "  ... nvcc rejects the .gf.cu: $(head -c 300 nvcc.txt)"
fi

# usage errors: exit 2
expect 'no arguments' '2' - --
expect 'unknown option' '2' - -- --no-such-option ok.c
expect 'two input files' '2' - -- ok.c ok.c
expect 'bad --target' '2' - -- --target=fpga ok.c
expect 'bad --emit' '2' - -- --emit=exe ok.c
expect '-o without a value' '2' - -- ok.c -o
expect 'bad --arch' '2' - -- --arch=sm_1 ok.c
expect 'bad --color' '2' - -- --color=sometimes ok.c -o -
expect '--help' '0' - -- --help
expect '--version' '0' - -- --version
cur=''
if ls ./*.tmp.* > /dev/null 2>&1; then bad "temporary files left: $(ls ./*.tmp.*)"; else ok 'no temporary files left'; fi
echo "bad inputs: $fails failure(s)"
[ $fails -eq 0 ]
