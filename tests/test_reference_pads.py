"""reference/pad_backward.py against brute force: every gradOutput element added, one at a time,
onto the input element numpy's own forward padding (np.pad: edge, reflect, wrap) copied it from."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from reference import (
    circular_pad2d_backward,
    reflection_pad3d_backward,
    replication_pad1d_backward,
    replication_pad2d_backward,
)

# (function, padded axes, np.pad mode)
OPS = {
    "replication1d": (replication_pad1d_backward, 1, "edge"),
    "replication2d": (replication_pad2d_backward, 2, "edge"),
    "reflection3d": (reflection_pad3d_backward, 3, "reflect"),
    "circular2d": (circular_pad2d_backward, 2, "wrap"),
}


def brute_force(grad: np.ndarray, in_shape: tuple[int, ...], padding: list[int], mode: str):
    """(value, abs_sum, count) by explicit loops over every gradOutput element."""
    k = len(padding) // 2
    lead, spatial = in_shape[:-k], in_shape[-k:]
    widths = [(padding[2 * i], padding[2 * i + 1]) for i in reversed(range(k))]
    source = np.pad(np.arange(math.prod(spatial)).reshape(spatial), widths, mode=mode)
    value = np.zeros((math.prod(lead), math.prod(spatial)), grad.dtype)
    abs_sum = np.zeros(value.shape)
    count = np.zeros(value.shape, np.int64)
    flat = grad.reshape(math.prod(lead), -1)
    for row, col in itertools.product(range(flat.shape[0]), range(flat.shape[1])):
        target = source.flat[col]
        value[row, target] += flat[row, col]
        abs_sum[row, target] += abs(flat[row, col])
        count[row, target] += 1
    return value.reshape(in_shape), abs_sum.reshape(in_shape), count.reshape(in_shape)


def cases(k: int):
    """Shapes and paddings: zero, one, the maximum (size - 1), mixed; lead dims 0, 1 and 2."""
    spatial = {1: [(1,), (4,), (5,)], 2: [(1, 1), (3, 4), (4, 2)], 3: [(3, 4, 2), (1, 1, 1), (2, 3, 4)]}[k]
    for dims in spatial:
        maxima = [d - 1 for d in reversed(dims) for _ in (0, 1)]
        for padding in ([0] * 2 * k, maxima, [min(1, m) for m in maxima],
                        [m if i % 2 else 0 for i, m in enumerate(maxima)]):
            for lead in ((), (2,), (2, 3)):
                yield (*lead, *dims), padding


@pytest.mark.parametrize("op", OPS)
def test_matches_brute_force(op):
    fn, k, mode = OPS[op]
    rng = np.random.default_rng(7)
    checked = 0
    for in_shape, padding in cases(k):
        out_shape = list(in_shape)
        for i in range(k):
            out_shape[-1 - i] += padding[2 * i] + padding[2 * i + 1]
        grad = rng.standard_normal(out_shape)
        golden = fn({"gradOutput": grad, "self": np.zeros(in_shape), "padding": padding})["gradInput"]
        value, abs_sum, count = brute_force(grad, in_shape, padding, mode)
        where = f"{op} self {in_shape} padding {padding}"
        np.testing.assert_allclose(golden.value, value, rtol=1e-12, atol=1e-12, err_msg=where)
        np.testing.assert_allclose(golden.abs_sum, abs_sum, rtol=1e-12, atol=1e-12, err_msg=where)
        assert np.array_equal(np.broadcast_to(golden.count, in_shape), count), where
        checked += 1
    assert checked >= 36


@pytest.mark.parametrize("op,grad_shape,self_shape,padding,expected", [
    # the pages' own examples (功能说明) and sample programs (调用示例), all-ones gradOutput
    ("replication1d", (1, 5), (1, 3), [1, 1], [[2, 1, 2]]),
    ("replication1d", (1, 4), (1, 2), [1, 1], [[2, 2]]),
    ("replication2d", (1, 1, 7), (1, 1, 5), [1, 1, 0, 0], [[[2, 1, 1, 1, 2]]]),
    ("replication2d", (1, 1, 4, 4), (1, 1, 2, 2), [1, 1, 1, 1], [[[[4, 4], [4, 4]]]]),
    ("circular2d", (1, 1, 7), (1, 1, 5), [1, 1, 0, 0], [[[2, 1, 1, 1, 2]]]),
    ("circular2d", (1, 1, 4, 4), (1, 1, 2, 2), [1, 1, 1, 1], [[[[4, 4], [4, 4]]]]),
    ("reflection3d", (1, 1, 4, 4, 4), (1, 1, 2, 2, 2), [1] * 6, np.full((1, 1, 2, 2, 2), 8)),
])
def test_worked_examples(op, grad_shape, self_shape, padding, expected):
    fn = OPS[op][0]
    golden = fn({"gradOutput": np.ones(grad_shape, np.float32), "self": np.zeros(self_shape),
                 "padding": padding})["gradInput"]
    assert golden.value.tolist() == np.asarray(expected, np.float64).tolist()


@pytest.mark.parametrize("op,n,padding,expected", [
    # negative padding crops: x = p - before starts past 0; the rest maps as for positive padding
    ("replication1d", 4, [-1, 2], [0, 1, 1, 3]),      # reads 1, 2, 3, 3, 3
    ("circular2d", 4, [-2, 1, 0, 0], [1, 0, 1, 1]),   # reads 2, 3, 0
    ("reflection3d", 4, [-1, 1, 0, 0, 0, 0], [0, 1, 2, 1]),  # reads 1, 2, 3, 2
])
def test_negative_padding_crops(op, n, padding, expected):
    fn, k, _ = OPS[op]
    in_shape = (1,) * (k - 1) + (n,)
    out_w = n + padding[0] + padding[1]
    grad = np.ones((1,) * (k - 1) + (out_w,))
    golden = fn({"gradOutput": grad, "self": np.zeros(in_shape), "padding": padding})["gradInput"]
    assert golden.value.ravel().tolist() == expected
    assert np.broadcast_to(golden.count, in_shape).ravel().tolist() == expected


def test_special_values_and_complex():
    """inf and NaN sum as IEEE says (no 0 * inf); complex stays complex; an empty batch is zeros."""
    grad = np.array([[np.inf, 1.0, 2.0, -np.inf]])  # W 2 padded (1, 1): both edges get an inf
    value = replication_pad1d_backward({"gradOutput": grad, "self": np.zeros((1, 2)),
                                        "padding": [1, 1]})["gradInput"].value
    assert value.tolist() == [[np.inf, -np.inf]]
    grad = np.array([[1 + 2j, 3 - 1j, 5j]])
    value = circular_pad2d_backward({"gradOutput": grad[None], "self": np.zeros((1, 1, 2)),
                                     "padding": [1, 0, 0, 0]})["gradInput"].value
    assert value.dtype == np.complex128 and value.ravel().tolist() == [3 - 1j, 1 + 7j]
    empty = reflection_pad3d_backward({"gradOutput": np.ones((0, 1, 4, 4, 4)),
                                       "self": np.zeros((0, 1, 2, 2, 2)), "padding": [1] * 6})["gradInput"]
    assert empty.value.shape == (0, 1, 2, 2, 2)


def test_rejects_wrong_shapes():
    with pytest.raises(ValueError, match="should be"):
        replication_pad2d_backward({"gradOutput": np.ones((1, 4, 4)), "self": np.zeros((1, 2, 2)),
                                    "padding": [1, 1, 1, 0]})
    with pytest.raises(ValueError, match="outside"):
        reflection_pad3d_backward({"gradOutput": np.ones((1, 1, 1, 6)), "self": np.zeros((1, 1, 1, 2)),
                                   "padding": [2, 2, 0, 0, 0, 0]})
