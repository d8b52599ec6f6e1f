#!/usr/bin/env python3
"""diffcheck.py - host differential check of every accepted golden region.

For each tests/golden/*.c file (or those named), gpufuse --target=host
--prefix=gf_ writes FILE.gf.c holding gf_<name> for every accepted region.
A C driver is generated from the regions' parameters (read from
`gpufuse --emit=ir`): integer scalars get small sizes, arrays are sized from
their declared dimensions (C expressions in the parameters, evaluated by the
driver), filled with seeded random data, copied, and the original CPU body and
gf_<name> run on separate copies; every array and the return value must agree
(floating point: |a-b| <= 1e-5 * max(1, |a|), NaN == NaN; integers exact).
The original .c, the generated .gf.c and the driver are built together with
gcc -fopenmp -O1 and run, for two sets of sizes.

With --cuda LIBDIR (a directory holding libgpufuse.so) the same check runs
through the CUDA back end instead: FILE.gf.cu is compiled with nvcc (-arch
from --arch, default sm_90), linked against libgpufuse, and gf_<name> is the
launcher (host arrays staged to the GPU).  Meant for the GPU machine;
--jobs builds several files at once.

Hints a golden file may carry (comment lines):
  // NO-DIFF: reason                 skip the file (the reason is printed)
  // DIFF-INIT: x in [lo, hi)        fill array x with values in [lo, hi)
  // DIFF-SIZE: x = C expression     element count of x (for plain pointers)
  // DIFF-PARAM: n = value           the value of scalar parameter n
  // DIFF-CU: file.cu                 hand-written kernels (GPUFUSE_CUDA) beside the
                                     file: with --cuda compiled by nvcc and linked
Plain pointers without DIFF-SIZE get 4 * (largest integer parameter) + 64
elements.  Integer arrays default to [0, 100), floating ones to [-1, 1).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SIZES = [[37, 19, 5, 23, 11, 7], [8, 13, 3, 6, 4, 2]]
FLOAT_T = {'float', 'double', '_Float16'}
CPLX_T = {'float _Complex': 'float', 'double _Complex': 'double'}   # filled and compared part by part
INT_T = {'_Bool', 'char', 'signed char', 'unsigned char', 'short', 'unsigned short', 'int', 'unsigned int', 'long',
         'unsigned long', 'long long', 'unsigned long long'}


def parse_ir(text):
    regions = []
    for line in text.split('\n'):
        m = re.match(r'^region (\w+)\s', line)
        if m:
            regions.append({'name': m.group(1), 'params': []})
            continue
        m = re.match(r'^  param (.+?) (\w+)((?:\[[^\]]*\])*)( (in|out|inout)( restrict)?)?$', line)
        if m and regions:
            dims = re.findall(r'\[([^\]]*)\]', m.group(3)) if m.group(4) else None
            regions[-1]['params'].append({'ty': m.group(1), 'name': m.group(2), 'dims': dims})
    return regions


def hints(src):
    h = {'init': {}, 'size': {}, 'param': {}, 'nodiff': None, 'cu': []}
    for m in re.finditer(r'//\s*DIFF-CU:\s*(\S+)', src):
        h['cu'].append(m.group(1))
    for m in re.finditer(r'//\s*DIFF-INIT:\s*(\w+) in \[([-\d.e]+),\s*([-\d.e]+)\)', src):
        h['init'][m.group(1)] = (float(m.group(2)), float(m.group(3)))
    for m in re.finditer(r'//\s*DIFF-SIZE:\s*(\w+)\s*=\s*(.+)', src):
        h['size'][m.group(1)] = m.group(2).strip()
    for m in re.finditer(r'//\s*DIFF-PARAM:\s*(\w+)\s*=\s*(.+)', src):
        h['param'][m.group(1)] = m.group(2).strip()
    m = re.search(r'//\s*NO-DIFF:\s*(.+)', src)
    if m:
        h['nodiff'] = m.group(1).strip()
    return h


def ret_type(src, name):
    m = re.search(r'GPUFUSE\s+((?:\w+\s+)*?\w+[\s*]*?)\s*\b%s\s*\(' % re.escape(name), src)
    return m.group(1).strip() if m else 'void'


def driver(path, src, regions, h, sizes):
    out = ['#include "%s"' % os.path.abspath(path), '#include <math.h>', '#include <stdio.h>',
           '#include <stdlib.h>', '#include <string.h>', '',
           'static unsigned long long rng = 88172645463325252ull;',
           'static double urand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;'
           ' return (double)(rng >> 11) / 9007199254740992.0; }',
           'static int fails;',
           'static int close_enough(double a, double b) {',
           '    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);',
           '    if (isinf(a) || isinf(b)) return a == b;',
           '    double m = fabs(a) > 1.0 ? fabs(a) : 1.0;',
           '    return fabs(a - b) <= 1e-5 * m; }', '']
    main = ['int main(void)', '{']
    for r in regions:
        name = r['name']
        rt = ret_type(src, name)
        proto = []
        for p in r['params']:
            proto.append('void *' if p['dims'] is not None else p['ty'])
        out.append('%s gf_%s(%s);' % (rt, name, ', '.join(proto)))
        main.append('    { /* %s */' % name)
        ints = [p for p in r['params'] if p['dims'] is None and p['ty'] in INT_T and p['ty'] != '_Bool']
        k = 0
        fk = 0
        for p in r['params']:
            if p['dims'] is not None:
                continue
            if p['name'] in h['param']:
                v = h['param'][p['name']]
            elif p['ty'] == '_Bool':
                v = '1'
            elif p['ty'] in FLOAT_T or p['ty'] in CPLX_T:
                v = repr(0.75 + 0.25 * fk)
                fk += 1
            elif p['ty'] not in INT_T:   # a struct by value: its fields filled as floats, like struct arrays
                main.append('        %s %s;' % (p['ty'], p['name']))
                main.append('        for (size_t q = 0; q < sizeof %s / sizeof(float); q++) ((float *)&%s)[q] = '
                            '(float)(0.5 + 0.25 * (double)q);' % (p['name'], p['name']))
                continue
            else:
                v = str(sizes[k % len(sizes)])
                k += 1
            main.append('        %s %s = (%s)(%s);' % (p['ty'], p['name'], p['ty'], v))
        maxint = ' > '.join([])
        big = '64'
        for p in ints:
            big = '((long long)%s > %s ? (long long)%s : %s)' % (p['name'], big, p['name'], big)
        default_outer = '(4 * %s + 64)' % big
        for p in r['params']:
            if p['dims'] is None:
                continue
            n = p['name']
            if n in h['size']:
                cnt = '(size_t)(%s)' % h['size'][n]
            else:
                cnt = '(size_t)1'
                for d in p['dims']:
                    cnt += ' * (size_t)(%s)' % (d if d else default_outer)
            ty = p['ty']
            main.append('        size_t cnt_%s = %s;' % (n, cnt))
            main.append('        size_t bytes_%s = cnt_%s * sizeof(%s) + 16;' % (n, n, ty))
            main.append('        unsigned char *A_%s = calloc(1, bytes_%s), *B_%s = calloc(1, bytes_%s);' % (n, n, n, n))
            lo, hi = h['init'].get(n, (0, 100) if ty in INT_T else (-1, 1))
            if ty in FLOAT_T or ty in INT_T:
                conv = '(%s)' % ty if ty in FLOAT_T else '(%s)(long long)floor' % ty
                main.append('        for (size_t q = 0; q < cnt_%s; q++) ((%s *)A_%s)[q] = %s(%r + (%r) * urand());'
                            % (n, ty, n, conv, float(lo), float(hi) - float(lo)))
            else:   # structs of arithmetic fields and complex: filled and compared as floats (doubles)
                et = CPLX_T.get(ty, 'float')
                main.append('        for (size_t q = 0; q < cnt_%s * sizeof(%s) / sizeof(%s); q++) '
                            '((%s *)A_%s)[q] = (%s)(%r + (%r) * urand());'
                            % (n, ty, et, et, n, et, float(lo), float(hi) - float(lo)))
            main.append('        memcpy(B_%s, A_%s, bytes_%s);' % (n, n, n))
        args_a = ', '.join(('(void *)A_%s' % p['name']) if p['dims'] is not None else p['name'] for p in r['params'])
        args_b = args_a.replace('A_', 'B_')
        if rt == 'void':
            main.append('        %s(%s);' % (name, args_a))
            main.append('        gf_%s(%s);' % (name, args_b))
        else:
            main.append('        %s ra = %s(%s);' % (rt, name, args_a))
            main.append('        %s rb = gf_%s(%s);' % (rt, name, args_b))
            if rt in CPLX_T:
                main.append('        if (!close_enough(__real__ ra, __real__ rb) || !close_enough(__imag__ ra, __imag__ rb)) '
                            '{ fails++; printf("%s: return %%.9g%%+.9gi != %%.9g%%+.9gi\\n", (double)__real__ ra, '
                            '(double)__imag__ ra, (double)__real__ rb, (double)__imag__ rb); }' % name)
            elif rt in FLOAT_T:
                main.append('        if (!close_enough(ra, rb)) { fails++; printf("%s: return %%.9g != %%.9g\\n", '
                            '(double)ra, (double)rb); }' % name)
            else:
                main.append('        if (ra != rb) { fails++; printf("%s: return %%lld != %%lld\\n", '
                            '(long long)ra, (long long)rb); }' % name)
        for p in r['params']:
            if p['dims'] is None:
                continue
            n, ty = p['name'], p['ty']
            if ty in INT_T:
                main.append('        for (size_t q = 0; q < cnt_%s; q++) if (((%s *)A_%s)[q] != ((%s *)B_%s)[q]) '
                            '{ fails++; printf("%s: %s[%%zu] %%lld != %%lld\\n", q, (long long)((%s *)A_%s)[q], '
                            '(long long)((%s *)B_%s)[q]); break; }' % (n, ty, n, ty, n, name, n, ty, n, ty, n))
            else:
                et = ty if ty in FLOAT_T else CPLX_T.get(ty, 'float')
                cnt = 'cnt_%s' % n if ty in FLOAT_T else 'cnt_%s * sizeof(%s) / sizeof(%s)' % (n, ty, et)
                main.append('        for (size_t q = 0; q < %s; q++) if (!close_enough(((%s *)A_%s)[q], '
                            '((%s *)B_%s)[q])) { fails++; printf("%s: %s[%%zu] %%.9g != %%.9g\\n", q, '
                            '(double)((%s *)A_%s)[q], (double)((%s *)B_%s)[q]); break; }'
                            % (cnt, et, n, et, n, name, n, et, n, et, n))
            main.append('        free(A_%s); free(B_%s);' % (n, n))
        main.append('    }')
    main += ['    return fails != 0;', '}']
    return '\n'.join(out + [''] + main) + '\n'


def build_cuda(args, path, base, tmp, kernels):
    """FILE.gf.cu (and the hand-written kernels' .cu files) -> objects; None or an error message."""
    for k in kernels:
        src = os.path.join(os.path.dirname(os.path.abspath(path)), k)
        b = subprocess.run([args.nvcc, '-O2', '-arch=' + args.arch, '-c', src, '-o', os.path.join(tmp, base + '.' + k + '.o')],
                           capture_output=True, text=True)
        if b.returncode != 0:
            return 'nvcc failed on %s:\n%s' % (k, b.stderr[-3000:])
    cu = os.path.join(tmp, base + '.gf.cu')
    g = subprocess.run([args.gpufuse, '--prefix=gf_', path, '-o', cu, '--', '-I' + args.include],
                       capture_output=True, text=True)
    if g.returncode != 0:
        return 'gpufuse failed:\n' + g.stderr
    b = subprocess.run([args.nvcc, '-O2', '-arch=' + args.arch, '-I' + args.include, '-c', cu, '-o', cu + '.o'],
                       capture_output=True, text=True)
    if b.returncode != 0:
        return 'nvcc failed:\n' + b.stderr[-3000:]
    return None


def check(args, path, tmp):
    src = open(path).read()
    h = hints(src)
    base = os.path.basename(path)[:-2]
    if h['nodiff']:
        return 'skip', h['nodiff']
    ir = subprocess.run([args.gpufuse, '--emit=ir', path, '-o', '-', '--', '-I' + args.include],
                        capture_output=True, text=True)
    regions = parse_ir(ir.stdout)
    if ir.returncode != 0 or not regions:
        return 'skip', 'no accepted region'
    gfc = os.path.join(tmp, base + '.gf.c')
    if args.cuda:
        err = build_cuda(args, path, base, tmp, h['cu'])
        if err:
            return 'fail', err
    else:
        g = subprocess.run([args.gpufuse, '--target=host', '--prefix=gf_', path, '-o', gfc, '--', '-I' + args.include],
                           capture_output=True, text=True)
        if g.returncode != 0:
            return 'fail', 'gpufuse --target=host failed:\n' + g.stderr
    for si, sizes in enumerate(SIZES):
        drv = os.path.join(tmp, '%s_driver%d.c' % (base, si))
        open(drv, 'w').write(driver(path, src, regions, h, sizes))
        exe = os.path.join(tmp, '%s_%d' % (base, si))
        if args.cuda:
            b = subprocess.run([args.cc, '-std=gnu11', '-O1', '-w', '-I' + args.include, '-c', drv, '-o', drv + '.o'],
                               capture_output=True, text=True)
            if b.returncode == 0:
                b = subprocess.run([args.nvcc, '-arch=' + args.arch, '-cudart=shared', drv + '.o', os.path.join(tmp, base + '.gf.cu.o')]
                                   + [os.path.join(tmp, base + '.' + k + '.o') for k in h['cu']] + ['-o', exe, '-L' + args.cuda, '-lgpufuse', '-Xlinker', '-rpath=' + args.cuda, '-lm'],
                                   capture_output=True, text=True)
        else:
            b = subprocess.run([args.cc, '-std=gnu11', '-fopenmp', '-O1', '-w', '-I' + args.include, drv, gfc, '-o',
                                exe, '-lm'], capture_output=True, text=True)
        if b.returncode != 0:
            return 'fail', 'build failed (%s):\n%s' % (drv, b.stderr[-3000:])
        # GPUFUSE_COST_MODEL=0: the kernels run even where the launcher's cost
        # model would take the C body at these small sizes
        r = subprocess.run([exe], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, OMP_NUM_THREADS='4', GPUFUSE_COST_MODEL='0'))
        if r.returncode != 0:
            return 'fail', 'sizes %s: results differ (rc %d):\n%s%s' % (sizes[:3], r.returncode, r.stdout, r.stderr)
    return 'ok', '%d region%s' % (len(regions), '' if len(regions) == 1 else 's')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gpufuse', required=True)
    ap.add_argument('--cc', default='gcc')
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--include', default=os.path.join(here, '..', '..', 'include'))
    ap.add_argument('--keep', help='keep generated files in this directory')
    ap.add_argument('--cuda', metavar='LIBDIR', help='check the CUDA back end, linking LIBDIR/libgpufuse.so')
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--nvcc', default='nvcc')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    args.gpufuse = os.path.abspath(args.gpufuse)
    args.include = os.path.abspath(args.include)
    if args.cuda:
        args.cuda = os.path.abspath(args.cuda)
    files = args.files or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith('.c'))
    failed = 0
    counts = {'ok': 0, 'skip': 0, 'fail': 0}
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            tmp = args.keep
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda f: check(args, f, tmp), files))
        for f, (st, msg) in zip(files, results):
            counts[st] += 1
            print('%-4s %s: %s' % (st, os.path.basename(f), msg))
            failed += st == 'fail'
    print('diffcheck: %(ok)d ok, %(skip)d skipped, %(fail)d failed' % counts)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
