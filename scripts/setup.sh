#!/bin/bash
# setup.sh - installs from Debian 12 packages what gpufuse needs to build and
# test, and checks for the CUDA toolkit (which Debian does not ship).
# Idempotent: with everything present it only checks (`dpkg -s`) and returns
# in about a second.  Run it (`bash scripts/setup.sh`) or source it
# (`. scripts/setup.sh`, as test.sh and demo.sh do) to also get the CUDA
# toolkit's bin directory on PATH.  Runs as root, or through sudo.

gf_setup() {
    local pkgs=(
        meson ninja-build pkgconf python3 gcc g++ libgomp1 cmake   # build, samples
        llvm-16 libclang-16-dev libclang-common-16-dev             # compiler front end
        llvm-16-tools                                              # FileCheck (golden tests)
        libisl-dev                                                 # dependence analysis
        libdlpack-dev                                              # DLPack (runtime/dlpack.c)
        libcmocka-dev python3-numpy                                # unit tests, Python tests
        valgrind                                                   # memory checks
    )
    local missing=() p
    for p in "${pkgs[@]}"; do
        dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "setup: all ${#pkgs[@]} Debian packages present"
    else
        local sudo=()
        if [ "$(id -u)" -ne 0 ]; then
            if command -v sudo > /dev/null; then
                sudo=(sudo)
            else
                echo "setup: missing packages: ${missing[*]}" >&2
                echo "setup: not root and no sudo: install them as root (apt-get install ${missing[*]})" >&2
                return 1
            fi
        fi
        echo "setup: installing ${missing[*]}"
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q > /dev/null \
            || { echo "setup: apt-get update failed" >&2; return 1; }
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "${missing[@]}" < /dev/null \
            || { echo "setup: apt-get install failed" >&2; return 1; }
        echo "setup: installed ${#missing[@]} package(s)"
    fi

    # The CUDA toolkit: nvcc (every generated .cu is compiled, GPU or not),
    # cudart, cuBLAS, cuFFT.
    local cuda_home=${CUDA_HOME:-${CUDA_PATH:-}}
    if [ -z "$cuda_home" ]; then
        if command -v nvcc > /dev/null; then
            cuda_home=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
        else
            cuda_home=/usr/local/cuda
        fi
    fi
    if [ ! -x "$cuda_home/bin/nvcc" ]; then
        cat >&2 <<MSG
setup: the CUDA toolkit was not found (no nvcc on PATH or in $cuda_home/bin).
  gpufuse compiles every generated kernel with nvcc, even on machines without
  a GPU, and links cudart, cuBLAS and cuFFT.  Install CUDA 13 (12.x may work)
  from NVIDIA, e.g. for Debian 12:
    wget https://developer.download.nvidia.com/compute/cuda/repos/debian12/x86_64/cuda-keyring_1.1-1_all.deb
    dpkg -i cuda-keyring_1.1-1_all.deb && apt-get update && apt-get install cuda-toolkit-13-0
  (no driver is needed to build and to run the tests), or point CUDA_HOME at
  an existing toolkit.
MSG
        return 1
    fi
    local lib libdirs=("$cuda_home/lib64" "$cuda_home/lib" "$cuda_home/targets/x86_64-linux/lib")
    for lib in cudart cublas cufft; do
        if ! ls "${libdirs[@]/%//lib$lib.so}" > /dev/null 2>&1; then
            echo "setup: the CUDA toolkit in $cuda_home has no lib$lib.so: install its cuBLAS/cuFFT" \
                 "development packages too (e.g. apt-get install cuda-toolkit-13-0)" >&2
            return 1
        fi
    done
    case ":$PATH:" in
        *":$cuda_home/bin:"*) ;;
        *) export PATH=$cuda_home/bin:$PATH
           echo "setup: added $cuda_home/bin to PATH" ;;
    esac
    echo "setup: CUDA $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') in $cuda_home"
    if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
        echo "setup: GPU: $(nvidia-smi -L | head -1)"
    else
        echo "setup: no GPU here: GPU tests will skip, programs take the CPU fallback"
    fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    gf_setup || exit 1
fi
