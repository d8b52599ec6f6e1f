#!/usr/bin/env python3
"""run.py - the generated CUDA is self-contained, portable and reproducible.

src/kernels.c is C as projects write it: src/inc/kernels.h (included by
path from a subdirectory) declares the marked functions and their types;
src/include/c_only.h (found through -I) holds C that is not C++ (a helper
that mallocs into a float *, a VLA prototype, `new`/`class`/`this` as names,
a helper named max) and macros the helpers use.

  1. gpufuse with the input as an absolute path, from another directory,
     -o into a third: then again from elsewhere into elsewhere: the same bytes;
     and with a relative input path, as build systems pass it.
  2. No absolute path of this machine in any output, no #include of a user
     header.
  3. nvcc -arch=ARCH -c of each output with no -I but gpufuse's include dir;
     the same for --target=host with the C compiler (-Wall -Werror).
  4. With --libdir: main.c + kernels.c built with the C compiler and linked
     with the launchers and libgpufuse, against the plain C build: the same
     results (on the GPU, or through the launchers' CPU fallback).

usage: run.py --gpufuse G --include DIR --nvcc NVCC [--arch sm_90] [--cc gcc] [--libdir DIR]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, 'src')


def run(cmd, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('FAIL: %s (in %s) exited %d\n%s%s' % (' '.join(cmd), cwd or os.getcwd(), r.returncode, r.stdout,
                                                       r.stderr[-4000:]))
    return r


def generate(a, cwd, inp, out, inc_flag):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    os.makedirs(cwd, exist_ok=True)
    r = run([a.gpufuse, inp, '-o', out, '--', '-I' + a.include, inc_flag], cwd=cwd)
    if r.stderr.strip():
        sys.exit('FAIL: gpufuse warned (every marked function must be accepted):\n' + r.stderr)
    return open(out, 'rb').read()


def check_portable(text, name, forbidden, launchers=True):
    s = text.decode('utf-8')
    for f in forbidden:
        if f and f != '/' and f in s:
            sys.exit('FAIL: %s contains the absolute path %s' % (name, f))
    m = re.search(r'"(/(?:[\w.+-]+/)+[\w.+-]*)"', s)
    if m:
        sys.exit('FAIL: %s contains an absolute path in a string: %s' % (name, m.group(1)))
    m = re.search(r'^\s*#\s*include\s*"', s, re.M)
    if m:
        sys.exit('FAIL: %s includes a user header: %s' % (name, s[m.start():s.find("\n", m.start())]))
    for needed in () if not launchers else ('extern "C" void advance(', 'extern "C" float energy(', 'extern "C" void keywords(',
                   'extern "C" void vla_scale('):
        if needed not in s:
            sys.exit('FAIL: %s lacks the launcher %s...)' % (name, needed))


def results(text):
    return [float(x) for x in text.split()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--gpufuse', required=True)
    ap.add_argument('--include', required=True, help="gpufuse's include directory")
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--libdir', help='directory of libgpufuse.so: also build, run and compare')
    a = ap.parse_args()
    a.gpufuse = os.path.abspath(a.gpufuse)
    a.include = os.path.abspath(a.include)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        inp = os.path.join(SRC, 'kernels.c')
        inc_abs = '-I' + os.path.join(SRC, 'include')
        # 1. absolute input, elsewhere, twice; relative input
        one = generate(a, os.path.join(tmp, 'a'), inp, os.path.join(tmp, 'a', 'out', 'kernels.gf.cu'), inc_abs)
        two = generate(a, os.path.join(tmp, 'b'), inp, os.path.join(tmp, 'b', 'x', 'y', 'kernels.gf.cu'), inc_abs)
        if one != two:
            sys.exit('FAIL: two runs on the same input gave different bytes')
        rel = generate(a, HERE, os.path.join('src', 'kernels.c'), os.path.join(tmp, 'c', 'kernels.gf.cu'),
                       '-I' + os.path.join('src', 'include'))
        print('ok   same bytes from two directories (%d bytes)' % len(one))
        # 2. portable
        forbidden = {HERE, SRC, tmp, a.include, os.path.dirname(a.gpufuse), os.getcwd(), os.path.expanduser('~'),
                     os.path.realpath(HERE), os.path.realpath(a.include)}
        for name, text in (('kernels.gf.cu (absolute input)', one), ('kernels.gf.cu (relative input)', rel)):
            check_portable(text, name, forbidden)
        print('ok   no absolute path, no user header')
        # 3. nvcc with gpufuse's include directory only
        for d in ('a/out', 'c'):
            cu = os.path.join(tmp, d, 'kernels.gf.cu')
            run([a.nvcc, '-arch=' + a.arch, '-I' + a.include, '-c', cu, '-o', cu + '.o'], cwd=os.path.join(tmp, d))
        print('ok   nvcc -arch=%s -c with -I%s only' % (a.arch, a.include))
        # the host target too: C with OpenMP, the same declarations
        host = os.path.join(tmp, 'h', 'kernels.gf.c')
        os.makedirs(os.path.dirname(host))
        run([a.gpufuse, '--target=host', '--prefix=gf_', inp, '-o', host, '--', '-I' + a.include, inc_abs],
            cwd=os.path.dirname(host))
        check_portable(open(host, 'rb').read(), 'kernels.gf.c', forbidden, launchers=False)
        run([a.cc, '-std=c11', '-fopenmp', '-Wall', '-Werror', '-I' + a.include, '-c', host, '-o', host + '.o'])
        print('ok   --target=host: %s -c with -I%s only' % (os.path.basename(a.cc), a.include))
        if not a.libdir:
            return
        # 4. the fused program against the plain one
        cflags = ['-std=c11', '-O1', '-I' + a.include, inc_abs]
        plain = os.path.join(tmp, 'plain')
        run([a.cc] + cflags + [os.path.join(SRC, 'main.c'), inp, '-o', plain, '-lm'])
        objs = []
        for f in ('main.c', 'kernels.c'):
            o = os.path.join(tmp, f + '.o')
            run([a.cc] + cflags + ['-c', os.path.join(SRC, f), '-o', o])
            objs.append(o)
        fused = os.path.join(tmp, 'fused')
        libdir = os.path.abspath(a.libdir)
        run([a.nvcc, '-arch=' + a.arch, '-cudart=shared'] + objs + [os.path.join(tmp, 'a', 'out', 'kernels.gf.cu.o'),
            '-o', fused, '-L' + libdir, '-lgpufuse', '-Xlinker', '-rpath=' + libdir, '-lm'])
        want, got = results(run([plain]).stdout), results(run([fused]).stdout)
        if len(want) != len(got) or any(abs(x - y) > 1e-4 * max(1.0, abs(x)) for x, y in zip(want, got)):
            sys.exit('FAIL: the fused build printed %s, the plain C build %s' % (got, want))
        print('ok   fused build = plain C build: %s' % ' '.join('%.3f' % x for x in got))


if __name__ == '__main__':
    main()
