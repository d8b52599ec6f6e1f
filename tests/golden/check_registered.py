#!/usr/bin/env python3
"""check_registered.py NAME... - every tests/golden/*.c is one of the golden
tests meson.build names (a file left out of the list is never checked)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
names = set(sys.argv[1:])
files = sorted(f[:-2] for f in os.listdir(here) if f.endswith('.c'))
missing = [f for f in files if f not in names]
absent = sorted(n for n in names if n not in files)
for f in missing:
    print(f'tests/golden/{f}.c is not in golden_tests (tests/golden/meson.build)')
for n in absent:
    print(f"golden_tests names '{n}', but tests/golden/{n}.c does not exist")
if not missing and not absent:
    print(f'{len(files)} golden files, all registered')
sys.exit(1 if missing or absent else 0)
