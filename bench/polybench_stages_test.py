#!/usr/bin/env python3
"""polybench_stages_test.py GPUFUSE BUILD_DIR - the two stages of
bench/polybench.py (--build-only DIR on a machine with the compilers,
--run-only DIR where only the binaries run) on three PolyBench kernels at
MINI.  Needs a PolyBench/C 4.2.1 checkout in $POLYBENCH (exit 77 without).

Checks: the manifest names every kernel and its binaries; the run stage
finds the host build equal to the plain one for the accepted kernels and
times plain and host; without a GPU the gpu and PPCG builds are reported
"not run", with one they are checked; a wrong binary put in place of one
build is reported as a mismatch with exit status 1.  With $PPCG (a ppcg
binary) PPCG is built (it must accept the three kernels) and checked too.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = ['gemm', 'atax', 'jacobi-1d']


def fail(msg, out=''):
    print(out)
    print('FAIL:', msg)
    sys.exit(1)


def run(args):
    p = subprocess.run([sys.executable, os.path.join(HERE, 'polybench.py')] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=1500)
    return p.returncode, p.stdout.decode(errors='replace')


def rows(text):
    """{kernel: [cells]} of the markdown table."""
    out = {}
    for ln in text.splitlines():
        cells = [c.strip() for c in ln.strip().strip('|').split('|')]
        if ln.startswith('| ') and cells[0] in KERNELS:
            out[cells[0]] = cells
    return out


def main():
    pb = os.environ.get('POLYBENCH')
    if not pb or not os.path.exists(os.path.join(pb, 'utilities', 'benchmark_list')):
        print('no PolyBench/C 4.2.1 checkout in $POLYBENCH: skipped')
        return 77
    gpufuse, build = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix='gf-pbstages-')
    d = os.path.join(tmp, 'pb')
    gpu = os.path.exists(os.path.join(build, 'runtime', 'libgpufuse.so')) and shutil.which('nvcc')
    args = [pb, '--gpufuse', gpufuse, '--check-size', 'MINI', '--time-size', 'MINI', '--only', ','.join(KERNELS),
            '--workdir', os.path.join(tmp, 'work'), '-j', '1']
    if gpu:
        args += ['--gpu', build]
    if os.environ.get('PPCG'):
        args += ['--ppcg', os.environ['PPCG']]
    rc, out = run(args + ['--build-only', d])
    if rc != 0:
        fail(f'--build-only exit {rc}', out)
    with open(os.path.join(d, 'manifest.json')) as f:
        m = json.load(f)
    names = [k['name'] for k in m['kernels']]
    if sorted(names) != sorted(KERNELS):
        fail(f'manifest kernels {names}', out)
    for k in m['kernels']:
        for tag in ('check', 'time'):
            exes = k['exes'].get(tag, {})
            want = {'plain', 'host'} | ({'gpu'} if gpu and k['status'] == 'accepted' else set())
            if not want <= set(exes):
                fail(f'{k["name"]} {tag}: binaries {sorted(exes)}, want {sorted(want)}', out)
            for rel in exes.values():
                if not os.access(os.path.join(d, rel), os.X_OK):
                    fail(f'{rel} missing', out)
        # PPCG accepts these three as published: a refusal is the harness's fault
        # (it once ran ppcg without the kernel's directory: "'gemm.h' file not found")
        if os.environ.get('PPCG') and k.get('ppcg') != 'accepted':
            fail(f'{k["name"]}: ppcg {k.get("ppcg")}: {k.get("notes")}', out)
    shutil.rmtree(os.path.join(tmp, 'work'))       # the run stage needs only DIR
    rc, out = run(['--run-only', d, '--reps', '2', '--plain-reps', '1', '--omp', '2'] + (['--gpu', build] if gpu else []))
    if rc != 0:
        fail(f'--run-only exit {rc}', out)
    r = rows(out)
    if sorted(r) != sorted(KERNELS):
        fail(f'table rows {sorted(r)}', out)
    have_gpu = 'not run: no GPU' not in out and 'Not run (no GPU' not in out
    for k in m['kernels']:
        cells = r[k['name']]
        if k['status'] == 'accepted' and cells[2] != 'yes':
            fail(f'{k["name"]}: host = plain is {cells[2]!r}', out)
        if gpu and k['status'] == 'accepted' and cells[3] != ('yes' if have_gpu else 'not run'):
            fail(f'{k["name"]}: GPU = plain is {cells[3]!r}', out)
    if not any(k['status'] == 'accepted' for k in m['kernels']):
        fail('no kernel accepted', out)
    if gpu and not have_gpu and 'Not run (no GPU on this machine)' not in out:
        fail('the summary does not say the GPU builds were not run', out)
    # a wrong binary is caught: gemm's host build replaced by atax's plain one
    host = os.path.join(d, 'gemm', 'check', 'host')
    shutil.copy(os.path.join(d, 'atax', 'check', 'plain'), host)
    rc, out2 = run(['--run-only', d, '--no-time', '--only', 'gemm'])
    if rc != 1 or '**NO**' not in rows(out2).get('gemm', [''] * 3)[2]:
        fail(f'a wrong host binary was not flagged (exit {rc})', out2)
    shutil.rmtree(tmp)
    print(out)
    print('ok: build stage, run stage and a wrong binary flagged')
    return 0


if __name__ == '__main__':
    sys.exit(main())
