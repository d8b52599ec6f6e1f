#!/usr/bin/env python3
"""reserved_names.py - the names a generated file can see, for decls.c.

A user identifier that names something the headers of a generated file
declare (a macro, or a function, type, variable, enum constant, template
or namespace at global scope) cannot keep its name there: `max`, `norm`,
`y0`, `dim3`, `stdin`, `M_PI`.  gpufuse renames such identifiers in the code
it generates (decls.c: decls_cname).  This script lists those names from
the headers themselves:

  * the CUDA side: the includes of templates/common.h and
    templates/device.cuh, preprocessed by nvcc's own gcc commands for the
    host and the device pass (`nvcc --dryrun`): their macros (-dM), and
    their global declarations (clang's AST dump of the preprocessed text);
  * the host side (--target=host, C with OpenMP): common.h's includes and
    gpufuse.h, as C, with gcc.

Names the implementation reserves anyway (`__x`, `_X`) are left out.  The
output, compiler/ir/reserved_names.h, is checked in; run this again when the
toolchain changes:

  python3 scripts/reserved_names.py [--nvcc NVCC] [--clang CLANG] > compiler/ir/reserved_names.h
  python3 scripts/reserved_names.py --check compiler/ir/reserved_names.h   # a test: every
      name of these headers is in the file (exit 1 naming those missing, 77 without the tools)
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA_INCLUDES = ['math.h', 'stddef.h', 'stdint.h', 'stdio.h', 'stdlib.h', 'string.h', 'cuda_runtime.h',
                 'cuda/std/limits', 'cuda/std/complex', 'gpufuse/launch.h']
C_INCLUDES = ['math.h', 'stddef.h', 'stdint.h', 'stdio.h', 'stdlib.h', 'string.h', 'stdbool.h', 'gpufuse.h']

# declarations whose name is global when their parents are only these
TRANSPARENT = {'TranslationUnitDecl', 'LinkageSpecDecl'}
NAMED = {'FunctionDecl', 'VarDecl', 'TypedefDecl', 'TypeAliasDecl', 'CXXRecordDecl', 'RecordDecl', 'EnumDecl',
         'EnumConstantDecl', 'ClassTemplateDecl', 'FunctionTemplateDecl', 'VarTemplateDecl',
         'TypeAliasTemplateDecl', 'NamespaceDecl', 'NamespaceAliasDecl', 'UsingShadowDecl'}


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r


def decl_name(kind, rest):
    """The declared name in one line of clang's -ast-dump, or None."""
    # drop the address and the source range <...> (nested <...> inside)
    rest = re.sub(r'^0x[0-9a-f]+ ', '', rest)
    if rest.startswith('<'):
        depth, i = 0, 0
        for i, ch in enumerate(rest):
            depth += ch == '<'
            depth -= ch == '>'
            if depth == 0:
                break
        rest = rest[i + 1:].lstrip()
    if kind == 'UsingShadowDecl':
        m = re.search(r"'([^']+)'", rest)
        return m.group(1) if m else None
    head = rest.split("'", 1)[0]
    if re.search(r'\boperator\b', head):
        return None              # operator new, operator+ ...
    words = [w for w in head.split() if not re.match(r'^(0x|col:|line:|<|/)', w) and ':' not in w]
    words = [w for w in words if w not in ('used', 'referenced', 'implicit', 'invalid', 'prev', 'parent', 'extern',
                                           'static', 'inline', 'definition', 'struct', 'union', 'class', 'cinit',
                                           'constexpr', 'hidden', 'imported', 'typename', 'nrvo', 'callinit')]
    if kind in ('CXXRecordDecl', 'RecordDecl') and ' definition' not in ' ' + head and not words:
        return None
    return words[-1] if words else None


def ast_names(text):
    names = set()
    stack = []                   # (depth, kind)
    for line in text.split('\n'):
        m = re.match(r'^([| `]*)[|`]-(\w+) (.*)$', line)
        if not m:
            m = re.match(r'^(\w+) (.*)$', line)
            if m and m.group(1) == 'TranslationUnitDecl':
                stack = [(-1, 'TranslationUnitDecl')]
            continue
        depth = len(m.group(1)) // 2
        kind, rest = m.group(2), m.group(3)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parents = [k for _, k in stack]
        stack.append((depth, kind))
        if kind not in NAMED:
            continue
        enum_const = kind == 'EnumConstantDecl' and parents and parents[-1] == 'EnumDecl' and \
            all(p in TRANSPARENT for p in parents[:-1])
        if not enum_const and not all(p in TRANSPARENT for p in parents):
            continue
        n = decl_name(kind, rest)
        if n and re.match(r'^[A-Za-z_]\w*$', n):
            names.add(n)
    return names


def macro_names(text):
    return set(re.findall(r'^#define ([A-Za-z_]\w*)', text, re.M))


def cuda_names(nvcc, clang, tmp):
    src = os.path.join(tmp, 'probe.cu')
    with open(src, 'w') as f:
        f.write(''.join('#include <%s>\n' % h for h in CUDA_INCLUDES))
    dry = run([nvcc, '-arch=sm_90', '-c', '--dryrun', '-I' + os.path.join(ROOT, 'include'), src, '-o',
               os.path.join(tmp, 'probe.o')])
    cmds = [l[3:].strip() for l in dry.stderr.split('\n') if l.startswith('#$ ') and ' -E ' in l]
    if len(cmds) != 2:
        sys.exit('reserved_names: cannot find the two preprocessing commands in nvcc --dryrun')
    names = set()
    for i, c in enumerate(cmds):
        argv = shlex.split(c)
        out = argv.index('-o')
        ii = os.path.join(tmp, 'pass%d.ii' % i)
        argv[out + 1] = ii
        r = run(argv, cwd=tmp)
        if r.returncode:
            sys.exit('reserved_names: %s failed:\n%s' % (argv[0], r.stderr))
        dm = run(argv[:out] + ['-dM'] + argv[out + 2:], cwd=tmp)
        names |= macro_names(dm.stdout)
        ast = run([clang, '-std=c++17', '-fsyntax-only', '-w', '-ferror-limit=0', '-Xclang', '-ast-dump', '-x', 'c++',
                   ii])
        names |= ast_names(ast.stdout)
    return names


def c_names(cc, clang, tmp):
    src = os.path.join(tmp, 'probe.c')
    with open(src, 'w') as f:
        f.write(''.join('#include <%s>\n' % h for h in C_INCLUDES))
    inc = '-I' + os.path.join(ROOT, 'include')
    dm = run([cc, '-std=c11', '-E', '-dM', inc, src])
    pre = run([cc, '-std=c11', '-E', inc, src])
    ii = os.path.join(tmp, 'probe.i')
    with open(ii, 'w') as f:
        f.write(pre.stdout)
    ast = run([clang, '-std=c11', '-fsyntax-only', '-w', '-ferror-limit=0', '-Xclang', '-ast-dump', '-x', 'c', ii])
    return macro_names(dm.stdout) | ast_names(ast.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--clang', default='clang')
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--check', metavar='HEADER', help='check that HEADER lists every name')
    a = ap.parse_args()
    if a.check and not all(shutil.which(t) for t in (a.nvcc, a.clang, a.cc)):
        print('reserved_names: nvcc, clang or the C compiler missing: not checked')
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        names = cuda_names(a.nvcc, a.clang, tmp) | c_names(a.cc, a.clang, tmp)
    # the implementation's own names, and gpufuse's (decls.c renames gf_/GF_ as a prefix)
    names = sorted(n for n in names if not re.match(r'^(__|_[A-Z]|gf_|GF_)', n))
    if a.check:
        have = set(re.findall(r'"(\w+)"', open(a.check).read()))
        missing = [n for n in names if n not in have]
        if missing:
            sys.exit('reserved_names: %d names the generated file can see are not in %s (run scripts/'
                     'reserved_names.py again): %s' % (len(missing), a.check, ' '.join(missing[:40])))
        print('reserved_names: all %d names listed' % len(names))
        return
    nv = run([a.nvcc, '--version']).stdout.strip().split('\n')[-1]
    cc = run([a.cc, '--version']).stdout.split('\n')[0]
    print('/* reserved_names.h - generated by scripts/reserved_names.py: do not edit.')
    print(' * The macros and global names the headers of a generated file declare')
    print(' * (%d names; %s; %s).' % (len(names), nv, cc))
    print(' * Sorted for bsearch with strcmp. */')
    print('static const char *const gf_reserved_names[] = {')
    line = ''
    for n in names:
        item = '"%s",' % n
        if len(line) + len(item) + 1 > 100:
            print('   ' + line)
            line = ''
        line += ' ' + item
    if line:
        print('   ' + line)
    print('};')


if __name__ == '__main__':
    main()
