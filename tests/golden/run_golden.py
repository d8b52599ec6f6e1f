#!/usr/bin/env python3
"""run_golden.py - golden tests of the gpufuse front end and fusion plan.

Each tests/golden/*.c file is a small GPUFUSE region with FileCheck lines:

  // CHECK: ...    checked against `gpufuse --emit=ir FILE` (standard output)
  // REPORT: ...   checked against `gpufuse --emit=report FILE` (standard output)
  // WARN: ...     checked against the diagnostics (standard error) of --emit=ir
  // CU: ...       checked against the generated CUDA (`gpufuse --emit=cu FILE`)
  // HOST: ...     checked against the generated host C (`gpufuse --target=host FILE`)
  // FLAGS: ...    extra gpufuse options for the CU output (e.g. --fast-math)

A file without any WARN line must produce no diagnostics at all.

Usage:
  run_golden.py --gpufuse PATH --filecheck PATH [--include DIR] FILE.c [FILE.c ...]

Adding a test: write tests/golden/NAME.c (valid C11 that gcc compiles), run
  build/compiler/gpufuse --emit=ir tests/golden/NAME.c -- -Iinclude
look at the output, write the CHECK lines that pin what matters (which loops
are parallel, reductions, kernels), then add 'NAME' to the list in
tests/golden/meson.build.  FileCheck lines are written by hand on purpose:
there is no --update mode, so a change of output is a decision, not a diff.
"""
import argparse
import os
import re
import subprocess
import sys


def run_filecheck(filecheck, path, prefix, text, what):
    r = subprocess.run([filecheck, path, '--check-prefix=' + prefix, '--allow-empty', '--dump-input=fail'],
                       input=text, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write('FAIL %s: %s checks against %s\n%s%s' % (path, prefix, what, r.stdout, r.stderr))
        return False
    return True


def check_file(args, path):
    src = open(path).read()
    prefixes = set(re.findall(r'^\s*//\s*(CHECK|REPORT|WARN|CU|HOST)(?:-[A-Z]+)?:', src, re.M))
    if 'CHECK' not in prefixes:
        sys.stderr.write('FAIL %s: no CHECK lines (a golden test must pin something)\n' % path)
        return False
    base = [args.gpufuse]
    extra = ['--', '-I' + args.include]
    d = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    ok = True
    # run from the file's directory so diagnostics name it as written
    ir = subprocess.run(base + ['--emit=ir', name, '-o', '-'] + extra, capture_output=True, text=True, cwd=d)
    if ir.returncode != 0:
        sys.stderr.write('FAIL %s: gpufuse --emit=ir exited %d\n%s' % (path, ir.returncode, ir.stderr))
        return False
    ok &= run_filecheck(args.filecheck, path, 'CHECK', ir.stdout, '--emit=ir')
    if 'WARN' in prefixes:
        ok &= run_filecheck(args.filecheck, path, 'WARN', ir.stderr, 'diagnostics')
    elif ir.stderr.strip():
        sys.stderr.write('FAIL %s: unexpected diagnostics (add WARN lines if they are meant):\n%s' % (path, ir.stderr))
        ok = False
    if 'REPORT' in prefixes:
        rep = subprocess.run(base + ['--emit=report', name, '-o', '-'] + extra, capture_output=True, text=True, cwd=d)
        if rep.returncode != 0:
            sys.stderr.write('FAIL %s: gpufuse --emit=report exited %d\n%s' % (path, rep.returncode, rep.stderr))
            return False
        ok &= run_filecheck(args.filecheck, path, 'REPORT', rep.stdout, '--emit=report')
    if 'CU' in prefixes:
        flags = []
        for m in re.findall(r'^\s*//\s*FLAGS:(.*)$', src, re.M):
            flags += m.split()
        cu = subprocess.run(base + ['--emit=cu'] + flags + [name, '-o', '-'] + extra, capture_output=True, text=True,
                            cwd=d)
        if cu.returncode != 0:
            sys.stderr.write('FAIL %s: gpufuse --emit=cu exited %d\n%s' % (path, cu.returncode, cu.stderr))
            return False
        ok &= run_filecheck(args.filecheck, path, 'CU', cu.stdout, '--emit=cu')
    if 'HOST' in prefixes:
        hc = subprocess.run(base + ['--target=host', name, '-o', '-'] + extra, capture_output=True, text=True, cwd=d)
        if hc.returncode != 0:
            sys.stderr.write('FAIL %s: gpufuse --target=host exited %d\n%s' % (path, hc.returncode, hc.stderr))
            return False
        ok &= run_filecheck(args.filecheck, path, 'HOST', hc.stdout, '--target=host')
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gpufuse', required=True)
    ap.add_argument('--filecheck', required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--include', default=os.path.join(here, '..', '..', 'include'))
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    args.gpufuse = os.path.abspath(args.gpufuse)
    args.include = os.path.abspath(args.include)
    files = args.files or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith('.c'))
    failed = [f for f in files if not check_file(args, f)]
    for f in files:
        print('%s %s' % ('FAIL' if f in failed else 'ok  ', os.path.basename(f)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
