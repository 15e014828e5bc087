"""A DLPack array that says it lives in CUDA memory but is never read: only its description (shape,
strides, dtype, device) reaches the consumer. For tests of the argument checks that run before any
device is used, on machines with or without a GPU. Its address is a dummy: never run work on it."""
import ctypes


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

_KDL_CUDA = 2
DTYPES = {"float16": (2, 16), "bfloat16": (4, 16), "float32": (2, 32), "int8": (0, 8)}  # DLPack (code, bits)


class FakeCudaArray:
    """shape, dtype (a DTYPES key), strides in elements (default: row-major)."""

    def __init__(self, shape, dtype="float16", strides=None, device_id=0):
        n = len(shape)
        if strides is None:
            strides, step = [], 1
            for extent in reversed(shape):
                strides.insert(0, step)
                step *= extent
        self.shape = tuple(shape)
        self._shape = (ctypes.c_int64 * n)(*shape)
        self._strides = (ctypes.c_int64 * n)(*strides)
        self._managed = _DLManagedTensor()  # no deleter: this object owns everything the capsule points to
        t = self._managed.dl_tensor
        t.data = 0x100000  # 16-byte aligned, never dereferenced
        t.device = _DLDevice(_KDL_CUDA, device_id)
        t.ndim = n
        t.dtype = _DLDataType(*DTYPES[dtype], 1)
        t.shape, t.strides = self._shape, self._strides

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (_KDL_CUDA, self._managed.dl_tensor.device.device_id)

    def t(self):
        """The transpose (a view: shape and strides swapped)."""
        return FakeCudaArray(self.shape[::-1], strides=list(self._strides)[::-1],
                             dtype=next(k for k, v in DTYPES.items() if v == (self._managed.dl_tensor.dtype.code,
                                                                              self._managed.dl_tensor.dtype.bits)))
