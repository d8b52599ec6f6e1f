#!/usr/bin/env python3
"""peers_libs.py - the library workloads of bench_libs through the peers,
one JSON line per measurement in bench/'s schema (plus "tflops"):

  peers_libs.py --impl cupy|torch|torch.compile|numpy [--quick] [--dry-run]

  sgemm_10000          cupy.matmul / torch.mm / numpy.matmul, f32 (TF32 off)
  fft2_1024_c64        cupy.fft.fft2 / torch.fft.fft2 / numpy.fft.fft2, complex64
  gemm_bias_relu_8192  relu(x @ w + b): CuPy (3 ops), torch (3 ops),
                       torch.compile of the same function
  sqrt_1e8             cupy.sqrt / torch.sqrt / numpy.sqrt, out= preallocated
  fft_power_2e24_c64   windowed power spectrum, separate calls: X = fft(x * w);
                       p = X.real**2 + X.imag**2 (2^24 complex64)
  fft_conv_2e24_c64    FFT convolution, separate calls: ifft(fft(a) * fft(b),
                       norm="forward") (unnormalised, as gpufuse's inverse)

GPU timings: CUDA events around each call, median after warm-up.  numpy:
wall clock, median.  Checks like bench_libs: GEMMs at sampled entries
against float64 dot products, FFT by the inverse round trip, sqrt sampled,
the FFT pipelines against numpy in complex128 (normwise 1e-5).
--dry-run: numpy stands in for the GPU framework at small sizes, so the
script and its output can be tested on a machine without a GPU.
"""
import argparse
import json
import math
import sys
import time

T0 = time.time()


def log(msg):
    print("[peers_libs %6.1fs] %s" % (time.time() - T0, msg), file=sys.stderr, flush=True)


def emit(rec):
    base = {"workload": None, "impl": None, "ms": None, "tflops": None, "gbs": None, "bytes": None,
            "ok": False, "err": None, "max_err": None, "tol": None, "reps": 0, "note": None}
    base.update(rec)
    for k, v in base.items():
        if hasattr(v, "item"):  # numpy scalars
            base[k] = v.item()
    for k in ("ms", "tflops", "gbs", "max_err"):
        v = base[k]
        if isinstance(v, float) and not math.isfinite(v):
            base[k] = None
    print(json.dumps(base), flush=True)


class Backend:
    """xp: the array module; sync(); timer(fn, warm, reps) -> median ms; np(a)."""

    def __init__(self, impl, dry):
        import numpy
        self.numpy = numpy
        self.impl = impl
        self.gpu = not dry and impl != "numpy"
        if impl.startswith("torch") and not dry:
            import torch
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
            self.torch = torch
        elif impl == "cupy" and not dry:
            import cupy
            self.cupy = cupy

    def median(self, ts):
        ts = sorted(ts)
        n = len(ts)
        return ts[n // 2] if n % 2 else 0.5 * (ts[n // 2 - 1] + ts[n // 2])

    def timer(self, fn, warm, reps):
        for _ in range(warm):
            fn()
        ts = []
        if not self.gpu:
            for _ in range(reps):
                t = time.perf_counter()
                fn()
                ts.append((time.perf_counter() - t) * 1e3)
            return self.median(ts)
        if self.impl == "cupy":
            cp = self.cupy
            cp.cuda.Device().synchronize()
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            for _ in range(reps):
                e0.record()
                fn()
                e1.record()
                e1.synchronize()
                ts.append(cp.cuda.get_elapsed_time(e0, e1))
        else:
            torch = self.torch
            torch.cuda.synchronize()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            for _ in range(reps):
                e0.record()
                fn()
                e1.record()
                e1.synchronize()
                ts.append(e0.elapsed_time(e1))
        return self.median(ts)

    def randn(self, shape, seed, dtype="float32"):
        rng = self.numpy.random.default_rng(seed)
        h = (rng.random(shape, dtype=self.numpy.float32) * 2 - 1).astype(dtype)
        return h, self.dev(h)

    def dev(self, h):
        if not self.gpu:
            return h
        if self.impl == "cupy":
            return self.cupy.asarray(h)
        return self.torch.from_numpy(h).cuda()

    def np(self, a):
        if not self.gpu:
            return a
        if self.impl == "cupy":
            return self.cupy.asnumpy(a)
        return a.cpu().numpy()


def gemm_check(np, hA, hB, C, be, bias=None, samples=64):
    n, k = hA.shape[0], hA.shape[1]
    m = hB.shape[1]
    worst = 0.0
    for s in range(samples):
        i, j = (s * 2654435761 + 17) % n, (s * 40503 + 101) % m
        prod = hA[i, :].astype(np.float64) * hB[:, j].astype(np.float64)
        ref, scale = prod.sum(), np.abs(prod).sum()
        if bias is not None:
            ref += float(bias[j])
            scale += abs(float(bias[j]))
            ref = max(ref, 0.0)
        got = float(be.np(C[i:i + 1, j:j + 1]).reshape(-1)[0])
        e = abs(got - ref) / scale
        if not math.isfinite(e):
            return float("nan")
        worst = max(worst, e)
    return worst


def measure(be, impl, workload, quick, dry):
    np = be.numpy
    rec = {"workload": workload, "impl": impl}
    small = dry or quick
    if workload == "sgemm_10000":
        n = 512 if dry else 4096 if quick else 10000
        if impl == "torch.compile":
            return None
        hA, A = be.randn((n, n), 1)
        hB, B = be.randn((n, n), 2)
        if impl == "torch" and be.gpu:
            C = be.torch.empty((n, n), device="cuda")
            fn = lambda: be.torch.mm(A, B, out=C)
        elif impl == "cupy" and be.gpu:
            C = be.cupy.empty((n, n), dtype=np.float32)
            fn = lambda: be.cupy.matmul(A, B, out=C)
        else:
            C = np.empty((n, n), dtype=np.float32)
            fn = lambda: np.matmul(A, B, out=C)
        reps = 3 if (small or not be.gpu) else 10
        ms = be.timer(fn, 1 if not be.gpu else 2, reps)
        err = gemm_check(np, hA, hB, C, be)
        tol = (n + 4) * 2.0 ** -23
        rec.update(ms=ms, tflops=2.0 * n ** 3 / (ms * 1e-3) / 1e12, ok=err <= tol, max_err=err, tol=tol,
                   reps=reps, note="n=%d, fp32, TF32 off" % n)
    elif workload == "gemm_bias_relu_8192":
        n = 512 if dry else 4096 if quick else 8192
        hA, A = be.randn((n, n), 1)
        hB, B = be.randn((n, n), 2)
        hb, b = be.randn((n,), 3)
        if impl in ("torch", "torch.compile") and be.gpu:
            torch = be.torch

            def f(x, w, bb):
                return torch.relu(x @ w + bb)
            g = torch.compile(f) if impl == "torch.compile" else f
            box = {}
            fn = lambda: box.__setitem__("C", g(A, B, b))
        elif impl == "cupy" and be.gpu:
            cp = be.cupy
            box = {}
            fn = lambda: box.__setitem__("C", cp.maximum(cp.matmul(A, B) + b, 0))
        else:
            box = {}
            fn = lambda: box.__setitem__("C", np.maximum(np.matmul(A, B) + b, 0))
        reps = 3 if (small or not be.gpu) else 10
        t = time.time()
        fn()  # compiles for torch.compile
        compile_s = time.time() - t
        ms = be.timer(fn, 2 if be.gpu else 0, reps)
        err = gemm_check(np, hA, hB, box["C"], be, bias=hb)
        tol = (n + 4) * 2.0 ** -23
        rec.update(ms=ms, tflops=2.0 * n ** 3 / (ms * 1e-3) / 1e12, ok=err <= tol, max_err=err, tol=tol,
                   reps=reps, note="n=%d, relu(x@w+b), fp32; first call %.1f s" % (n, compile_s))
    elif workload == "fft2_1024_c64":
        if impl == "torch.compile":
            return None
        n = 256 if dry else 1024
        hr, _ = be.randn((n, n), 4)
        hi, _ = be.randn((n, n), 5)
        h = (hr + 1j * hi).astype(np.complex64)
        x = be.dev(h)
        if impl == "torch" and be.gpu:
            f, fi = be.torch.fft.fft2, be.torch.fft.ifft2
        elif impl == "cupy" and be.gpu:
            f, fi = be.cupy.fft.fft2, be.cupy.fft.ifft2
        else:
            f, fi = np.fft.fft2, np.fft.ifft2
        box = {}
        fn = lambda: box.__setitem__("X", f(x))
        reps = 10 if not be.gpu else 100
        ms = be.timer(fn, 3, reps)
        back = be.np(fi(box["X"]))  # ifft2 is normalised: back == x
        err = float(np.linalg.norm(back - h) / np.linalg.norm(h))
        N = n * n
        rec.update(ms=ms, tflops=5.0 * N * math.log2(N) / (ms * 1e-3) / 1e12, gbs=16.0 * N / (ms * 1e-3) / 1e9,
                   bytes=16 * N, ok=err <= 1e-5, max_err=err, tol=1e-5, reps=reps,
                   note="%dx%d complex64, forward; dtype out %s" % (n, n, str(box["X"].dtype)))
    elif workload == "sqrt_1e8":
        if impl == "torch.compile":
            return None
        n = 1000000 if dry else 10000000 if quick else 100000000
        rng = np.random.default_rng(5)
        h = rng.random(n, dtype=np.float32)
        x = be.dev(h)
        if impl == "torch" and be.gpu:
            y = be.torch.empty_like(x)
            fn = lambda: be.torch.sqrt(x, out=y)
        elif impl == "cupy" and be.gpu:
            y = be.cupy.empty_like(x)
            fn = lambda: be.cupy.sqrt(x, out=y)
        else:
            y = np.empty_like(x)
            fn = lambda: np.sqrt(x, out=y)
        reps = 5 if not be.gpu else 20
        ms = be.timer(fn, 2, reps)
        idx = (np.arange(1000, dtype=np.int64) * 2654435761) % n
        got = be.np(y)[idx].astype(np.float64)
        ref = np.sqrt(h[idx].astype(np.float64))
        err = float(np.max(np.abs(got - ref) / np.maximum(ref, 1e-30)))
        rec.update(ms=ms, gbs=8.0 * n / (ms * 1e-3) / 1e9, bytes=8 * n, ok=err <= 1e-6, max_err=err, tol=1e-6,
                   reps=reps, note="n=%d" % n)
    elif workload in ("fft_power_2e24_c64", "fft_conv_2e24_c64"):
        if impl == "torch.compile":
            return None
        n = 1 << (12 if dry else 20 if quick else 24)
        conv = workload == "fft_conv_2e24_c64"
        ha = ((np.random.default_rng(11).random(n) * 2 - 1) + 1j * (np.random.default_rng(12).random(n) * 2 - 1))
        hb = ((np.random.default_rng(13).random(n) * 2 - 1) + 1j * (np.random.default_rng(14).random(n) * 2 - 1))
        ha, hb = ha.astype(np.complex64), hb.astype(np.complex64)
        hw = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)).astype(np.float32)
        a, b, w = be.dev(ha), be.dev(hb), be.dev(hw)
        if impl == "torch" and be.gpu:
            fft, ifft = be.torch.fft.fft, be.torch.fft.ifft
        elif impl == "cupy" and be.gpu:
            fft, ifft = be.cupy.fft.fft, be.cupy.fft.ifft
        else:
            fft, ifft = np.fft.fft, np.fft.ifft
        box = {}
        if conv:
            fn = lambda: box.__setitem__("r", ifft(fft(a) * fft(b), norm="forward"))
            ref = np.fft.ifft(np.fft.fft(ha.astype(np.complex128)) * np.fft.fft(hb.astype(np.complex128)),
                              norm="forward")
            nbytes = 4 * 8 * n
        else:
            def fn():
                X = fft(a * w)
                box["r"] = X.real ** 2 + X.imag ** 2
            X = np.fft.fft(ha.astype(np.complex128) * hw.astype(np.float64))
            ref = X.real ** 2 + X.imag ** 2
            nbytes = (8 + 4 + 4) * n
        reps = 5 if not be.gpu else 20
        ms = be.timer(fn, 3, reps)
        got = be.np(box["r"])
        err = float(np.linalg.norm(got - ref) / np.linalg.norm(ref))
        rec.update(ms=ms, gbs=nbytes / (ms * 1e-3) / 1e9, bytes=nbytes, ok=err <= 1e-5, max_err=err, tol=1e-5,
                   reps=reps, note="n=%d complex64, separate calls; err against numpy complex128" % n)
    return rec


WORKLOADS = ["sgemm_10000", "fft2_1024_c64", "gemm_bias_relu_8192", "sqrt_1e8", "fft_power_2e24_c64",
             "fft_conv_2e24_c64"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", required=True, choices=["cupy", "torch", "torch.compile", "numpy"])
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dry-run", action="store_true", help="numpy at small sizes, no GPU")
    a = ap.parse_args()
    try:
        be = Backend(a.impl, a.dry_run)
    except Exception as e:  # the framework is missing: one failed line per workload
        for w in a.only.split(","):
            emit({"workload": w, "impl": a.impl, "err": "import failed: %s" % e})
        return 0
    for w in a.only.split(","):
        if a.impl == "numpy" and w in ("gemm_bias_relu_8192", "fft_power_2e24_c64", "fft_conv_2e24_c64") \
                and not a.dry_run:
            continue  # numpy's column of the idea table: matmul, fft2, sqrt only
        log("%s %s" % (a.impl, w))
        t = time.time()
        try:
            rec = measure(be, a.impl, w, a.quick, a.dry_run)
        except Exception as e:
            rec = {"workload": w, "impl": a.impl, "err": "%s: %s" % (type(e).__name__, e)}
        if rec is None:
            continue
        if a.dry_run:
            rec["note"] = "DRY RUN (numpy stand-in, small size); " + (rec.get("note") or "")
        rec["wall_ms"] = (time.time() - t) * 1e3
        emit(rec)
    return 0


if __name__ == "__main__":
    sys.exit(main())
