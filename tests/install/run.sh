#!/bin/bash
# run.sh SOURCE_ROOT BUILD_ROOT PREFIX LIBDIR - the install test (suite
# 'install'): `meson install` of BUILD_ROOT into a staging directory, then
# samples/meson-project and samples/cmake-project, each a project of its own,
# configured, built and run against that install as a user would (PATH,
# PKG_CONFIG_PATH, CMAKE_PREFIX_PATH).  Without a GPU the samples take the
# CPU fallback.  Everything lives under BUILD_ROOT/install-test; nothing here
# runs meson test, so the test cannot recurse into itself.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SOURCE_ROOT BUILD_ROOT PREFIX LIBDIR" >&2; exit 2; }
src=$(cd "$1" && pwd); build=$(cd "$2" && pwd); prefix=$3; libdir=$4
work=$build/install-test
stage=$work/root
root=$stage$prefix            # the staged prefix
case $libdir in /*) libdir_abs=$stage$libdir ;; *) libdir_abs=$root/$libdir ;; esac
step() { echo; echo "== $*"; }

rm -rf "$work"
mkdir -p "$work"

step "meson install --destdir $stage"
meson install -C "$build" --no-rebuild --destdir "$stage" > "$work/install.log" 2>&1 \
    || { cat "$work/install.log"; exit 1; }
for f in bin/gpufuse include/gpufuse.h include/gpufuse/launch.h; do
    [ -e "$root/$f" ] || { echo "missing after install: $root/$f"; exit 1; }
done
for f in libgpufuse.so libgpufuse.a pkgconfig/gpufuse.pc \
         cmake/gpufuse/gpufuseConfig.cmake cmake/gpufuse/gpufuseConfigVersion.cmake; do
    [ -e "$libdir_abs/$f" ] || { echo "missing after install: $libdir_abs/$f"; exit 1; }
done
(cd "$stage" && find . \( -type f -o -type l \) | sort | sed 's|^\./|  |')

# The installed tool on its own: finds its headers beside itself.
"$root/bin/gpufuse" --version
"$root/bin/gpufuse" --emit=report "$src/samples/meson-project/kernels.c"

export PATH=$root/bin:$PATH
# Only what a user has: not meson test's LD_LIBRARY_PATH into the build tree.
unset LD_LIBRARY_PATH GPUFUSE_DEVICE || true

step "samples/meson-project against $root"
PKG_CONFIG_PATH=$libdir_abs/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
    meson setup "$work/meson-build" "$src/samples/meson-project" > "$work/meson-setup.log" 2>&1 \
    || { cat "$work/meson-setup.log"; exit 1; }
ninja -C "$work/meson-build"
"$work/meson-build/sample"
# The depfile: a header the marked file includes changed -> regenerated.
touch "$root/include/gpufuse.h"
[[ $(ninja -C "$work/meson-build" -n) == *kernels.gf.cu* ]] \
    || { echo "depfile: touching gpufuse.h did not regenerate kernels.gf.cu (Meson)"; exit 1; }

if command -v cmake > /dev/null; then
    step "samples/cmake-project against $root"
    gen=()
    command -v ninja > /dev/null && gen=(-G Ninja)
    cmake -S "$src/samples/cmake-project" -B "$work/cmake-build" "${gen[@]}" \
        -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release > "$work/cmake-setup.log" 2>&1 \
        || { cat "$work/cmake-setup.log"; exit 1; }
    cmake --build "$work/cmake-build"
    "$work/cmake-build/sample"
    if [ ${#gen[@]} -gt 0 ]; then
        touch "$root/include/gpufuse.h"
        [[ $(ninja -C "$work/cmake-build" -n) == *kernels.gf.cu* ]] \
            || { echo "depfile: touching gpufuse.h did not regenerate kernels.gf.cu (CMake)"; exit 1; }
    fi
else
    echo "cmake not found: the CMake sample was not checked (scripts/setup.sh installs cmake)"
fi
echo
echo "install test passed"
