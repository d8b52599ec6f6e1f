#!/usr/bin/env python3
"""peers.py - the Python peers of the gpufuse benchmarks.

Runs the workloads of bench/workloads (same sizes, dtype and byte counts as
the CUDA drivers, see bench/bench.h) with CuPy (plain array expressions),
cupy.fuse (ElementwiseKernel/ReductionKernel where fuse cannot express the
workload), PyTorch eager, torch.compile (default mode) and jax.jit, and
prints one JSON line per measurement on stdout, in the drivers' schema:

  {"workload", "impl", "ms", "gbs", "bytes", "ok", "err", "max_err", "tol",
   "wall_ms", "reps", "note"}

ms is the median over the timed repetitions after warm-up (CUDA events for
CuPy and PyTorch; wall clock around block_until_ready for JAX, which has no
events).  The first call of each peer is checked against float64 numpy
references on a sample of elements with bench.h's metric and tolerances.
Each measurement is in its own try/except: a failing peer prints ok=false
with the error and the others go on.  Progress goes to stderr.

  peers.py [--peers cupy,torch,...] [--workloads chain,dot,...] [--quick]
           [--reps N] [--warmup N] [--budget SECONDS] [--dry-run]

--dry-run runs on the CPU at small sizes (numpy stands in for CuPy; jax and
torch on the CPU when importable) to check formulas, references and output.
"""
import argparse
import gc
import json
import math
import os
import sys
import time

# Before jax is imported anywhere: three frameworks share one GPU.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.45")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np

WORKLOADS = ["chain", "dot", "softmax", "softmax_short", "layernorm", "sqrt", "jacobi",
             "blackscholes"]
PEERS = ["cupy", "cupy.fuse", "torch", "torch.compile", "jax.jit"]

# Sizes: keep in step with bench/bench.h (--dry-run checks that they are).
SIZES = {
    "CHAIN_N": 1 << 28, "DOT_N": 1 << 28, "ROWS": 16384, "COLS": 4096,
    "SHORT_ROWS": 1 << 20, "SHORT_COLS": 128,
    "SQRT_N": 100000000, "JACOBI_N": 8192, "JACOBI_STEPS": 5, "BS_N": 1 << 26,
}
DRY_SIZES = {
    "CHAIN_N": 1 << 16, "DOT_N": 1 << 16, "ROWS": 64, "COLS": 1024,
    "SHORT_ROWS": 256, "SHORT_COLS": 128,
    "SQRT_N": 100000, "JACOBI_N": 96, "JACOBI_STEPS": 5, "BS_N": 1 << 16,
}
BS_R, BS_V = 0.02, 0.30
TOL_ELEMENTWISE, TOL_REDUCTION, TOL_BS = 1e-5, 1e-3, 1e-4
FLOOR_RELATIVE, FLOOR_LAYERNORM, FLOOR_BS = 1e-30, 1.0, 1.0
RANGES = {
    "chain_ab": (0.1, 2.0), "chain_c": (0.0, 2.0), "dot": (0.5, 1.5),
    "softmax": (-4.0, 4.0), "ln_x": (-1.0, 1.0), "ln_gamma": (0.5, 1.5),
    "ln_beta": (-0.5, 0.5), "sqrt": (0.01, 100.0), "jacobi": (1.0, 2.0),
    "bs_s": (5.0, 30.0), "bs_k": (1.0, 100.0), "bs_t": (0.25, 10.0),
}
CND_A = (0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429)
RSQRT2PI = 0.39894228040143267794
# softmax_short is the softmax function on many short rows: only its sizes
# differ, every peer builds and checks it as softmax (see kind()).
KINDS = {"softmax_short": "softmax"}


def kind(workload):
    """The workload whose implementations and check a workload shares."""
    return KINDS.get(workload, workload)


def row_shape(workload, S):
    """(rows, cols) of a softmax workload."""
    if workload == "softmax_short":
        return S["SHORT_ROWS"], S["SHORT_COLS"]
    return S["ROWS"], S["COLS"]


def log(msg):
    print("[peers %7.1fs] %s" % (time.time() - T_START, msg), file=sys.stderr, flush=True)


T_START = time.time()


# ---------------------------------------------------------------------------
# float64 references (numpy) and the error metric of bench.h

def rel_err(got, ref, floor):
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if got.size == 0:
        return 0.0
    if not np.all(np.isfinite(got)):
        return math.inf
    return float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), floor)))


def ref_cnd(d):
    a1, a2, a3, a4, a5 = CND_A
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    c = RSQRT2PI * np.exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
    return np.where(d > 0, 1.0 - c, c)


def ref_blackscholes(S, K, T, r, v):
    S, K, T = (np.asarray(x, dtype=np.float64) for x in (S, K, T))
    r, v = float(np.float32(r)), float(np.float32(v))
    sq = np.sqrt(T)
    d1 = (np.log(S / K) + (r + 0.5 * v * v) * T) / (v * sq)
    d2 = d1 - v * sq
    disc = np.exp(-r * T)
    return S * ref_cnd(d1) - K * disc * ref_cnd(d2), K * disc * ref_cnd(-d2) - S * ref_cnd(-d1)


def ref_jacobi_window(win, r_lo, c_lo, n, sweeps):
    """Runs `sweeps` sweeps on a window of the initial grid whose top-left
    cell is (r_lo, c_lo).  Cells on the grid's boundary stay fixed; cells on
    the window's own edge are wrong after each sweep by one more cell inward,
    so only cells at least `sweeps` away from a non-boundary window edge are
    exact (the caller compares those)."""
    w = np.asarray(win, dtype=np.float64).copy()
    rows = np.arange(r_lo, r_lo + w.shape[0])[:, None]
    cols = np.arange(c_lo, c_lo + w.shape[1])[None, :]
    fixed = (rows == 0) | (rows == n - 1) | (cols == 0) | (cols == n - 1)
    fixed = np.broadcast_to(fixed, w.shape).copy()
    fixed[0, :] = fixed[-1, :] = True
    fixed[:, 0] = fixed[:, -1] = True
    for _ in range(sweeps):
        new = w.copy()
        new[1:-1, 1:-1] = 0.25 * (w[:-2, 1:-1] + w[2:, 1:-1] + w[1:-1, :-2] + w[1:-1, 2:])
        w = np.where(fixed, w, new)
    return w


# ---------------------------------------------------------------------------
# Backends: random inputs, copies to numpy, timing and freeing per framework

class Backend:
    name = "?"
    xp = np
    events = False

    def rand(self, shape, lo, hi, seed):
        """float32 uniform in [lo, hi) of `shape` (a tuple)."""
        raise NotImplementedError

    def np(self, x):
        raise NotImplementedError

    def gather(self, x, idx):
        """Elements idx (numpy int64, flat indices) of x, as numpy."""
        return self.np(x.reshape(-1)[idx])

    def rows(self, x, ridx):
        return self.np(x[ridx])

    def sync(self):
        pass

    def dot64(self, a, b):
        return float(np.dot(self.np(a).astype(np.float64), self.np(b).astype(np.float64)))

    def time(self, fn, warmup, reps):
        """Median ms of fn() over reps after warmup (wall clock, synced)."""
        for _ in range(warmup):
            self.block(fn())
        self.sync()
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            self.block(fn())
            self.sync()
            ts.append((time.perf_counter() - t0) * 1e3)
        return float(np.median(ts))

    def block(self, out):
        return out

    def free(self):
        gc.collect()


class NumpyBackend(Backend):
    """--dry-run stand-in for CuPy: the same array-expression code on the CPU."""
    name = "numpy"

    def rand(self, shape, lo, hi, seed):
        return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)

    def np(self, x):
        return np.asarray(x)


class CupyBackend(Backend):
    name = "cupy"
    events = True

    def __init__(self):
        import cupy
        self.cp = cupy
        self.xp = cupy
        cupy.cuda.Device(0).use()

    def rand(self, shape, lo, hi, seed):
        return self.cp.random.RandomState(seed).uniform(lo, hi, shape, dtype=self.cp.float32)

    def np(self, x):
        return self.cp.asnumpy(x)

    def gather(self, x, idx):
        return self.cp.asnumpy(x.reshape(-1)[self.cp.asarray(idx)])

    def rows(self, x, ridx):
        return self.cp.asnumpy(x[self.cp.asarray(ridx)])

    def dot64(self, a, b):
        return float(self.cp.dot(a.astype(self.cp.float64), b.astype(self.cp.float64)))

    def sync(self):
        self.cp.cuda.Device().synchronize()

    def time(self, fn, warmup, reps):
        cp = self.cp
        for _ in range(warmup):
            fn()
        self.sync()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        ts = []
        for _ in range(reps):
            start.record()
            fn()
            end.record()
            end.synchronize()
            ts.append(cp.cuda.get_elapsed_time(start, end))
        return float(np.median(ts))

    def free(self):
        gc.collect()
        self.cp.get_default_memory_pool().free_all_blocks()
        self.cp.get_default_pinned_memory_pool().free_all_blocks()


class TorchBackend(Backend):
    name = "torch"

    def __init__(self, device):
        import torch
        self.torch = torch
        self.xp = torch
        self.device = device
        self.events = device == "cuda"

    def rand(self, shape, lo, hi, seed):
        t = self.torch
        g = t.Generator(device=self.device)
        g.manual_seed(seed)
        return t.empty(shape, dtype=t.float32, device=self.device).uniform_(lo, hi, generator=g)

    def np(self, x):
        return x.detach().cpu().numpy()

    def gather(self, x, idx):
        return self.np(x.reshape(-1)[self.torch.as_tensor(idx, device=x.device)])

    def rows(self, x, ridx):
        return self.np(x[self.torch.as_tensor(ridx, device=x.device)])

    def dot64(self, a, b):
        return float(self.torch.dot(a.double(), b.double()).item())

    def sync(self):
        if self.device == "cuda":
            self.torch.cuda.synchronize()

    def time(self, fn, warmup, reps):
        if not self.events:
            return Backend.time(self, fn, warmup, reps)
        t = self.torch
        for _ in range(warmup):
            fn()
        t.cuda.synchronize()
        start, end = t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)
        ts = []
        for _ in range(reps):
            start.record()
            fn()
            end.record()
            end.synchronize()
            ts.append(start.elapsed_time(end))
        return float(np.median(ts))

    def free(self):
        gc.collect()
        if self.device == "cuda":
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()


class JaxBackend(Backend):
    name = "jax"

    def __init__(self):
        import jax
        import jax.numpy as jnp
        self.jax = jax
        self.xp = jnp

    def rand(self, shape, lo, hi, seed):
        jax, jnp = self.jax, self.xp
        x = jax.random.uniform(jax.random.PRNGKey(seed), shape, jnp.float32, lo, hi)
        return x.block_until_ready()

    def np(self, x):
        return np.asarray(x)

    def gather(self, x, idx):
        return np.asarray(x.reshape(-1)[self.xp.asarray(idx)])

    def rows(self, x, ridx):
        return np.asarray(x[self.xp.asarray(ridx)])

    def block(self, out):
        return self.jax.block_until_ready(out)

    def free(self):
        gc.collect()
        for a in self.jax.live_arrays():
            a.delete()
        self.jax.clear_caches()
        gc.collect()


# ---------------------------------------------------------------------------
# Implementations.  Each builder takes (backend, inputs dict) and returns a
# callable with no arguments that runs the workload and returns its output.

def plain_chain(xp):
    return lambda a, b, c: xp.sqrt(a * a + b * b) * xp.exp(-c) + xp.sin(a) * 0.5


def cnd(xp, d):
    a1, a2, a3, a4, a5 = CND_A
    k = 1.0 / (1.0 + 0.2316419 * xp.abs(d))
    c = RSQRT2PI * xp.exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
    return xp.where(d > 0, 1.0 - c, c)


def plain_blackscholes(xp):
    def f(S, K, T):
        sq = xp.sqrt(T)
        d1 = (xp.log(S / K) + (BS_R + 0.5 * BS_V * BS_V) * T) / (BS_V * sq)
        d2 = d1 - BS_V * sq
        disc = xp.exp(-BS_R * T)
        return S * cnd(xp, d1) - K * disc * cnd(xp, d2), K * disc * cnd(xp, -d2) - S * cnd(xp, -d1)
    return f


def array_impls(xp, torch_like=False):
    """The plain formulas for numpy-like namespaces (numpy, cupy, jax.numpy)
    or torch.  Returns a dict workload -> function of the inputs."""
    if torch_like:
        def softmax(x):
            m = x.amax(dim=1, keepdim=True)
            e = xp.exp(x - m)
            return e / e.sum(dim=1, keepdim=True)

        def layernorm(x, g, b):
            mean = x.mean(dim=1, keepdim=True)
            var = ((x - mean) * (x - mean)).mean(dim=1, keepdim=True)
            return (x - mean) * xp.rsqrt(var + 1e-5) * g + b

        def dot(a, b):
            return (a * b).sum()
    else:
        def softmax(x):
            m = x.max(axis=1, keepdims=True)
            e = xp.exp(x - m)
            return e / e.sum(axis=1, keepdims=True)

        def layernorm(x, g, b):
            mean = x.mean(axis=1, keepdims=True)
            var = ((x - mean) * (x - mean)).mean(axis=1, keepdims=True)
            return (x - mean) / xp.sqrt(var + 1e-5) * g + b

        def dot(a, b):
            return (a * b).sum()
    return {
        "chain": plain_chain(xp),
        "dot": dot,
        "softmax": softmax,
        "layernorm": layernorm,
        "sqrt": lambda x: xp.sqrt(x),
        "blackscholes": plain_blackscholes(xp),
    }


def jacobi_functional(steps):
    """Whole-grid functional form for tracing compilers: 2*steps sweeps, the
    boundary kept; `setint(a, v)` returns a with its interior replaced by v."""
    def f(a, setint):
        for _ in range(2 * steps):
            interior = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
            a = setint(a, interior)
        return a
    return f


def sweep_inplace(src, dst):
    dst[1:-1, 1:-1] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])


def build(peer, workload, be, inp, S):
    """(callable, note) for one peer and workload kind (softmax_short comes
    here as softmax, with its own inputs); raises when unavailable."""
    steps = S["JACOBI_STEPS"]
    args = inp["args"]
    note = None
    if peer in ("cupy", "numpy"):
        if workload == "jacobi":
            a, b = args

            def run():
                for _ in range(steps):
                    sweep_inplace(a, b)
                    sweep_inplace(b, a)
                return a
            return run, note
        f = array_impls(be.xp)[workload]
        return (lambda: f(*args)), note

    if peer == "cupy.fuse":
        return build_cupy_fuse(workload, be, args, steps)

    if peer == "torch":
        t = be.torch
        if workload == "jacobi":
            a, b = args

            def run():
                for _ in range(steps):
                    sweep_inplace(a, b)
                    sweep_inplace(b, a)
                return a
            return run, note
        if workload == "softmax":
            return (lambda: t.softmax(args[0], dim=1)), "torch.softmax"
        if workload == "layernorm":
            x, g, bt = args
            cols = x.shape[1]
            return (lambda: t.nn.functional.layer_norm(x, (cols,), g, bt, 1e-5)), "F.layer_norm"
        if workload == "dot":
            return (lambda: t.dot(*args)), "torch.dot"
        f = array_impls(t, torch_like=True)[workload]
        return (lambda: f(*args)), note

    if peer == "torch.compile":
        # dynamic=False: softmax and softmax_short compile the same Python
        # function at two shapes, and by default dynamo would compile the
        # second with dynamic sizes (automatic dynamic shapes, keyed by the
        # code object).  Each workload's first compile is static either way.
        t = be.torch
        if workload == "jacobi":
            def setint(a, v):
                b = a.clone()
                b[1:-1, 1:-1] = v
                return b
            body = jacobi_functional(steps)
            f = t.compile(lambda a: body(a, setint), dynamic=False)
            a0 = args[0]
            return (lambda: f(a0)), note
        f = t.compile(array_impls(t, torch_like=True)[workload], dynamic=False)
        return (lambda: f(*args)), note

    if peer == "jax.jit":
        jax = be.jax
        if workload == "jacobi":
            body = jacobi_functional(steps)
            f = jax.jit(lambda a: body(a, lambda a, v: a.at[1:-1, 1:-1].set(v)))
            a0 = args[0]
            return (lambda: f(a0)), "wall clock around block_until_ready"
        f = jax.jit(array_impls(be.xp)[workload])
        return (lambda: f(*args)), "wall clock around block_until_ready"

    raise ValueError("unknown peer " + peer)


def build_cupy_fuse(workload, be, args, steps):
    """cupy.fuse where it can express the workload; otherwise the raw
    ElementwiseKernel/ReductionKernel a CuPy user would write (noted)."""
    cp = be.cp
    if workload == "chain":
        f = cp.fuse(kernel_name="gf_chain")(plain_chain(cp))
        return (lambda: f(*args)), "cupy.fuse"
    if workload == "sqrt":
        f = cp.fuse(kernel_name="gf_sqrt")(lambda x: cp.sqrt(x))
        return (lambda: f(*args)), "cupy.fuse"
    if workload == "dot":
        f = cp.fuse(kernel_name="gf_dot")(lambda a, b: cp.sum(a * b))
        return (lambda: f(*args)), "cupy.fuse (reduction)"
    if workload == "blackscholes":
        try:
            f = cp.fuse(kernel_name="gf_blackscholes")(plain_blackscholes(cp))
            f(*args)                  # fuse compiles lazily: try it here
            cp.cuda.Device().synchronize()
            return (lambda: f(*args)), "cupy.fuse"
        except Exception as e:        # noqa: BLE001 - fall back, say why
            k = cp.ElementwiseKernel(
                "T S, T K, T T_", "T call, T put",
                """
                const T a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                        a4 = -1.821255978f, a5 = 1.330274429f, rs = 0.39894228040143267794f;
                T sq = sqrtf(T_);
                T d1 = (logf(S / K) + (%(r)r + 0.5f * %(v)r * %(v)r) * T_) / (%(v)r * sq);
                T d2 = d1 - %(v)r * sq;
                T disc = expf(-%(r)r * T_);
                T ds[4] = {d1, d2, -d2, -d1}, cn[4];
                for (int q = 0; q < 4; q++) {
                    T d = ds[q];
                    T k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
                    T c = rs * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
                    cn[q] = d > 0 ? 1.0f - c : c;
                }
                call = S * cn[0] - K * disc * cn[1];
                put = K * disc * cn[2] - S * cn[3];
                """.replace("%(r)r", "%.9gf" % BS_R).replace("%(v)r", "%.9gf" % BS_V),
                "gf_blackscholes")
            return (lambda: k(*args)), "ElementwiseKernel (cupy.fuse failed: %s)" % str(e)[:120]
    if workload == "softmax":
        x = args[0]
        sum_exp = cp.ReductionKernel("T x, T m", "T y", "exp(x - m)", "a + b", "y = a", "0",
                                     "gf_sum_exp")
        norm = cp.ElementwiseKernel("T x, T m, T s", "T y", "y = exp(x - m) / s", "gf_softmax_norm")

        def run():
            m = x.max(axis=1, keepdims=True)
            s = sum_exp(x, cp.broadcast_to(m, x.shape), axis=1, keepdims=True)
            return norm(x, m, s)
        return run, "max + ReductionKernel + ElementwiseKernel"
    if workload == "layernorm":
        x, g, bt = args
        cols = x.shape[1]
        sum_sq = cp.ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0",
                                    "gf_sum_sq")
        norm = cp.ElementwiseKernel("T x, T m, T q, T g, T b, float32 inv_n", "T y",
                                    "y = (x - m) * rsqrtf(q * inv_n + 1e-5f) * g + b",
                                    "gf_layernorm_norm")

        def run():
            m = x.mean(axis=1, keepdims=True)
            q = sum_sq(x, cp.broadcast_to(m, x.shape), axis=1, keepdims=True)
            return norm(x, m, q, g, bt, np.float32(1.0 / cols))
        return run, "mean + ReductionKernel + ElementwiseKernel"
    if workload == "jacobi":
        a, b = args
        n = a.shape[0]
        sweep = cp.ElementwiseKernel(
            "raw T a, int64 n", "T b",
            """
            ptrdiff_t r = i / n, c = i % n;
            if (r == 0 || c == 0 || r == n - 1 || c == n - 1) b = a[i];
            else b = (T)0.25 * (a[i - n] + a[i + n] + a[i - 1] + a[i + 1]);
            """, "gf_jacobi_sweep")

        def run():
            for _ in range(steps):
                sweep(a, n, b)
                sweep(b, n, a)
            return a
        return run, "ElementwiseKernel (raw stencil)"
    raise ValueError(workload)


# ---------------------------------------------------------------------------
# Inputs, checks and the measurement loop

def nbytes(workload, S):
    if workload == "chain":
        return 4.0 * S["CHAIN_N"] * 4
    if workload == "dot":
        return 2.0 * S["DOT_N"] * 4
    if kind(workload) == "softmax":
        rows, cols = row_shape(workload, S)
        return 2.0 * rows * cols * 4
    if workload == "layernorm":
        return 2.0 * S["ROWS"] * S["COLS"] * 4 + 2.0 * S["COLS"] * 4
    if workload == "sqrt":
        return 2.0 * S["SQRT_N"] * 4
    if workload == "jacobi":
        return 2.0 * S["JACOBI_STEPS"] * 2.0 * S["JACOBI_N"] ** 2 * 4
    if workload == "blackscholes":
        return 5.0 * S["BS_N"] * 4
    raise ValueError(workload)


def make_inputs(workload, be, S, seed):
    R = RANGES
    def r(shape, key, k):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return be.rand(shape, *R[key], seed * 16 + k)
    if workload == "chain":
        n = S["CHAIN_N"]
        return {"args": (r(n, "chain_ab", 0), r(n, "chain_ab", 1), r(n, "chain_c", 2))}
    if workload == "dot":
        n = S["DOT_N"]
        return {"args": (r(n, "dot", 0), r(n, "dot", 1))}
    if kind(workload) == "softmax":
        return {"args": (r(row_shape(workload, S), "softmax", 0),)}
    if workload == "layernorm":
        c = S["COLS"]
        return {"args": (r((S["ROWS"], c), "ln_x", 0), r(c, "ln_gamma", 1), r(c, "ln_beta", 2))}
    if workload == "sqrt":
        return {"args": (r(S["SQRT_N"], "sqrt", 0),)}
    if workload == "jacobi":
        n = S["JACOBI_N"]
        a = r((n, n), "jacobi", 0)
        b = a.clone() if hasattr(a, "clone") else a.copy()
        # initial windows for the check (the eager peers overwrite a)
        sweeps = 2 * S["JACOBI_STEPS"]
        wins = []
        for (r0, c0) in jacobi_windows(n):
            lo_r, lo_c = max(0, r0 - sweeps), max(0, c0 - sweeps)
            hi_r, hi_c = min(n, r0 + 48 + sweeps), min(n, c0 + 48 + sweeps)
            wins.append((r0, c0, lo_r, lo_c, be.np(a[lo_r:hi_r, lo_c:hi_c]).copy()))
        return {"args": (a, b), "windows": wins}
    if workload == "blackscholes":
        n = S["BS_N"]
        return {"args": (r(n, "bs_s", 0), r(n, "bs_k", 1), r(n, "bs_t", 2))}
    raise ValueError(workload)


def jacobi_windows(n):
    """Top-left corners of 48x48 check windows: a corner, the middle, the
    opposite corner (so boundary handling is covered)."""
    m = max(0, min(n - 48, n // 2 - 24))
    return [(0, 0), (m, m), (n - 48, n - 48)]


def check(workload, be, inp, out, S, rng):
    """(max_err, tol) of the first call's output."""
    args = inp["args"]
    if workload in ("chain", "sqrt"):
        n = args[0].shape[0]
        idx = np.unique(np.concatenate([rng.integers(0, n, 1 << 16), [0, n - 1]]))
        xs = [be.gather(a, idx).astype(np.float64) for a in args]
        got = be.gather(out, idx)
        if workload == "chain":
            a, b, c = xs
            ref = np.sqrt(a * a + b * b) * np.exp(-c) + np.sin(a) * 0.5
        else:
            ref = np.sqrt(xs[0])
        return rel_err(got, ref, FLOOR_RELATIVE), TOL_ELEMENTWISE
    if workload == "blackscholes":
        n = args[0].shape[0]
        idx = np.unique(np.concatenate([rng.integers(0, n, 1 << 16), [0, n - 1]]))
        Sx, Kx, Tx = (be.gather(a, idx) for a in args)
        call, put = ref_blackscholes(Sx, Kx, Tx, BS_R, BS_V)
        e = max(rel_err(be.gather(out[0], idx), call, FLOOR_BS),
                rel_err(be.gather(out[1], idx), put, FLOOR_BS))
        return e, TOL_BS
    if workload == "dot":
        got = float(be.np(out).reshape(-1)[0]) if not isinstance(out, float) else out
        return rel_err(got, be.dot64(*args), FLOOR_RELATIVE), TOL_REDUCTION
    if workload in ("softmax", "layernorm"):
        rows = args[0].shape[0]
        ridx = np.unique(np.concatenate([rng.integers(0, rows, 16), [0, rows - 1]]))
        x = be.rows(args[0], ridx).astype(np.float64)
        got = be.rows(out, ridx)
        if workload == "softmax":
            e = np.exp(x - x.max(axis=1, keepdims=True))
            return rel_err(got, e / e.sum(axis=1, keepdims=True), FLOOR_RELATIVE), TOL_REDUCTION
        g = be.np(args[1]).astype(np.float64)
        b = be.np(args[2]).astype(np.float64)
        mean = x.mean(axis=1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
        ref = (x - mean) / np.sqrt(var + 1e-5) * g + b
        return rel_err(got, ref, FLOOR_LAYERNORM), TOL_REDUCTION
    if workload == "jacobi":
        n, sweeps = S["JACOBI_N"], 2 * S["JACOBI_STEPS"]
        e = 0.0
        for (r0, c0, lo_r, lo_c, win) in inp["windows"]:
            ref = ref_jacobi_window(win, lo_r, lo_c, n, sweeps)
            ref = ref[r0 - lo_r:r0 - lo_r + 48, c0 - lo_c:c0 - lo_c + 48]
            got = be.np(out[r0:r0 + 48, c0:c0 + 48])
            e = max(e, rel_err(got, ref, FLOOR_RELATIVE))
        return e, TOL_ELEMENTWISE
    raise ValueError(workload)


def emit(rec):
    base = {"workload": None, "impl": None, "ms": None, "gbs": None, "bytes": None,
            "ok": False, "err": None, "max_err": None, "tol": None, "wall_ms": None,
            "reps": 0, "note": None}
    base.update(rec)
    for k in ("ms", "gbs", "max_err"):
        v = base[k]
        if isinstance(v, float) and not math.isfinite(v):
            base[k] = None
    print(json.dumps(base), flush=True)


def measure(peer, impl, workload, be, S, opts, seed):
    rec = {"workload": workload, "impl": impl, "bytes": nbytes(workload, S)}
    t0 = time.time()
    inp = out = fn = None
    try:
        inp = make_inputs(workload, be, S, seed)
        be.sync()
        fn, note = build(peer, kind(workload), be, inp, S)
        rec["note"] = note
        tc = time.time()
        out = be.block(fn())           # first call: compiles for jit peers
        be.sync()
        compile_s = time.time() - tc
        err, tol = check(kind(workload), be, inp, out, S, np.random.default_rng(seed))
        out = None
        rec.update(max_err=err, tol=tol, ok=bool(err <= tol))
        if not rec["ok"]:
            rec["err"] = "max error %.3g exceeds tolerance %.0e" % (err, tol)
        ms = be.time(fn, opts.warmup, opts.reps)
        rec.update(ms=ms, gbs=rec["bytes"] / (ms * 1e-3) / 1e9, reps=opts.reps)
        log("%-13s %-13s %9.4f ms %8.1f GB/s  err %.2g  first call %.1f s, total %.1f s"
            % (impl, workload, ms, rec["gbs"], err, compile_s, time.time() - t0))
    except Exception as e:  # noqa: BLE001 - one failing peer must not stop the rest
        rec["ok"] = False
        rec["err"] = ("%s: %s" % (type(e).__name__, e))[:600]
        log("%-13s %-13s FAILED after %.1f s: %s" % (impl, workload, time.time() - t0, rec["err"][:200]))
    finally:
        del inp, out, fn
        try:
            be.free()
        except Exception as e:  # noqa: BLE001
            log("free failed: %s" % e)
    emit(rec)


def load_backend(peer, dry):
    """The backend for a peer, or raises with the reason it is unavailable."""
    if peer in ("cupy", "cupy.fuse"):
        return NumpyBackend() if dry else CupyBackend()
    if peer in ("torch", "torch.compile"):
        be = TorchBackend("cpu" if dry else "cuda")
        if not dry and not be.torch.cuda.is_available():
            raise RuntimeError("torch.cuda is not available")
        return be
    if peer == "jax.jit":
        be = JaxBackend()
        if not dry and not any(d.platform == "gpu" for d in be.jax.devices()):
            raise RuntimeError("jax has no GPU device: %s" % be.jax.devices())
        return be
    raise ValueError(peer)


def check_sizes_against_header():
    """--dry-run: SIZES must match bench/bench.h."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "bench.h")).read()
    import re
    defs = dict(re.findall(r"#define BENCH_(\w+)\s+(.+?)\s*(?:/\*.*)?$", text, re.M))
    bad = []
    for k, v in SIZES.items():
        hv = defs.get(k)
        if hv is None or eval(hv.replace("f", "")) != v:  # noqa: S307 - our own header
            bad.append("%s: peers.py %s, bench.h %s" % (k, v, hv))
    for k, v in (("BS_R", BS_R), ("BS_V", BS_V), ("TOL_ELEMENTWISE", TOL_ELEMENTWISE),
                 ("TOL_REDUCTION", TOL_REDUCTION), ("TOL_BS", TOL_BS),
                 ("FLOOR_LAYERNORM", FLOOR_LAYERNORM), ("FLOOR_BS", FLOOR_BS)):
        if abs(float(defs[k].rstrip("f")) - v) > 1e-12:
            bad.append("%s: peers.py %s, bench.h %s" % (k, v, defs[k]))
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated: " + ",".join(PEERS))
    ap.add_argument("--workloads", default=",".join(WORKLOADS),
                    help="comma-separated: " + ",".join(WORKLOADS))
    ap.add_argument("--quick", action="store_true", help="1 warm-up, 5 timed repetitions")
    ap.add_argument("--warmup", type=int, default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds; measurements not started by then are reported as skipped")
    ap.add_argument("--dry-run", action="store_true",
                    help="CPU, small sizes: numpy for CuPy, jax/torch on the CPU if present")
    opts = ap.parse_args(argv)
    opts.warmup = opts.warmup if opts.warmup is not None else (1 if opts.quick else 3)
    opts.reps = opts.reps if opts.reps is not None else (5 if opts.quick else 20)
    peers = [p for p in opts.peers.split(",") if p]
    workloads = [w for w in opts.workloads.split(",") if w]
    for p in peers:
        if p not in PEERS:
            ap.error("unknown peer %s" % p)
    for w in workloads:
        if w not in WORKLOADS:
            ap.error("unknown workload %s" % w)
    S = DRY_SIZES if opts.dry_run else SIZES
    status = 0
    if opts.dry_run:
        bad = check_sizes_against_header()
        for b in bad:
            log("size mismatch with bench.h: " + b)
        status |= bool(bad)
    log("peers %s, workloads %s, warmup %d, reps %d%s" % (
        ",".join(peers), ",".join(workloads), opts.warmup, opts.reps,
        " (dry run)" if opts.dry_run else ""))
    backends = {}          # "cupy"/"torch"/"jax" -> backend, or the error text
    for peer in peers:
        key = peer.split(".")[0]
        if key not in backends:
            tb = time.time()
            try:
                backends[key] = load_backend(peer, opts.dry_run)
                log("loaded %s in %.1f s" % (key, time.time() - tb))
            except Exception as e:  # noqa: BLE001
                backends[key] = ("%s unavailable: %s: %s" % (key, type(e).__name__, e))[:600]
        be = backends[key]
        if peer == "cupy.fuse" and opts.dry_run:
            be = "cupy.fuse needs a GPU (skipped in --dry-run)"
        if isinstance(be, str):
            log("%s: %s" % (peer, be))
            for w in workloads:
                emit({"workload": w, "impl": peer, "bytes": nbytes(w, S), "err": be})
            continue
        for i, w in enumerate(workloads):
            if opts.budget is not None and time.time() - T_START > opts.budget:
                emit({"workload": w, "impl": peer, "bytes": nbytes(w, S),
                      "err": "skipped: time budget of %.0f s used up" % opts.budget})
                continue
            measure("numpy" if be.name == "numpy" else peer, peer, w, be, S, opts, seed=1 + i)
    log("done")
    return status


if __name__ == "__main__":
    sys.exit(main())
