#!/usr/bin/env python3
"""verify.py - clang -verify style diagnostic tests for gpufuse.

Each tests/diag/*.c file carries, on the line that must be diagnosed,

    // expected-warning {{substring of the message}} [-Wgpufuse-flag]

(`expected-warning@+N` / `@-N` name a line N below / above).  verify.py runs
gpufuse on the file and checks that
  * every expected annotation matches a diagnostic on its line: the message
    contains the substring and the flag is the one written;
  * there is no diagnostic that no annotation expects;
  * each diagnostic is followed by the source line and a caret line;
  * without --strict gpufuse exits 0, and every marked function that holds an
    expected diagnostic has no launcher in the generated .cu (it keeps its
    CPU body) while every other marked function has one;
  * with --strict the same diagnostics are errors and gpufuse exits 1
    without writing the output file.

Usage: verify.py --gpufuse PATH [--include DIR] FILE.c [FILE.c ...]
Adding a test: write tests/diag/NAME.c with its annotations and add NAME to
tests/diag/meson.build.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ANNOT = re.compile(r'//\s*expected-(warning|error)(@[+-]\d+)?\s*\{\{(.*?)\}\}\s*\[(-Wgpufuse-[a-z-]+)\]')
DIAG = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error|note): '
                  r'(?P<msg>.*?)(?: \[(?P<werror>-Werror,)?(?P<flag>-W[a-z-]+)\])?$')
MARKED = re.compile(r'(?:GPUFUSE|annotate\("gpufuse"\)\)\))[^;{]*?\b(\w+)\s*\(')


def parse_diags(text):
    lines = text.split('\n')
    out = []
    for i, l in enumerate(lines):
        m = DIAG.match(l)
        if not m:
            continue
        d = m.groupdict()
        d['line'] = int(d['line'])
        d['col'] = int(d['col'])
        # the source line, then a caret under column col
        caret = lines[i + 2] if i + 2 < len(lines) else ''
        d['caret_ok'] = caret.strip() == '^' and len(caret) - len(caret.lstrip()) == d['col'] - 1 \
            if '\t' not in (lines[i + 1] if i + 1 < len(lines) else '') else caret.strip().startswith('^')
        out.append(d)
    return out


def verify(args, path):
    errs = []
    src = open(path).read().split('\n')
    expected = []
    for n, l in enumerate(src, 1):
        for m in ANNOT.finditer(l):
            off = int(m.group(2)[1:]) if m.group(2) else 0
            expected.append({'level': m.group(1), 'line': n + off, 'sub': m.group(3), 'flag': m.group(4)})
    if not expected:
        return ['no expected-warning annotation: a diagnostic test must expect something']
    # marked functions and the lines they start on
    funcs = []
    for n, l in enumerate(src, 1):
        m = MARKED.search(l)
        if m and not l.lstrip().startswith('//'):
            funcs.append((n, m.group(1)))
    def owner(line):
        cur = None
        for start, name in funcs:
            if start <= line:
                cur = name
        return cur
    rejected = {owner(e['line']) for e in expected}

    d = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, 'out.gf.cu')
        cmd = [args.gpufuse, name, '-o', cu, '--color=never', '--', '-I' + args.include]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=d)
        if r.returncode != 0:
            errs.append('gpufuse exited %d without --strict (expected 0):\n%s' % (r.returncode, r.stderr))
            return errs
        diags = [x for x in parse_diags(r.stderr) if x['level'] != 'note']
        for x in diags:
            if not x['caret_ok']:
                errs.append('%s:%d: diagnostic without its source line and caret' % (name, x['line']))
            if x['level'] != 'warning':
                errs.append('%s:%d: %s without --strict: %s' % (name, x['line'], x['level'], x['msg']))
        unmatched = list(diags)
        for e in expected:
            hit = [x for x in unmatched if x['line'] == e['line'] and e['sub'] in x['msg'] and x['flag'] == e['flag']]
            if not hit:
                got = [('%s [%s]' % (x['msg'], x['flag'])) for x in diags if x['line'] == e['line']]
                errs.append('%s:%d: expected %s {{%s}} [%s] not seen%s' % (
                    name, e['line'], e['level'], e['sub'], e['flag'],
                    '; on that line: ' + ' | '.join(got) if got else ''))
            else:
                unmatched.remove(hit[0])
        for x in unmatched:
            errs.append('%s:%d: unexpected diagnostic: %s [%s]' % (name, x['line'], x['msg'], x['flag']))
        code = open(cu).read() if os.path.exists(cu) else ''
        if not code:
            errs.append('no .cu written without --strict')
        for _, fn in funcs:
            has = re.search(r'extern "C"[^\n;{]*\b%s\s*\(' % re.escape(fn), code) is not None
            if fn in rejected and has:
                errs.append('rejected function %s still has a launcher in the .cu' % fn)
            if fn not in rejected and not has:
                errs.append('accepted function %s has no launcher in the .cu' % fn)

        # --strict: errors, exit 1, no output file
        cu2 = os.path.join(tmp, 'strict.gf.cu')
        r2 = subprocess.run([args.gpufuse, '--strict', name, '-o', cu2, '--color=never', '--', '-I' + args.include],
                            capture_output=True, text=True, cwd=d)
        if r2.returncode != 1:
            errs.append('--strict: exit %d, expected 1' % r2.returncode)
        sd = [x for x in parse_diags(r2.stderr) if x['level'] != 'note']
        lv = sorted((x['line'], x['flag'], x['msg']) for x in sd if x['level'] == 'error')
        nv = sorted((x['line'], x['flag'], x['msg']) for x in diags)
        if any(not x['werror'] for x in sd if x['level'] == 'error'):
            errs.append('--strict: an error does not say [-Werror,-Wgpufuse-...]')
        if lv != nv:
            errs.append('--strict: the errors differ from the warnings:\n  %s\n  %s' % (lv, nv))
        if os.path.exists(cu2):
            errs.append('--strict: a partial output file was written')
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gpufuse', required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--include', default=os.path.join(here, '..', '..', 'include'))
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    args.gpufuse = os.path.abspath(args.gpufuse)
    args.include = os.path.abspath(args.include)
    files = args.files or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith('.c'))
    bad = 0
    for f in files:
        errs = verify(args, f)
        print('%s %s' % ('FAIL' if errs else 'ok  ', os.path.basename(f)))
        for e in errs:
            print('    ' + e.replace('\n', '\n    '))
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
