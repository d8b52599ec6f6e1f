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
             compared with the plain dump; gpufuse's builds run with
             GPUFUSE_COST_MODEL=0, so that the plan runs (its cost model
             would run the C body at SMALL);
  time       with --time (implied by --gpu) at --time-size (default LARGE),
             -DPOLYBENCH_TIME (the wall time around the kernel call, one call
             per process, as PolyBench measures it): the plain C (1 thread),
             the host target with --omp threads (default 16), the CUDA
             target on the GPU with GPUFUSE_PROFILE=calls (the GPU time of the
             call's kernels, and a table after the summary of where the call's
             wall time went: its phases, the staged copies' CPU part, DMA
             waits and driver's path, the load average when the kernel's GPU
             timing began; its .gf.cu built with -fopenmp and run with
             --omp threads, for the calls its cost model gives the CPU), PPCG.  The CUDA context is created before
             main() (bench/polybench_ctx.c) for the GPU builds, so it is not
             in the time; gpufuse's own first-call costs are.  --reps R: the
             median of R processes.

Two stages, for a GPU machine without the compilers (libclang):
  --build-only DIR  here: every binary above (stripped; CUDA ones linked with
             -cudart shared, device code compressed) in DIR/<kernel>/
             {check,time}/<build>, and DIR/manifest.json; nothing is run;
  --run-only DIR    there: the checks and timings of DIR's manifest, the
             same table; no compiler.  --gpu BUILD puts BUILD/runtime
             (libgpufuse) first in LD_LIBRARY_PATH.  Without a GPU the gpu
             and PPCG builds are reported as not run.  --budget S: no
             timing starts after S seconds.
Summary lines under the table: PPCG's acceptance (translated and compiled
for --arch), gpufuse / PPCG wall time per kernel and its geometric mean
over the kernels both accept, the accepted kernels slower on the GPU than
the host plan with --omp threads.

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
        self.phases = []                    # staging() of each timed gpu process
        self.load = None                    # 1-minute load average before the gpu timing
        self.notes = []
        self.ppcg = '?'                     # accepted | refused | nvcc failed (with --ppcg)
        self.exes = {}                      # tag (check | time) -> {build: path}, --run-only


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
    # the check's GPU builds without fused multiply-adds: the plain build
    # (gcc, no -mfma) rounds a*b+c twice, and a chaotic kernel (gramschmidt
    # at SMALL: plain C built with -mfma differs by 29.9 in R) would differ
    # wholesale through contraction alone (docs/language.md, "Floating-point
    # contract"); the timing builds keep nvcc's default
    nv_check = ['-fmad=false'] if tag == 'check' else []
    exes = {}
    # plain: the file as published
    rc, so, se, _ = sh(['gcc'] + fl + [k.name + '.c', poly, '-lm', '-o', 'plain'], cwd=d)
    if rc != 0:
        k.notes.append(f'plain build failed: {first_errors(se)}')
        return exes
    exes['plain'] = os.path.join(d, 'plain')
    if a.ppcg:
        exe = build_ppcg(k, a, d, fl, size, mode_flags, nv_check)
        if exe:
            exes['ppcg'] = exe
    elif a.ppcg_prev is not None:
        exe = reuse_ppcg(k, a, tag)
        if exe:
            exes['ppcg'] = exe
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
        exe = build_gpu(k, a, d, fl, nv_check)
        if exe:
            exes['gpu'] = exe
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


def build_gpu(k, a, d, fl, nv_extra):
    """nvcc on the .gf.cu with only gpufuse's include directory (the
    self-contained check); when that fails, again with PolyBench's flags."""
    arch = '-arch=' + a.arch
    # -fopenmp: the launcher's CPU side (the host plan it picks when the GPU
    # and the copies cannot win) runs on every core, as in the host column
    omp = ['-Xcompiler', '-fopenmp']
    rc, so, se, _ = sh(['nvcc', '-O3', arch, '-c'] + omp + a.nvcc_z + nv_extra + ['-I' + a.gfinc, k.name + '.gf.cu',
                                                                                 '-o', 'gf.o'], cwd=d)
    if rc != 0:
        msg = first_errors(se)
        rc, so, se, _ = sh(['nvcc', '-O3', arch, '-c'] + omp + a.nvcc_z + nv_extra + ['-I' + a.gfinc] + fl[1:] +
                           [k.name + '.gf.cu', '-o', 'gf.o'], cwd=d)
        if rc != 0:
            k.notes.append(f'nvcc: {first_errors(se)}')
            return None
        k.notes.append(f'the .gf.cu needs PolyBench\'s -I ({msg[:120]})')
    objs = []
    for src, obj in ((k.name + '.gf-in.c', 'k.o'), (os.path.join(a.util, 'polybench.c'), 'pb.o'),
                     (os.path.join(HERE, 'polybench_ctx.c'), 'ctx.o')):
        # -fopenmp as in the host build: PolyBench's cache flush before the
        # timer is an OpenMP loop then, which starts OpenMP's threads outside
        # the time in both builds (the host plan's first fork is not timed)
        rc, so, se, _ = sh(['gcc'] + fl + ['-fopenmp', '-I' + a.gfinc, '-I' + a.cudainc, '-c', src, '-o', obj],
                           cwd=d)
        if rc != 0:
            k.notes.append(f'gcc {os.path.basename(src)}: {first_errors(se)}')
            return None
        objs.append(obj)
    lib = os.path.join(a.gpu, 'runtime')
    rc, so, se, _ = sh(['nvcc', arch, '-cudart', 'shared', '-Xcompiler', '-fopenmp'] + objs +
                       ['gf.o', '-o', 'gpu', '-L' + lib, '-lgpufuse', '-Xlinker', '-rpath=' + lib, '-lm'], cwd=d)
    if rc != 0:
        k.notes.append(f'link: {first_errors(se)}')
        return None
    return os.path.join(d, 'gpu')


def build_ppcg(k, a, d, fl, size, mode_flags, nv_extra):
    """ppcg --target=cuda on the unmodified file, every .cu it writes through
    nvcc (-arch=--arch); k.ppcg says which step failed."""
    pd = os.path.join(d, 'ppcg')
    os.makedirs(pd, exist_ok=True)
    shutil.copy(os.path.join(d, k.name + '.c'), pd)
    # the kernel's own header (gemm.h) is in d, beside the copy ppcg does not see
    rc, so, se, _ = sh([a.ppcg, '--target=cuda', '-I' + d, '-I' + a.util, f'-D{size}_DATASET'] + mode_flags +
                       [k.name + '.c'], cwd=pd)
    if rc != 0:
        k.ppcg = 'refused'
        k.notes.append(f'ppcg: {first_errors(se)}')
        return None
    srcs = sorted(f for f in os.listdir(pd) if f.endswith('.cu'))
    if not srcs:
        k.ppcg = 'refused'
        k.notes.append('ppcg wrote no .cu file')
        return None
    # PPCG's host code is C++ and includes polybench.h, which has no extern "C":
    # polybench.c is compiled as C++ too (g++), or its functions do not link
    rc, so, se, _ = sh(['g++'] + fl + ['-c', os.path.join(a.util, 'polybench.c'), '-o', 'polybench_cxx.o'], cwd=pd)
    if rc == 0:
        rc, so, se, _ = sh(['nvcc', '-O3', '-arch=' + a.arch, '-cudart', 'shared'] + a.nvcc_z + nv_extra + fl[1:] +
                           ['-I' + d, '-I' + a.cudainc] + srcs +
                           ['polybench_cxx.o', os.path.join(HERE, 'polybench_ctx.c'), '-o', 'ppcg', '-lm'], cwd=pd)
    if rc != 0:
        k.ppcg = 'nvcc failed'
        k.notes.append(f'ppcg nvcc: {first_errors(se)}')
        return None
    if k.ppcg in ('?', 'accepted'):
        k.ppcg = 'accepted'
    return os.path.join(pd, 'ppcg')


def reuse_ppcg(k, a, tag):
    """--ppcg-from: the PPCG binary (and PPCG's status) of an earlier
    --build-only directory."""
    e = a.ppcg_prev.get(k.name)
    if not e:
        k.notes.append('--ppcg-from: the kernel is not in that directory')
        return None
    if k.ppcg in ('?', 'accepted'):
        k.ppcg = e['ppcg']
    rel = e['exes'].get(tag, {}).get('ppcg')
    return os.path.join(a.ppcg_from, rel) if rel else None


GPU_BUILDS = ('gpu', 'ppcg')
NO_GPU = 'not run: no GPU'
OVER_BUDGET = 'not run: past --budget'
NOT_TIMED = 'not run: --plain-reps 0'


def failed(v):
    """A check result that is a failure (not 'ok', not a build left unrun)."""
    return v != 'ok' and not v.startswith('not run')


def gpu_present():
    if shutil.which('nvidia-smi'):
        rc, so, se, _ = sh(['nvidia-smi', '-L'], timeout=60)
        return rc == 0 and 'GPU' in so
    return os.path.exists('/dev/nvidia0')


def env_for(build, a):
    env = dict(os.environ)
    if a.libpath:
        env['LD_LIBRARY_PATH'] = os.pathsep.join(a.libpath + [env.get('LD_LIBRARY_PATH', '')]).rstrip(os.pathsep)
    if build in ('host', 'gpu'):
        env['OMP_NUM_THREADS'] = str(a.omp)
    if build == 'gpu' and a.omp_passive:
        # OpenMP's threads (made by PolyBench's cache flush) sleep when idle;
        # the runtime's staging threads copy.  By default the GPU build runs
        # with OpenMP's defaults, as the host build does: its staging copies
        # then run on OpenMP's spinning threads (gf_host_team), and a team
        # whose regions wait for a thread that shares a CPU is left alone for
        # half a second (docs/performance.md, "The team's late thread")
        env['OMP_WAIT_POLICY'] = 'passive'
    if build == 'gpu':
        # the table at exit (GPU ms), and a line per call: its phases and
        # where the staged copies spent their time (docs/runtime.md)
        env['GPUFUSE_PROFILE'] = 'calls'
    return env


def get_exes(k, a, tag):
    """{build: exe} of the check or time stage: built now, or (--run-only)
    the binaries the manifest names."""
    if a.run_only:
        return {b: os.path.join(a.run_only, rel) for b, rel in k.exes.get(tag, {}).items()}
    if tag == 'check':
        return build_all(k, a, a.check_size, 'check', ['-DPOLYBENCH_DUMP_ARRAYS'])
    return build_all(k, a, a.time_size, 'time', ['-DPOLYBENCH_TIME'])


def check(k, a):
    exes = get_exes(k, a, 'check')
    if 'plain' not in exes:
        return
    runs = {}
    for b, exe in exes.items():
        if b in GPU_BUILDS and not a.have_gpu:
            k.check[b] = NO_GPU
            continue
        env = env_for(b, a)
        if b in ('host', 'gpu'):
            # the plan itself, not the C body its cost model picks at SMALL
            env['GPUFUSE_COST_MODEL'] = '0'
        if b == 'gpu':
            env['GPUFUSE_PROFILE'] = '1' # no per-call lines among the dumps
        rc, so, se, _ = sh([exe], cwd=os.path.dirname(exe), env=env, timeout=a.timeout)
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


PHASE_RE = re.compile(r'gpufuse profile: (\S+) \(.*?\) call 1: map ([0-9.]+) ms .*?launch ([0-9.]+) ms, '
                      r'end ([0-9.]+) ms')
STAGE_RE = re.compile(r'gpufuse profile: (\S+) call 1 staging: ring wait ([0-9.]+) ms, CPU copies ([0-9.]+) ms '
                      r'\((\d+) on the OpenMP team, (\d+) on the helpers, (\d+) alone\), DMA wait ([0-9.]+) ms, '
                      r"driver's path ([0-9.]+) ms")


def staging(text, func):
    """The first call of func under GPUFUSE_PROFILE=calls: {'map', 'launch',
    'end'} ms and, when it staged host arrays, {'ring', 'cpu', 'dma',
    'driver'} ms and 'where' (team / helpers / alone counts); None when the
    call ran no GPU path."""
    out = None
    for m in PHASE_RE.finditer(text):
        if m.group(1) == func:
            out = {'map': float(m.group(2)), 'launch': float(m.group(3)), 'end': float(m.group(4))}
            break
    if out is None:
        return None
    for m in STAGE_RE.finditer(text):
        if m.group(1) == func:
            out.update(ring=float(m.group(2)), cpu=float(m.group(3)), dma=float(m.group(7)),
                       driver=float(m.group(8)), where=f'{m.group(4)}/{m.group(5)}/{m.group(6)}')
            break
    return out


def profile_gpu_ms(text, func):
    """The 'GPU ms' of func in GPUFUSE_PROFILE's table (found by its
    header, so that new columns do not shift it), or None."""
    cols = None
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == 'function' and 'GPU' in f:
            hdr = line
            cols = hdr.index('GPU ms')
            continue
        if cols is not None and f and f[0] == (func or '?'):
            # the columns are right-aligned under their names
            right = cols + len('GPU ms')
            cell = line[:right].split()
            try:
                return float(cell[-1])
            except (ValueError, IndexError):
                return None
    return None


def timing(k, a):
    exes = get_exes(k, a, 'time')
    order = [b for b in ('plain', 'host', 'gpu', 'ppcg') if b in exes]
    for b in order:
        if b in GPU_BUILDS and not a.have_gpu:
            k.times[b] = NO_GPU
            continue
        if a.budget and time.time() - a.t0 > a.budget:
            k.times[b] = OVER_BUDGET
            continue
        if b == 'plain' and a.plain_reps == 0:
            k.times[b] = NOT_TIMED
            continue
        ts, gms = [], []
        if b == 'gpu' and hasattr(os, 'getloadavg'):
            k.load = os.getloadavg()[0]
        for _ in range(a.plain_reps if b == 'plain' else a.reps):
            rc, so, se, _ = sh([exes[b]], cwd=os.path.dirname(exes[b]), env=env_for(b, a), timeout=a.timeout)
            if rc != 0:
                k.notes.append(f'{b} timing run: exit {rc}')
                break
            t = re.findall(r'^\s*([0-9.]+(?:e[-+]?\d+)?)\s*$', so, re.M)
            if t:
                ts.append(float(t[-1]))
            g = profile_gpu_ms(se, k.func)
            if g is not None:
                gms.append(g)
            if b == 'gpu':
                ph = staging(se, k.func)
                if ph:
                    k.phases.append(ph)
        if ts:
            k.times[b] = statistics.median(ts)
        if gms:
            k.gpu_ms = statistics.median(gms)


def run_kernel(k, a):
    if not a.no_check:
        check(k, a)
    return k


# ---- the two stages: --build-only DIR, --run-only DIR ---------------------------
MANIFEST = 'manifest.json'


def build_stage(k, a):
    """Builds the check (and time) binaries of one kernel in the work
    directory and copies them, stripped, to DIR/<name>/<tag>/<build>."""
    stages = [('check', not a.no_check), ('time', a.time)]
    for tag, want in stages:
        if not want:
            continue
        exes = get_exes(k, a, tag)
        k.exes[tag] = {}
        for b, exe in exes.items():
            rel = os.path.join(k.name, tag, b)
            dst = os.path.join(a.build_only, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(exe, dst)
            sh(['strip', dst])
            k.exes[tag][b] = rel
    return k


def git_head():
    rc, so, se, _ = sh(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], timeout=60)
    return so.strip() if rc == 0 else '?'


def write_manifest(ks, a):
    ver = ''
    if a.ppcg:
        rc, so, se, _ = sh([a.ppcg, '--version'], timeout=60)
        ver = (so or se).strip().splitlines()[0] if rc == 0 and (so or se).strip() else '?'
    elif a.ppcg_prev is not None:
        ver = f'{a.ppcg_manifest.get("ppcg_version", "?")} (binaries of {a.ppcg_from}, built at ' \
              f'{a.ppcg_manifest.get("commit", "?")})'
    m = {'version': 1, 'date': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), 'commit': git_head(),
         'gpufuse': a.gpufuse, 'ppcg': a.ppcg or (a.ppcg_manifest.get('ppcg', '') if a.ppcg_prev is not None else ''),
         'ppcg_version': ver, 'arch': a.arch,
         'check_size': a.check_size, 'time_size': a.time_size, 'gpu': bool(a.gpu),
         'check': not a.no_check, 'time': a.time, 'opt': '-O3' if a.opt3 else '-O2',
         'kernels': [{'name': k.name, 'rel': k.rel, 'func': k.func, 'status': k.status, 'diag': k.diag,
                      'ppcg': k.ppcg, 'notes': list(dict.fromkeys(k.notes)), 'exes': k.exes} for k in ks]}
    with open(os.path.join(a.build_only, MANIFEST), 'w') as f:
        json.dump(m, f, indent=1)


def read_manifest(a):
    path = os.path.join(a.run_only, MANIFEST)
    if not os.path.exists(path):
        sys.exit(f'polybench.sh: no {path}: not a directory made by --build-only')
    with open(path) as f:
        m = json.load(f)
    ks = []
    for e in m['kernels']:
        k = K(e['rel'])
        k.func, k.status, k.diag, k.ppcg, k.notes, k.exes = (e['func'], e['status'], e['diag'], e['ppcg'],
                                                             list(e['notes']), e['exes'])
        ks.append(k)
    a.gpufuse, a.ppcg, a.gpu = m['gpufuse'], m['ppcg'], m['gpu']
    a.check_size, a.time_size, a.arch = m['check_size'], m['time_size'], m['arch']
    a.no_check = a.no_check or not m['check']
    a.time = m['time'] and not a.no_time
    a.built = f'built at {m["commit"]} on {m["date"]}' + (f', {m["ppcg_version"]}' if m['ppcg'] else '')
    return ks


def dir_size(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)


# ---- report -------------------------------------------------------------------
def fmt_t(s):
    if s is None:
        return ''
    if isinstance(s, str):
        return 'not run'
    if s >= 1:
        return f'{s:.2f} s'
    return f'{s * 1e3:.1f} ms' if s >= 1e-3 else f'{s * 1e6:.0f} us'


def timed(k, b):
    v = k.times.get(b)
    return v if isinstance(v, float) and v > 0 else None


def both_timed(k):
    """gpufuse and PPCG both accepted this kernel, both checked equal to the
    plain build (or unchecked), and both were timed."""
    return (k.status == 'accepted' and k.ppcg == 'accepted' and timed(k, 'gpu') and timed(k, 'ppcg')
            and not failed(k.check.get('gpu', 'ok')) and not failed(k.check.get('ppcg', 'ok')))


def cell(k, b):
    v = k.check.get(b)
    if b == 'ppcg' and k.ppcg != 'accepted':
        return k.ppcg if k.ppcg != '?' else '-'
    if v is None:
        return '-' if k.status != 'accepted' or b not in ('host', 'gpu') else 'not built'
    if v.startswith('not run'):
        return 'not run'
    return 'yes' if v == 'ok' else '**NO**'


def summary(ks, a):
    out = []
    acc = sum(k.status == 'accepted' for k in ks)
    bad = [k.name for k in ks if any(failed(v) for v in k.check.values())]
    unrun = sorted({b for k in ks for b, v in list(k.check.items()) + list(k.times.items()) if v == NO_GPU})
    late = [k.name for k in ks if OVER_BUDGET in k.times.values()]
    out.append(f'{acc} of {len(ks)} kernels accepted by gpufuse; outputs differing from the plain build: '
               f'{", ".join(bad) if bad else "none"}.')
    if a.ppcg:
        pa = [k.name for k in ks if k.ppcg == 'accepted']
        out.append(f'PPCG: {len(pa)} of {len(ks)} kernels translated and compiled by nvcc for {a.arch}; not: '
                   + (', '.join(f'{k.name} ({k.ppcg})' for k in ks if k.ppcg != 'accepted') or 'none') + '.')
    if unrun:
        out.append(f'Not run (no GPU on this machine): the {" and ".join(unrun)} builds.')
    if late:
        out.append(f'Timings not run, past --budget {a.budget} s: {", ".join(late)} (run them with --only).')
    if not (a.time and a.gpu):
        return out
    sp = [timed(k, 'plain') / timed(k, 'gpu') for k in ks if k.status == 'accepted' and timed(k, 'gpu')
          and timed(k, 'plain')]
    if sp:
        out.append(f'Geometric mean speed-up of the accepted kernels over 1-thread C: '
                   f'{statistics.geometric_mean(sp):.1f}x ({len(sp)} kernels).')
    slow = [k.name for k in ks if k.status == 'accepted' and timed(k, 'gpu') and timed(k, 'host')
            and timed(k, 'gpu') > timed(k, 'host')]
    if any(timed(k, 'gpu') and timed(k, 'host') for k in ks):
        out.append(f'Accepted kernels slower on the GPU than the host plan with {a.omp} OpenMP threads: '
                   f'{", ".join(slow) if slow else "none"}.')
    if a.ppcg:
        both = [k for k in ks if both_timed(k)]
        if both:
            r = [timed(k, 'gpu') / timed(k, 'ppcg') for k in both]
            g = statistics.geometric_mean(r)
            behind = [k.name for k, x in zip(both, r) if x > 1]
            out.append(f'gpufuse / PPCG wall time, geometric mean over the {len(both)} kernels both accept '
                       f'(and both computed right): {g:.2f} (gpufuse {1 / g:.2f}x as fast as PPCG); '
                       f'gpufuse slower than PPCG on: {", ".join(behind) if behind else "none"}.')
    return out


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
        if a.gpu and a.ppcg:
            cols.append('gpufuse / PPCG')
    cols.append('diagnostic / notes')
    out = ['| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]
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
            if a.gpu and a.ppcg:
                row.append(f'{timed(k, "gpu") / timed(k, "ppcg"):.2f}' if timed(k, 'gpu') and timed(k, 'ppcg')
                           else '')
        notes = [k.diag] if k.diag else []
        notes += [v for v in k.check.values() if failed(v)]
        notes += k.notes
        notes = list(dict.fromkeys(notes))
        row.append('; '.join(n.replace('|', '\\|') for n in notes)[:400])
        out.append('| ' + ' | '.join(row) + ' |')
    out.append('')
    out += summary(ks, a)
    out += phases_table(ks)
    return '\n'.join(out) + '\n'


def phases_table(ks):
    """Where the GPU build's one call spent its wall time (medians over the
    timed processes): staging in (map), kernels queued (launch), copies back
    and the wait (end); of the staged copies: the CPU's part, the waits for
    the DMA, the driver's path; and the load average when its timing began
    (other work on the machine slows the copies first)."""
    rows = [k for k in ks if k.phases]
    if not rows:
        return []
    med = lambda k, f: statistics.median(p.get(f, 0.0) for p in k.phases)
    out = ['', 'The GPU build\'s call, median ms over its timed processes (GPUFUSE_PROFILE=calls): map = pointer '
           'queries, pool, host arrays staged in; end = copies back queued, the stream synchronised; of the staged '
           'copies: CPU = pageable<->pinned copies (on the OpenMP team / the helpers / the calling thread alone), '
           'DMA = waits for a ring buffer (and, copying back, for the kernels), driver = the driver\'s own path.', '',
           '| kernel | map | launch | end | CPU copies (team/helpers/alone) | DMA wait | driver | load avg |',
           '|---|---|---|---|---|---|---|---|']
    for k in rows:
        where = k.phases[len(k.phases) // 2].get('where', '')
        out.append(f'| {k.name} | {med(k, "map"):.2f} | {med(k, "launch"):.2f} | {med(k, "end"):.2f} | '
                   f'{med(k, "cpu"):.2f} ({where}) | {med(k, "dma"):.2f} | {med(k, "driver"):.2f} | '
                   + ('' if k.load is None else f'{k.load:.1f}') + ' |')
    return out


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('polybench', nargs='?', help='a PolyBench/C 4.2.1 checkout (holds utilities/benchmark_list); '
                    'not with --run-only')
    ap.add_argument('--gpufuse', help='default: BUILD/compiler/gpufuse of --gpu, else build/compiler/gpufuse')
    ap.add_argument('--gpu', metavar='BUILD_DIR', help='also the CUDA target, linked with BUILD_DIR/runtime/libgpufuse'
                    ' (with --run-only: BUILD_DIR/runtime is put first in LD_LIBRARY_PATH)')
    ap.add_argument('--ppcg', metavar='PATH', help='also PPCG (ppcg --target=cuda), compiled with nvcc')
    ap.add_argument('--ppcg-from', metavar='DIR', help='with --build-only: take the PPCG binaries of an earlier '
                    '--build-only DIR (same PolyBench, sizes and flags) instead of running ppcg again: they do not '
                    'depend on gpufuse, and PPCG takes minutes per build of the 30 kernels')
    ap.add_argument('--build-only', metavar='DIR', help='build every binary into DIR with a manifest; run nothing')
    ap.add_argument('--run-only', metavar='DIR', help='run the checks and timings of a --build-only DIR; no compiler '
                    'needed.  Without a GPU the gpu and PPCG builds are reported as not run')
    ap.add_argument('--check-size', default='SMALL', choices=SIZES)
    ap.add_argument('--time', action='store_true', help='time the builds (implied by --gpu and --build-only)')
    ap.add_argument('--no-time', action='store_true')
    ap.add_argument('--no-check', action='store_true')
    ap.add_argument('--time-size', default='LARGE', choices=SIZES)
    ap.add_argument('--reps', type=int, default=3, help='processes per timing (median)')
    ap.add_argument('--plain-reps', type=int, help='processes per timing of the 1-thread C (default --reps; 0: not '
                    'timed)')
    ap.add_argument('--omp', type=int, default=16, help='OpenMP threads of the host-target build')
    ap.add_argument('--omp-passive', action='store_true',
                    help="the GPU build with OMP_WAIT_POLICY=passive (default: OpenMP's defaults, as the host build)")
    ap.add_argument('--omp-defaults', action='store_true',
                    help="OpenMP's defaults for the GPU build: the default since 2026-12-03 (kept for old scripts)")
    ap.add_argument('--only', help='comma-separated kernel names (gemm,lu,...), timed in that order')
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--O3', dest='opt3', action='store_true', help='-O3 instead of -O2 for the C builds')
    ap.add_argument('-j', '--jobs', type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument('--workdir')
    ap.add_argument('--out', help='also write the markdown table here')
    ap.add_argument('--timeout', type=int, default=600, help='seconds per process')
    ap.add_argument('--budget', type=int, help='seconds: no timing starts later than this after the start '
                    '(the rest are reported as not run)')
    a = ap.parse_args()
    if a.build_only and a.run_only:
        ap.error('--build-only and --run-only are two stages: one at a time')
    if not a.run_only and not a.polybench:
        ap.error('a PolyBench/C 4.2.1 checkout is needed (except with --run-only)')
    if a.plain_reps is None:
        a.plain_reps = a.reps
    return a


def setup_build(a):
    """The compilers of the single-machine and --build-only modes."""
    a.polybench = os.path.abspath(a.polybench)
    a.util = os.path.join(a.polybench, 'utilities')
    lst = os.path.join(a.util, 'benchmark_list')
    if not os.path.exists(lst):
        sys.exit(f'polybench.sh: {lst} not found: not a PolyBench/C 4.2.1 checkout')
    if a.gpu:
        a.gpu = os.path.abspath(a.gpu)
        if not os.path.exists(os.path.join(a.gpu, 'runtime', 'libgpufuse.so')):
            sys.exit(f'polybench.sh: no {a.gpu}/runtime/libgpufuse.so')
    if (a.gpu or a.ppcg) and not shutil.which('nvcc'):
        sys.exit('polybench.sh: --gpu and --ppcg need nvcc')
    if a.ppcg:
        a.ppcg = shutil.which(a.ppcg) or sys.exit(f'polybench.sh: --ppcg {a.ppcg}: not an executable')
        a.ppcg = os.path.abspath(a.ppcg)
    a.time = (a.time or bool(a.gpu) or bool(a.build_only)) and not a.no_time
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
    # the device code compressed for size where nvcc can (CUDA 12.4 on):
    # a --build-only DIR of 30 kernels is carried to the GPU machine
    a.nvcc_z = []
    if nv and (a.gpu or a.ppcg) and '-compress-mode' in sh([nv, '--help'], timeout=120)[1]:
        a.nvcc_z = ['-compress-mode=size']
    a.cudainc = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nv))), 'include') if nv \
        else '/usr/local/cuda/include'
    a.workdir = os.path.abspath(a.workdir or tempfile.mkdtemp(prefix='gf-polybench-'))
    os.makedirs(a.workdir, exist_ok=True)
    with open(lst) as f:
        rels = [ln.strip().lstrip('./') for ln in f if ln.strip()]
    return [K(r) for r in rels]


def main():
    a = parse_args()
    a.libpath = []
    if a.run_only:
        a.run_only = os.path.abspath(a.run_only)
        if a.gpu:
            if not os.path.isdir(os.path.join(a.gpu, 'runtime')):
                sys.exit(f'polybench.sh: no {a.gpu}/runtime')
            a.libpath = [os.path.abspath(os.path.join(a.gpu, 'runtime'))]
        ks = read_manifest(a)
        a.have_gpu = gpu_present()
    else:
        a.ppcg_prev = None
        if a.ppcg_from:
            if a.ppcg or not a.build_only:
                sys.exit('polybench.sh: --ppcg-from goes with --build-only, without --ppcg')
            a.ppcg_from = os.path.abspath(a.ppcg_from)
            try:
                with open(os.path.join(a.ppcg_from, MANIFEST)) as f:
                    a.ppcg_manifest = json.load(f)
            except (OSError, ValueError) as e:
                sys.exit(f'polybench.sh: --ppcg-from {a.ppcg_from}: {e}')
            a.ppcg_prev = {e['name']: e for e in a.ppcg_manifest['kernels']}
        ks = setup_build(a)
        a.have_gpu = True
    if a.only:
        want = a.only.split(',')
        ks = [k for w in want for k in ks if k.name == w] # in the order given: --budget stops the last
        if len(ks) != len(want):
            sys.exit(f'polybench.sh: unknown kernels in --only {a.only}')
    t0 = a.t0 = time.time()
    if a.build_only:
        a.build_only = os.path.abspath(a.build_only)
        if a.ppcg_from and os.path.abspath(a.ppcg_from) == a.build_only:
            sys.exit('polybench.sh: --ppcg-from must be another directory than --build-only')
        shutil.rmtree(a.build_only, ignore_errors=True)
        os.makedirs(a.build_only)
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            list(ex.map(lambda k: build_stage(k, a), ks))
        write_manifest(ks, a)
        print(f'{sum(len(v) for k in ks for v in k.exes.values())} binaries of {len(ks)} kernels in {a.build_only} '
              f'({dir_size(a.build_only) / 2**20:.1f} MiB, {time.time() - t0:.0f} s; work files in {a.workdir})')
        for k in ks:
            print(f'  {k.name:16} gpufuse {k.status:9}' + (f' ppcg {k.ppcg:11}' if a.ppcg or a.ppcg_from else '')
                  + f' {", ".join(b for b in k.exes.get("time", k.exes.get("check", {})))}'
                  + (f'  ({"; ".join(dict.fromkeys(k.notes))[:200]})' if k.notes else ''))
        return 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        list(ex.map(lambda k: run_kernel(k, a), ks))
    if a.time:
        # one process at a time: nothing else on the machine while timing
        for k in ks:
            timing(k, a)
    head = (f'PolyBench/C 4.2.1 through gpufuse ({a.gpufuse}); check size {a.check_size}'
            + (f', timing size {a.time_size}, median of {a.reps} processes'
               + (f' ({a.plain_reps} for the 1-thread C)' if a.plain_reps != a.reps else '') if a.time else '')
            + (f'; {a.built}' if a.run_only else ''))
    txt = head + '\n\n' + table(ks, a)
    print(txt)
    print(f'({time.time() - t0:.0f} s' + ('' if a.run_only else f'; files in {a.workdir}') + ')')
    if a.out:
        with open(a.out, 'w') as f:
            f.write(txt)
    bad = any(failed(v) for k in ks for v in k.check.values())
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
