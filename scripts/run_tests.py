#!/usr/bin/env python3
"""run_tests.py BUILD SUITE... [--skip NAME,...] [-j N] - runs the tests of a
Meson build directory from `meson introspect --tests` saved as
BUILD/tests.json (gpu-prepare.sh writes it), without Meson: the GPU machine
has another Meson than the one that configured the build.  Prints one line
per test (name, result, seconds) and a summary; exit 1 when any failed.
Exit status 77 is a skip, as under meson test."""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

# a line of a test's output that says what went wrong (the tests print
# 'FAILED', 'MISMATCH', 'DIFFER' or an error beside the check that failed)
FAILED_LINE = re.compile(r'FAIL|MISMATCH|DIFFER|[Ee]rror|mismatch|wrong')


def run(t, build):
    env = dict(os.environ)
    for k, v in (t.get('env') or {}).items():
        # a search path the test sets keeps the one this machine needs
        env[k] = v + ':' + os.environ[k] if k.endswith('PATH') and os.environ.get(k) else v
    cmd = list(t['cmd'])
    if not os.path.exists(cmd[0]) and shutil.which(os.path.basename(cmd[0])):
        cmd[0] = shutil.which(os.path.basename(cmd[0]))  # the configuring machine's interpreter
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=t.get('workdir') or build,  # meson runs a test in the build directory
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=t.get('timeout') or 600)
        rc, out = p.returncode, p.stdout.decode(errors='replace')
    except subprocess.TimeoutExpired as e:
        rc, out = 'TIMEOUT', (e.stdout or b'').decode(errors='replace')
    return t['name'], rc, time.time() - t0, out


def main():
    args = sys.argv[1:]
    build = args.pop(0)
    skip, jobs = set(), 4
    suites = []
    while args:
        a = args.pop(0)
        if a == '--skip':
            skip = set(args.pop(0).split(','))
        elif a == '-j':
            jobs = int(args.pop(0))
        else:
            suites.append(a)
    with open(os.path.join(build, 'tests.json')) as f:
        tests = json.load(f)
    sel = [t for t in tests if t['name'] not in skip and any(s.split(':')[-1] in suites for s in t['suite'])]
    serial = [t for t in sel if not t.get('is_parallel', True)]
    par = [t for t in sel if t.get('is_parallel', True)]
    counts = {'ok': 0, 'fail': 0, 'skip': 0}
    logdir = os.environ.get('RUN_TESTS_LOGS')

    def report(r):
        name, rc, secs, out = r
        res = 'ok' if rc == 0 else 'skip' if rc == 77 else 'fail'
        counts[res] += 1
        print('%-40s %-5s %7.1fs%s' % (name, res.upper(), secs, '' if rc in (0, 77) else '  rc=%s' % rc), flush=True)
        if logdir:
            with open(os.path.join(logdir, name + '.log'), 'w') as f:
                f.write(out)
        if res == 'fail':
            # the lines that say what failed, wherever they are, then the tail
            lines = out.splitlines()
            said = [l for l in lines[:-25] if FAILED_LINE.search(l)]
            if said:
                print('  (failing lines before the last 25:)')
                print('\n'.join(said[:40]))
            print('\n'.join(lines[-25:]))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for r in ex.map(lambda t: run(t, build), par):
            report(r)
    for t in serial:
        report(run(t, build))
    print('%d passed, %d failed, %d skipped' % (counts['ok'], counts['fail'], counts['skip']))
    return 1 if counts['fail'] else 0


sys.exit(main())
