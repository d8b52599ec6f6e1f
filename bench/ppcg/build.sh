#!/usr/bin/env bash
# build.sh - build PPCG (the polyhedral C-to-CUDA compiler) from its public
# repositories, for bench/polybench.py --ppcg.  Nothing of PPCG is kept in
# this repository; this only automates the build.
#
#   bench/ppcg/build.sh [PREFIX]          (default /opt/ppcg)
#
# Environment:
#   PPCG_SRC    a work folder (default /tmp/ppcg-src); the sources go there
#   PPCG_GIT    a ppcg git dir or URL  (default https://github.com/ppcg-gpu/ppcg)
#   PET_GIT     a pet git dir or URL   (default https://github.com/ppcg-gpu/pet)
#   ISL_GIT     an isl git dir or URL  (default https://github.com/ppcg-gpu/isl)
#   LLVM_PREFIX clang's prefix         (default /usr/lib/llvm-16)
#   JOBS        make -j (default 2)
#
# Pinned: ppcg 6ed0d36 (upstream, autotools; ppcg 0.09.2 + 2025 fixes),
# with the pet (824ab35, pet 0.11.8) and isl (433e17b) commits its submodules
# name.  Needs: git, autoconf, automake, libtool, make, gcc, g++, libgmp-dev,
# libyaml-dev, clang-16, libclang-16-dev, libclang-cpp16-dev, llvm-16-dev
# (Debian 12: apt-get install autoconf automake libtool libgmp-dev
#  libyaml-dev clang-16 libclang-cpp16-dev llvm-16-dev).
set -eu
prefix=${1:-/opt/ppcg}
src=${PPCG_SRC:-/tmp/ppcg-src}
ppcg_git=${PPCG_GIT:-https://github.com/ppcg-gpu/ppcg}
pet_git=${PET_GIT:-https://github.com/ppcg-gpu/pet}
isl_git=${ISL_GIT:-https://github.com/ppcg-gpu/isl}
llvm=${LLVM_PREFIX:-/usr/lib/llvm-16}
jobs=${JOBS:-2}
PPCG_COMMIT=6ed0d3690a98e83de654b18389d502fcc376cb1d
PET_COMMIT=824ab35b60bab089fb699e521e2e3bc6c07ce95a
ISL_COMMIT=433e17b9bccf4417725744316dff8a44caedcbcc

for tool in git autoreconf libtoolize make; do
    command -v $tool >/dev/null || { echo "build.sh: $tool is missing" >&2; exit 1; }
done
[ -x "$llvm/bin/clang" ] || { echo "build.sh: no clang in $llvm (LLVM_PREFIX)" >&2; exit 1; }

# unpack REPO COMMIT DIR: the tree of COMMIT, from a local git dir or a URL.
unpack() {
    local repo=$1 commit=$2 dir=$3 gd
    if [ -d "$repo" ] && git --git-dir="$repo" cat-file -e "$commit" 2>/dev/null; then
        gd=$repo
    else
        gd=$src/git-$(basename "$dir")
        [ -d "$gd" ] || git clone --bare -q "$repo" "$gd"
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    git --git-dir="$gd" archive "$commit" | tar -x -C "$dir"
}

mkdir -p "$src"
unpack "$ppcg_git" $PPCG_COMMIT "$src/ppcg"
unpack "$pet_git" $PET_COMMIT "$src/ppcg/pet"
unpack "$isl_git" $ISL_COMMIT "$src/ppcg/isl"
# ppcg 6ed0d36 lists pet and isl as submodules, both at these paths; pet's own
# isl submodule is not used (ppcg's configure builds the bundled isl once and
# points pet at it).
cd "$src/ppcg"
./autogen.sh >autogen.log 2>&1 || { tail -20 autogen.log >&2; exit 1; }
nice ./configure --prefix="$prefix" --with-clang-prefix="$llvm" >configure.log 2>&1 ||
    { tail -30 configure.log >&2; exit 1; }
nice make -j"$jobs" >make.log 2>&1 || { tail -40 make.log >&2; exit 1; }
make install >install.log 2>&1 || { tail -20 install.log >&2; exit 1; }
"$prefix/bin/ppcg" --version
