#!/usr/bin/env python3
"""run.py - randomised differential testing of gpufuse.

For N seeds: gen.py writes a program of K regions; gpufuse compiles it with
--prefix=gf_; the program runs every region as its C body and as gf_<name>
and compares (see gen.py).  Reports programs, regions compared, regions
rejected by gpufuse (expected ones, and unexpected ones by reason), and every
mismatch with its seed.

Modes:
  (default)        --target=host: gcc -O1 -fopenmp, run; every --asan-every'th
                   program with -fsanitize=address,undefined.
  --cuda           default target: .gf.cu compiled with nvcc -arch=sm_90 -c
                   (no GPU needed), the program's own .c with gcc -c.
  --gpu-batch DIR  writes DIR/ with N programs, their .gf.cu (made here), the
                   header, and a copy of gpu_batch.sh; on a GPU machine:
                     bash tests/random/gpu_batch.sh BUILD_DIR DIR

Exit status: 0 when nothing failed; 1 on any mismatch, gpufuse crash, generated
code that does not compile, or a program that crashes.  Rejections are
reported, not failures (--fail-on-unexpected-reject makes them failures).

Reproduce one seed:
  tests/random/run.py --start SEED --seeds 1 --keep --workdir /tmp/gf-repro
  (the files are /tmp/gf-repro/p_SEED.c, .gf.c, the binary, and its output)
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

REJECT_RE = re.compile(r"^(\S+?):(\d+):(\d+): (?:warning|error): (.*?)'(\w+)' keeps its CPU body \[(-W[\w-]+)\]",
                       re.M)


def find_gpufuse(arg):
    if arg:
        return os.path.abspath(arg)
    for b in ('build-fuzz', 'build', 'build-tests'):
        p = os.path.join(ROOT, b, 'compiler', 'gpufuse')
        if os.path.exists(p):
            return p
    sys.exit('run.py: no gpufuse found; pass --gpufuse')


def sh(cmd, timeout=300, env=None, cwd=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env, cwd=cwd)
        return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')
    except subprocess.TimeoutExpired as e:
        return 'timeout', (e.stdout or b'').decode(errors='replace'), (e.stderr or b'').decode(errors='replace')


def sig_name(rc):
    if isinstance(rc, int) and rc < 0:
        try:
            return 'signal ' + signal.Signals(-rc).name
        except ValueError:
            return f'signal {-rc}'
    return f'exit {rc}'


class Result:
    def __init__(self, seed):
        self.seed = seed
        self.regions = 0
        self.compared = 0
        self.rejected = 0
        self.expected_rejects = 0
        self.unexpected = []       # (region, flag, message)
        self.mismatches = []       # lines
        self.failures = []         # (stage, text)
        self.sanitized = False
        self.seconds = 0.0


def one_program(seed, a, gpufuse):
    res = Result(seed)
    t0 = time.time()
    wd = a.workdir
    base = os.path.join(wd, f'p_{seed}')
    kinds = gen.parse_kinds(a.kinds)
    text, regions = gen.generate(seed, a.regions, kinds)
    res.regions = len(regions)
    with open(base + '.c', 'w') as f:
        f.write(text)
    inc = os.path.join(ROOT, 'include')
    if a.cuda:
        out = base + '.gf.cu'
        rc, so, se = sh([gpufuse, base + '.c', '--prefix=gf_', '-o', out, '-I' + inc], timeout=120)
    else:
        out = base + '.gf.c'
        rc, so, se = sh([gpufuse, base + '.c', '--target=host', '--prefix=gf_', '-o', out, '-I' + inc],
                        timeout=120)
    with open(base + '.gpufuse.log', 'w') as f:
        f.write(se)
    if rc != 0:
        res.failures.append(('gpufuse', f'{sig_name(rc)}\n{se[-3000:]}'))
        res.seconds = time.time() - t0
        return res
    rejected_by_gf = {}
    for m in REJECT_RE.finditer(se):
        rejected_by_gf[m.group(5)] = (m.group(6), m.group(4).strip())
    if a.cuda:
        rc, so, se2 = sh(['nvcc', '-arch=sm_90', '-c', '-I' + inc, out, '-o', base + '.gf.o'], timeout=600)
        if rc != 0:
            res.failures.append(('nvcc', f'{sig_name(rc)}\n{se2[-3000:]}'))
        rc, so, se3 = sh(['gcc', '-O1', '-c', '-I' + inc, base + '.c', '-o', base + '.o'], timeout=300)
        if rc != 0:
            res.failures.append(('gcc', f'{sig_name(rc)}\n{se3[-3000:]}'))
        expected = {r.name for r in regions if r.expect_reject}
        for name, (flag, msg) in rejected_by_gf.items():
            res.rejected += 1
            if name in expected:
                res.expected_rejects += 1
            else:
                res.unexpected.append((name, flag, msg))
        res.compared = len(regions) - res.rejected   # compiled, not run
        res.seconds = time.time() - t0
        return res
    asan = a.asan_every > 0 and seed % a.asan_every == 0
    res.sanitized = asan
    cflags = ['-O1', '-fopenmp', '-I' + inc, '-std=gnu11']
    if asan:
        cflags += ['-fsanitize=address,undefined', '-fno-omit-frame-pointer', '-fno-sanitize-recover=undefined']
    rc, so, se2 = sh(['gcc'] + cflags + [base + '.c', out, '-lm', '-o', base], timeout=300)
    if rc != 0:
        res.failures.append(('gcc', f'{sig_name(rc)}\n{se2[-3000:]}'))
        res.seconds = time.time() - t0
        return res
    env = dict(os.environ)
    env['OMP_NUM_THREADS'] = str(2 + seed % 3)     # 2..4 threads: chunk boundaries move
    env['OMP_WAIT_POLICY'] = 'passive'
    env['ASAN_OPTIONS'] = 'detect_leaks=1:abort_on_error=0'
    env['UBSAN_OPTIONS'] = 'print_stacktrace=1'
    # the plan itself: its cost model would run the C body at these sizes
    # (and the comparison would then be of the C body with itself)
    env['GPUFUSE_COST_MODEL'] = '0'
    rc, so, se3 = sh([base], timeout=a.timeout, env=env)
    with open(base + '.out', 'w') as f:
        f.write(so + se3)
    for line in so.splitlines():
        if line.startswith('MISMATCH'):
            res.mismatches.append(line)
        elif line.startswith('REJECT'):
            m = re.search(r'region=(\S+) expected=(\d)', line)
            res.rejected += 1
            if m.group(2) == '1':
                res.expected_rejects += 1
            else:
                flag, msg = rejected_by_gf.get(m.group(1), ('?', 'no diagnostic seen'))
                res.unexpected.append((m.group(1), flag, msg))
        elif line.startswith('SUMMARY'):
            m = re.search(r'compared=(\d+)', line)
            res.compared = int(m.group(1))
    if rc not in (0, 1) or 'runtime error' in se3 or 'AddressSanitizer' in se3 or 'LeakSanitizer' in se3:
        res.failures.append(('run', f'{sig_name(rc)}\n{se3[-3000:]}'))
    elif rc == 1 and not res.mismatches:
        res.failures.append(('run', f'exit 1 without a MISMATCH line\n{so[-2000:]}'))
    res.seconds = time.time() - t0
    return res


def check_file(path, gpufuse, asan=False, workdir=None, timeout=120):
    """Builds one generated (or shrunk) file through gpufuse --target=host and
    runs it.  Returns (verdict, detail): 'ok', 'mismatch', 'gpufuse-crash',
    'gpufuse-error', 'gcc-generated', 'gcc-source', 'crash'; with
    GF_CHECK_CUDA=1 in the environment also 'nvcc-generated' when the host
    build is fine but the CUDA output does not compile (so that shrink.py can
    minimise bugs only nvcc sees)."""
    wd = workdir or tempfile.mkdtemp(prefix='gf-check-')
    base = os.path.join(wd, os.path.splitext(os.path.basename(path))[0])
    inc = os.path.join(ROOT, 'include')
    try:
        verdict = check_host(path, gpufuse, asan, wd, base, inc, timeout)
        if verdict[0] == 'ok' and os.environ.get('GF_CHECK_CUDA') == '1':
            rc, so, se = sh([gpufuse, path, '--prefix=gf_', '-o', base + '.gf.cu', '-I' + inc], timeout=timeout)
            if rc == 0:
                rc, so, se = sh(['nvcc', '-arch=sm_90', '-c', '-I' + inc, base + '.gf.cu', '-o', base + '.gf.o'],
                                timeout=600)
                if rc != 0:
                    return 'nvcc-generated', se[-2000:]
        return verdict
    finally:
        if not workdir:
            shutil.rmtree(wd, ignore_errors=True)


def check_host(path, gpufuse, asan, wd, base, inc, timeout):
    rc, so, se = sh([gpufuse, path, '--target=host', '--prefix=gf_', '-o', base + '.gf.c', '-I' + inc],
                    timeout=timeout)
    if rc not in (0, 1, 2) or 'internal error' in se:
        return 'gpufuse-crash', f'{sig_name(rc)}: {se[-2000:]}'
    if rc != 0:
        return 'gpufuse-error', se[-2000:]
    cflags = ['-O1', '-fopenmp', '-std=gnu11', '-I' + inc]
    if asan:
        cflags += ['-fsanitize=address,undefined', '-fno-sanitize-recover=undefined']
    rc, so, se = sh(['gcc'] + cflags + ['-c', path, '-o', base + '.o'], timeout=timeout)
    if rc != 0:
        return 'gcc-source', se[-2000:]
    rc, so, se = sh(['gcc'] + cflags + [base + '.o', base + '.gf.c', '-lm', '-o', base], timeout=timeout)
    if rc != 0:
        return 'gcc-generated', se[-2000:]
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '3'), OMP_WAIT_POLICY='passive',
               GPUFUSE_COST_MODEL='0')
    # GF_CHECK_RUNS: run it that many times; a race (a recurrence run in
    # parallel by OpenMP) shows only when a thread starts before the one
    # before it has finished
    for _ in range(max(1, int(os.environ.get('GF_CHECK_RUNS', '1')))):
        rc, so, se = sh([base], timeout=timeout, env=env)
        if 'MISMATCH' in so:
            return 'mismatch', so[-3000:]
        if rc != 0 or 'runtime error' in se:
            return 'crash', f'{sig_name(rc)}: {(so + se)[-2000:]}'
    return 'ok', so[-2000:]


def gpu_batch(a, gpufuse):
    out = os.path.abspath(a.gpu_batch)
    os.makedirs(out, exist_ok=True)
    shutil.rmtree(os.path.join(out, 'include'), ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, 'include'), os.path.join(out, 'include'),
                    ignore=shutil.ignore_patterns('meson.build'))
    shutil.copy(os.path.join(HERE, 'gpu_batch.sh'), out)
    kinds = gen.parse_kinds(a.kinds)
    listing = []
    for seed in range(a.start, a.start + a.seeds):
        text, regions = gen.generate(seed, a.regions, kinds)
        base = os.path.join(out, f'p_{seed}')
        with open(base + '.c', 'w') as f:
            f.write(text)
        rc, so, se = sh([gpufuse, base + '.c', '--prefix=gf_', '-o', base + '.gf.cu',
                         '-I' + os.path.join(ROOT, 'include')], timeout=120)
        with open(base + '.gpufuse.log', 'w') as f:
            f.write(se)
        if rc != 0:
            print(f'seed {seed}: gpufuse {sig_name(rc)} (left out)')
            os.unlink(base + '.c')
            continue
        listing.append(f'p_{seed}')
    with open(os.path.join(out, 'PROGRAMS'), 'w') as f:
        f.write('\n'.join(listing) + '\n')
    with open(os.path.join(out, 'README'), 'w') as f:
        f.write(f'Generated by tests/random/run.py --gpu-batch (seeds {a.start}..{a.start + a.seeds - 1}, '
                f'{a.regions} regions each, kinds {a.kinds or "default mix"}, '
                f'GF_GEN_NAMES={os.environ.get("GF_GEN_NAMES", "0")} GF_GEN_UTF8={os.environ.get("GF_GEN_UTF8", "0")}, '
                f'gpufuse {gpufuse}).\n'
                'Run on a GPU machine:  bash tests/random/gpu_batch.sh BUILD_DIR THIS_DIR\n'
                '(BUILD_DIR holds runtime/libgpufuse.so).  Results: THIS_DIR/results.txt.\n')
    print(f'wrote {len(listing)} programs ({len(listing) * a.regions} regions) to {out}')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', type=int, default=80, help='number of programs')
    ap.add_argument('--start', type=int, default=1, help='first seed')
    ap.add_argument('--regions', type=int, default=25, help='regions per program')
    ap.add_argument('--kinds', default=None, help='kinds of gen.py (default mix, "all", or a list)')
    ap.add_argument('--names', type=float, default=None,
                    help='probability of isl-like / C++-keyword names per region (sets GF_GEN_NAMES)')
    ap.add_argument('--utf8', action='store_true', help='non-ASCII names too (sets GF_GEN_UTF8=1)')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--asan-every', type=int, default=8, help='every Nth seed with ASan+UBSan (0: never)')
    ap.add_argument('--cuda', action='store_true')
    ap.add_argument('--gpu-batch', metavar='DIR')
    ap.add_argument('--gpufuse')
    ap.add_argument('--workdir')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--min-compared', type=int, default=0,
                    help='fail unless at least this many regions were compared (guards a vacuous pass)')
    ap.add_argument('--fail-on-unexpected-reject', action='store_true')
    ap.add_argument('--file', help='check one generated or shrunk file (tests/random/regress/*.c): '
                                   'exit 1 unless it builds and matches (with --cuda: and its .gf.cu compiles)')
    ap.add_argument('--runs', type=int, default=1,
                    help='with --file: run the program N times (4 OpenMP threads); any mismatch counts')
    ap.add_argument('--crash-only', action='store_true',
                    help='with --file: exit 1 only when gpufuse itself crashes (signal or internal error)')
    a = ap.parse_args()
    gpufuse = find_gpufuse(a.gpufuse)
    try:
        gen.parse_kinds(a.kinds)
    except ValueError as e:
        ap.error(str(e))
    if a.names is not None:
        os.environ['GF_GEN_NAMES'] = str(a.names)
    if a.utf8:
        os.environ['GF_GEN_UTF8'] = '1'
    if a.file and a.crash_only:
        rc, so, se = sh([gpufuse, a.file, '--target=host', '-o', os.devnull, '-I' + os.path.join(ROOT, 'include')])
        crashed = rc not in (0, 1, 2) or 'internal error' in se
        print(f'{a.file}: gpufuse {sig_name(rc)}{" (crash)" if crashed else ""}')
        if crashed:
            print(se[-1500:])
        return 1 if crashed else 0
    if a.file:
        if a.runs > 1:
            os.environ['GF_CHECK_RUNS'] = str(a.runs)
            os.environ.setdefault('OMP_NUM_THREADS', '4')
        if a.cuda:
            # the CUDA output of the file must compile too (bugs only nvcc sees)
            if not shutil.which('nvcc'):
                print('nvcc not found: skipped')
                return 77
            os.environ['GF_CHECK_CUDA'] = '1'
        verdict, detail = check_file(a.file, gpufuse)
        print(f'{a.file}: {verdict}')
        if verdict != 'ok':
            print(detail)
        return 0 if verdict == 'ok' else 1
    if a.gpu_batch:
        return gpu_batch(a, gpufuse)
    if a.cuda and not shutil.which('nvcc'):
        print('nvcc not found: skipped')
        return 77
    made = a.workdir is None
    a.workdir = os.path.abspath(a.workdir or tempfile.mkdtemp(prefix='gf-random-'))
    os.makedirs(a.workdir, exist_ok=True)
    t0 = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(one_program, s, a, gpufuse) for s in range(a.start, a.start + a.seeds)]
        for f in concurrent.futures.as_completed(futs):
            results.append(f.result())
    results.sort(key=lambda r: r.seed)
    wall = time.time() - t0

    regions = sum(r.regions for r in results)
    compared = sum(r.compared for r in results)
    rejected = sum(r.rejected for r in results)
    exp_rej = sum(r.expected_rejects for r in results)
    mism = [(r.seed, m) for r in results for m in r.mismatches]
    fails = [(r.seed, st, tx) for r in results for st, tx in r.failures]
    unexp = [(r.seed,) + u for r in results for u in r.unexpected]
    mode = 'cuda (nvcc -arch=sm_90 -c)' if a.cuda else 'host (gcc -O1 -fopenmp)'
    print(f'gpufuse random differential test, {mode}: seeds {a.start}..{a.start + a.seeds - 1}, '
          f'{a.regions} regions each, {wall:.1f} s on {a.jobs} jobs')
    print(f'  programs           {len(results)} ({sum(r.sanitized for r in results)} with ASan+UBSan)')
    print(f'  regions generated  {regions}')
    print(f'  regions {"compiled" if a.cuda else "compared"}   {compared}')
    print(f'  rejected           {rejected} ({exp_rej} by design, {len(unexp)} unexpected)')
    print(f'  mismatches         {len(mism)} lines in {len({s for s, _ in mism})} programs')
    print(f'  failures           {len(fails)}')
    if unexp:
        by = {}
        for seed, name, flag, msg in unexp:
            key = (flag, re.sub(r"'[^']*'", "'_'", msg)[:150])
            by.setdefault(key, []).append(f'{seed}:{name}')
        print('unexpected rejections by reason:')
        for (flag, msg), where in sorted(by.items(), key=lambda kv: -len(kv[1])):
            print(f'  {len(where):5d} [{flag}] {msg}  e.g. {", ".join(where[:3])}')
    for seed, m in mism[:40]:
        print(m)
    for seed, st, tx in fails[:20]:
        print(f'FAILURE seed={seed} stage={st}: {tx.strip()[:1500]}')
    bad = bool(mism or fails)
    if compared < a.min_compared:
        print(f'only {compared} regions compared, fewer than --min-compared {a.min_compared}')
        bad = True
    if a.fail_on_unexpected_reject and unexp:
        bad = True
    if mism or fails:
        print(f'reproduce: {sys.argv[0]} --start SEED --seeds 1 --regions {a.regions} --keep --workdir /tmp/gf-repro'
              + (' --cuda' if a.cuda else ''))
    if made and not a.keep and not bad:
        shutil.rmtree(a.workdir, ignore_errors=True)
    else:
        print(f'work directory: {a.workdir}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
