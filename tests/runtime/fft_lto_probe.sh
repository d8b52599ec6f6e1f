#!/bin/sh
# fft_lto_probe.sh - build and run tests/runtime/fft_lto_probe.cu (cuFFT LTO
# callback variants, one line each) on a machine with a GPU and the CUDA 13
# toolkit.  Run from the repository root:
#   PATH=/usr/local/cuda/bin:$PATH sh tests/runtime/fft_lto_probe.sh /tmp/fftlto
# Everything is built into the directory given (created); results go to stdout.
set -u
out=${1:?usage: fft_lto_probe.sh OUTDIR}
NVCC=${NVCC:-nvcc}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v "$NVCC")")")}
export CUDA_HOME
arch=${ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.[:space:]')}
arch=${arch:-90}
mkdir -p "$out" || exit 1
echo "== nvcc: $("$NVCC" --version | tail -1); arch $arch; CUDA_HOME $CUDA_HOME"
"$NVCC" -std=c++17 -O1 -o "$out/fft_lto_probe" tests/runtime/fft_lto_probe.cu -lcufft -lnvrtc -ldl || exit 1
"$out/fft_lto_probe" --write-sources "$out" || exit 1
for s in externC cxx cxxhdr externChdr; do
    for a in "$arch" 75; do
        # NVIDIA's sample (cuFFT/lto_callback_window_1d/Makefile): -dc -fatbin with code=lto_XX
        "$NVCC" --std=c++11 -I"$CUDA_HOME/include" --generate-code "arch=compute_$a,code=lto_$a" -dc -fatbin \
            "$out/$s.cu" -o "$out/${s}_$a.fatbin" || echo "nvcc -fatbin failed for $s lto_$a"
    done
    "$NVCC" --std=c++11 -I"$CUDA_HOME/include" -arch="sm_$arch" -dlto -dc "$out/$s.cu" -o "$out/${s}_o$arch.o" ||
        echo "nvcc -dlto -dc failed for $s"
done
echo "== probe"
"$out/fft_lto_probe" "$out"
