"""Golden model of aclnnReplicationPad3dBackward (contract clause RP-VALUES).

Along each padded axis (input size n, ``before`` padding) output position p reads input position
clamp(p - before, 0, n - 1); gradInput[i] is the sum of the gradOutput elements that read i.
Negative padding crops (input positions never read get 0).

Slab sums: each padded axis splits into the positions landing on plane 0 (the before-slab and
the first interior position), the one-to-one interior, and those landing on plane n - 1: 3^3 = 27
regions that partition gradInput. The interior block is copied once, converting to float64; each
of the 26 other regions is summed over its border axes (keepdims) into its edge planes. Every
element is written exactly once, so there is no zero fill, no read-modify-write pass and no
order between regions; large inputs are folded in cache-sized blocks on two threads.
"""
from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

from .golden import Golden, as_array, shape_of, without_bounds

_PADDED_AXES = 3
# Below this many gradOutput elements blocking and threads cost more than they save.
_THREAD_MIN_ELEMENTS = 1 << 20
# A block this size keeps its gradOutput and gradInput in cache while its faces are summed.
_BLOCK_ELEMENTS = 686_000

_Block = tuple[Any, ...]  # an index selecting some batch rows
_Plan = tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]]  # (src index, dst index, borders)


class _Region(NamedTuple):
    src: slice  # gradOutput positions along one axis
    dst: slice  # gradInput positions they land on
    border: bool  # True: every src position lands on the single plane dst


def replication_pad3d_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput of ReplicationPad3d, in float64 (complex128 when gradOutput is complex).

    ``args``: "gradOutput" (float16, bfloat16, float32, float64, complex64 or complex128, any
    strides), "self" (only its shape is used), "padding" (left, right, top, bottom, front,
    back: W, H and D are the last three dims, leading dims are batch). Raises ValueError when
    gradOutput's shape is not the forward output's. With ``bounds=False`` abs_sum and count
    are empty arrays of shape (0,).
    """
    grad = as_array(args["gradOutput"])
    in_shape = shape_of(args["self"])
    pads = _axis_pads(args["padding"])
    _check_shapes(grad.shape, in_shape, pads)
    axes = [_axis_regions(n, before, after) for n, (before, after) in zip(in_shape[-3:], pads)]
    dtype = np.complex128 if np.iscomplexobj(grad) else np.float64
    value, abs_sum = _fold(grad, in_shape, axes, dtype, with_abs=bounds)
    if abs_sum is None:
        return {"gradInput": without_bounds(value)}
    return {"gradInput": Golden(value, abs_sum, _count(in_shape, axes))}


def _axis_pads(padding: Sequence[int]) -> list[tuple[int, int]]:
    """(before, after) for D, H, W; padding lists W first, as the document does."""
    pads = [operator.index(p) for p in padding]
    if len(pads) != 2 * _PADDED_AXES:
        raise ValueError(f"padding has {len(pads)} values, but should have 6")
    left, right, top, bottom, front, back = pads
    return [(front, back), (top, bottom), (left, right)]


def _check_shapes(out_shape: tuple[int, ...], in_shape: tuple[int, ...],
                  pads: list[tuple[int, int]]) -> None:
    if len(in_shape) < _PADDED_AXES or len(out_shape) != len(in_shape):
        raise ValueError(f"gradOutput rank {len(out_shape)} and self rank {len(in_shape)} "
                         "must be equal and at least 3")
    lead = len(in_shape) - _PADDED_AXES
    padded = [n + b + a for n, (b, a) in zip(in_shape[lead:], pads)]
    want = (*in_shape[:lead], *padded)
    if min(padded) < 0 or tuple(out_shape) != want:
        raise ValueError(f"gradOutput shape {tuple(out_shape)}, but should be {want}")


def _axis_regions(n: int, before: int, after: int) -> list[_Region]:
    """The regions of one axis: they partition the gradInput positions that are read at all.

    Plane 0 takes every position reading it (the before-slab and the first interior position),
    plane n - 1 likewise, the planes between one position each. So every gradInput element is
    written exactly once: no zero fill, no read-modify-write, no order between regions.
    """
    m = n + before + after
    if n == 1:
        return [_Region(slice(0, m), slice(0, 1), True)] if m > 0 else []
    first = slice(0, min(max(before + 1, 0), m))
    mid_lo, mid_hi = max(1, -before), min(n - 1, m - before)
    last = slice(min(max(before + n - 1, 0), m), m)
    regions = []
    if mid_hi > mid_lo:
        regions.append(_Region(slice(mid_lo + before, mid_hi + before), slice(mid_lo, mid_hi), False))
    if first.stop > 0:
        regions.append(_Region(first, slice(0, 1), True))
    if last.stop > last.start:
        regions.append(_Region(last, slice(n - 1, n), True))
    return regions


def _fold(grad: np.ndarray, in_shape: tuple[int, ...], axes: list[list[_Region]], dtype: type,
          with_abs: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """gradInput in ``dtype`` and, when ``with_abs``, the same sums of |gradOutput| (float64).

    Both come from one pass over gradOutput: the golden model is memory-bound.
    """
    if 0 in in_shape:
        return np.zeros(in_shape, dtype), np.zeros(in_shape) if with_abs else None
    covered = all(sum(r.dst.stop - r.dst.start for r in regions) == n
                  for regions, n in zip(axes, in_shape[-3:]))
    # Cropping leaves unread positions, which must be 0; otherwise the regions write everything.
    alloc = np.empty if covered else np.zeros
    outs = (alloc(in_shape, dtype), alloc(in_shape, np.float64) if with_abs else None)
    plans = [_plan(c) for c in itertools.product(*axes)]
    blocks = _blocks(grad.shape)
    if len(blocks) < 2:
        _fold_block(grad, outs, plans)
        return outs
    # The interior and the faces are the bulk of the traffic: fold them block by block, so a
    # block's gradOutput is still in cache when its faces are summed. Edges and corners are
    # small: summed over the whole array, to save Python calls.
    bulk = [p for p in plans if len(p[2]) <= 1]
    rest = [p for p in plans if len(p[2]) > 1]
    half = len(blocks) // 2

    def run(part: int) -> None:
        for idx in blocks[half:] if part else blocks[:half]:
            _fold_block(grad[idx], tuple(o if o is None else o[idx] for o in outs), bulk)
        _fold_block(grad, outs, rest[part::2])

    # numpy releases the GIL in copies and reductions, and regions write disjoint elements,
    # so the result is bit-identical to a single-threaded run.
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(run, [0, 1]))
    return outs


def _fold_block(grad: np.ndarray, outs: tuple[np.ndarray, np.ndarray | None],
                plans: list[_Plan]) -> None:
    value, abs_sum = outs
    for src, dst, borders in plans:
        slab, target = grad[src], value[dst]
        if not borders:
            target[...] = slab
            if abs_sum is not None:
                np.abs(target, out=abs_sum[dst])  # from the float64 copy: no second input read
            continue
        planes = _border_planes(slab, borders, value.dtype)
        _sum_planes(target, planes, len(borders))
        if abs_sum is not None:
            magnitudes = np.abs(planes, out=planes) if planes.dtype == np.float64 else np.abs(planes)
            _sum_planes(abs_sum[dst], magnitudes, len(borders))


def _plan(combo: tuple[_Region, ...]) -> _Plan:
    """Index tuples and border axes of one region, built once per call, not once per block."""
    borders = tuple(axis - _PADDED_AXES for axis, r in enumerate(combo) if r.border)
    return (Ellipsis, *(r.src for r in combo)), (Ellipsis, *(r.dst for r in combo)), borders


def _border_planes(slab: np.ndarray, borders: tuple[int, ...], dtype: type) -> np.ndarray:
    """slab cast to ``dtype`` in a C-ordered copy with the border axes first.

    numpy's reductions over short or strided axes of a strided, mixed-dtype view run a tiny
    loop per row and are several times slower than this copy plus a reduction over whole
    contiguous planes.
    """
    nd = slab.ndim
    summed = tuple(nd + a for a in borders)
    kept = tuple(a for a in range(nd) if a not in summed)
    return slab.transpose(*summed, *kept).astype(dtype, order="C")


def _sum_planes(target: np.ndarray, planes: np.ndarray, n_summed: int) -> None:
    """target = planes summed over their first ``n_summed`` axes."""
    flat = planes.reshape(-1, *planes.shape[n_summed:])
    target[...] = np.add.reduce(flat, axis=0).reshape(target.shape)


def _blocks(shape: tuple[int, ...]) -> list[_Block]:
    """Index tuples of batch-row blocks of about _BLOCK_ELEMENTS; [] when too small to pay."""
    lead, size = shape[:-_PADDED_AXES], math.prod(shape)
    if not lead or size == 0 or size < _THREAD_MIN_ELEMENTS:
        return []
    rows = max(1, _BLOCK_ELEMENTS // math.prod(shape[-_PADDED_AXES:]))
    last = lead[-1]
    return [(*outer, slice(start, min(start + rows, last)))
            for outer in np.ndindex(*lead[:-1]) for start in range(0, last, rows)]


def _count(in_shape: tuple[int, ...], axes: list[list[_Region]]) -> np.ndarray:
    """Terms per gradInput element: the outer product of the per-axis counts."""
    vectors = []
    for n, regions in zip(in_shape[-3:], axes):
        counts = np.zeros(n, np.int64)
        for r in regions:
            counts[r.dst] += (r.src.stop - r.src.start) if r.border else 1
        vectors.append(counts)
    d, h, w = vectors
    lead = (1,) * (len(in_shape) - _PADDED_AXES)
    return (d[:, None, None] * h[None, :, None] * w[None, None, :]).reshape(lead + in_shape[-3:])
