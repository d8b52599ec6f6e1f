#!/bin/bash
# test.sh - sets up, builds and runs the whole test suite in build-ci
# (debugoptimized, tests enabled).  Tests that need a GPU skip (exit 77)
# without one.  The last line reads "N passed, N failed, N skipped";
# the exit status is non-zero when anything failed.  CI runs this through
# .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
gf_setup

build=build-ci
t0=$(date +%s)
if [ -f "$build/build.ninja" ]; then
    echo "== meson setup --reconfigure $build"
    meson setup --reconfigure "$build" --buildtype=debugoptimized -Dtests=enabled
else
    echo "== meson setup $build"
    meson setup "$build" --buildtype=debugoptimized -Dtests=enabled
fi
echo "== build"
ninja -C "$build"
echo "== build took $(( $(date +%s) - t0 )) s"

echo "== meson test"
rc=0
meson test -C "$build" --print-errorlogs || rc=$?

# The compiler and the runtime's host side again under AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks included; CUDA's own are suppressed).
asan=build-asan
logs="$build/meson-logs/testlog.json"
if [ "${GPUFUSE_NO_ASAN:-0}" != 1 ]; then
    echo "== sanitizer build ($asan: address, undefined)"
    if [ -f "$asan/build.ninja" ]; then
        meson setup --reconfigure "$asan" -Db_sanitize=address,undefined -Dtests=enabled
    else
        meson setup "$asan" -Db_sanitize=address,undefined -Dtests=enabled
    fi
    ninja -C "$asan"
    echo "== meson test under sanitizers (compiler, runtime, samples)"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    LSAN_OPTIONS=suppressions=$PWD/tests/runtime/lsan.supp \
        meson test -C "$asan" --print-errorlogs --suite compiler --suite runtime --suite samples || rc=$?
    logs="$logs $asan/meson-logs/testlog.json"
fi

# Count from the test logs: one JSON object per test.
python3 - $logs <<'PY' || { [ "$rc" -ne 0 ] || rc=1; }
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
failed = []
for path in sys.argv[1:]:
  with open(path) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        t = json.loads(line)
        r = t.get("result", "")
        if r in ("OK", "EXPECTEDFAIL"):
            counts["passed"] += 1
        elif r == "SKIP":
            counts["skipped"] += 1
        else:
            counts["failed"] += 1
            failed.append("%s (%s)" % (t.get("name"), r))
for name in failed:
    print("failed: " + name)
print("%d passed, %d failed, %d skipped" % (counts["passed"], counts["failed"], counts["skipped"]))
sys.exit(1 if failed else 0)
PY
exit $rc
