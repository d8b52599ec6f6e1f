#!/usr/bin/env python3
"""layers.py - checks that the compiler's folders use only the layers below
them (docs/architecture.md, "Layers"):

    top (driver.c, main.c, output.c)
      front/ (libclang)   back/
                            |
                          plan/
                            |
                        analysis/ (isl)
                            |
        ---------------->  ir/

A call from one folder to a function defined in a folder it may not use, an
include of another folder's header, or libclang / isl used outside front/ /
analysis/ is printed with its place; the exit status is 1 when there is any.

  python3 scripts/layers.py [COMPILER_DIR]
"""
import glob
import os
import re
import sys

MAY_USE = {
    'top': {'top', 'front', 'ir', 'analysis', 'plan', 'back'},
    'front': {'front', 'ir'},
    'ir': {'ir'},
    'analysis': {'analysis', 'ir'},
    'plan': {'plan', 'analysis', 'ir'},
    'back': {'back', 'plan', 'analysis', 'ir'},
}
# the only folders that may include these libraries' headers
LIBRARY = {'clang-c/': 'front', 'isl/': 'analysis'}


def layer(root, path):
    rel = os.path.relpath(path, root)
    return rel.split(os.sep)[0] if os.sep in rel else 'top'


def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s, flags=re.S)
    return re.sub(r'//[^\n]*', '', s)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'compiler'))
    files = sorted(glob.glob(os.path.join(root, '*.[ch]')) + glob.glob(os.path.join(root, '*', '*.[ch]')))
    text = {f: strip_comments(open(f, encoding='utf-8').read()) for f in files}
    defined = {}
    for f in files:
        if f.endswith('.c'):
            for m in re.finditer(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\(([^;{]*?)\)\s*\{', text[f], re.M):
                defined.setdefault(m.group(1), f)
    headers = {os.path.basename(f): f for f in files if f.endswith('.h')}
    bad = []
    for f in files:
        lf = layer(root, f)
        for n, line in enumerate(text[f].split('\n'), 1):
            for m in re.finditer(r'#\s*include\s*[<"]([^>"]+)[>"]', line):
                inc = m.group(1)
                for prefix, owner in LIBRARY.items():
                    if inc.startswith(prefix) and lf != owner:
                        bad.append(f'{os.path.relpath(f, root)}:{n}: includes <{inc}>: only {owner}/ may')
                h = headers.get(os.path.basename(inc))
                if h and layer(root, h) not in MAY_USE[lf]:
                    bad.append(f'{os.path.relpath(f, root)}:{n}: includes {inc} of {layer(root, h)}/')
            if f.endswith('.h'):
                continue   # declarations: gfc.h declares every layer's interface
            for m in re.finditer(r'\b([a-z_]\w*)\s*\(', line):
                d = defined.get(m.group(1))
                if d and d != f and layer(root, d) not in MAY_USE[lf]:
                    bad.append(f'{os.path.relpath(f, root)}:{n}: calls {m.group(1)} of {os.path.relpath(d, root)}')
    for b in bad:
        print(b)
    print(f'layers: {len(files)} files, {len(bad)} upward or sideways uses')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
