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
# pkg-config alone links a program with a .gf.cu (C linker, shared cudart)
step "pkg-config --libs"
pc() { PKG_CONFIG_PATH=$libdir_abs/pkgconfig pkg-config "$@" gpufuse; }
pc --libs
for want in -lgpufuse -lcudart -lstdc++; do
    [[ " $(pc --libs) " == *" $want "* ]] || { echo "pkg-config --libs gpufuse lacks $want"; exit 1; }
done
[ "$(readelf -d "$libdir_abs/libgpufuse.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = \
  "libgpufuse.so.$(pc --modversion | cut -d. -f1,2)" ] || { echo "SONAME is not libgpufuse.so.MAJOR.MINOR"; exit 1; }

# Static libraries: libk.a holds kernels.o (the weak C bodies) and
# kernels.gf.o (the launchers).  The program must get the launchers:
# gf_launch_<f> in its symbols, and the profile, which only launchers fill,
# must count the calls.
linked_launchers() { # APP NAME
    local app=$1 name=$2
    nm -C "$app" | grep ' gf_launch_axpy(' > /dev/null \
        || { echo "$name: the weak C body of axpy was linked, not its launcher"; nm "$app" | grep -i axpy; exit 1; }
    GPUFUSE_PROFILE=1 GPUFUSE_QUIET=1 LD_LIBRARY_PATH=$libdir_abs "$app" > "$work/$name.out" 2>&1 \
        || { cat "$work/$name.out"; exit 1; }
    grep -q '^axpy  *1 ' "$work/$name.out" && grep -q '^total  *1 ' "$work/$name.out" \
        || { echo "$name: the launchers did not run"; cat "$work/$name.out"; exit 1; }
    echo "$name: launchers linked and run"
}
static=$src/tests/install/static
export PKG_CONFIG_PATH=$libdir_abs/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

step "static library with plain Make"
mk=$work/make-static
mkdir -p "$mk" && cp "$static"/*.c "$static"/*.h "$static"/Makefile "$mk"/
make -C "$mk" -s app
linked_launchers "$mk/app" make
# the failure this guards against: without GPUFUSE_UNIT the same archive
# gives the weak bodies (so the check above can fail) ...
(cd "$mk" && cc -std=c11 $(pc --cflags) -c kernels.c -o plain.o && ar rcs libplain.a plain.o kernels.gf.o &&
    cc -o app-plain main.o libplain.a $(pc --libs) -lm)
! nm "$mk/app-plain" | grep 'gf_launch_axpy' > /dev/null || { echo "expected the weak bodies without GPUFUSE_UNIT"; exit 1; }
# ... and with it, an archive missing the launchers fails to link, loudly
(cd "$mk" && ar rcs libnogf.a kernels.o && ! cc -o app-nogf main.o libnogf.a $(pc --libs) -lm 2> nogf.log) \
    || { echo "linking without kernels.gf.o should fail"; exit 1; }
grep -q 'gpufuse_unit_kernels' "$mk/nogf.log" || { cat "$mk/nogf.log"; exit 1; }
echo "make: without GPUFUSE_UNIT the weak bodies (guarded); without the .gf.o a link error naming gpufuse_unit_kernels"

step "static library with Meson"
meson setup "$work/meson-static" "$static" > "$work/meson-static.log" 2>&1 \
    || { cat "$work/meson-static.log"; exit 1; }
ninja -C "$work/meson-static" > /dev/null
linked_launchers "$work/meson-static/app" meson

if command -v cmake > /dev/null; then
    step "static library with CMake"
    cmake -S "$static" -B "$work/cmake-static" "${gen[@]}" -DCMAKE_PREFIX_PATH="$root" \
        > "$work/cmake-static.log" 2>&1 || { cat "$work/cmake-static.log"; exit 1; }
    cmake --build "$work/cmake-static" > /dev/null
    linked_launchers "$work/cmake-static/app" cmake
fi

step "docs/getting-started.md, followed literally"
gs=$work/getting-started
mkdir -p "$gs"
command -v nvcc > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
python3 "$src/tests/install/doc_blocks.py" "$src/docs/getting-started.md" "$gs"

echo
echo "install test passed"
