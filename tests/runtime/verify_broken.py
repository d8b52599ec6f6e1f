#!/usr/bin/env python3
"""verify_broken.py PROGRAM SOURCE [--gpu]

Runs verify_main (kernels broken on purpose by break_kernels.py) with
GPUFUSE_VERIFY=1 and checks that every broken element is reported, with the
function, its source line, the parameter, the element's index and both
values, and nothing else:

  default   GPUFUSE_DEVICE=cpu: the launchers' CPU plan is what is broken;
            also GPUFUSE_VERIFY=abort stops at the first difference.
  --gpu     on the GPU, also with device memory and a stale data region
            (the copies must come from the device); exit 77 without a GPU.
"""
import os
import re
import subprocess
import sys


def line_of(src, fn):
    for k, line in enumerate(open(src), 1):
        if re.match(r'GPUFUSE\b.*\b%s\(' % fn, line):
            return k
    sys.exit('verify_broken.py: no GPUFUSE function %s in %s' % (fn, src))


def expected(src, path, device_memory):
    where = lambda fn: r'%s \(%s:%d, %s\): ' % (fn, '[^,]*' + re.escape(os.path.basename(src)), line_of(src, fn), path)
    y = where('affine2d') + re.escape("'y' differs from the C body in 1 of 96 elements; first at y[3][5]: "
                                      "8 (launcher), 7.5 (C body); tolerance 0.0001 relative or 4 ulp")
    s = where('weighted_sum') + re.escape('the return value differs from the C body: 7701 (launcher), '
                                          '7700 (C body); compared exactly')
    p = where('shift_points') + re.escape("'p' differs from the C body in 1 of 100 elements; first at p[6].tag: "
                                          "62 (launcher), 61 (C body); compared exactly")
    return [y, s, p] + ([y, s] if device_memory else [])


def run(prog, args, env):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run([prog] + args, env=e, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def check(prog, src, env, args, path, device_memory):
    rc, out, err = run(prog, args, env)
    lines = [l[len('gpufuse: verify: '):] for l in err.splitlines() if l.startswith('gpufuse: verify: ')]
    want = expected(src, path, device_memory)
    n = len(want)
    summary = '%d calls checked against the C body, %d differed' % (n, n)
    errs = []
    if rc != 0:
        errs.append('exit %d' % rc)
    for k, pat in enumerate(want):
        if k >= len(lines) or not re.fullmatch(pat, lines[k]):
            errs.append('report %d: wanted /%s/, got %r' % (k, pat, lines[k] if k < len(lines) else None))
    if lines[n:] != [summary]:
        errs.append('after the reports: wanted [%r], got %r' % (summary, lines[n:]))
    for e in errs:
        print('FAIL %s' % e)
    if errs:
        print('--- stdout\n%s--- stderr\n%s' % (out, err))
    return not errs


def main():
    prog, src = sys.argv[1], sys.argv[2]
    gpu = '--gpu' in sys.argv[3:]
    if gpu:
        rc, out, err = run(prog, ['--device-memory'], {})
        if 'device: gpu' not in out:
            print('no GPU: skipped')
            return 77
        ok = check(prog, src, {'GPUFUSE_VERIFY': '1'}, ['--device-memory'], re.escape('launcher on the GPU'), True)
    else:
        cpu = {'GPUFUSE_DEVICE': 'cpu'}
        ok = check(prog, src, dict(cpu, GPUFUSE_VERIFY='1'), [], re.escape('launcher on the CPU: the fused plan'),
                   False)
        rc, out, err = run(prog, [], dict(cpu, GPUFUSE_VERIFY='abort'))
        reports = [l for l in err.splitlines() if "differs from the C body" in l]
        if rc == 0 or len(reports) != 1 or 'stopping at the first difference' not in err:
            print('FAIL GPUFUSE_VERIFY=abort: exit %d, %d reports:\n%s' % (rc, len(reports), err))
            ok = False
    print('verify_broken: %s' % ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


sys.exit(main())
