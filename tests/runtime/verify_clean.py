#!/usr/bin/env python3
"""verify_clean.py MIN_CALLS PROGRAM [ARGS...] - runs PROGRAM with
GPUFUSE_VERIFY=1 (on the GPU, or the CPU fallback without one) and checks
that it exits 0 and that at least MIN_CALLS launcher calls were checked
against their C bodies, all agreeing, none left unchecked."""
import os
import re
import subprocess
import sys

need, prog = int(sys.argv[1]), sys.argv[2:]
env = dict(os.environ, GPUFUSE_VERIFY='1')
r = subprocess.run(prog, env=env, capture_output=True, text=True, timeout=600)
m = re.search(r'^gpufuse: verify: (\d+) calls? checked against the C body, all agree$', r.stderr, re.M)
bad = [l for l in r.stderr.splitlines() if l.startswith('gpufuse: verify: ') and
       ('differ' in l or 'not checked' in l or 'could not be checked' in l)]
ok = r.returncode == 0 and m and int(m.group(1)) >= need and not bad
if not ok:
    print('--- exit %d\n--- stdout\n%s--- stderr\n%s' % (r.returncode, r.stdout, r.stderr))
print('verify_clean: %s (%s calls checked)' % ('ok' if ok else 'FAILED', m.group(1) if m else 'no summary,'))
sys.exit(0 if ok else 1)
