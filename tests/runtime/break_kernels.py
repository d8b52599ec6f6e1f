#!/usr/bin/env python3
"""break_kernels.py IN.gf.cu OUT.gf.cu - breaks one element of each function
of verify_kernels.c in the generated kernels and CPU plan (everything of the
function before its C body gf_seq_<f>), leaving the C body as it is, for the
GPUFUSE_VERIFY test (verify_broken.py).  Fails when a pattern is not found
at least twice (a kernel and the CPU plan), so the test cannot pass
vacuously after a change to the code generator."""
import re
import sys

BREAKS = [
    ('affine2d', '* 3.25f', '* (i == 3 && j == 5 ? 3.5f : 3.25f)'),
    ('weighted_sum', '* 77', '* (i == 9 ? 78 : 77)'),
    ('shift_points', 'p[i].tag + 1', 'p[i].tag + (i == 6 ? 2 : 1)'),
]


def main():
    text = open(sys.argv[1]).read()
    for fn, old, new in BREAKS:
        start = text.find('/* ==== %s (' % fn)
        seq = re.search(r'static [^\n(]*\bgf_seq_%s\(' % fn, text[start:]) if start >= 0 else None
        if not seq:
            sys.exit('break_kernels.py: no region %s with a gf_seq_%s in %s' % (fn, fn, sys.argv[1]))
        end = start + seq.start()
        part = text[start:end]
        if part.count(old) < 2:
            sys.exit('break_kernels.py: %r found %d times in %s (kernels and CPU plan): update BREAKS'
                     % (old, part.count(old), fn))
        text = text[:start] + part.replace(old, new) + text[end:]
    open(sys.argv[2], 'w').write(text)


main()
