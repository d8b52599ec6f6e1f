"""gpufuse - call functions that gpufuse compiled into a shared library from
Python, on NumPy, PyTorch, CuPy (or any DLPack / array-interface) arrays.

Pure ctypes, no compiled extension.  Device arrays are passed where they
are (their pointer, no copy); host arrays are passed as host pointers, which
the launcher stages as it does for a C caller.  Every array argument is
registered with the runtime for the length of the call (gf_from_dlpack), so
the launcher knows its extent and refuses a call whose C body would touch
bytes outside it.  See docs/python.md.

    import numpy as np, gpufuse
    lib = gpufuse.load("./libkernels.so")
    axpby = lib.function("void axpby(int n, float a, const float *x, float b, float *y)")
    axpby(len(x), 2.0, x, 0.5, y)
"""
import array
import ctypes
import ctypes.util
import os
import re
import sys
import threading

__all__ = ['load', 'runtime', 'Library', 'Function', 'GpufuseError', 'Array', 'empty', 'Imported',
           'from_dlpack', 'to_dlpack', 'have_device', 'sync', 'DTYPES', 'DLManagedTensor', 'DLTensor',
           'DLDevice', 'DLDataType', 'kDLCPU', 'kDLCUDA', 'kDLCUDAHost', 'kDLCUDAManaged']

# ---- DLPack 0.6 structures (dlpack/dlpack.h) ----------------------------------

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13


class DLDevice(ctypes.Structure):
    _fields_ = [('device_type', ctypes.c_int), ('device_id', ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [('code', ctypes.c_uint8), ('bits', ctypes.c_uint8), ('lanes', ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [('data', ctypes.c_void_p), ('device', DLDevice), ('ndim', ctypes.c_int),
                ('dtype', DLDataType), ('shape', ctypes.POINTER(ctypes.c_int64)),
                ('strides', ctypes.POINTER(ctypes.c_int64)), ('byte_offset', ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [('dl_tensor', DLTensor), ('manager_ctx', ctypes.c_void_p), ('deleter', _DELETER)]

# ---- element types -------------------------------------------------------------
# name: (gf_dl_type, DLPack code, bits, array-interface typestr, C spellings)
DTYPES = {
    'float16': (1, 2, 16, '<f2', ('_Float16', 'half', '__fp16')),
    'bfloat16': (2, 4, 16, None, ('__bf16',)),
    'float32': (3, 2, 32, '<f4', ('float',)),
    'float64': (4, 2, 64, '<f8', ('double',)),
    'int8': (5, 0, 8, '|i1', ('int8_t', 'signed char', 'char')),
    'int16': (6, 0, 16, '<i2', ('int16_t', 'short', 'short int', 'signed short', 'signed short int')),
    'int32': (7, 0, 32, '<i4', ('int32_t', 'int', 'signed', 'signed int')),
    'int64': (8, 0, 64, '<i8', ('int64_t', 'long', 'long int', 'signed long', 'long long', 'long long int',
                                'signed long long', 'ptrdiff_t', 'ssize_t', 'intptr_t')),
    'uint8': (9, 1, 8, '|u1', ('uint8_t', 'unsigned char')),
    'uint16': (10, 1, 16, '<u2', ('uint16_t', 'unsigned short', 'unsigned short int')),
    'uint32': (11, 1, 32, '<u4', ('uint32_t', 'unsigned', 'unsigned int')),
    'uint64': (12, 1, 64, '<u8', ('uint64_t', 'unsigned long', 'unsigned long int', 'unsigned long long',
                                  'unsigned long long int', 'size_t', 'uintptr_t')),
    'bool': (13, 6, 8, '|b1', ('_Bool', 'bool')),
    'complex64': (14, 5, 64, '<c8', ('float _Complex', 'float complex')),
    'complex128': (15, 5, 128, '<c16', ('double _Complex', 'double complex')),
}
_BY_CODE = {(v[1], v[2]): k for k, v in DTYPES.items()}
_BY_C = {c: k for k, v in DTYPES.items() for c in v[4]}
# array.array typecodes and ctypes element types
_ARRAY_CODES = {'b': 'int8', 'B': 'uint8', 'h': 'int16', 'H': 'uint16', 'i': 'int32', 'I': 'uint32',
                'f': 'float32', 'd': 'float64'}
_SCALAR_CTYPES = {'float32': ctypes.c_float, 'float64': ctypes.c_double, 'int8': ctypes.c_int8,
                  'int16': ctypes.c_int16, 'int32': ctypes.c_int32, 'int64': ctypes.c_int64,
                  'uint8': ctypes.c_uint8, 'uint16': ctypes.c_uint16, 'uint32': ctypes.c_uint32,
                  'uint64': ctypes.c_uint64, 'bool': ctypes.c_bool}


_NAMES = dict({k: k for k in DTYPES}, float='float32', double='float64', half='float16', int='int32',
              long='int64', short='int16', cfloat='complex64', cdouble='complex128')
_NAMES.update({v[3]: k for k, v in DTYPES.items() if v[3]})
_NAMES.update({v[3].replace('<', '='): k for k, v in DTYPES.items() if v[3]})
_NAMES.update({v[3].replace('|', '<'): k for k, v in DTYPES.items() if v[3]})


def _dtype_name(dt):
    """'float32' from a name, a NumPy/CuPy/torch dtype or a typestr."""
    name = _NAMES.get(dt) if isinstance(dt, str) else None
    if name is None:
        s = str(dt)
        name = _NAMES.get(s[6:] if s.startswith('torch.') else s)
    if name is None:
        raise TypeError('gpufuse: unknown element type %r' % (dt,))
    return name


def _itemsize(name):
    return DTYPES[name][2] // 8


class GpufuseError(RuntimeError):
    """A refused argument, or a failure the runtime reported (its message
    names the function and source line)."""


# ---- the runtime ------------------------------------------------------------------

_rt = None
_rt_lock = threading.Lock()
_tls = threading.local()


def _declare(lib):
    c_int, c_void_p, c_size_t = ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t
    P = ctypes.POINTER
    sigs = {
        'gf_malloc': (c_int, [P(c_void_p), c_size_t]),
        'gf_free': (c_int, [c_void_p]),
        'gf_host_malloc': (c_int, [P(c_void_p), c_size_t]),
        'gf_host_free': (c_int, [c_void_p]),
        'gf_to_dlpack': (c_int, [c_void_p, c_int, P(ctypes.c_int64), c_int, c_int, P(P(DLManagedTensor))]),
        'gf_dlpack_share': (c_int, [P(DLManagedTensor), P(P(DLManagedTensor))]),
        'gf_from_dlpack': (c_int, [P(DLManagedTensor), P(c_void_p)]),
        'gf_dlpack_release': (c_int, [P(DLManagedTensor)]),
        'gf_last_error': (ctypes.c_char_p, []),
        'gf_error_string': (ctypes.c_char_p, [c_int]),
        'gf_have_device': (c_int, []),
        'gf_device_current': (c_int, [P(c_int)]),
        'gf_sync': (c_int, []),
        'gf_set_error_handler': (None, [c_void_p, c_void_p]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


@_HANDLER
def _on_error(status, message, user):
    """Launchers report failures here instead of aborting the interpreter;
    the call that caused them raises GpufuseError."""
    errs = getattr(_tls, 'errors', None)
    if errs is None:
        errs = _tls.errors = []
    errs.append(message.decode(errors='replace') if message else 'status %d' % status)


def runtime(path=None):
    """The libgpufuse of this process (a ctypes.CDLL).  By default the one
    the first load()ed library links; else $GPUFUSE_LIBRARY, else found by
    the dynamic loader.  Installs the error handler that turns launcher
    failures into GpufuseError."""
    global _rt
    if _rt is not None and path is None:
        return _rt
    with _rt_lock:
        if _rt is not None and path is None:
            return _rt
        if path is None:
            path = os.environ.get('GPUFUSE_LIBRARY') or ctypes.util.find_library('gpufuse') or 'libgpufuse.so'
        lib = path if isinstance(path, ctypes.CDLL) else ctypes.CDLL(path)
        _rt = _declare(lib)
        _rt.gf_set_error_handler(ctypes.cast(_on_error, ctypes.c_void_p), None)
        return _rt


def _check(status, what):
    if status != 0:
        raise GpufuseError('%s: %s' % (what, _rt.gf_error_string(status).decode(errors='replace')))


def _raise_reported(name):
    errs = getattr(_tls, 'errors', None)
    if errs:
        _tls.errors = []
        raise GpufuseError('%s: %s' % (name, '; '.join(errs)))


def have_device():
    """True when launchers run on a GPU, False on the CPU fallback."""
    return bool(runtime().gf_have_device())


def sync():
    """Waits for all work on the current device."""
    _check(runtime().gf_sync(), 'gf_sync')


# ---- streams (CUDA Array Interface v3, DLPack's stream argument) --------------------

def _cudart(name):
    f = getattr(runtime(), name)  # cudart, which libgpufuse links, through its handle
    f.restype = ctypes.c_int
    return f


def _order(after, before):
    """Work queued on stream `after` from now on waits for what `before` has
    queued (0: the legacy default stream, which gpufuse's launchers use)."""
    if after == before:
        return
    ev = ctypes.c_void_p()
    if (_cudart('cudaEventCreateWithFlags')(ctypes.byref(ev), 2) != 0  # cudaEventDisableTiming
            or _cudart('cudaEventRecord')(ev, ctypes.c_void_p(before)) != 0
            or _cudart('cudaStreamWaitEvent')(ctypes.c_void_p(after), ev, 0) != 0):
        raise GpufuseError('cannot order CUDA stream %#x after stream %#x' % (after, before))
    _cudart('cudaEventDestroy')(ev)


def _legacy(stream):
    """True for the streams that are ordered with the legacy default stream
    by CUDA itself: None/0/1 (legacy) and 2 (per-thread default)."""
    return stream in (None, 0, 1, 2)


# ---- arrays as the runtime sees them -------------------------------------------------

class _View:
    """One array argument: address, shape, byte strides (None: compact),
    element type, DLPack device, read-only flag, producer's stream."""

    def __init__(self, ptr, shape, strides, dtype, device, readonly=False, stream=None):
        self.ptr, self.shape, self.strides, self.dtype = ptr, tuple(shape), strides, dtype
        self.device, self.readonly, self.stream = device, readonly, stream


def _interface_view(ai, device, stream=None):
    ptr, ro = ai['data']
    return _View(ptr or 0, ai['shape'], ai.get('strides'), _dtype_name(ai['typestr']), device, ro, stream)


def _view_of(obj):
    """A _View of obj, or None when it can only go through DLPack
    (Function._pointer imports it for the call)."""
    if isinstance(obj, (Array, Imported)):
        return obj._view()
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError:
        cai = None
    except Exception:  # e.g. torch's bfloat16 and bool (KeyError): through DLPack
        return None
    if cai is not None:
        return _interface_view(cai, (kDLCUDA, None), cai['stream'] if 'stream' in cai else _torch_stream(obj))
    ai = getattr(obj, '__array_interface__', None)
    if ai is not None:
        if isinstance(ai.get('data'), tuple):
            return _interface_view(ai, (kDLCPU, 0))
    if isinstance(obj, ctypes.Array):
        t = obj._type_
        dt = next((k for k, v in _SCALAR_CTYPES.items() if v == t), None)
        if dt is None:
            raise TypeError('gpufuse: a ctypes array of %s' % t.__name__)
        return _View(ctypes.addressof(obj), (len(obj),), None, dt, (kDLCPU, 0))
    if isinstance(obj, array.array):
        code = obj.typecode
        dt = _ARRAY_CODES.get(code)
        if code in 'lLqQ':  # long is 8 bytes here, but ask the array
            dt = ('int' if code in 'lq' else 'uint') + str(8 * obj.itemsize)
        if dt is None:
            raise TypeError("gpufuse: an array.array of typecode '%s'" % code)
        addr, n = obj.buffer_info()
        return _View(addr, (n,), None, dt, (kDLCPU, 0))
    return None


def _torch_stream(obj):
    """The current stream of a torch tensor's device (torch's interface is
    version 2, without one; torch's side streams do not wait for the legacy
    default stream), None for other objects."""
    torch = sys.modules.get('torch')
    if torch is None or not isinstance(obj, torch.Tensor):
        return None
    return torch.cuda.current_stream(obj.device).cuda_stream


class _Registered:
    """A ctypes DLManagedTensor built for one argument and taken by
    gf_from_dlpack (no deleter: the memory stays its owner's)."""

    def __init__(self, v):
        nd = len(v.shape)
        self.shape = (ctypes.c_int64 * max(nd, 1))(*v.shape)
        self.strides = None
        if v.strides is not None:
            isz = _itemsize(v.dtype)
            if any(s % isz for s in v.strides):
                raise GpufuseError('byte strides %s are not whole elements' % (tuple(v.strides),))
            self.strides = (ctypes.c_int64 * max(nd, 1))(*(s // isz for s in v.strides))
        _, code, bits = DTYPES[v.dtype][:3]
        dev_type, dev_id = v.device
        self.t = DLManagedTensor()
        d = self.t.dl_tensor
        d.data, d.ndim, d.shape = v.ptr, nd, self.shape
        d.device.device_type = dev_type
        d.device.device_id = _current_device() if dev_id is None else dev_id
        d.dtype.code, d.dtype.bits, d.dtype.lanes = code, bits, 1
        if self.strides is not None:
            d.strides = self.strides
        rt = runtime()
        if rt.gf_from_dlpack(ctypes.byref(self.t), ctypes.byref(ctypes.c_void_p())) != 0:
            raise GpufuseError(rt.gf_last_error().decode(errors='replace'))

    def release(self):
        _rt.gf_dlpack_release(ctypes.byref(self.t))


def _current_device():
    d = ctypes.c_int(-1)
    runtime().gf_device_current(ctypes.byref(d))
    return d.value


# ---- PyCapsules ------------------------------------------------------------------------

_DLTENSOR = ctypes.create_string_buffer(b'dltensor')
_USED = ctypes.create_string_buffer(b'used_dltensor')
_api = ctypes.pythonapi
_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, _CapsuleDestructor)(
    ('PyCapsule_New', _api))
_PyCapsule_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_void_p)(
    ('PyCapsule_GetPointer', _api))
_PyCapsule_SetName = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(
    ('PyCapsule_SetName', _api))
_PyCapsule_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(
    ('PyCapsule_IsValid', _api))
_RawIsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(('PyCapsule_IsValid', _api))
_RawGetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
    ('PyCapsule_GetPointer', _api))


@_CapsuleDestructor
def _capsule_destructor(capsule):
    """A capsule nobody consumed (still named "dltensor") deletes its tensor;
    a consumer renames it "used_dltensor" and owns the tensor."""
    if _RawIsValid(capsule, ctypes.addressof(_DLTENSOR)):
        p = _RawGetPointer(capsule, ctypes.addressof(_DLTENSOR))
        t = ctypes.cast(p, ctypes.POINTER(DLManagedTensor))
        if t.contents.deleter:
            t.contents.deleter(t)


def _capsule(t):
    return _PyCapsule_New(ctypes.cast(t, ctypes.c_void_p), ctypes.addressof(_DLTENSOR), _capsule_destructor)


def _consume(capsule):
    """The DLManagedTensor of a "dltensor" capsule, which becomes ours."""
    if not _PyCapsule_IsValid(capsule, ctypes.addressof(_DLTENSOR)):
        raise GpufuseError('not an unconsumed "dltensor" capsule (a versioned or used one?)')
    p = _PyCapsule_GetPointer(capsule, ctypes.addressof(_DLTENSOR))
    _PyCapsule_SetName(capsule, ctypes.addressof(_USED))
    return ctypes.cast(p, ctypes.POINTER(DLManagedTensor))


def _dlpack_capsule(obj):
    """obj.__dlpack__(), its data ready for gpufuse's stream (legacy default)."""
    dev = obj.__dlpack_device__() if hasattr(obj, '__dlpack_device__') else (kDLCPU, 0)
    if dev[0] in (kDLCUDA, kDLCUDAManaged):
        return obj.__dlpack__(stream=1)
    return obj.__dlpack__()


# ---- importing other frameworks' arrays ---------------------------------------------------

class Imported:
    """An array of another framework taken through DLPack without a copy
    (gf_from_dlpack): registered with the runtime until release(), which
    hands it back (the producer's deleter).  Pass it to gpufuse functions;
    the producer must not free or resize it meanwhile."""

    def __init__(self, obj):
        capsule = obj if type(obj).__name__ == 'PyCapsule' else _dlpack_capsule(obj)
        t = _consume(capsule)
        data = ctypes.c_void_p()
        st = runtime().gf_from_dlpack(t, ctypes.byref(data))
        if st != 0:
            msg = runtime().gf_last_error().decode(errors='replace')
            if t.contents.deleter:
                t.contents.deleter(t)  # refused: it is still ours to hand back
            raise GpufuseError(msg)
        self._t, self.ptr = t, data.value or 0
        d = t.contents.dl_tensor
        self.shape = tuple(d.shape[i] for i in range(d.ndim))
        self.dtype = _BY_CODE[(d.dtype.code, d.dtype.bits)]
        self.device = (d.device.device_type, d.device.device_id)

    def _view(self):
        if self._t is None:
            raise GpufuseError('the imported tensor was released')
        return _RegisteredView(self)

    def release(self):
        if self._t is not None:
            t, self._t = self._t, None
            _check(runtime().gf_dlpack_release(t), 'gf_dlpack_release')

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __del__(self):
        try:
            self.release()
        except Exception:
            pass


class _RegisteredView(_View):
    """An Imported or Array: already known to the runtime."""

    def __init__(self, owner):
        super().__init__(owner.ptr, owner.shape, None, owner.dtype, owner.device)
        self.owner = owner


def from_dlpack(obj):
    """Takes obj (anything with __dlpack__, or a "dltensor" capsule) without a
    copy; see Imported."""
    return Imported(obj)


# ---- arrays gpufuse owns ------------------------------------------------------------------

class Array:
    """A block of gpufuse's pool as an array: device='device' (gf_malloc:
    GPU memory, host memory in CPU mode) or 'pinned' (gf_host_malloc).
    Frameworks take it without a copy (__dlpack__, __cuda_array_interface__
    or __array_interface__); the block goes back to the pool when the Array
    and every tensor made from it are gone."""

    def __init__(self, shape, dtype='float32', device='device'):
        rt = runtime()
        self.dtype = _dtype_name(dtype)
        self.shape = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
        n = 1
        for s in self.shape:
            n *= s
        self.nbytes = n * _itemsize(self.dtype)
        ptr = ctypes.c_void_p()
        alloc, free = (rt.gf_malloc, rt.gf_free) if device == 'device' else \
            (rt.gf_host_malloc, rt.gf_host_free) if device == 'pinned' else (None, None)
        if alloc is None:
            raise ValueError("gpufuse.Array: device is 'device' or 'pinned', not %r" % (device,))
        _check(alloc(ctypes.byref(ptr), max(self.nbytes, 1)), 'gf_malloc' if device == 'device' else 'gf_host_malloc')
        shp = (ctypes.c_int64 * max(len(self.shape), 1))(*self.shape)
        t = ctypes.POINTER(DLManagedTensor)()
        st = rt.gf_to_dlpack(ptr, len(self.shape), shp, DTYPES[self.dtype][0], 1, ctypes.byref(t))
        if st != 0:
            free(ptr)
            _check(st, 'gf_to_dlpack')
        self._t, self.ptr = t, ptr.value
        d = t.contents.dl_tensor.device
        self.device = (d.device_type, d.device_id)

    def _view(self):
        if self._t is None:
            raise GpufuseError('the array was freed')
        return _RegisteredView(self)

    def free(self):
        """Drops this Array's reference (tensors handed out keep the block)."""
        if self._t is not None:
            t, self._t = self._t, None
            t.contents.deleter(t)

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._t is None:
            raise BufferError('the array was freed')
        if copy:
            raise BufferError('gpufuse.Array exports without a copy only')
        if dl_device is not None and tuple(dl_device) != self.device:
            raise BufferError('gpufuse.Array is on %s, not %s' % (self.device, tuple(dl_device)))
        if self.device[0] == kDLCUDA and stream is not None and stream != -1 and not _legacy(stream):
            _order(stream, 0)  # the consumer's stream waits for gpufuse's
        t = ctypes.POINTER(DLManagedTensor)()
        _check(runtime().gf_dlpack_share(self._t, ctypes.byref(t)), 'gf_dlpack_share')
        return _capsule(t)

    @property
    def __cuda_array_interface__(self):
        if self.device[0] != kDLCUDA:
            raise AttributeError('a host array has no __cuda_array_interface__')
        return {'shape': self.shape, 'typestr': self._typestr(), 'data': (self.ptr, False),
                'version': 3, 'strides': None, 'stream': 1}

    @property
    def __array_interface__(self):
        if self.device[0] == kDLCUDA:
            raise AttributeError('a device array has no __array_interface__')
        return {'shape': self.shape, 'typestr': self._typestr(), 'data': (self.ptr, False),
                'version': 3, 'strides': None}

    def _typestr(self):
        ts = DTYPES[self.dtype][3]
        if ts is None:
            raise TypeError('%s has no array-interface type string (use DLPack)' % self.dtype)
        return ts


def empty(shape, dtype='float32', device='device'):
    """An uninitialised gpufuse.Array."""
    return Array(shape, dtype, device)


def to_dlpack(array):
    """A "dltensor" capsule of a gpufuse.Array (the legacy to_dlpack form)."""
    return array.__dlpack__()


# ---- functions -------------------------------------------------------------------------

_QUALIFIERS = {'const', 'volatile', 'restrict', '__restrict', '__restrict__', 'static', 'register',
               'extern', 'inline', 'GPUFUSE'}
_TYPE_WORDS = {'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '_Bool',
               'bool', '_Complex', 'complex', '_Float16', '__bf16', 'half', '__fp16', 'struct', 'union'}


class _Param:
    def __init__(self, text):
        self.text = text.strip()
        t = self.text
        self.pointer = t.count('*') + (1 if '[' in t else 0)
        words = re.findall(r'[A-Za-z_]\w*', re.sub(r'\[[^\]]*\]', ' ', t))
        self.const = 'const' in words[:max(1, len(words) - 1)]
        words = [w for w in words if w not in _QUALIFIERS]
        if len(words) >= 2 and words[-1] not in _TYPE_WORDS and not words[-1].endswith('_t') \
                and words[-2] != 'struct':
            self.name = words.pop()
        else:
            self.name = None
        self.ctype = ' '.join(words)
        if self.ctype.startswith('struct ') or self.ctype.startswith('union ') or self.ctype == 'void':
            self.dtype = None  # any element type
        else:
            self.dtype = _BY_C.get(self.ctype)
            if self.dtype is None:
                raise TypeError('gpufuse: cannot map C type %r (parameter %r)' % (self.ctype, self.text))
        if self.pointer > 1:
            raise TypeError('gpufuse: pointer to pointer %r' % self.text)
        if self.pointer == 0 and self.dtype not in _SCALAR_CTYPES:
            raise TypeError('gpufuse: a %s passed by value (%r) cannot go through ctypes' %
                            (self.ctype, self.text))


def _parse(signature):
    m = re.fullmatch(r'\s*(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*;?\s*', signature, re.S)
    if not m:
        raise ValueError('gpufuse: not a C declaration: %r' % signature)
    ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
    parts, depth, cur = [], 0, ''
    for ch in params:
        depth += ch in '[(' and 1 or ch in '])' and -1 or 0
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip() and cur.strip() != 'void':
        parts.append(cur)
    ret_words = [w for w in re.findall(r'[A-Za-z_]\w*', ret) if w not in _QUALIFIERS]
    ret_c = ' '.join(ret_words)
    if '*' in ret:
        restype = ctypes.c_void_p
    elif ret_c == 'void':
        restype = None
    elif _BY_C.get(ret_c) in _SCALAR_CTYPES:
        restype = _SCALAR_CTYPES[_BY_C[ret_c]]
    else:
        raise TypeError('gpufuse: return type %r cannot go through ctypes' % ret)
    return name, restype, [_Param(p) for p in parts]


class Function:
    """A function of a gpufuse-compiled library with its C signature.
    Pointer parameters take device arrays (PyTorch/CuPy CUDA tensors, DLPack
    producers, gpufuse.Array, Imported: passed where they are) and host
    arrays (NumPy, array.array, ctypes arrays, pinned Arrays: staged by the
    launcher), of the parameter's element type, compact row-major; None
    passes NULL and an int an address as it is."""

    def __init__(self, lib, signature):
        self.name, restype, self.params = _parse(signature)
        self._f = getattr(lib, self.name)
        self._f.restype = restype
        self._f.argtypes = [ctypes.c_void_p if p.pointer else _SCALAR_CTYPES[p.dtype] for p in self.params]
        self.signature = signature

    def _check_view(self, k, p, v):
        label = 'argument %d (%s) of %s' % (k, p.name or p.text, self.name)
        if p.dtype is not None and v.dtype != p.dtype and not (p.ctype == 'char' and v.dtype == 'uint8'):
            raise TypeError('%s: %s elements, the parameter is %s' % (label, v.dtype, p.dtype))
        if v.readonly and not p.const:
            raise ValueError('%s: a read-only array for a parameter the function may write' % label)
        if v.device[0] == kDLCUDA and not have_device():
            raise GpufuseError('%s: a CUDA array, but the runtime runs on the CPU' % label)

    def __call__(self, *args):
        if len(args) != len(self.params):
            raise TypeError('%s takes %d arguments (%d given)' % (self.name, len(self.params), len(args)))
        regs, streams, conv = [], set(), []
        try:
            for k, (p, a) in enumerate(zip(self.params, args)):
                if not p.pointer:
                    conv.append(a)
                elif a is None or isinstance(a, int):
                    conv.append(a)
                else:
                    conv.append(self._pointer(k, p, a, regs, streams))
            for s in streams:
                _order(0, s)  # the producers' work first
            _tls.errors = []
            r = self._f(*conv)
            _raise_reported(self.name)
            for s in streams:
                _order(s, 0)  # and theirs after ours
            return r
        finally:
            for reg in reversed(regs):
                reg.release()

    def _pointer(self, k, p, a, regs, streams):
        v = _view_of(a)
        if v is None:
            if not hasattr(a, '__dlpack__'):
                raise TypeError('argument %d of %s: %s is not an array gpufuse knows' %
                                (k, self.name, type(a).__name__))
            imp = Imported(a)  # for the length of the call
            regs.append(imp)
            v = imp._view()
        self._check_view(k, p, v)
        if isinstance(v, _RegisteredView):
            return v.ptr
        if not _legacy(v.stream):
            streams.add(v.stream)
        regs.append(_Registered(v))
        return v.ptr


class Library:
    """A shared library built with gpufuse's Meson or CMake recipe."""

    def __init__(self, path):
        self.path = path
        self.cdll = ctypes.CDLL(path)
        if _rt is None:
            try:
                runtime(self.cdll)  # its libgpufuse, found through its handle
            except AttributeError:
                runtime()

    def function(self, signature):
        """Function for a C declaration: "void f(int n, const float *x, float *y)"."""
        return Function(self.cdll, signature)


def load(path):
    """Loads a gpufuse-compiled shared library."""
    return Library(path)
