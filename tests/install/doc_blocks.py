#!/usr/bin/env python3
"""doc_blocks.py DOC.md DIR - follows a page of the documentation literally:
the fenced block after `<!-- test: file NAME -->` is written to DIR/NAME,
the one after `<!-- test: run -->` is run with `bash -e` in DIR, in the
order of the page.  Exit 1 at the first failing block (it is printed)."""
import re
import subprocess
import sys

doc, workdir = sys.argv[1], sys.argv[2]
text = open(doc).read()
steps = re.findall(r'<!-- test: (file (\S+)|run) -->\s*\n```\w*\n(.*?)\n```', text, re.S)
if not steps:
    sys.exit('doc_blocks.py: no test blocks in %s' % doc)
for kind, name, body in steps:
    if name:
        open('%s/%s' % (workdir, name), 'w').write(body + '\n')
        print('== wrote %s' % name)
        continue
    print('== run:\n%s' % body, flush=True)
    r = subprocess.run(['bash', '-e', '-c', body], cwd=workdir)
    if r.returncode:
        sys.exit('doc_blocks.py: %s: this block failed (exit %d):\n%s' % (doc, r.returncode, body))
print('doc_blocks.py: %s: %d blocks followed' % (doc, len(steps)))
