#!/usr/bin/env python3
"""polybench.py - PolyBench/C 4.2.1, as published, through gpufuse (bench/polybench.sh).

Takes a PolyBench/C 4.2.1 checkout the user has and changes only this in a
copy of each of the 30 kernels: `static` -> `GPUFUSE` on the kernel_<name>
function, and `#include <gpufuse.h>` added before the first include.  Nothing
of PolyBench is kept in this repository.

Per kernel:
  gpufuse    accepted or refused (and the diagnostic), from --report=json;
  check      at --check-size (default SMALL) with -DPOLYBENCH_DUMP_ARRAYS:
             the plain build (the unmodified file, gcc), the gpufuse host
             target (C + OpenMP) and, with --gpu, the CUDA target linked with
             libgpufuse (and PPCG with --ppcg) each dump the live-out arrays,
             compared with the plain dump;
  time       with --time (implied by --gpu) at --time-size (default LARGE),
             -DPOLYBENCH_TIME (the wall time around the kernel call, one call
             per process, as PolyBench measures it): the plain C (1 thread),
             the host target with --omp threads (default 16), the CUDA
             target on the GPU with GPUFUSE_PROFILE=1 (the GPU time of the
             call's kernels), PPCG.  The CUDA context is created before
             main() (bench/polybench_ctx.c) for the GPU builds, so it is not
             in the time; gpufuse's own first-call costs are.  --reps R: the
             median of R processes.

Dumps print 2 decimals (%0.2lf): two values are equal when they differ by at
most one unit of the last printed digit plus 1e-7 relative (a last digit that
rounds the other way).  Integer kernels are compared exactly.

Output: a markdown table on stdout (and --out FILE), the details in the work
directory (--workdir, kept).  Exit 0 when every accepted kernel's outputs
equal the plain build's, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZES = ('MINI', 'SMALL', 'MEDIUM', 'LARGE', 'EXTRALARGE')
REJECT_RE = re.compile(r"^\S+?:(\d+):\d+: (?:warning|error): (.*?)'(\w+)' keeps its CPU body.*?\[-W(?:error,)?"
                       r"(gpufuse-[\w-]+)\]", re.M)


def sh(cmd, cwd=None, env=None, timeout=1800):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace'), time.time() - t0
    except subprocess.TimeoutExpired as e:
        return ('timeout', (e.stdout or b'').decode(errors='replace'), (e.stderr or b'').decode(errors='replace'),
                time.time() - t0)


def first_errors(text, k=4):
    errs = [re.sub(r'^\S*/', '', ln) for ln in text.splitlines() if 'error' in ln]
    return ' / '.join(errs[:k]) or text.strip()[-300:]


# ---- the one change to PolyBench -------------------------------------------
KERNEL_RE = re.compile(r'\bstatic(\s+void\s+(kernel_\w+)\s*\()')
BARE_RE = re.compile(r'^(void\s+(kernel_\w+)\s*\()', re.M)


def mark(text):
    """static -> GPUFUSE on the kernel function (doitgen's has no static:
    GPUFUSE is put in front); #include <gpufuse.h> first."""
    names = KERNEL_RE.findall(text)
    if names:
        text = KERNEL_RE.sub(r'GPUFUSE\1', text, count=1)
    else:
        names = BARE_RE.findall(text)
        text = BARE_RE.sub(r'GPUFUSE \1', text, count=1)
    m = re.search(r'^#include', text, re.M)
    text = text[:m.start()] + '#include <gpufuse.h>\n' + text[m.start():]
    return text, names[0][1] if names else None


# ---- dumps -------------------------------------------------------------------
def parse_dump(text):
    """{array: [values]} from PolyBench's POLYBENCH_DUMP_ARRAYS output."""
    out = {}
    for m in re.finditer(r'begin dump: (\S+)(.*?)end\s+dump: \1', text, re.S):
        out[m.group(1)] = [float(t) for t in m.group(2).split()]
    return out


def compare_dumps(ref, got):
    """(max abs difference, first mismatch text or '')."""
    if not ref:
        return 0.0, 'no dump in the plain run'
    if set(ref) != set(got):
        return float('inf'), f'arrays differ: {sorted(ref)} vs {sorted(got)}'
    worst, first = 0.0, ''
    for name in sorted(ref):
        a, b = ref[name], got[name]
        if len(a) != len(b):
            return float('inf'), f'{name}: {len(a)} vs {len(b)} values'
        for k, (x, y) in enumerate(zip(a, b)):
            if x != x or y != y:
                ok = x != x and y != y
                d = 0.0 if ok else float('inf')
            else:
                d = abs(x - y)
                ok = d <= 0.0101 + 1e-7 * max(abs(x), abs(y))
            worst = max(worst, d)
            if not ok and not first:
                first = f'{name}[{k}]: plain {x!r}, got {y!r}'
    return worst, first


# ---- one kernel -----------------------------------------------------------------
class K:
    def __init__(self, rel):
        self.rel = rel                      # e.g. linear-algebra/blas/gemm/gemm.c
        self.name = os.path.basename(rel)[:-2]
        self.func = None
        self.status = '?'                   # accepted | refused | gpufuse-error
        self.diag = ''
        self.check = {}                     # build -> 'ok' | text
        self.maxdiff = {}
        self.times = {}                     # build -> seconds (median)
        self.gpu_ms = None
        self.notes = []


def flags(a, size, extra):
    return ['-O3' if a.opt3 else '-O2', '-I' + a.util, f'-D{size}_DATASET'] + extra


def prepare(k, a, size, tag):
    """The kernel's directory copied to WD/<name>/<tag>/, the marked copy written."""
    src = os.path.join(a.polybench, os.path.dirname(k.rel))
    d = os.path.join(a.workdir, k.name, tag)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d)
    with open(os.path.join(d, k.name + '.c')) as f:
        text = f.read()
    marked, func = mark(text)
    k.func = k.func or func
    if not func:
        sys.exit(f'polybench.sh: no kernel_ function in {k.rel}')
    with open(os.path.join(d, k.name + '.gf-in.c'), 'w') as f:
        f.write(marked)
    return d


def build_all(k, a, size, tag, mode_flags):
    """Builds plain, host (and gpu, ppcg) binaries in WD/<name>/<tag>; returns {build: exe}."""
    d = prepare(k, a, size, tag)
    fl = flags(a, size, mode_flags)
    poly = os.path.join(a.util, 'polybench.c')
    exes = {}
    # plain: the file as published
    rc, so, se, _ = sh(['gcc'] + fl + [k.name + '.c', poly, '-lm', '-o', 'plain'], cwd=d)
    if rc != 0:
        k.notes.append(f'plain build failed: {first_errors(se)}')
        return exes
    exes['plain'] = os.path.join(d, 'plain')
    gfin = k.name + '.gf-in.c'
    gfflags = ['-I' + a.util, f'-D{size}_DATASET'] + mode_flags
    # gpufuse, CUDA target (acceptance from its report)
    rc, so, se, _ = sh([a.gpufuse, gfin, '-o', k.name + '.gf.cu', '--report=json'] + gfflags, cwd=d)
    with open(os.path.join(d, 'gpufuse.log'), 'w') as f:
        f.write(se)
    if rc != 0 or 'internal error' in se:
        k.status = 'gpufuse-error'
        k.diag = first_errors(se)
        return exes
    if k.status == '?':
        record_status(k, so, se)
    # host target: C + OpenMP
    rc, so, se, _ = sh([a.gpufuse, gfin, '--target=host', '-o', k.name + '.gf.c'] + gfflags, cwd=d)
    if rc == 0:
        rc, so, se, _ = sh(['gcc'] + fl + ['-fopenmp', '-I' + a.gfinc, gfin, k.name + '.gf.c', poly, '-lm',
                                           '-o', 'host'], cwd=d)
        if rc == 0:
            exes['host'] = os.path.join(d, 'host')
        else:
            k.notes.append(f'host build: {first_errors(se)}')
    else:
        k.notes.append(f'gpufuse --target=host: {first_errors(se)}')
    if a.gpu:
        exe = build_gpu(k, a, d, fl)
        if exe:
            exes['gpu'] = exe
    if a.ppcg:
        exe = build_ppcg(k, a, d, fl, size, mode_flags)
        if exe:
            exes['ppcg'] = exe
    return exes


def record_status(k, report, stderr):
    try:
        regs = json.loads(report).get('regions', [])
    except ValueError:
        regs = []
    st = {r.get('name'): r.get('status') for r in regs}
    if st.get(k.func) == 'fused':
        k.status = 'accepted'
        return
    k.status = 'refused'
    for m in REJECT_RE.finditer(stderr):
        if m.group(3) == k.func:
            k.diag = f'line {m.group(1)}: {m.group(2).rstrip("; ,")} [{m.group(4)}]'
            break
    else:
        k.diag = f'status {st.get(k.func)!r} without a diagnostic naming {k.func}'


def build_gpu(k, a, d, fl):
    """nvcc on the .gf.cu with only gpufuse's include directory (the
    self-contained check); when that fails, again with PolyBench's flags."""
    arch = '-arch=' + a.arch
    rc, so, se, _ = sh(['nvcc', '-O3', arch, '-c', '-I' + a.gfinc, k.name + '.gf.cu', '-o', 'gf.o'], cwd=d)
    if rc != 0:
        msg = first_errors(se)
        rc, so, se, _ = sh(['nvcc', '-O3', arch, '-c', '-I' + a.gfinc] + fl[1:] + [k.name + '.gf.cu', '-o', 'gf.o'],
                           cwd=d)
        if rc != 0:
            k.notes.append(f'nvcc: {first_errors(se)}')
            return None
        k.notes.append(f'the .gf.cu needs PolyBench\'s -I ({msg[:120]})')
    objs = []
    for src, obj in ((k.name + '.gf-in.c', 'k.o'), (os.path.join(a.util, 'polybench.c'), 'pb.o'),
                     (os.path.join(HERE, 'polybench_ctx.c'), 'ctx.o')):
        rc, so, se, _ = sh(['gcc'] + fl + ['-I' + a.gfinc, '-I' + a.cudainc, '-c', src, '-o', obj], cwd=d)
        if rc != 0:
            k.notes.append(f'gcc {os.path.basename(src)}: {first_errors(se)}')
            return None
        objs.append(obj)
    lib = os.path.join(a.gpu, 'runtime')
    rc, so, se, _ = sh(['nvcc', arch] + objs + ['gf.o', '-o', 'gpu', '-L' + lib, '-lgpufuse', '-Xlinker',
                                                 '-rpath=' + lib, '-lm'], cwd=d)
    if rc != 0:
        k.notes.append(f'link: {first_errors(se)}')
        return None
    return os.path.join(d, 'gpu')


def build_ppcg(k, a, d, fl, size, mode_flags):
    pd = os.path.join(d, 'ppcg')
    os.makedirs(pd, exist_ok=True)
    shutil.copy(os.path.join(d, k.name + '.c'), pd)
    rc, so, se, _ = sh([a.ppcg, '--target=cuda', '-I' + a.util, f'-D{size}_DATASET'] + mode_flags + [k.name + '.c'],
                       cwd=pd)
    if rc != 0:
        k.notes.append(f'ppcg: {first_errors(se)}')
        return None
    srcs = sorted(f for f in os.listdir(pd) if f.endswith('.cu'))
    if not srcs:
        k.notes.append('ppcg wrote no .cu file')
        return None
    rc, so, se, _ = sh(['nvcc', '-O3', '-arch=' + a.arch] + fl[1:] + ['-I' + a.cudainc] + srcs +
                       [os.path.join(a.util, 'polybench.c'), os.path.join(HERE, 'polybench_ctx.c'), '-o', 'ppcg',
                        '-lm'], cwd=pd)
    if rc != 0:
        k.notes.append(f'ppcg nvcc: {first_errors(se)}')
        return None
    return os.path.join(pd, 'ppcg')


def env_for(build, a):
    env = dict(os.environ)
    if build == 'host':
        env['OMP_NUM_THREADS'] = str(a.omp)
    if build == 'gpu':
        env['GPUFUSE_PROFILE'] = '1'
    return env


def check(k, a):
    exes = build_all(k, a, a.check_size, 'check', ['-DPOLYBENCH_DUMP_ARRAYS'])
    if 'plain' not in exes:
        return
    runs = {}
    for b, exe in exes.items():
        rc, so, se, _ = sh([exe], cwd=os.path.dirname(exe), env=env_for(b, a), timeout=a.timeout)
        if rc != 0:
            tail = ' '.join(se.split())[-160:]
            k.check[b] = f'{b} run: exit {rc}: ...{tail}'
            continue
        runs[b] = parse_dump(se)
    if 'plain' not in runs:
        return
    for b in exes:
        if b == 'plain' or b not in runs:
            continue
        worst, first = compare_dumps(runs['plain'], runs[b])
        k.maxdiff[b] = worst
        k.check[b] = 'ok' if not first else f'MISMATCH {first} (max |diff| {worst:.3g})'


def timing(k, a):
    exes = build_all(k, a, a.time_size, 'time', ['-DPOLYBENCH_TIME'])
    order = [b for b in ('plain', 'host', 'gpu', 'ppcg') if b in exes]
    for b in order:
        ts, gms = [], []
        for _ in range(a.reps):
            rc, so, se, _ = sh([exes[b]], cwd=os.path.dirname(exes[b]), env=env_for(b, a), timeout=a.timeout)
            if rc != 0:
                k.notes.append(f'{b} timing run: exit {rc}')
                break
            t = re.findall(r'^\s*([0-9.]+(?:e[-+]?\d+)?)\s*$', so, re.M)
            if t:
                ts.append(float(t[-1]))
            m = re.search(rf'^{re.escape(k.func or "?")}\s+\d+\s+\d+\s+([0-9.]+)', se, re.M)
            if m:
                gms.append(float(m.group(1)))
        if ts:
            k.times[b] = statistics.median(ts)
        if gms:
            k.gpu_ms = statistics.median(gms)


def run_kernel(k, a):
    if not a.no_check:
        check(k, a)
    return k


# ---- report -------------------------------------------------------------------
def fmt_t(s):
    if s is None:
        return ''
    if s >= 1:
        return f'{s:.2f} s'
    return f'{s * 1e3:.1f} ms' if s >= 1e-3 else f'{s * 1e6:.0f} us'


def table(ks, a):
    cols = ['kernel', 'gpufuse', f'host = plain ({a.check_size})']
    if a.gpu:
        cols.append(f'GPU = plain ({a.check_size})')
    if a.ppcg:
        cols.append('PPCG = plain')
    if a.time:
        cols += ['C, 1 thread', f'host plan, {a.omp} threads']
        if a.gpu:
            cols += ['gpufuse GPU, wall', 'GPU ms']
        if a.ppcg:
            cols.append('PPCG wall')
    cols.append('diagnostic / notes')
    out = ['| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]

    def cell(k, b):
        v = k.check.get(b)
        if v is None:
            return '-' if k.status != 'accepted' or b not in ('host', 'gpu') else 'not built'
        return 'yes' if v == 'ok' else '**NO**'
    for k in ks:
        row = [k.name, k.status, cell(k, 'host')]
        if a.gpu:
            row.append(cell(k, 'gpu'))
        if a.ppcg:
            row.append(cell(k, 'ppcg'))
        if a.time:
            row += [fmt_t(k.times.get('plain')), fmt_t(k.times.get('host'))]
            if a.gpu:
                row += [fmt_t(k.times.get('gpu')), '' if k.gpu_ms is None else f'{k.gpu_ms:.2f}']
            if a.ppcg:
                row.append(fmt_t(k.times.get('ppcg')))
        notes = [k.diag] if k.diag else []
        notes += [v for v in k.check.values() if v != 'ok']
        notes += k.notes
        notes = list(dict.fromkeys(notes))
        row.append('; '.join(n.replace('|', '\\|') for n in notes)[:400])
        out.append('| ' + ' | '.join(row) + ' |')
    acc = sum(k.status == 'accepted' for k in ks)
    bad = [k.name for k in ks if any(v != 'ok' for v in k.check.values())]
    out.append('')
    out.append(f'{acc} of {len(ks)} kernels accepted by gpufuse; outputs differing from the plain build: '
               f'{", ".join(bad) if bad else "none"}.')
    if a.time and a.gpu:
        sp = [k.times['plain'] / k.times['gpu'] for k in ks if 'gpu' in k.times and 'plain' in k.times
              and k.status == 'accepted' and k.times['gpu'] > 0]
        if sp:
            g = statistics.geometric_mean(sp)
            out.append(f'Geometric mean speed-up of the accepted kernels over 1-thread C: {g:.1f}x.')
        if a.ppcg:
            r = [k.times['ppcg'] / k.times['gpu'] for k in ks if 'gpu' in k.times and 'ppcg' in k.times
                 and k.status == 'accepted' and k.times['gpu'] > 0]
            if r:
                out.append(f'Geometric mean of PPCG time / gpufuse time (kernels both run): '
                           f'{statistics.geometric_mean(r):.2f}x.')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('polybench', help='a PolyBench/C 4.2.1 checkout (holds utilities/benchmark_list)')
    ap.add_argument('--gpufuse', help='default: BUILD/compiler/gpufuse of --gpu, else build/compiler/gpufuse')
    ap.add_argument('--gpu', metavar='BUILD_DIR', help='also the CUDA target, linked with BUILD_DIR/runtime/libgpufuse')
    ap.add_argument('--ppcg', metavar='PATH', help='also PPCG (ppcg --target=cuda), compiled with nvcc')
    ap.add_argument('--check-size', default='SMALL', choices=SIZES)
    ap.add_argument('--time', action='store_true', help='time the builds (implied by --gpu)')
    ap.add_argument('--no-time', action='store_true')
    ap.add_argument('--no-check', action='store_true')
    ap.add_argument('--time-size', default='LARGE', choices=SIZES)
    ap.add_argument('--reps', type=int, default=3, help='processes per timing (median)')
    ap.add_argument('--omp', type=int, default=16, help='OpenMP threads of the host-target build')
    ap.add_argument('--only', help='comma-separated kernel names (gemm,lu,...)')
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--O3', dest='opt3', action='store_true', help='-O3 instead of -O2 for the C builds')
    ap.add_argument('-j', '--jobs', type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument('--workdir')
    ap.add_argument('--out', help='also write the markdown table here')
    ap.add_argument('--timeout', type=int, default=600)
    a = ap.parse_args()
    a.polybench = os.path.abspath(a.polybench)
    a.util = os.path.join(a.polybench, 'utilities')
    lst = os.path.join(a.util, 'benchmark_list')
    if not os.path.exists(lst):
        sys.exit(f'polybench.sh: {lst} not found: not a PolyBench/C 4.2.1 checkout')
    if a.gpu:
        a.gpu = os.path.abspath(a.gpu)
        if not os.path.exists(os.path.join(a.gpu, 'runtime', 'libgpufuse.so')):
            sys.exit(f'polybench.sh: no {a.gpu}/runtime/libgpufuse.so')
        if not shutil.which('nvcc'):
            sys.exit('polybench.sh: --gpu needs nvcc')
    a.time = (a.time or bool(a.gpu)) and not a.no_time
    a.gpufuse = os.path.abspath(a.gpufuse) if a.gpufuse else None
    if not a.gpufuse:
        for c in ([os.path.join(a.gpu, 'compiler', 'gpufuse')] if a.gpu else []) + [
                os.path.join(ROOT, b, 'compiler', 'gpufuse') for b in ('build', 'build-tests')]:
            if os.path.exists(c):
                a.gpufuse = c
                break
        else:
            sys.exit('polybench.sh: no gpufuse found; pass --gpufuse')
    inst = os.path.join(os.path.dirname(os.path.dirname(a.gpufuse)), 'include')
    a.gfinc = inst if os.path.exists(os.path.join(inst, 'gpufuse', 'launch.h')) else os.path.join(ROOT, 'include')
    nv = shutil.which('nvcc')
    a.cudainc = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nv))), 'include') if nv \
        else '/usr/local/cuda/include'
    a.workdir = os.path.abspath(a.workdir or tempfile.mkdtemp(prefix='gf-polybench-'))
    os.makedirs(a.workdir, exist_ok=True)
    with open(lst) as f:
        rels = [ln.strip().lstrip('./') for ln in f if ln.strip()]
    ks = [K(r) for r in rels]
    if a.only:
        want = a.only.split(',')
        ks = [k for k in ks if k.name in want]
        if len(ks) != len(want):
            sys.exit(f'polybench.sh: unknown kernels in --only {a.only}')
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        list(ex.map(lambda k: run_kernel(k, a), ks))
    if a.time:
        # one process at a time: nothing else on the machine while timing
        for k in ks:
            timing(k, a)
    txt = (f'PolyBench/C 4.2.1 through gpufuse ({a.gpufuse}); check size {a.check_size}'
           + (f', timing size {a.time_size}, median of {a.reps}' if a.time else '') + '\n\n' + table(ks, a))
    print(txt)
    print(f'({time.time() - t0:.0f} s; files in {a.workdir})')
    if a.out:
        with open(a.out, 'w') as f:
            f.write(txt)
    bad = any(v != 'ok' for k in ks for v in k.check.values())
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
