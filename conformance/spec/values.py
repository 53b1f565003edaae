"""Argument values of the parameter kinds beyond one tensor and plain attributes: a tensor list
(``aclTensorList*``) and a host scalar carrying a dtype (``aclScalar*``). A ``string`` (``char*``)
argument is a plain ``str``.

A ``TensorList`` is a tuple of its elements (``TensorMeta`` before data exists, ``Tensor`` after),
so expressions read ``len(x)`` and ``x[0].shape``. Checks that look at tensors one by one (dtype,
format, rank, guards, saved data) see each element under its own name, ``x[0]``, ``x[1]``:
``flat_tensors`` gives them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

#: Parameter kinds whose arguments are tensors (one, or a list of them): what carries a dtype,
#: shape, format and data.
TENSOR_KINDS = ("tensor", "tensor_list")
#: Parameter kinds with a dtype (dtype_in and same_dtype clauses may name them).
DTYPED_KINDS = (*TENSOR_KINDS, "scalar")


class TensorList(tuple):  # noqa: SLOT001 - a tuple with a type: lists and int arrays differ
    """The elements of one tensor-list argument, in order."""

    __slots__ = ()

    def map(self, fn: Callable[[Any], Any]) -> TensorList:
        return TensorList(fn(e) for e in self)


@dataclass(frozen=True)
class Scalar:
    """A host scalar: its value and the dtype it is passed as (``aclCreateScalar(&value, dtype)``)."""

    value: Any
    dtype: str

    def __repr__(self) -> str:
        return f"{self.dtype}({self.value!r})"


def element_name(param: str, index: int) -> str:
    return f"{param}[{index}]"


def flat_tensors(args: Mapping[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """``(flat name, parameter, tensor)`` for every tensor of ``args``: a plain tensor argument
    under its name, each element of a list under ``x[i]``; nulls and other kinds left out."""
    for name, value in args.items():
        if isinstance(value, TensorList):
            for i, element in enumerate(value):
                if element is not None:
                    yield element_name(name, i), name, element
        elif value is not None and hasattr(value, "shape") and not isinstance(value, Scalar):
            yield name, name, value


def flat_arg(args: Mapping[str, Any], flat: str) -> Any:
    """The tensor ``flat`` names in ``args`` (``x`` or ``x[i]``)."""
    if flat.endswith("]") and "[" in flat:
        name, index = flat[:-1].split("[", 1)
        value = args.get(name)
        if isinstance(value, TensorList):
            return value[int(index)]
    return args.get(flat)


def parameter_of(flat: str) -> str:
    """The parameter a flat tensor name belongs to (``x[2]`` -> ``x``)."""
    return flat.split("[", 1)[0]


def with_dtype(value: Any, dtype: str) -> Any:
    """``value`` (a TensorMeta, TensorList of them or Scalar) in ``dtype``; a scalar's value is
    made the dtype's kind of number (an integer dtype gets a whole number)."""
    if isinstance(value, TensorList):
        return value.map(lambda e: replace(e, dtype=dtype) if e is not None else None)
    if isinstance(value, Scalar):
        return Scalar(scalar_value(value.value, dtype), dtype)
    return replace(value, dtype=dtype)


def dtype_kind(dtype: str) -> str:
    """bool, uint, int, complex or float, by the dtype's documents' name."""
    name = dtype.upper()
    return next((kind for prefix, kind in (("BOOL", "bool"), ("UINT", "uint"), ("INT", "int"),
                                           ("COMPLEX", "complex")) if name.startswith(prefix)), "float")


def scalar_value(value: Any, dtype: str) -> Any:
    """``value`` as the kind of number ``dtype`` holds."""
    kind = dtype_kind(dtype)
    if isinstance(value, complex) and kind != "complex":
        value = value.real  # (a complex scalar passed in a real dtype: its real part)
    if kind == "bool":
        return bool(value)
    if kind == "uint":
        return abs(int(value))  # (an unsigned dtype cannot hold a negative value)
    if kind == "int":
        return int(value)
    return complex(value) if kind == "complex" else float(value)


def scalar_dtype(item: str, listed: list[str]) -> str:
    """The dtype a valid case passes a scalar in: the item's where listed, else the first listed
    of its kind (an INT8 item's scalar INT32, a BFLOAT16 item's FLOAT), else the first listed.
    Pages often tie a scalar's dtype to a tensor's this way in notes no clause reads, so valid
    cases never explore other listed dtypes."""
    if item in listed:
        return item
    kind = dtype_kind(item).replace("uint", "int")
    return next((d for d in listed if dtype_kind(d).replace("uint", "int") == kind), listed[0])


def dtypes_of(value: Any) -> list[str]:
    """The dtype of every element of a dtyped argument (one for a tensor or scalar)."""
    if isinstance(value, TensorList):
        return [e.dtype for e in value if e is not None]
    return [value.dtype] if value is not None else []
