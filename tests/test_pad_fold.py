"""The padding gradients' fold (reference/pad_backward.py): each gradInput element is the sum of
the gradOutput positions mapping to it in position order, ((p0 + p1) + p2) ..., bit for bit,
whatever the map, the crop, the layout of the input and its special values."""
from __future__ import annotations

import numpy as np
import pytest

from reference.pad_backward import _circular, _fold, _reflect, _replicate, axis_index


def _sequential(values: np.ndarray, lead: int, maps: list[np.ndarray],
                in_shape: tuple[int, ...]) -> np.ndarray:
    for axis, idx in enumerate(maps, start=lead):
        moved = np.moveaxis(values, axis, 0)
        out = np.zeros((in_shape[axis], *moved.shape[1:]), values.dtype)
        seen: set[int] = set()
        for position, target in enumerate(idx.tolist()):
            out[target] = out[target] + moved[position] if target in seen else moved[position]
            seen.add(target)
        values = np.moveaxis(out, 0, axis)
    return values


def _data(rng: np.random.Generator, shape: tuple[int, ...], complex_: bool) -> np.ndarray:
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-20, 20, shape)
    special = rng.random(shape) < 0.2
    x[special] = rng.choice([np.inf, -np.inf, np.nan, -0.0, 0.0, 1e308, -1e308], int(special.sum()))
    with np.errstate(all="ignore"):  # (inf * 1j has a NaN real part: data like any other)
        return x + 1j * x[..., ::-1] if complex_ else x


@pytest.mark.parametrize("mapping", [_replicate, _reflect, _circular])
def test_the_fold_is_the_sequential_sum(mapping):
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(60):
        in_shape = (2, *(int(n) for n in rng.integers(2, 7, 2)))
        limit = {_reflect: 1, _replicate: 10, _circular: 12}[mapping]
        pads = [(int(rng.integers(-1, n - 1 if limit == 1 else limit)),
                 int(rng.integers(-1, n - 1 if limit == 1 else limit))) for n in in_shape[1:]]
        maps = [axis_index(mapping, n, b, a) for n, (b, a) in zip(in_shape[1:], pads)]
        grad = _data(rng, (2, *(m.size for m in maps)), complex_=bool(checked % 2))
        grad = np.ascontiguousarray(grad.T).T if checked % 3 == 0 else grad  # a transposed layout
        with np.errstate(all="ignore"):  # inf - inf and overflow are part of the data
            got, want = _fold(grad, 1, maps, in_shape), _sequential(grad, 1, maps, in_shape)
        canon = [np.ascontiguousarray(x).view(np.float64).copy() for x in (got, want)]
        for x in canon:
            x[np.isnan(x)] = np.nan  # (a NaN's payload is the hardware's choice)
        assert got.shape == want.shape and canon[0].tobytes() == canon[1].tobytes(), (in_shape, pads)
        checked += 1
    assert checked == 60
