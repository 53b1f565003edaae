"""The aclnn C ABI behind the adapter protocol: a CANN installation, or any library exporting it.

A case is mapped exactly: every tensor's WHOLE storage buffer is copied to the device (guard
margins and views survive), the view is described by its shape, element strides and element
offset into that storage, and after the call every storage buffer (inputs too) is copied back
into the host array in place, so the suite's memory checks see what the device holds. Which
argument is which, and its C type, comes from the operator spec's parameter list.

Use as ``--backend aclnn`` (CANN from $ASCEND_HOME_PATH or /usr/local/Ascend/ascend-toolkit/latest)
or ``--backend aclnn:lib=PATH[,lib=PATH...][,product=P][,device=N]``.
"""
from __future__ import annotations

import ctypes
import operator
from types import TracebackType
from typing import Any

import numpy as np

from conformance.backends import aclnn_abi
from conformance.backends.aclnn_abi import Abi, AclError, int64s, library_paths
from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.cases.tensor import Tensor
from conformance.errors import UsageError
from conformance.spec.loader import read_shipped_specs
from conformance.spec.model import Param
from conformance.spec.values import Scalar
from conformance.spec.vocabulary import Vocabulary


class AclnnBackend:
    name = "aclnn"
    product_from_device = True  # the SoC says which product line this is, unless --product does

    def __init__(self, lib: list[str] | str | None = None, product: str | None = None,
                 device: int = 0) -> None:
        self.specs = read_shipped_specs()
        self.abi = Abi(library_paths(lib))
        self.ops: dict[str, tuple[Any, Any, Any]] = {}
        self.missing_operators: dict[str, str] = {}  # a library may implement some operators only
        for api, spec in self.specs.operators.items():
            try:
                self.ops[api] = (spec, *self.abi.operator(spec))
            except UsageError as exc:
                self.missing_operators[api] = str(exc)
        code = self.abi.fn["aclInit"](None)
        if code not in (0, aclnn_abi.ACL_ERROR_REPEAT_INITIALIZE):  # one aclInit per process, not per backend
            raise UsageError(f"aclInit returned {code} (libraries: {', '.join(self.abi.paths)})")
        self.device = int(device)
        self.soc = (self.abi.fn["aclrtGetSocName"]() or b"").decode(errors="replace")
        self.product = self._product(product)
        self.version = f"{self._acl_version()} on {self.soc}".strip()
        self._stream: ctypes.c_void_p | None = None

    def _product(self, given: str | None) -> str | None:
        vocab = self.specs.vocabulary
        if given is not None:
            pid = vocab.product(given)
            if pid is None:
                raise UsageError(f"product={given}: unknown product line (known: "
                                 f"{', '.join(vocab.products)}, or a SoC name)")
            return pid
        # An unknown SoC leaves the product to --product (the run refuses to guess one).
        return vocab.product(self.soc)

    def _acl_version(self) -> str:
        get = self.abi.optional["aclrtGetVersion"]
        parts = [ctypes.c_int32() for _ in range(3)]
        if get is None or get(*(ctypes.byref(p) for p in parts)) != 0:
            return ""
        return "ACL " + ".".join(str(p.value) for p in parts)

    def _ensure_stream(self) -> ctypes.c_void_p:
        """The device and stream, set up on the first call (not when the backend is only loaded
        to read its product, as the run's parent process does)."""
        if self._stream is None:
            self.abi.check("aclrtSetDevice", self.device)
            stream = ctypes.c_void_p()
            self.abi.check("aclrtCreateStream", ctypes.byref(stream))
            self._stream = stream
        return self._stream

    def close(self) -> None:
        """Release the stream and the device, and finalize ACL (the backend is unusable after)."""
        if self._stream is not None:
            self.abi.fn["aclrtDestroyStream"](self._stream)
            self.abi.fn["aclrtResetDevice"](self.device)
            self._stream = None
        self.abi.fn["aclFinalize"]()

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        try:
            spec, workspace_fn, execute_fn = self.ops[self.specs.operator(api).api]
        except KeyError:
            raise ValueError(f"aclnn backend: unknown api {api!r} (known: {', '.join(self.ops)})") from None
        stream = self._ensure_stream()
        with _Resources(self.abi, self.specs.vocabulary) as res:
            c_args = [res.argument(p, args.get(p.name)) for p in spec.params.values()]
            size, executor = ctypes.c_uint64(0), ctypes.c_void_p()
            status = workspace_fn(*c_args, ctypes.byref(size), ctypes.byref(executor))
            if status != 0:
                result = CallResult(status, PHASE_WORKSPACE)
            else:
                workspace = res.malloc(size.value) if size.value else None  # 0: NULL, as CANN's samples do
                status = execute_fn(workspace, size.value, executor, stream)
                self.abi.check("aclrtSynchronizeStream", stream)
                result = CallResult(status, PHASE_EXECUTE)
            res.copy_back()
        return result


class _Resources:
    """Device buffers, tensors and int and bool arrays of one call, all released on exit, errors included."""

    def __init__(self, abi: Abi, vocab: Vocabulary) -> None:
        self.abi, self.vocab = abi, vocab
        self.buffers: list[int] = []
        self.tensors: list[int] = []
        self.arrays: list[int] = []
        self.bool_arrays: list[int] = []
        self.lists: list[int] = []  # each destroys its tensors (aclDestroyTensorList)
        self.scalars: list[int] = []
        self.copies: list[tuple[np.ndarray, int]] = []  # (host storage, its device copy)

    def __enter__(self) -> _Resources:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        fn, opt = self.abi.fn, self.abi.optional
        codes = [opt["aclDestroyTensorList"](t) for t in self.lists]
        codes += [opt["aclDestroyScalar"](s) for s in self.scalars]
        codes += [fn["aclDestroyTensor"](t) for t in self.tensors]
        codes += [fn["aclDestroyIntArray"](a) for a in self.arrays]
        codes += [opt["aclDestroyBoolArray"](a) for a in self.bool_arrays]
        codes += [fn["aclrtFree"](b) for b in self.buffers]
        if exc is None and any(codes):  # never mask the error that is already on its way out
            raise AclError(f"releasing the call's resources failed (codes {sorted(set(codes) - {0})})")

    def malloc(self, nbytes: int) -> int:
        ptr = ctypes.c_void_p()
        # An empty storage still gets a real (1-byte) buffer: its tensor needs a device address.
        self.abi.check("aclrtMalloc", ctypes.byref(ptr), max(nbytes, 1), aclnn_abi.MALLOC_HUGE_FIRST)
        self.buffers.append(ptr.value)
        return ptr.value  # type: ignore[return-value]

    def argument(self, param: Param, value: Any) -> Any:
        """The C value of one argument; None (a null pointer) stays None."""
        if param.kind == "tensor":
            return None if value is None else self.tensor(param.name, value)
        if param.kind == "tensor_list":
            return None if value is None else self.tensor_list(param.name, value)
        if param.kind == "scalar":
            return None if value is None else self.scalar(param.name, value)
        if param.kind == "string":
            return None if value is None else str(value).encode()
        if param.kind == "int_array":
            return None if value is None else self.int_array([operator.index(v) for v in value])
        if param.kind == "bool_array":
            return None if value is None else self.bool_array([bool(v) for v in value])
        if param.kind == "int":
            return operator.index(value)
        if param.kind == "float":
            return float(value)  # ctypes rounds it to the C float of the signature
        return bool(value)  # bool: the only other kind aclnn_abi.C_TYPES maps

    def tensor_list(self, name: str, tensors: Any) -> int:
        """An aclTensorList of the elements (each an aclTensor the list then owns)."""
        handles: list[int] = []
        try:
            for i, t in enumerate(tensors):
                handles.append(self.tensor(f"{name}[{i}]", t, owned=False))
        except Exception:
            self.tensors += handles  # no list owns them yet: release them one by one
            raise
        handle = self.abi.optional["aclCreateTensorList"]((ctypes.c_void_p * len(handles))(*handles),
                                                          len(handles))
        if not handle:
            self.tensors += handles  # (released one by one, as no list holds them)
            raise AclError(f"aclCreateTensorList returned NULL for {name} ({len(handles)} tensors)")
        self.lists.append(handle)
        return handle

    def scalar(self, name: str, value: Scalar) -> int:
        """An aclScalar of the value, passed as its dtype's bytes (aclCreateScalar copies them)."""
        dtype = self.vocab.dtype(value.dtype)
        if dtype is None:
            raise ValueError(f"{name}: dtype {value.dtype} has no aclDataType in specs/vocabulary.yaml")
        entry = self.vocab.dtypes[dtype]
        number = np.array([value.value], dtype=entry.numpy)
        handle = self.abi.optional["aclCreateScalar"](number.ctypes.data, entry.acl_code)
        if not handle:
            raise AclError(f"aclCreateScalar returned NULL for {name} {value!r}")
        self.scalars.append(handle)
        return handle

    def tensor(self, name: str, t: Tensor, owned: bool = True) -> int:
        storage = t.storage
        if not storage.flags.c_contiguous:
            raise ValueError(f"{name}: the storage buffer must be one contiguous 1-D array")
        device = self.malloc(storage.nbytes)
        if storage.nbytes:
            self.abi.check("aclrtMemcpy", device, storage.nbytes, storage.ctypes.data, storage.nbytes,
                           aclnn_abi.MEMCPY_HOST_TO_DEVICE)
        self.copies.append((storage, device))
        dims, strides = int64s(t.shape), int64s(t.element_strides)
        handle = self.abi.fn["aclCreateTensor"](dims, len(t.shape), self.dtype_code(name, t), strides,
                                                t.offset, self.format_code(name, t),
                                                int64s([storage.size]), 1, device)
        if not handle:
            raise AclError(f"aclCreateTensor returned NULL for {name} {t!r}")
        if owned:  # (a list's elements are released with the list)
            self.tensors.append(handle)
        return handle

    def int_array(self, values: list[int]) -> int:
        handle = self.abi.fn["aclCreateIntArray"](int64s(values), len(values))
        if not handle:
            raise AclError(f"aclCreateIntArray returned NULL for {values}")
        self.arrays.append(handle)
        return handle

    def bool_array(self, values: list[bool]) -> int:
        handle = self.abi.optional["aclCreateBoolArray"]((ctypes.c_bool * len(values))(*values), len(values))
        if not handle:
            raise AclError(f"aclCreateBoolArray returned NULL for {values}")
        self.bool_arrays.append(handle)
        return handle

    def dtype_code(self, name: str, t: Tensor) -> int:
        dtype = self.vocab.dtype(t.dtype_name) if t.dtype_name else self.vocab.dtype_of_numpy(t.array.dtype)
        if dtype is None:
            raise ValueError(f"{name}: dtype {t.dtype_name or t.array.dtype} has no aclDataType in "
                             "specs/vocabulary.yaml")
        return self.vocab.dtypes[dtype].acl_code

    def format_code(self, name: str, t: Tensor) -> int:
        if t.format not in self.vocab.formats:
            raise ValueError(f"{name}: format {t.format!r} has no aclFormat in specs/vocabulary.yaml")
        return self.vocab.formats[t.format]

    def copy_back(self) -> None:
        """Every storage back from the device, in place (a read-only one was only ever read)."""
        for storage, device in self.copies:
            if storage.nbytes and storage.flags.writeable:
                self.abi.check("aclrtMemcpy", storage.ctypes.data, storage.nbytes, device,
                               storage.nbytes, aclnn_abi.MEMCPY_DEVICE_TO_HOST)
