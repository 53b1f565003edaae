"""Golden model of aclnnReplicationPad3dBackward (contract clause RP-VALUES).

Along each padded axis (input size n, ``before`` padding) output position p reads input position
clamp(p - before, 0, n - 1); gradInput[i] is the sum of the gradOutput elements that read i.
Negative padding crops (input positions never read get 0).

Each padded axis splits into a before-slab (reads plane 0), an interior (one-to-one) and an
after-slab (reads plane n - 1): 27 regions. The interior block is copied once, converting to
float64; each of the 26 other regions is summed over its border axes and added onto edge planes.
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

Block = tuple[Any, ...]
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
    if np.iscomplexobj(grad):
        value = _fold(grad, in_shape, axes, np.complex128)
    else:
        value = _fold(grad, in_shape, axes, np.float64)
    if not bounds:
        return {"gradInput": without_bounds(value)}
    if np.iscomplexobj(grad):
        # Magnitudes in complex128, so they carry no float32 rounding of their own.
        abs_sum = _fold(np.abs(grad.astype(np.complex128)), in_shape, axes, np.float64)
    else:
        abs_sum = _fold(grad, in_shape, axes, np.float64, absolute=True)
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


def _fold(grad: np.ndarray, in_shape: tuple[int, ...], axes: list[list[_Region]],
          acc: type, absolute: bool = False) -> np.ndarray:
    """Sum gradOutput (|gradOutput| when ``absolute``) back onto gradInput, in dtype ``acc``."""
    if 0 in in_shape:
        return np.zeros(in_shape, acc)
    covered = all(sum(r.dst.stop - r.dst.start for r in regions) == n
                  for regions, n in zip(axes, in_shape[-3:]))
    # Cropping leaves unread positions, which must be 0; otherwise the regions write everything.
    out = np.empty(in_shape, acc) if covered else np.zeros(in_shape, acc)
    combos = list(itertools.product(*axes))  # the interior combination comes first
    plans = [_plan(c) for c in combos]
    blocks = _blocks(grad.shape)
    if len(blocks) < 2:
        _fold_block(grad, out, plans, absolute)
        return out
    # Pipeline: a worker copies the interior block by block (one long numpy call per block,
    # the GIL released throughout) while this thread sums the faces of the same blocks, so
    # each block's gradOutput is read from cache by the second of the two. Edges and corners
    # are small: summed once over the whole array. Regions write disjoint elements, so the
    # result does not depend on which thread runs first.
    interior = [p for p in plans if not p[2]]
    faces = [p for p in plans if len(p[2]) == 1]
    rest = [p for p in plans if len(p[2]) > 1]
    with ThreadPoolExecutor(1) as pool:
        copied = pool.submit(_fold_blocks, grad, out, blocks, interior, absolute)
        _fold_blocks(grad, out, blocks, faces, absolute)
        _fold_block(grad, out, rest, absolute)
        copied.result()
    return out


def _fold_blocks(grad: np.ndarray, out: np.ndarray, blocks: list[Block], plans: list[_Plan],
                 absolute: bool) -> None:
    for idx in blocks:
        _fold_block(grad[idx], out[idx], plans, absolute)


def _fold_block(grad: np.ndarray, out: np.ndarray, plans: list[_Plan], absolute: bool) -> None:
    for src, dst, borders in plans:
        slab, target = grad[src], out[dst]
        if not borders:
            target[...] = slab
            if absolute:
                np.abs(target, out=target)  # in place, in float64: no extra copy of the input
        else:
            _sum_slab(target, slab, borders, absolute)


def _plan(combo: tuple[_Region, ...]) -> _Plan:
    """Index tuples and border axes of one region, built once per call, not once per block."""
    borders = tuple(axis - _PADDED_AXES for axis, r in enumerate(combo) if r.border)
    return (Ellipsis, *(r.src for r in combo)), (Ellipsis, *(r.dst for r in combo)), borders


def _sum_slab(target: np.ndarray, slab: np.ndarray, borders: tuple[int, ...],
              absolute: bool) -> None:
    """target = slab (|slab| when ``absolute``) summed over its border axes, in target's dtype.

    One strided cast copy puts the border axes first: numpy's reductions over short or
    strided axes of a strided, mixed-dtype view run a tiny loop per row and are several
    times slower than this copy plus a reduction over whole contiguous planes.
    """
    nd = slab.ndim
    summed = tuple(nd + a for a in borders)
    kept = tuple(a for a in range(nd) if a not in summed)
    planes = slab.transpose(*summed, *kept).astype(target.dtype, order="C")
    if absolute:
        np.abs(planes, out=planes)
    planes = planes.reshape(-1, *planes.shape[len(summed):])
    target[...] = np.add.reduce(planes, axis=0).reshape(target.shape)


def _blocks(shape: tuple[int, ...]) -> list[Block]:
    """Index tuples of batch-row blocks of about _BLOCK_ELEMENTS; [] when too small to pay."""
    lead = shape[:-_PADDED_AXES]
    if not lead or math.prod(shape) < _THREAD_MIN_ELEMENTS:
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
