#!/usr/bin/env python3
"""test_python.py MODE LIB - python/gpufuse calling LIB (pykernels.c built
by gpufuse into a shared library).  MODE:
  stdlib     array.array and ctypes arrays, gpufuse.Array, capsules (CPU mode)
  numpy      NumPy arrays in and out without copies (CPU mode)
  numpy_gpu  NumPy host arrays staged by the launcher; gpufuse.Array on the device
  torch      CUDA tensors in and out with zero copies (pointer equality, bandwidth)
  cupy       CuPy arrays likewise
Exit 77 (skip) when the mode's library or the GPU it needs is absent."""
import array
import ctypes
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'python'))
import gpufuse  # noqa: E402

SKIP = 77


class PoolStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ('current', 'peak', 'cached', 'reserved')] + \
               [(n, ctypes.c_uint64) for n in ('allocs', 'frees', 'backend_allocs', 'backend_frees', 'oom')]


def pool_frees():
    st = PoolStats()
    f = gpufuse.runtime().gf_pool_stats_get
    f.argtypes = [ctypes.POINTER(PoolStats)]
    assert f(ctypes.byref(st)) == 0
    return st.frees


def expect_raises(exc, text, fn, *args):
    try:
        fn(*args)
    except exc as e:
        assert text in str(e), 'expected %r in %r' % (text, str(e))
        return
    raise AssertionError('%s was not raised (wanted %r)' % (exc.__name__, text))


class Kernels:
    def __init__(self, path):
        lib = gpufuse.load(path)
        self.axpby = lib.function('void py_axpby(int n, float a, const float *restrict x, float b, '
                                  'float *restrict y)')
        self.dot = lib.function('double py_dot(int n, const double *restrict x, const double *restrict y)')
        self.affine2d = lib.function('void py_affine2d(int rows, int cols, const float x[rows][cols], '
                                     'float k, float y[rows][cols])')
        self.widen = lib.function('GPUFUSE void py_widen(int n, const int32_t *restrict x, '
                                  'int64_t *restrict y);')


def xs(n):
    return [(i % 1000) * 0.5 for i in range(n)]


def ys(n):
    return [float(i % 7 - 3) for i in range(n)]


# ---- stdlib ----------------------------------------------------------------------

def t_stdlib_arrays(k):
    n = 5000
    x, y = array.array('f', xs(n)), array.array('f', ys(n))
    addr = y.buffer_info()[0]
    k.axpby(n, 2.0, x, 0.25, y)
    assert y.buffer_info()[0] == addr
    for i in range(n):
        assert y[i] == 2.0 * x[i] + 0.25 * ((i % 7) - 3), (i, y[i])
    a, b = array.array('d', range(100)), array.array('d', [2.0] * 100)
    assert k.dot(100, a, b) == 2.0 * sum(range(100))
    xi, yi = array.array('i', range(-50, 50)), array.array('q', [7] * 100)
    k.widen(100, xi, yi)
    assert list(yi) == [7 + 3 * v for v in range(-50, 50)]


def t_stdlib_ctypes_2d(k):
    rows, cols = 3, 5
    x = (ctypes.c_float * (rows * cols))(*range(rows * cols))
    y = (ctypes.c_float * (rows * cols))()
    k.affine2d(rows, cols, x, 2.0, y)
    assert list(y) == [2.0 * (i * cols + j) + j for i in range(rows) for j in range(cols)]


def t_stdlib_refusals(k):
    n = 64
    x, y = array.array('f', xs(n)), array.array('f', ys(n))
    before = list(y)
    expect_raises(TypeError, 'float64 elements, the parameter is float32', k.axpby, n, 1.0,
                  array.array('d', [0.0] * n), 1.0, y)
    expect_raises(gpufuse.GpufuseError, 'outside the imported DLPack tensor', k.axpby, n + 1, 1.0, x, 1.0, y)
    assert list(y) == before  # the refused call did nothing
    expect_raises(TypeError, 'takes 5 arguments', k.axpby, n, 1.0, x)
    expect_raises(TypeError, 'not an array gpufuse knows', k.axpby, n, 1.0, 'text', 1.0, y)
    expect_raises(TypeError, 'passed by value', gpufuse.load(sys.argv[2]).function, 'void f(float _Complex z)')


def t_stdlib_array_and_capsules(k):
    rows, cols = 4, 8
    f0 = pool_frees()
    a = gpufuse.empty((rows, cols), 'float32')
    assert a.device == (gpufuse.kDLCPU, 0)  # CPU mode: gf_malloc is host memory
    src = (ctypes.c_float * (rows * cols))(*range(rows * cols))
    ctypes.memmove(a.ptr, src, ctypes.sizeof(src))
    out = gpufuse.empty((rows, cols), 'float32')
    k.affine2d(rows, cols, a, 0.5, out)  # gpufuse's own arrays, passed as they are
    got = (ctypes.c_float * (rows * cols)).from_address(out.ptr)
    assert list(got) == [0.5 * (i * cols + j) + j for i in range(rows) for j in range(cols)]
    # an import of our own export: the same memory, and it keeps the block alive
    imp = gpufuse.from_dlpack(a)
    assert imp.ptr == a.ptr and imp.shape == (rows, cols) and imp.dtype == 'float32'
    k.affine2d(rows, cols, imp, 0.5, out)
    a.free()
    assert pool_frees() == f0  # imp still holds it
    imp.release()
    assert pool_frees() == f0 + 1
    imp.release()  # once only
    # a capsule nobody consumed deletes its tensor with it; a consumed one is ours
    cap = gpufuse.to_dlpack(out)
    del cap
    cap = gpufuse.to_dlpack(out)
    imp = gpufuse.from_dlpack(cap)
    expect_raises(gpufuse.GpufuseError, 'not an unconsumed', gpufuse.from_dlpack, cap)
    out.free()
    assert pool_frees() == f0 + 1
    del imp  # released when collected
    assert pool_frees() == f0 + 2
    expect_raises(gpufuse.GpufuseError, 'freed', k.affine2d, rows, cols, out, 0.5, out)


class Producer:
    """A framework of its own: __dlpack__ only (like JAX), a tensor over a
    ctypes buffer whose deleter counts its calls."""

    def __init__(self, values, device=(gpufuse.kDLCPU, 0), strides=None):
        self.buf = (ctypes.c_float * len(values))(*values)
        self.shape = (ctypes.c_int64 * 1)(len(values))
        self.strides = (ctypes.c_int64 * 1)(*strides) if strides else None
        self.device, self.deleted = device, 0

        @gpufuse._DELETER
        def deleter(t):
            self.deleted += 1
        self.deleter = deleter

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        t = gpufuse.DLManagedTensor()
        t.dl_tensor = gpufuse.DLTensor(ctypes.addressof(self.buf), gpufuse.DLDevice(*self.device), 1,
                                       gpufuse.DLDataType(2, 32, 1), self.shape, self.strides, 0)
        t.deleter = self.deleter
        self.t = t  # alive while the consumer holds it
        return gpufuse._capsule(ctypes.pointer(t))


def t_stdlib_foreign_producers(k):
    n = 100
    x, y = Producer(xs(n)), Producer(ys(n))
    k.axpby(n, 2.0, x, 0.25, y)  # taken through DLPack for the call, handed back after it
    assert list(y.buf) == [2.0 * a + 0.25 * b for a, b in zip(xs(n), ys(n))]
    assert (x.deleted, y.deleted) == (1, 1)
    expect_raises(gpufuse.GpufuseError, 'outside the imported DLPack tensor', k.axpby, n + 1, 1.0, x, 1.0, y)
    assert (x.deleted, y.deleted) == (2, 2)
    imp = gpufuse.from_dlpack(x)
    assert imp.ptr == ctypes.addressof(x.buf) and imp.shape == (n,) and imp.device == (gpufuse.kDLCPU, 0)
    k.axpby(n, 1.0, imp, 0.0, y)
    assert list(y.buf) == list(x.buf) and x.deleted == 2  # held until released
    imp.release()
    assert x.deleted == 3
    cap = x.__dlpack__()
    del cap  # never consumed: its destructor calls the deleter
    assert x.deleted == 4
    # refused tensors go back to their producer at once
    expect_raises(gpufuse.GpufuseError, 'not compact row-major', gpufuse.from_dlpack,
                  Producer(xs(n), strides=(2,)))
    cuda = Producer(xs(n), device=(gpufuse.kDLCUDA, 0))
    expect_raises(gpufuse.GpufuseError, 'runs on the CPU', gpufuse.from_dlpack, cuda)
    assert cuda.deleted == 1
    rocm = Producer(xs(n), device=(10, 0))
    expect_raises(gpufuse.GpufuseError, 'kDLROCM', k.axpby, n, 1.0, rocm, 1.0, y)
    assert rocm.deleted == 1

    class CudaArray:  # a CUDA array interface while the runtime runs on the CPU
        __cuda_array_interface__ = {'shape': (n,), 'typestr': '<f4', 'data': (0x1000, False), 'version': 3,
                                    'strides': None}
    expect_raises(gpufuse.GpufuseError, 'a CUDA array, but the runtime runs on the CPU', k.axpby, n, 1.0,
                  CudaArray(), 1.0, y)


# ---- numpy -----------------------------------------------------------------------

def t_numpy_zero_copy(k):
    import numpy as np
    n = 10000
    x, y = np.array(xs(n), np.float32), np.array(ys(n), np.float32)
    ref = np.float32(2.0) * x + np.float32(0.25) * y
    py = y.ctypes.data
    k.axpby(n, 2.0, x, 0.25, y)
    assert y.ctypes.data == py
    assert np.array_equal(y, ref)
    a = np.arange(1000, dtype=np.float64)
    assert k.dot(1000, a, a) == float(np.dot(a, a))
    x2 = np.arange(6 * 7, dtype=np.float32).reshape(6, 7)
    y2 = np.empty_like(x2)
    k.affine2d(6, 7, x2, 3.0, y2)
    assert np.array_equal(y2, x2 * np.float32(3.0) + np.arange(7, dtype=np.float32))
    xi, yi = np.arange(-20, 20, dtype=np.int32), np.full(40, 5, np.int64)
    k.widen(40, xi, yi)
    assert np.array_equal(yi, 5 + 3 * np.arange(-20, 20, dtype=np.int64))


def t_numpy_refusals(k):
    import numpy as np
    x, y = np.ones(64, np.float32), np.zeros(64, np.float32)
    expect_raises(gpufuse.GpufuseError, 'not compact row-major', k.axpby, 32, 1.0, x[::2], 1.0, y)
    expect_raises(TypeError, 'int32 elements', k.axpby, 64, 1.0, np.ones(64, np.int32), 1.0, y)
    ro = np.full(64, 2.0, np.float32)
    ro.setflags(write=False)
    expect_raises(ValueError, 'read-only', k.axpby, 64, 1.0, x, 1.0, ro)
    k.axpby(64, 1.0, ro, 1.0, y)  # read-only is fine where the function only reads
    assert np.array_equal(y, ro)
    expect_raises(gpufuse.GpufuseError, 'outside the imported DLPack tensor', k.axpby, 65, 1.0, x, 1.0, y)
    assert np.array_equal(y, ro)  # the refused call did nothing


def t_numpy_gpufuse_arrays(k):
    import numpy as np
    a = gpufuse.empty((5, 6), 'float32')
    v = np.asarray(a)  # __array_interface__: a view, no copy
    assert v.ctypes.data == a.ptr and v.shape == (5, 6)
    v[...] = np.arange(30, dtype=np.float32).reshape(5, 6)
    out = gpufuse.empty((5, 6), 'float32')
    k.affine2d(5, 6, a, 2.0, out)
    assert np.array_equal(np.asarray(out), v * np.float32(2.0) + np.arange(6, dtype=np.float32))
    if hasattr(np, 'from_dlpack'):
        w = np.from_dlpack(a)  # NumPy consumes the capsule
        assert w.ctypes.data == a.ptr and np.array_equal(w, v)
        f0 = pool_frees()
        a.free()
        del v
        assert pool_frees() == f0  # NumPy's view still holds the block
        del w
        assert pool_frees() == f0 + 1
    if hasattr(np.ndarray, '__dlpack__'):
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        with gpufuse.from_dlpack(x) as imp:  # NumPy as the producer
            assert imp.ptr == x.ctypes.data and imp.shape == (3, 4)
            y = np.zeros((3, 4), np.float32)
            k.affine2d(3, 4, imp, 1.0, y)
            assert np.array_equal(y, x + np.arange(4, dtype=np.float32))


# ---- on a GPU ----------------------------------------------------------------------

def need_gpu():
    if not gpufuse.have_device():
        print('no GPU: skipped')
        sys.exit(SKIP)


def memcpy_d2h(dst_ptr, src_ptr, nbytes):
    f = gpufuse.runtime().gf_memcpy
    f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    assert f(dst_ptr, src_ptr, nbytes, 2) == 0


def t_numpy_gpu(k):
    import numpy as np
    need_gpu()
    n = 1 << 20
    x, y = np.array(xs(n), np.float32), np.array(ys(n), np.float32)
    ref = np.float32(2.0) * x + np.float32(0.25) * y
    k.axpby(n, 2.0, x, 0.25, y)  # host arrays: staged by the launcher
    assert np.array_equal(y, ref)
    d = gpufuse.empty(n, 'float32')
    assert d.device[0] == gpufuse.kDLCUDA
    k.affine2d(1, n, x, 1.0, d)  # written on the device
    host = np.empty(n, np.float32)
    memcpy_d2h(host.ctypes.data, d.ptr, 4 * n)
    assert np.array_equal(host, x + np.arange(n, dtype=np.float32))


def bandwidth(call, nbytes, reps=20):
    call()
    gpufuse.sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        call()
    gpufuse.sync()
    return nbytes * reps / (time.perf_counter() - t0) / 1e9


def t_torch(k):
    import torch
    if not torch.cuda.is_available():
        print('torch: no CUDA: skipped')
        sys.exit(SKIP)
    need_gpu()
    n = 1 << 24
    x = (torch.arange(n, device='cuda', dtype=torch.float32) % 1000) * 0.5
    y = (torch.arange(n, device='cuda', dtype=torch.float32) % 7) - 3
    ref = 2.0 * x + 0.25 * y
    px, py = x.data_ptr(), y.data_ptr()
    k.axpby(n, 2.0, x, 0.25, y)
    torch.cuda.synchronize()
    assert x.data_ptr() == px and y.data_ptr() == py  # in place, no copy
    assert torch.equal(y, ref), 'results differ from the C body'
    # 12 bytes per element through the device: PCIe staging could not reach 100 GB/s
    gbs = bandwidth(lambda: k.axpby(n, 1.0, x, 0.0, y), 12 * n)
    print('torch tensors through py_axpby: %.0f GB/s' % gbs)
    assert gbs > 100, 'py_axpby on CUDA tensors ran at %.1f GB/s: staged?' % gbs
    # a gpufuse.Array into torch and back, one block throughout
    a = gpufuse.empty((256, 512), 'float32')
    t = torch.from_dlpack(a)
    assert t.data_ptr() == a.ptr and t.is_cuda and t.shape == (256, 512)
    t.copy_(torch.arange(256 * 512, device='cuda', dtype=torch.float32).reshape(256, 512))
    out = torch.empty(256, 512, device='cuda')
    k.affine2d(256, 512, a, 2.0, out)
    torch.cuda.synchronize()
    assert torch.equal(out, t * 2.0 + torch.arange(512, device='cuda', dtype=torch.float32))
    f0 = pool_frees()
    a.free()
    assert pool_frees() == f0  # torch still holds it
    del t
    torch.cuda.synchronize()
    assert pool_frees() == f0 + 1
    # torch as the producer through DLPack, held across calls
    with gpufuse.from_dlpack(x) as imp:
        assert imp.ptr == x.data_ptr()
        k.axpby(n, 1.0, imp, 0.0, y)
        torch.cuda.synchronize()
        assert torch.equal(y, x)
    # a side stream: gpufuse orders its work after the producer's and before what follows
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        z = torch.full((n,), 3.0, device='cuda')
        k.axpby(n, 2.0, z, 0.0, y)
        w = y + 1.0
    torch.cuda.synchronize()
    assert torch.equal(w, torch.full((n,), 7.0, device='cuda'))
    expect_raises(gpufuse.GpufuseError, 'not compact row-major', k.affine2d, 16, 16,
                  torch.ones(16, 16, device='cuda').t(), 1.0, torch.empty(16, 16, device='cuda'))
    expect_raises(gpufuse.GpufuseError, 'outside the imported DLPack tensor', k.axpby, n + 1, 1.0, x, 1.0, y)
    # host tensors: staged, as NumPy arrays are
    hx, hy = torch.ones(1000), torch.zeros(1000)
    k.axpby(1000, 3.0, hx.numpy(), 1.0, hy.numpy())
    assert torch.equal(hy, torch.full((1000,), 3.0))


def t_cupy(k):
    import cupy
    need_gpu()
    n = 1 << 24
    x = (cupy.arange(n, dtype=cupy.float32) % 1000) * 0.5
    y = (cupy.arange(n, dtype=cupy.float32) % 7) - 3
    ref = 2.0 * x + 0.25 * y
    py = y.data.ptr
    k.axpby(n, 2.0, x, 0.25, y)
    cupy.cuda.runtime.deviceSynchronize()
    assert y.data.ptr == py
    assert bool((y == ref).all())
    gbs = bandwidth(lambda: k.axpby(n, 1.0, x, 0.0, y), 12 * n)
    print('CuPy arrays through py_axpby: %.0f GB/s' % gbs)
    assert gbs > 100
    a = gpufuse.empty(1000, 'float64')
    c = cupy.from_dlpack(a)
    assert c.data.ptr == a.ptr
    c[...] = cupy.arange(1000, dtype=cupy.float64)
    assert k.dot(1000, a, c) == float((c * c).sum())


MODES = {
    'stdlib': (None, [t_stdlib_arrays, t_stdlib_ctypes_2d, t_stdlib_refusals, t_stdlib_array_and_capsules,
                      t_stdlib_foreign_producers]),
    'numpy': ('numpy', [t_numpy_zero_copy, t_numpy_refusals, t_numpy_gpufuse_arrays]),
    'numpy_gpu': ('numpy', [t_numpy_gpu]),
    'torch': ('torch', [t_torch]),
    'cupy': ('cupy', [t_cupy]),
}


def main():
    mode, lib = sys.argv[1], sys.argv[2]
    if os.environ.get('GPUFUSE_PY_SKIP'):
        print('skipped: %s' % os.environ['GPUFUSE_PY_SKIP'])
        return SKIP
    module, tests = MODES[mode]
    if module:
        try:
            __import__(module)
        except ImportError as e:
            print('%s: %s: skipped' % (mode, e))
            return SKIP
    k = Kernels(lib)
    failed = 0
    for t in tests:
        try:
            t(k)
            print('ok   %s' % t.__name__)
        except Exception:
            failed += 1
            print('FAIL %s' % t.__name__)
            traceback.print_exc()
    print('%d passed, %d failed' % (len(tests) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
