"""Turn a case's tensor descriptions into data: views inside guard-filled storage buffers.

Inputs get values from a numpy Generator seeded by the case (bulk data is not drawn through
Hypothesis); outputs are filled with a sentinel, never zeros, so a backend that reads its output or
leaves elements unwritten is caught. Every buffer has margins on both sides of the view, so a write
outside the view shows up as changed guard bytes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.cases.case import Case
from conformance.cases.domain_values import fill_domain
from conformance.cases.tensor import Tensor, TensorMeta, view_into
from conformance.spec.model import READ, OperatorSpec, SpecSet
from conformance.spec.values import TensorList, element_name, flat_tensors

MARGIN = 8           # guard elements before and after every view
GUARD_BYTE = 0xA5    # fills input margins and non-float output storage
REGIMES = ("ordinary", "zeros", "special", "subnormal", "huge", "negative")


@dataclass
class Materialized:
    """The data-carrying case plus copies of every storage buffer taken just before the call.
    ``metas``, ``before`` and ``storages`` name each tensor by its flat name (``x``, or ``x[i]``
    for the elements of a tensor list: spec/values.py)."""

    case: Case
    metas: dict[str, TensorMeta]
    before: dict[str, bytes]

    def storages(self) -> dict[str, np.ndarray]:
        return {flat: t.storage for flat, _, t in flat_tensors(self.case.args) if isinstance(t, Tensor)}


def materialize(case: Case, specs: SpecSet, seed: int = 0, regime: str = "ordinary") -> Materialized:
    """Data for ``case`` (whose tensor args are TensorMeta, alone or in a TensorList) from
    ``seed`` in value ``regime``; each element of a list is a tensor of its own."""
    spec = specs.operator(case.api)
    rng = np.random.default_rng(seed)
    args: dict[str, Any] = {}
    metas: dict[str, TensorMeta] = {}
    for name, value in case.args.items():
        if isinstance(value, TensorMeta):
            metas[name] = value
            args[name] = _tensor(spec, specs, name, value, rng, regime)
            if name in spec.data and spec.params[name].role in READ and \
                    spec.data[name].applies(case.args):
                # a domain's bounds may read other arguments' shapes (class count C)
                fill_domain(args[name].array, spec.data[name], dict(case.args), rng, regime, value.outside)
        elif isinstance(value, TensorList):
            metas.update((element_name(name, i), e) for i, e in enumerate(value) if e is not None)
            args[name] = value.map(lambda e, n=name: None if e is None else
                                   _tensor(spec, specs, n, e, rng, regime))
        else:
            args[name] = value
    built = Case(case.api, case.product, args, extra=dict(case.extra))
    return Materialized(built, metas, snapshot(built))


def storage_elements(meta: TensorMeta) -> int:
    """Elements of the buffer ``materialize`` allocates for ``meta``: the view and its margins."""
    return meta.storage_size() + 2 * MARGIN


def storage_bytes(case: Case, specs: SpecSet) -> int:
    """Bytes ``materialize`` would allocate for the tensors of ``case`` (TensorMeta args), once."""
    dtypes = specs.vocabulary.dtypes
    return sum(storage_elements(v) * dtypes[v.dtype].numpy.itemsize
               for _, _, v in flat_tensors(case.args) if isinstance(v, TensorMeta))


def replica(m: Materialized) -> Materialized:
    """``m`` as it was before its call, in new buffers: each storage from ``m.before`` (the bytes
    ``materialize`` gives for the same case, seed and regime, without drawing them again)."""
    args: dict[str, Any] = {}
    for name, value in m.case.args.items():
        if isinstance(value, Tensor):
            args[name] = _copy(value, m.before[name])
        elif isinstance(value, TensorList):
            args[name] = TensorList(_copy(e, m.before[element_name(name, i)]) if isinstance(e, Tensor)
                                    else e for i, e in enumerate(value))
        else:
            args[name] = value
    return Materialized(Case(m.case.api, m.case.product, args, extra=dict(m.case.extra)),
                        dict(m.metas), dict(m.before))


def _copy(tensor: Tensor, before: bytes) -> Tensor:
    storage = np.frombuffer(before, tensor.storage.dtype).copy()
    view = np.lib.stride_tricks.as_strided(storage[tensor.offset:], shape=tensor.array.shape,
                                           strides=tensor.array.strides)
    return Tensor(view, storage, tensor.format, tensor.dtype_name)


def snapshot(case: Case) -> dict[str, bytes]:
    """Every tensor's storage bytes, by flat name."""
    return {flat: t.storage.tobytes() for flat, _, t in flat_tensors(case.args) if isinstance(t, Tensor)}


def _tensor(spec: OperatorSpec, specs: SpecSet, name: str, meta: TensorMeta, rng: np.random.Generator,
            regime: str) -> Tensor:
    dtype = specs.vocabulary.dtypes[meta.dtype].numpy
    shifted = TensorMeta(meta.shape, meta.dtype, meta.element_strides, meta.offset + MARGIN, meta.format)
    storage = np.empty(storage_elements(meta), dtype)
    storage.view(np.uint8)[...] = GUARD_BYTE
    view = view_into(storage, shifted)
    if spec.params[name].role == "output":
        if dtype.kind in "fc":
            storage[...] = np.nan
    else:
        view[...] = values(dtype, meta.shape, rng, regime)
    return Tensor(view, storage, meta.format, meta.dtype)


def values(dtype: np.dtype, shape: tuple[int, ...], rng: np.random.Generator, regime: str) -> np.ndarray:
    """Bulk data of one value regime, already in ``dtype``."""
    if dtype.kind in "iub":
        return rng.integers(0, 2 if dtype.kind == "b" else 7, size=shape).astype(dtype)
    info = np.finfo(np.float32 if dtype.kind == "c" and dtype.itemsize == 8 else
                    np.float64 if dtype.kind == "c" else dtype)
    # draw in float32 when the tensor holds no more: the same distribution at half the cost of
    # float64 draws (the size axis makes millions of elements per case)
    draw = np.float32 if info.bits <= 32 else np.float64
    with np.errstate(all="ignore"):  # inf/nan and overflow to inf are what these regimes are for
        real = _real(rng, shape, regime, float(info.max), float(info.smallest_normal), draw)
        if dtype.kind == "c":
            real = real + 1j * _real(rng, shape, regime, float(info.max), float(info.smallest_normal), draw)
        return real.astype(dtype, copy=False)  # (drawn in the dtype itself: no copy)


_SPECIALS = np.array([np.inf, -np.inf, np.nan])


def _real(rng: np.random.Generator, shape: tuple[int, ...], regime: str, big: float,
          tiny: float, draw: type = np.float64) -> np.ndarray:
    x = rng.standard_normal(shape, dtype=draw)
    if regime == "zeros":
        where = rng.random(shape, dtype=np.float32) < 0.5
        x[where] = np.copysign(0.0, rng.random(int(where.sum())) - 0.5)
    elif regime == "special":
        where = rng.random(shape, dtype=np.float32) < 0.2
        x[where] = _SPECIALS[rng.integers(0, 3, int(where.sum()))]
    elif regime == "subnormal":
        x = x.astype(np.float64) * tiny * 0.25  # (a float32 product would flush FLOAT16-sized tiny)
    elif regime == "huge":
        x = np.clip(x.astype(np.float64), -4, 4) * (big / 16)
    elif regime == "negative":
        x = -np.abs(x)
    return x


def dense_span(meta: TensorMeta) -> tuple[int, int] | None:
    """The storage elements [start, stop) a contiguous view (at offset + MARGIN) covers, all of
    them; None for any other layout (``written_mask`` says which)."""
    if not meta.contiguous:
        return None
    start = meta.offset + MARGIN
    return start, start + meta.numel


def written_mask(meta: TensorMeta, size: int) -> np.ndarray:
    """Which elements of a storage of ``size`` the view (at offset + MARGIN) covers."""
    mask = np.zeros(size, bool)
    shifted = TensorMeta(meta.shape, meta.dtype, meta.element_strides, meta.offset + MARGIN, meta.format)
    view_into(mask, shifted)[...] = True
    return mask
