#!/usr/bin/env python3
"""tile_emu.py - runs the tiled kernels of tile.gf.cu on the CPU (tile_emu.cpp).

Extracts every SH_TILED kernel (a template over GF_I with
__launch_bounds__(GF_TILE * GF_TILE)) of the generated file into kernels.inc,
compiles tile_kernels.c (the C bodies) with the C compiler and tile_emu.cpp
with the C++ compiler, both without contraction, and runs the result.
Fails when a kernel named by the harness is missing (the harness then does
not compile) or a result differs from the C body."""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--cu', required=True)
    ap.add_argument('--kernels-c', required=True)
    ap.add_argument('--harness', required=True)
    ap.add_argument('--cc', required=True)
    ap.add_argument('--cxx', required=True)
    ap.add_argument('--include', required=True)
    a = ap.parse_args()
    src = open(a.cu).read()
    ks = re.findall(r'template <typename GF_I>\n__global__ void __launch_bounds__\(GF_TILE \* GF_TILE\) \w+\(.*?\n}\n',
                    src, re.S)
    if not ks:
        print('FAIL: no tiled kernel in %s' % a.cu)
        return 1
    with tempfile.TemporaryDirectory(prefix='gf-tile-emu-') as d:
        open(os.path.join(d, 'kernels.inc'), 'w').write('\n'.join(ks))
        ref = os.path.join(d, 'ref.o')
        exe = os.path.join(d, 'emu')
        for cmd in ([a.cc, '-O1', '-ffp-contract=off', '-std=gnu11', '-c', '-I' + a.include, a.kernels_c, '-o', ref],
                    [a.cxx, '-O1', '-ffp-contract=off', '-std=c++17', '-Wno-unknown-pragmas', '-I' + d, a.harness, ref,
                     '-o', exe, '-lpthread']):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print('FAIL: %s\n%s' % (' '.join(cmd), r.stderr))
                return 1
        r = subprocess.run([exe], capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        return r.returncode


if __name__ == '__main__':
    sys.exit(main())
