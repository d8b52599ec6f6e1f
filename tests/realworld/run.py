#!/usr/bin/env python3
"""run.py - the real-world corpus through gpufuse (docs/realworld.md).

Each directory of tests/realworld/ with a main.c is one program: kernel files
(.c files that mark functions GPUFUSE), maybe headers of its own, and a driver
main.c that fills the inputs deterministically, calls every marked function and
prints (and, with RW_DUMP, dumps) every output (common/rw.h).  For each program:

  gpufuse   gpufuse FILE.c (CUDA target, the default) in a copy of the program,
            with --report=json: per marked function, accepted or refused and
            the diagnostic that refused it.
  repro     the same run from a second copy elsewhere gives the same bytes (no
            path of the generating machine in the output).
  nvcc      nvcc -arch=sm_90 -c on every .gf.cu, with NO user -I flag (only
            gpufuse's include directory) and the program's own files out of
            reach: the output must be self-contained (issue 14).
  host      gpufuse --target=host, gcc -fopenmp with the program's files; its
            outputs compared with the plain build (gcc, no gpufuse).
  (--gpu)   the .gf.cu built with nvcc -fmad=false (no a*b+c contracted into
            one rounding, as the plain gcc build does not), linked with BUILD/runtime/libgpufuse,
            run with GPUFUSE_VERIFY=1 and compared with the plain build.

A comparison is element by element, |ref - got| <= atol + rtol * |ref| with
the tolerance the driver states per output (NaN equals only NaN; integers
exact unless the driver allows a rounding step).

expected.txt is the acceptance manifest: per marked function 'accepted' or
'refused CLASS' (CLASS: the -Wgpufuse-CLASS of the diagnostic).  Any
difference fails (acceptance changes only knowingly): run with --update after
checking it.  xfail.txt lists the stages known to fail, each with its bug; a
listed stage that passes fails too (XPASS: remove the line).  --update never
touches xfail.txt.  Wrong answers are failures unless listed there.

  tests/realworld/run.py [--gpufuse PATH] [--only a,b] [-j N] [--keep]
  tests/realworld/run.py --update              # rewrite expected.txt
  tests/realworld/run.py --markdown FILE       # the acceptance table for docs
  tests/realworld/run.py --gpu BUILD_DIR       # on a GPU machine (exit 77 without one)
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INC = os.path.join(ROOT, 'include')
COMMON = os.path.join(HERE, 'common')
MANIFEST = os.path.join(HERE, 'expected.txt')
XFAIL = os.path.join(HERE, 'xfail.txt')
STAGES = ['plain', 'gpufuse', 'repro', 'nvcc', 'nvcc-user', 'host-gen', 'host-build', 'host-run',
          'gpu-build', 'gpu-run', 'gpu-verify']
GPU_STAGES = ('gpu-build', 'gpu-run', 'gpu-verify')
VERIFY_RE = re.compile(r'gpufuse: verify: (\d+) calls? checked against the C body, (?:all agree|(\d+) differed)')
REJECT_RE = re.compile(r"^(\S+?):(\d+):(\d+): (?:warning|error): (.*?)'(\w+)' keeps its CPU body"
                       r"(?: \(.*?\))? \[-W(?:error,)?-?W?(gpufuse-[\w-]+)\]", re.M)
DIAG_RE = re.compile(r"^(\S+?):(\d+):(\d+): (warning|error): (.*?) \[-W(?:error,)?-?W?(gpufuse-[\w-]+)\]$", re.M)
MARKED_RE = re.compile(r'\bGPUFUSE\b[^;{()]*?\b(\w+)\s*\(', re.S)


def sh(cmd, cwd=None, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')
    except subprocess.TimeoutExpired as e:
        return 'timeout', (e.stdout or b'').decode(errors='replace'), (e.stderr or b'').decode(errors='replace')


def rc_text(rc):
    if isinstance(rc, int) and rc < 0:
        try:
            return 'signal ' + signal.Signals(-rc).name
        except ValueError:
            return f'signal {-rc}'
    return f'exit {rc}'


def programs(only=None):
    names = sorted(d for d in os.listdir(HERE)
                   if os.path.isfile(os.path.join(HERE, d, 'main.c')))
    if only:
        want = only.split(',')
        missing = [w for w in want if w not in names]
        if missing:
            sys.exit(f'run.py: no program {", ".join(missing)}')
        names = [n for n in names if n in want]
    return names


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def marked_functions(path):
    """The functions a file marks GPUFUSE (definitions), in order."""
    with open(path, encoding='utf-8') as f:
        text = strip_comments(f.read())
    out = []
    for m in MARKED_RE.finditer(text):
        if m.group(1) not in out and m.group(1) != 'GPUFUSE':
            out.append(m.group(1))
    return out


def kernel_files(pdir):
    files = []
    for f in sorted(os.listdir(pdir)):
        if f.endswith('.c') and f != 'main.c':
            with open(os.path.join(pdir, f), encoding='utf-8') as fh:
                if re.search(r'\bGPUFUSE\b', strip_comments(fh.read())):
                    files.append(f)
    return files


def c_files(pdir):
    return sorted(f for f in os.listdir(pdir) if f.endswith('.c'))


# ---- dumps -------------------------------------------------------------------
FMT = {ord('f'): ('f', 4), ord('d'): ('d', 8), ord('i'): ('i', 4), ord('u'): ('B', 1), ord('l'): ('q', 8)}


def read_dump(path):
    """[(name, type, rtol, atol, values)] from a RW_DUMP file (common/rw.h)."""
    recs = []
    with open(path, 'rb') as f:
        data = f.read()
    p = 0
    while p < len(data):
        if data[p:p + 2] != b'RW':
            raise ValueError(f'{path}: bad record at byte {p}')
        ty, ln = data[p + 2] & 0x7f, data[p + 3]
        mostly = bool(data[p + 2] & 0x80)
        name = data[p + 4:p + 4 + ln].decode()
        p += 4 + ln
        cnt, rtol, atol = struct.unpack_from('<Qdd', data, p)
        p += 24
        code, size = FMT[ty]
        vals = struct.unpack_from(f'<{cnt}{code}', data, p)
        p += cnt * size
        recs.append((name, chr(ty) + ('*' if mostly else ''), rtol, atol, vals))
    return recs


def same(ref, got, rtol, atol):
    if ref != ref or got != got:          # NaN
        return ref != ref and got != got
    if ref == got:
        return True
    return abs(ref - got) <= atol + rtol * abs(ref)


def compare_dumps(ref_path, got_path, what):
    """'' when equal, else a description of the first differences."""
    try:
        ref, got = read_dump(ref_path), read_dump(got_path)
    except (OSError, ValueError, struct.error) as e:
        return f'{what}: cannot read the outputs: {e}'
    if [(r[0], r[1], len(r[4])) for r in ref] != [(g[0], g[1], len(g[4])) for g in got]:
        return (f'{what}: different outputs: plain {[(r[0], len(r[4])) for r in ref]} '
                f'vs {[(g[0], len(g[4])) for g in got]}')
    lines = []
    for (name, ty, rtol, atol, rv), (_, _, _, _, gv) in zip(ref, got):
        if ty.endswith('*'):
            # integers of which the fraction rtol may differ by more than atol
            bad = [k for k in range(len(rv)) if abs(rv[k] - gv[k]) > atol]
            if len(bad) <= rtol * len(rv):
                continue
            lines.append(f'{what}: {name}: {len(bad)} of {len(rv)} elements differ, more than the fraction '
                         f'{rtol:g} allowed; first at [{bad[0]}]: plain {rv[bad[0]]!r}, got {gv[bad[0]]!r}')
            continue
        bad = [k for k in range(len(rv)) if not same(rv[k], gv[k], rtol, atol)]
        if bad:
            k = bad[0]
            lines.append(f'{what}: {name}: {len(bad)} of {len(rv)} elements differ; first at [{k}]: '
                         f'plain {rv[k]!r}, got {gv[k]!r} (rtol {rtol:g}, atol {atol:g})')
    return '\n'.join(lines)


# ---- one program -------------------------------------------------------------
class Result:
    def __init__(self, name):
        self.name = name
        self.funcs = {}        # function -> ('accepted', '') | ('refused', class)
        self.diags = {}        # function -> diagnostic line
        self.stages = {}       # stage -> 'ok' | 'skip' | failure text
        self.seconds = 0.0


def fail(res, stage, text):
    res.stages[stage] = text.strip() or 'failed'


def run_program(name, a, gpufuse):
    res = Result(name)
    t0 = time.time()
    pdir = os.path.join(HERE, name)
    wd = os.path.join(a.workdir, name)
    shutil.rmtree(wd, ignore_errors=True)
    src, src2 = os.path.join(wd, 'src'), os.path.join(wd, 'elsewhere', 'copy')
    gen, gen2, host, plain = (os.path.join(wd, d) for d in ('gen', 'gen2', 'host', 'plain'))
    shutil.copytree(pdir, src)
    shutil.copytree(pdir, src2)
    for d in (gen, gen2, host, plain):
        os.makedirs(d)
    kfiles = kernel_files(pdir)
    for kf in kfiles:
        for fn in marked_functions(os.path.join(pdir, kf)):
            res.funcs[fn] = ('refused', 'unknown')
    cflags = ['-O2', '-std=gnu11', '-I' + INC, '-I' + COMMON]

    # plain build: the reference
    rc, so, se = sh(['gcc'] + cflags + c_files(src) + ['-lm', '-o', os.path.join(plain, 'prog')], cwd=src)
    if rc != 0:
        fail(res, 'plain', f'gcc: {rc_text(rc)}\n{se[-2000:]}')
        return finish(res, t0)
    ref_dump = os.path.join(plain, 'out.bin')
    rc, so, se = sh([os.path.join(plain, 'prog')], cwd=plain, env=dict(os.environ, RW_DUMP=ref_dump),
                    timeout=a.timeout)
    if rc != 0:
        fail(res, 'plain', f'run: {rc_text(rc)}\n{(so + se)[-2000:]}')
        return finish(res, t0)
    res.stages['plain'] = 'ok'

    # gpufuse, CUDA target, twice from two places
    gf_fail = []
    for kf in kfiles:
        stem = kf[:-2]
        out = os.path.join(gen, stem + '.gf.cu')
        rc, so, se = sh([gpufuse, kf, '-o', out, '--report=json'], cwd=src, timeout=a.timeout)
        with open(os.path.join(gen, stem + '.gpufuse.log'), 'w') as f:
            f.write(se)
        if rc != 0 or 'internal error' in se:
            gf_fail.append(f'{kf}: gpufuse {rc_text(rc)}\n{se[-1500:]}')
            continue
        record_acceptance(res, so, se, kf)
        rc2, _, se2 = sh([gpufuse, kf, '-o', os.path.join(gen2, stem + '.gf.cu')], cwd=src2, timeout=a.timeout)
        if rc2 != 0:
            res.stages['repro'] = f'{kf}: the second run failed: {rc_text(rc2)}'
        elif not files_equal(out, os.path.join(gen2, stem + '.gf.cu')):
            res.stages['repro'] = (f'{kf}: the output differs when generated from another directory '
                                   f'(first difference: {first_diff(out, os.path.join(gen2, stem + ".gf.cu"))})')
    shutil.rmtree(os.path.join(wd, 'elsewhere'), ignore_errors=True)
    if gf_fail:
        fail(res, 'gpufuse', '\n'.join(gf_fail))
    else:
        res.stages['gpufuse'] = 'ok'
        res.stages.setdefault('repro', 'ok')

    # nvcc on every .gf.cu with the program's own files out of reach
    if gf_fail:
        res.stages['nvcc'] = 'skip'
    elif not shutil.which('nvcc'):
        res.stages['nvcc'] = 'skip'
    else:
        hidden = src + '.hidden'
        os.rename(src, hidden)
        try:
            errs = []
            for kf in kfiles:
                stem = kf[:-2]
                rc, so, se = sh(['nvcc', '-arch=' + a.arch, '-c', '-I' + INC, stem + '.gf.cu', '-o', stem + '.gf.o'],
                                cwd=gen, timeout=900)
                if rc != 0:
                    errs.append(f'{stem}.gf.cu: nvcc {rc_text(rc)}\n' + first_errors(se))
        finally:
            os.rename(hidden, src)
        if errs:
            fail(res, 'nvcc', '\n'.join(errs))
        else:
            res.stages['nvcc'] = 'ok'
        if errs and a.nvcc_with_headers:
            nvcc_user(res, a, src, gen, kfiles)

    # host target: C + OpenMP, compared with the plain build
    host_run(res, a, gpufuse, src, host, kfiles, cflags, ref_dump)
    if a.gpu:
        gpu_run(res, a, src, gen, kfiles, cflags, ref_dump)
    return finish(res, t0)


def nvcc_user(res, a, src, gen, kfiles):
    """Diagnosis only (--nvcc-with-headers): when the self-contained compile
    failed, does the .gf.cu compile with the program's own directory on the
    include path, as the user's build would give it?  Separates 'not
    self-contained' from code nvcc rejects for other reasons."""
    errs = []
    for kf in kfiles:
        stem = kf[:-2]
        rc, so, se = sh(['nvcc', '-arch=' + a.arch, '-c', '-I' + INC, '-I' + src, stem + '.gf.cu',
                         '-o', stem + '.user.o'], cwd=gen, timeout=900)
        if rc != 0:
            errs.append(f'{stem}.gf.cu with -I<program>: nvcc {rc_text(rc)}\n' + first_errors(se))
    if errs:
        fail(res, 'nvcc-user', '\n'.join(errs))
    else:
        res.stages['nvcc-user'] = 'ok'


def host_run(res, a, gpufuse, src, host, kfiles, cflags, ref_dump):
    gen_c = []
    for kf in kfiles:
        out = os.path.join(host, kf[:-2] + '.gf.c')
        rc, so, se = sh([gpufuse, kf, '--target=host', '-o', out], cwd=src, timeout=a.timeout)
        if rc != 0 or 'internal error' in se:
            fail(res, 'host-gen', f'{kf}: gpufuse --target=host {rc_text(rc)}\n{se[-1500:]}')
            return
        gen_c.append(out)
    res.stages['host-gen'] = 'ok'
    exe = os.path.join(host, 'prog')
    rc, so, se = sh(['gcc'] + cflags + ['-fopenmp', '-I' + src] + c_files(src) + gen_c + ['-lm', '-o', exe], cwd=src)
    if rc != 0:
        fail(res, 'host-build', f'gcc: {rc_text(rc)}\n' + first_errors(se))
        return
    res.stages['host-build'] = 'ok'
    dump = os.path.join(host, 'out.bin')
    env = dict(os.environ, RW_DUMP=dump, OMP_NUM_THREADS='3', OMP_WAIT_POLICY='passive')
    rc, so, se = sh([exe], cwd=host, env=env, timeout=a.timeout)
    if rc != 0:
        fail(res, 'host-run', f'run: {rc_text(rc)}\n{(so + se)[-1500:]}')
        return
    diff = compare_dumps(ref_dump, dump, 'host')
    if diff:
        fail(res, 'host-run', 'MISMATCH ' + diff)
    else:
        res.stages['host-run'] = 'ok'


def gpu_run(res, a, src, gen, kfiles, cflags, ref_dump):
    if res.stages.get('nvcc') != 'ok':
        res.stages['gpu-build'] = res.stages['gpu-run'] = res.stages['gpu-verify'] = 'skip'
        return
    gdir = os.path.join(os.path.dirname(gen), 'gpu')
    os.makedirs(gdir, exist_ok=True)
    objs = []
    for c in c_files(src):
        o = os.path.join(gdir, c[:-2] + '.o')
        rc, so, se = sh(['gcc'] + cflags + ['-c', c, '-o', o], cwd=src)
        if rc != 0:
            fail(res, 'gpu-build', f'gcc {c}: {rc_text(rc)}\n{se[-1500:]}')
            return
        objs.append(o)
    # the kernels again, without contraction of a*b+c into one fused
    # multiply-add (nvcc's default, which C allows within an expression but
    # the plain gcc build does not do): so the comparison can be as exact as
    # the driver states; a chaotic program (mandelbrot's iteration counts) or
    # a cancellation (a variance as E[x^2] - mu^2) turns that last bit into
    # visible differences (docs/realworld.md)
    for kf in kfiles:
        stem = kf[:-2]
        o = os.path.join(gdir, stem + '.gf.o')
        rc, so, se = sh(['nvcc', '-arch=' + a.arch, '-fmad=false', '-c', '-I' + INC, stem + '.gf.cu', '-o', o],
                        cwd=gen)
        if rc != 0:
            fail(res, 'gpu-build', f'nvcc -fmad=false {stem}.gf.cu: {rc_text(rc)}\n{se[-1500:]}')
            return
        objs.append(o)
    lib = os.path.join(a.gpu, 'runtime')
    exe = os.path.join(gdir, 'prog')
    rc, so, se = sh(['nvcc', '-arch=' + a.arch] + objs + ['-o', exe, '-L' + lib, '-lgpufuse',
                                                          '-Xlinker', '-rpath=' + lib, '-lm'])
    if rc != 0:
        fail(res, 'gpu-build', f'link: {rc_text(rc)}\n{se[-1500:]}')
        return
    res.stages['gpu-build'] = 'ok'
    dump = os.path.join(gdir, 'out.bin')
    env = dict(os.environ, RW_DUMP=dump, GPUFUSE_VERIFY='1', GPUFUSE_COST_MODEL='0')
    rc, so, se = sh([exe], cwd=gdir, env=env, timeout=a.timeout)
    with open(os.path.join(gdir, 'run.log'), 'w') as f:
        f.write(so + se)
    if rc != 0:
        fail(res, 'gpu-run', f'run: {rc_text(rc)}\n{(so + se)[-1500:]}')
        return
    diff = compare_dumps(ref_dump, dump, 'gpu')
    if diff:
        fail(res, 'gpu-run', 'MISMATCH ' + diff)
    else:
        res.stages['gpu-run'] = 'ok'
    # GPUFUSE_VERIFY=1: the runtime compared every call with the C body too
    # (its own tolerances: docs/runtime.md); no summary line: not supported
    m = VERIFY_RE.search(se + so)
    if not m:
        res.stages['gpu-verify'] = 'skip'
    elif m.group(2) and int(m.group(2)):
        lines = [ln for ln in (se + so).splitlines() if ln.startswith('gpufuse: verify:')]
        fail(res, 'gpu-verify', '\n'.join(lines[:6]))
    else:
        res.stages['gpu-verify'] = 'ok'


def record_acceptance(res, report, stderr, kf):
    try:
        doc = json.loads(report)
    except ValueError:
        doc = {'regions': []}
    reasons = {}
    for m in REJECT_RE.finditer(stderr):
        reasons.setdefault(m.group(5), (m.group(6)[len('gpufuse-'):], m.group(0).splitlines()[0]))
    for reg in doc.get('regions', []):
        fn = reg.get('name')
        if reg.get('status') == 'cpu':
            cls, line = reasons.get(fn, ('unknown', ''))
            res.funcs[fn] = ('refused', cls)
            res.diags[fn] = strip_dir(line)
        else:
            res.funcs[fn] = ('accepted', '')


def strip_dir(line):
    return re.sub(r'^\S*/', '', line)


def first_errors(text, k=6):
    errs = [ln for ln in text.splitlines() if 'error' in ln]
    return '\n'.join(strip_dir(e) for e in errs[:k]) or text[-1500:]


def files_equal(p, q):
    with open(p, 'rb') as f, open(q, 'rb') as g:
        return f.read() == g.read()


def first_diff(p, q):
    with open(p, encoding='utf-8', errors='replace') as f, open(q, encoding='utf-8', errors='replace') as g:
        for k, (x, y) in enumerate(zip(f, g)):
            if x != y:
                return f'line {k + 1}: {x.strip()[:100]!r} vs {y.strip()[:100]!r}'
    return 'lengths differ'


def finish(res, t0):
    res.seconds = time.time() - t0
    return res


# ---- manifest and xfail list -------------------------------------------------
def read_manifest():
    want = {}
    if not os.path.exists(MANIFEST):
        return want
    with open(MANIFEST) as f:
        for ln in f:
            ln = ln.split('#', 1)[0].split()
            if len(ln) >= 3:
                want[(ln[0], ln[1])] = (ln[2], ln[3] if len(ln) > 3 else '')
    return want


def write_manifest(results):
    """Rewrites the entries of the programs that ran (--only keeps the others)."""
    ran = {r.name for r in results}
    entries = {k: v for k, v in read_manifest().items() if k[0] not in ran}
    for r in results:
        for fn, got in r.funcs.items():
            entries[(r.name, fn)] = got
    lines = ['# tests/realworld acceptance manifest: program function accepted|refused CLASS',
             '# CLASS is the -Wgpufuse-CLASS of the diagnostic that kept the function on the CPU.',
             '# Checked by run.py; rewrite with run.py --update after checking the change.']
    order = {r.name: [fn for fn in r.funcs] for r in results}
    for (prog, fn) in sorted(entries, key=lambda k: (k[0], order.get(k[0], []).index(k[1])
                                                     if k[1] in order.get(k[0], []) else 0)):
        v, cls = entries[(prog, fn)]
        lines.append(f'{prog:20s} {fn:24s} {v}' + (f' {cls}' if cls else ''))
    with open(MANIFEST, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def read_xfail():
    xf = {}
    if not os.path.exists(XFAIL):
        return xf
    with open(XFAIL) as f:
        for ln in f:
            ln = ln.split('#', 1)[0].strip()
            if ln:
                parts = ln.split(None, 2)
                if len(parts) < 3 or parts[1] not in STAGES:
                    sys.exit(f'run.py: bad xfail line (want: program stage bug): {ln}')
                xf[(parts[0], parts[1])] = parts[2]
    return xf


# ---- report ------------------------------------------------------------------
def markdown(results, path):
    acc = sum(1 for r in results for v, _ in r.funcs.values() if v == 'accepted')
    tot = sum(len(r.funcs) for r in results)
    by = {}
    for r in results:
        for fn, (v, cls) in r.funcs.items():
            if v != 'accepted':
                by.setdefault(cls, []).append(f'{r.name}/{fn}')
    out = [f'{acc} of {tot} marked functions accepted in {len(results)} programs.', '',
           '| refused: class | functions | e.g. |', '|---|---|---|']
    for cls, fs in sorted(by.items(), key=lambda kv: -len(kv[1])):
        out.append(f'| {cls} | {len(fs)} | {", ".join(fs[:4])} |')
    cols = [s for s in STAGES if any(s in r.stages for r in results) and s != 'nvcc-user']
    out += ['', '| program | functions accepted | ' + ' | '.join(cols) + ' |', '|---|---|' + '---|' * len(cols)]
    for r in results:
        a = sum(1 for v, _ in r.funcs.values() if v == 'accepted')
        cells = []
        for s in cols:
            st = r.stages.get(s, '-')
            cells.append('ok' if st == 'ok' else ('skip' if st in ('skip', '-') else 'FAIL'))
        out.append(f'| {r.name} | {a}/{len(r.funcs)} | ' + ' | '.join(cells) + ' |')
    out += ['', '| function | diagnostic |', '|---|---|']
    for r in results:
        for fn, (v, cls) in r.funcs.items():
            if v != 'accepted':
                d = r.diags.get(fn, '').replace('|', '\\|')
                out.append(f'| {r.name}/{fn} | {d} |')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gpufuse')
    ap.add_argument('--only', help='comma-separated program names')
    ap.add_argument('-j', '--jobs', type=int, default=min(2, os.cpu_count() or 2))
    ap.add_argument('--workdir')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--update', action='store_true', help='rewrite expected.txt from this run')
    ap.add_argument('--markdown', metavar='FILE', help='write the acceptance tables (markdown)')
    ap.add_argument('--gpu', metavar='BUILD_DIR', help='also build with libgpufuse and run on the GPU')
    ap.add_argument('--nvcc-with-headers', action='store_true',
                    help='diagnosis: when nvcc fails, also try it with the program directory on the include path')
    ap.add_argument('-v', '--verbose', action='store_true', help='print every failure in full')
    a = ap.parse_args()
    gpufuse = a.gpufuse and os.path.abspath(a.gpufuse)
    if not gpufuse:
        for b in ('build', 'build-tests', 'build-fuzz'):
            p = os.path.join(ROOT, b, 'compiler', 'gpufuse')
            if os.path.exists(p):
                gpufuse = p
                break
        else:
            sys.exit('run.py: no gpufuse found; pass --gpufuse')
    if a.gpu:
        a.gpu = os.path.abspath(a.gpu)
        try:
            have_gpu = sh(['nvidia-smi', '-L'])[0] == 0
        except OSError:
            have_gpu = False
        # RW_GPU_ALLOW_CPU=1: run the --gpu builds anyway (the launchers' CPU
        # fallback): checks the build and link steps on a machine without a GPU
        if not have_gpu and os.environ.get('RW_GPU_ALLOW_CPU') != '1':
            print('run.py --gpu: no GPU (nvidia-smi -L failed): skipped')
            return 77
        if not os.path.exists(os.path.join(a.gpu, 'runtime', 'libgpufuse.so')):
            sys.exit(f'run.py: no {a.gpu}/runtime/libgpufuse.so')
        if not a.gpufuse and os.path.exists(os.path.join(a.gpu, 'compiler', 'gpufuse')):
            gpufuse = os.path.join(a.gpu, 'compiler', 'gpufuse')
    made = a.workdir is None
    a.workdir = os.path.abspath(a.workdir or tempfile.mkdtemp(prefix='gf-realworld-'))
    os.makedirs(a.workdir, exist_ok=True)
    names = programs(a.only)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(lambda n: run_program(n, a, gpufuse), names))
    wall = time.time() - t0

    want = read_manifest()
    xfail = read_xfail()
    problems, xfails = [], []
    for r in results:
        for st, v in r.stages.items():
            key = (r.name, st)
            if v in ('ok', 'skip'):
                if key in xfail:
                    problems.append(f'XPASS {r.name} {st}: listed in xfail.txt ({xfail[key]}) but passes: '
                                    'remove the line')
            elif key in xfail:
                xfails.append(f'XFAIL {r.name} {st}: {xfail[key]}')
            else:
                detail = v if a.verbose else '\n'.join(v.splitlines()[:8])
                problems.append(f'FAIL {r.name} {st}: ' + detail.replace('\n', '\n    '))
        for fn, got in r.funcs.items():
            exp = want.get((r.name, fn))
            if a.update:
                continue
            if exp is None:
                problems.append(f'MANIFEST {r.name}/{fn}: not in expected.txt (now {" ".join(got).strip()}); '
                                'run.py --update')
            elif exp != got:
                way = 'IMPROVED' if got[0] == 'accepted' else ('REGRESSED' if exp[0] == 'accepted' else 'CHANGED')
                problems.append(f'MANIFEST {way} {r.name}/{fn}: expected {" ".join(exp).strip()}, now '
                                f'{" ".join(got).strip()}: check it, then run.py --update')
    if not a.update and not a.only:
        seen = {(r.name, fn) for r in results for fn in r.funcs}
        for key in want:
            if key not in seen:
                problems.append(f'MANIFEST {key[0]}/{key[1]}: in expected.txt but no longer marked; run.py --update')

    acc = sum(1 for r in results for v, _ in r.funcs.values() if v == 'accepted')
    tot = sum(len(r.funcs) for r in results)
    print(f'gpufuse real-world corpus: {len(results)} programs, {tot} marked functions, {acc} accepted, '
          f'{wall:.0f} s on {a.jobs} jobs ({gpufuse})')
    stages = [s for s in STAGES if (a.gpu or s not in GPU_STAGES) and (a.nvcc_with_headers or s != 'nvcc-user')]
    print(f'  {"program":20s} acc   ' + ' '.join(f'{s:10s}' for s in stages))
    for r in results:
        n_acc = sum(1 for v, _ in r.funcs.values() if v == 'accepted')
        cells = []
        for s in stages:
            v = r.stages.get(s, '-')
            cells.append(v if v in ('ok', 'skip', '-') else ('xfail' if (r.name, s) in xfail else 'FAIL'))
        print(f'  {r.name:20s} {n_acc:2d}/{len(r.funcs):<2d} ' + ' '.join(f'{c:10s}' for c in cells))
    for s in stages:
        bad = sum(1 for r in results if r.stages.get(s, 'ok') not in ('ok', 'skip', '-'))
        print(f'  stage {s:10s}: {bad} programs fail')
    for x in xfails:
        print(x)
    for p in problems:
        print(p)
    if a.update:
        write_manifest(results)
        print(f'wrote {MANIFEST}')
    if a.markdown:
        markdown(results, a.markdown)
        print(f'wrote {a.markdown}')
    bad = bool(problems)
    if made and not a.keep and not bad:
        shutil.rmtree(a.workdir, ignore_errors=True)
    else:
        print(f'work directory: {a.workdir}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
