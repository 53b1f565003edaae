"""Tensors as the suite describes them: metadata only (``TensorMeta``) or data (``Tensor``)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major element strides of ``shape``."""
    strides, step = [], 1
    for dim in reversed(shape):
        strides.append(step)
        step *= max(dim, 1)
    return tuple(reversed(strides))


@dataclass(frozen=True)
class TensorMeta:
    """What the oracle needs of a tensor argument: shape, dtype name, element strides, offset, format.

    ``strides`` None means row-major contiguous. Attribute names are those spec expressions use.
    """

    shape: tuple[int, ...]
    dtype: str
    strides: tuple[int, ...] | None = None
    offset: int = 0
    format: str = "ND"
    outside: bool = False  # some elements lie outside the parameter's ``data`` domain

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def contiguous(self) -> bool:
        """True when the view is dense row-major (size-1 dims may have any stride), offset ignored."""
        if self.strides is None or self.numel == 0:
            return True
        want = contiguous_strides(self.shape)
        return all(d == 1 or s == w for d, s, w in zip(self.shape, self.strides, want))

    @property
    def element_strides(self) -> tuple[int, ...]:
        return self.strides if self.strides is not None else contiguous_strides(self.shape)

    def storage_size(self) -> int:
        """Elements a storage buffer needs to hold this view (0 for an empty view)."""
        if self.numel == 0:
            return self.offset
        reach = sum((d - 1) * s for d, s in zip(self.shape, self.element_strides) if s > 0)
        return self.offset + reach + 1


class Tensor:
    """A tensor argument with data: ``array`` is a (possibly strided) view into ``storage``.

    ``storage`` is a 1-D buffer; ``array`` must lie inside it. This is what backends receive: they
    read inputs from ``array`` and write outputs into ``array`` in place, as the C API would.
    """

    def __init__(self, array: np.ndarray, storage: np.ndarray | None = None, format: str = "ND",
                 dtype_name: str | None = None) -> None:
        self.array = array
        self.storage = storage if storage is not None else _as_storage(array)
        self.format = format
        self.dtype_name = dtype_name

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.array.shape)

    @property
    def element_strides(self) -> tuple[int, ...]:
        item = self.array.itemsize
        return tuple(s // item for s in self.array.strides)

    @property
    def offset(self) -> int:
        base = self.storage.__array_interface__["data"][0]
        here = self.array.__array_interface__["data"][0]
        return (here - base) // self.array.itemsize

    def meta(self, dtype_name: str) -> TensorMeta:
        strides = self.element_strides
        meta = TensorMeta(self.shape, dtype_name, strides, self.offset, self.format)
        return meta if not meta.contiguous else TensorMeta(self.shape, dtype_name, None,
                                                            self.offset, self.format)

    def __repr__(self) -> str:
        return (f"Tensor(shape={self.shape}, dtype={self.array.dtype}, strides={self.element_strides}, "
                f"offset={self.offset}, format={self.format})")


def _as_storage(array: np.ndarray) -> np.ndarray:
    """The flat buffer behind a view; a fresh contiguous copy when the view owns no usable base."""
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    if base is array or not base.flags.c_contiguous:
        return array.reshape(-1) if array.flags.c_contiguous else np.ascontiguousarray(array).reshape(-1)
    return base.reshape(-1)


def view_into(storage: np.ndarray, meta: TensorMeta) -> np.ndarray:
    """The view ``meta`` describes, inside the 1-D ``storage`` (no copy)."""
    item = storage.itemsize
    strides = tuple(s * item for s in meta.element_strides)
    return np.lib.stride_tricks.as_strided(storage[meta.offset:], shape=meta.shape, strides=strides)
