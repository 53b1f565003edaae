"""The aclnn C ABI through ctypes: which shared libraries, which symbols, their exact C signatures.

The runtime (libascendcl), the tensor API (libnnopbase) and the operators (libopapi) are loaded
with RTLD_GLOBAL, as CANN's own libraries expect of each other, and every symbol is looked up
across all of them, so a test double that puts the whole ABI in one library works the same way.
Operator signatures are built from the spec's parameter list: the C argument order is the
documents' parameter order, followed by ``uint64_t* workspaceSize, aclOpExecutor** executor``.
"""
from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.errors import UsageError
from conformance.spec.model import OperatorSpec

DEFAULT_ROOT = "/usr/local/Ascend/ascend-toolkit/latest"
CANN_LIBS = ("lib64/libascendcl.so", "lib64/libnnopbase.so", "lib64/libopapi.so")

MEMCPY_HOST_TO_DEVICE = 1
MEMCPY_DEVICE_TO_HOST = 2
MALLOC_HUGE_FIRST = 0            # aclrtMemMallocPolicy: any policy will do for test buffers
ACL_ERROR_REPEAT_INITIALIZE = 100002  # aclInit once per process: a second backend may see this

_status = ctypes.c_int32  # aclError and aclnnStatus
_ptr = ctypes.c_void_p
_i64p = ctypes.POINTER(ctypes.c_int64)

#: name -> (restype, argtypes), exactly as the CANN headers declare them.
RUNTIME: dict[str, tuple[Any, list[Any]]] = {
    "aclInit": (_status, [ctypes.c_char_p]),
    "aclFinalize": (_status, []),
    "aclrtSetDevice": (_status, [ctypes.c_int32]),
    "aclrtResetDevice": (_status, [ctypes.c_int32]),
    "aclrtCreateStream": (_status, [ctypes.POINTER(_ptr)]),
    "aclrtDestroyStream": (_status, [_ptr]),
    "aclrtSynchronizeStream": (_status, [_ptr]),
    "aclrtMalloc": (_status, [ctypes.POINTER(_ptr), ctypes.c_size_t, ctypes.c_int]),
    "aclrtFree": (_status, [_ptr]),
    "aclrtMemcpy": (_status, [_ptr, ctypes.c_size_t, _ptr, ctypes.c_size_t, ctypes.c_int]),
    "aclrtGetSocName": (ctypes.c_char_p, []),
    # aclTensor* aclCreateTensor(viewDims, viewDimsNum, dataType, stride, offset, format,
    #                            storageDims, storageDimsNum, tensorData)
    "aclCreateTensor": (_ptr, [_i64p, ctypes.c_uint64, ctypes.c_int, _i64p, ctypes.c_int64,
                               ctypes.c_int, _i64p, ctypes.c_uint64, _ptr]),
    "aclDestroyTensor": (_status, [_ptr]),
    "aclCreateIntArray": (_ptr, [_i64p, ctypes.c_uint64]),
    "aclDestroyIntArray": (_status, [_ptr]),
}
#: Looked up when present; the backend works without them.
OPTIONAL: dict[str, tuple[Any, list[Any]]] = {
    "aclrtGetVersion": (_status, [ctypes.POINTER(ctypes.c_int32)] * 3),
    # aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size): destroying
    # the list destroys its tensors; aclScalar* aclCreateScalar(void* value, aclDataType dataType)
    "aclCreateTensorList": (_ptr, [ctypes.POINTER(_ptr), ctypes.c_uint64]),
    "aclDestroyTensorList": (_status, [_ptr]),
    "aclCreateScalar": (_ptr, [_ptr, ctypes.c_int]),
    "aclDestroyScalar": (_status, [_ptr]),
    # aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size)
    "aclCreateBoolArray": (_ptr, [ctypes.POINTER(ctypes.c_bool), ctypes.c_uint64]),
    "aclDestroyBoolArray": (_status, [_ptr]),
}
#: The functions a parameter kind needs besides RUNTIME's (an operator with such a parameter is
#: "not run" by a library lacking them).
NEEDS = {"tensor_list": ("aclCreateTensorList", "aclDestroyTensorList"),
         "scalar": ("aclCreateScalar", "aclDestroyScalar"),
         "bool_array": ("aclCreateBoolArray", "aclDestroyBoolArray")}
#: The C type of a parameter, by its spec kind (tensors and int arrays are opaque handles; a float
#: attribute is a C float, as the headers declare one, e.g. SmoothL1's ``float beta``).
C_TYPES = {"tensor": _ptr, "tensor_list": _ptr, "scalar": _ptr, "string": ctypes.c_char_p,
           "int_array": _ptr, "bool_array": _ptr, "int": ctypes.c_int64, "bool": ctypes.c_bool,
           "float": ctypes.c_float}


class AclError(RuntimeError):
    """A runtime call (malloc, memcpy, stream) failed: the backend could not run the case."""


def library_paths(lib: Sequence[str] | str | None) -> list[str]:
    """The libraries to load: those given, else the CANN installation's three."""
    if lib:
        return [lib] if isinstance(lib, str) else [str(p) for p in lib]
    env = os.environ.get("ASCEND_HOME_PATH")
    roots = [r for r in (env, DEFAULT_ROOT) if r]
    root = next((Path(r) for r in roots if Path(r).is_dir()), None)
    if root is None:
        raise UsageError(f"no CANN installation found: looked in $ASCEND_HOME_PATH "
                         f"({env or 'not set'}) and {DEFAULT_ROOT}; source CANN's set_env.sh, or name "
                         "the libraries exporting the aclnn ABI: --backend aclnn:lib=PATH[,lib=PATH...]")
    return [str(root / name) for name in CANN_LIBS]


class Abi:
    """The loaded libraries and every function of the ABI with its signature declared."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.libs = [_load(p) for p in self.paths]
        self.fn = {name: self.function(name, *sig) for name, sig in RUNTIME.items()}
        self.optional = {name: self.function(name, *sig, required=False) for name, sig in OPTIONAL.items()}

    def function(self, name: str, restype: Any, argtypes: list[Any], required: bool = True) -> Any:
        for lib in self.libs:
            try:
                fn = lib[name]  # a fresh function object: signatures never leak between backends
            except AttributeError:
                continue
            fn.restype, fn.argtypes = restype, argtypes
            return fn
        if required:
            raise UsageError(f"symbol {name} not found in {', '.join(self.paths)}: these libraries do "
                             "not export the aclnn ABI (pass every library it needs: lib=PATH,lib=PATH)")
        return None

    def operator(self, spec: OperatorSpec) -> tuple[Any, Any]:
        """(GetWorkspaceSize, execute) of one operator, with signatures from its parameters."""
        args = []
        for p in spec.params.values():
            if p.kind not in C_TYPES:
                raise UsageError(f"{spec.api}: parameter {p.name} of kind {p.kind} has no C type in "
                                 "the aclnn backend")
            lacking = [f for f in NEEDS.get(p.kind, ()) if self.optional[f] is None]
            if lacking:
                raise UsageError(f"{spec.api}: parameter {p.name} ({p.kind}) needs {', '.join(lacking)}, "
                                 f"not found in {', '.join(self.paths)}")
            args.append(C_TYPES[p.kind])
        planned = [*args, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(_ptr)]
        workspace = self.function(f"{spec.api}GetWorkspaceSize", _status, planned)
        execute = self.function(spec.api, _status, [_ptr, ctypes.c_uint64, _ptr, _ptr])
        return workspace, execute

    def check(self, name: str, *args: Any) -> None:
        """Call a runtime function; a nonzero aclError raises ``AclError`` naming it."""
        code = self.fn[name](*args)
        if code != 0:
            raise AclError(f"{name} returned {code}")


def _load(path: str) -> ctypes.CDLL:
    if not Path(path).is_file():
        raise UsageError(f"aclnn library {path} does not exist")
    try:
        return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError as exc:
        raise UsageError(f"cannot load aclnn library {path}: {exc}") from None


def int64s(values: Sequence[int]) -> Any:
    """A C ``int64_t[]`` holding ``values`` (valid even when empty)."""
    return (ctypes.c_int64 * len(values))(*values)
