#!/usr/bin/env python3
"""shrink.py - minimises a failing random program.

  shrink.py FILE --region NAME [-o tests/random/regress/NAME.c]
      FILE is a program from gen.py (p_SEED.c); NAME the failing region
      (from the MISMATCH line).  Keeps that region, its runner and main, then
      deletes lines of the region body (delta debugging, ddmin) and
      sub-expressions while the same verdict persists (mismatch, gpufuse
      crash, generated code that gcc refuses, crash at run time), and the
      original C still compiles.
  shrink.py FILE --whole [-o OUT]
      for gpufuse crashes on any C file (e.g. a fuzzer artifact): deletes
      lines of the whole file while gpufuse still crashes.

The result is a self-contained C file: `tests/random/run.py --file OUT`
reproduces it (exit 1 while the bug is there).
"""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def unmacro(line):
    """A signature with gen.py's name macros (GEN_SAME(x), GEN_CAT(a, b)) expanded."""
    line = re.sub(r'GEN_SAME\((\w+)\)', r'\1', line)
    return re.sub(r'GEN_CAT\((\w+), (\w+)\)', r'\1\2', line)


def split_program(text, region):
    """(head, region lines, middle, runner+main) for one region of a gen.py file."""
    lines = text.split('\n')
    start = next(i for i, l in enumerate(lines) if l.startswith('GPUFUSE ') and re.search(rf'\b{region}\(', unmacro(l)))
    end = next(i for i in range(start, len(lines)) if lines[i] == '}')
    drv = next(i for i, l in enumerate(lines) if l.startswith('/* ---- the driver'))
    head = [l for l in lines[:drv] if not l.startswith('GPUFUSE ')]
    # the prelude: everything before the first region
    first = next(i for i, l in enumerate(lines) if l.startswith('GPUFUSE '))
    prelude = lines[:first]
    body = lines[start + 2:end]
    sig = lines[start]
    # driver helpers, then only this region's runner (extern decl, absum, run_)
    rest = lines[drv:]
    mstart = next(i for i, l in enumerate(rest) if l.startswith('extern '))
    helpers = rest[:mstart]
    out, keep, i = [], False, 0
    runner = []
    for l in rest[mstart:]:
        if l.startswith('extern ') or l.startswith('static ') and '(' in l and not l.startswith('static int gen'):
            keep = re.search(rf'\b(gf_|absum_|run_){region}\(', l) is not None
        if l.startswith('int main('):
            keep = False
            break
        if keep:
            runner.append(l)
    main = ['int main(void)', '{',
            f'    int bad = run_{region}();',
            f'    printf("SUMMARY seed=%llu regions=1 compared=%d rejected=%d unexpected_rejects=%d mismatches=%d\\n", '
            'GEN_SEED, gen_compared, gen_rejected, gen_unexpected, bad);',
            '    return bad ? 1 : 0;', '}']
    del head
    return prelude, sig, body, helpers, runner, main


class Shrinker:
    def __init__(self, gpufuse, verdict_wanted):
        self.gpufuse = gpufuse
        self.want = verdict_wanted
        self.tests = 0
        self.wd = tempfile.mkdtemp(prefix='gf-shrink-')

    def fails(self, text):
        self.tests += 1
        p = os.path.join(self.wd, 'case.c')
        with open(p, 'w') as f:
            f.write(text)
        v, _ = run.check_file(p, self.gpufuse, workdir=self.wd)
        return v == self.want


def ddmin(items, test):
    """Smallest sublist (1-minimal by chunks) for which test(sublist) holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        reduced = False
        for i in range(0, len(items), chunk):
            cand = items[:i] + items[i + chunk:]
            if cand != items and test(cand):
                items, n, reduced = cand, max(n - 1, 2), True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    if len(items) == 1 and test([]):
        return []
    return items


PAREN = re.compile(r'\([^()]*\)')


def simplify_line(line, test):
    """Replaces parenthesised sub-expressions by constants while test holds."""
    changed = True
    while changed:
        changed = False
        for m in list(PAREN.finditer(line)):
            inner = m.group(0)
            # keep calls' argument lists and casts: only whole operands
            pre = line[:m.start()].rstrip()
            if pre and (pre[-1].isalnum() or pre[-1] == '_'):
                continue
            for rep in ('1.0f', '1'):
                cand = line[:m.start()] + rep + line[m.end():]
                if cand != line and test(cand):
                    line, changed = cand, True
                    break
            if changed:
                break
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('file')
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--region')
    g.add_argument('--whole', action='store_true')
    ap.add_argument('-o', '--output')
    ap.add_argument('--gpufuse')
    a = ap.parse_args()
    gpufuse = run.find_gpufuse(a.gpufuse)
    text = open(a.file).read()
    verdict, detail = run.check_file(a.file, gpufuse)
    if verdict == 'ok':
        sys.exit(f'{a.file}: does not fail (verdict ok)')
    print(f'{a.file}: {verdict}; shrinking')
    s = Shrinker(gpufuse, verdict)

    if a.whole:
        lines = text.split('\n')
        best = ddmin(lines, lambda ls: s.fails('\n'.join(ls)))
        result = '\n'.join(best)
        name = os.path.splitext(os.path.basename(a.file))[0]
    else:
        prelude, sig, body, helpers, runner, main_ = split_program(text, a.region)

        def build(b, sg=sig):
            return '\n'.join(prelude + [sg, '{'] + b + ['}', ''] + helpers + runner + main_) + '\n'
        if not s.fails(build(body)):
            sys.exit('the region alone does not fail the same way (an interaction between regions?): '
                     'shrink with --whole')
        body = ddmin(body, lambda b: s.fails(build(b)))
        for i in range(len(body)):
            body[i] = simplify_line(body[i], lambda l, i=i: s.fails(build(body[:i] + [l] + body[i + 1:])))
        result = build(body)
        name = a.region
    out = a.output or os.path.join(HERE, 'regress', f'{name}.c')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write(f'/* shrunk by tests/random/shrink.py from {os.path.basename(a.file)}'
                f'{" region " + a.region if a.region else ""}: {verdict} ({s.tests} tests).\n'
                f' * Reproduce: tests/random/run.py --file {os.path.relpath(out, os.path.dirname(os.path.dirname(HERE)))} */\n')
        f.write(result)
    print(f'wrote {out} ({len(result.splitlines())} lines, {s.tests} tests)')


if __name__ == '__main__':
    main()
