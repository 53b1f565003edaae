"""The ReplicationPad3dBackward golden model against the document's worked examples and an
independent formulation: np.add.at over explicit clamp index arrays."""
from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace
from unittest import mock

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_arrays import LAYOUTS, assert_close, random_array, with_layout

import reference.replication_pad3d as rp_module
from reference import Golden, replication_pad3d_backward

RP_DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128]


# ---------------------------------------------------------------- ReplicationPad3d


def rp_args(grad: np.ndarray, self_shape: tuple[int, ...], padding: tuple[int, ...]) -> dict:
    return {"gradOutput": grad, "self": np.zeros(self_shape, grad.dtype), "padding": padding}


def brute_rp(grad: np.ndarray, self_shape: tuple[int, ...],
             padding: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """value, Σ|terms| and count by scattering every gradOutput element onto its source."""
    left, _, top, _, front, _ = padding
    index = [np.arange(n) for n in self_shape[:-3]]
    for n, before, m in zip(self_shape[-3:], (front, top, left), grad.shape[-3:]):
        index.append(np.clip(np.arange(m) - before, 0, n - 1))
    at = np.ix_(*index)
    dtype = np.complex128 if np.iscomplexobj(grad) else np.float64
    terms = grad.astype(dtype)
    value, abs_sum = np.zeros(self_shape, dtype), np.zeros(self_shape)
    count = np.zeros(self_shape, np.int64)
    np.add.at(value, at, terms)
    np.add.at(abs_sum, at, np.abs(terms))
    np.add.at(count, at, 1)
    return value, abs_sum, count


@st.composite
def rp_cases(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    rank = draw(st.sampled_from([4, 5]))
    lead = draw(st.lists(st.integers(1, 3), min_size=rank - 3, max_size=rank - 3))
    dims = draw(st.lists(st.integers(1, 5), min_size=3, max_size=3))
    pads = {}
    for n, name in zip(dims, "DHW"):
        before = draw(st.integers(-(n - 1), 4))
        # Output length n + before + after must not be negative (0 is an empty gradOutput).
        after = draw(st.integers(max(-(n - 1), -(n + before)), 4))
        pads[name] = (before, after)
    padding = (*pads["W"], *pads["H"], *pads["D"])
    self_shape = (*lead, *dims)
    out_shape = (*lead, *(n + sum(pads[name]) for n, name in zip(dims, "DHW")))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    grad = random_array(rng, out_shape, draw(st.sampled_from(RP_DTYPES)))
    return with_layout(grad, draw(st.sampled_from(LAYOUTS))), self_shape, padding


def check_rp_against_brute(grad: np.ndarray, self_shape: tuple[int, ...],
                           padding: tuple[int, ...]) -> None:
    golden = replication_pad3d_backward(rp_args(grad, self_shape, padding))["gradInput"]
    value, abs_sum, count = brute_rp(grad, self_shape, padding)
    assert golden.value.dtype == value.dtype and golden.abs_sum.dtype == np.float64
    assert golden.count.dtype == np.int64 and golden.count.ndim == len(self_shape)
    assert_close(golden.value, value, abs_sum)
    assert_close(golden.abs_sum, abs_sum, abs_sum)
    np.testing.assert_array_equal(np.broadcast_to(golden.count, self_shape), count)


@settings(max_examples=300, deadline=None)
@given(rp_cases())
def test_rp_matches_brute_force(case: tuple) -> None:
    check_rp_against_brute(*case)


@settings(max_examples=100, deadline=None)
@given(rp_cases())
def test_rp_blocked_threaded_path_matches_brute_force(case: tuple) -> None:
    # One batch row per block and threads from the first element: the large-array path.
    with mock.patch.object(rp_module, "_THREAD_MIN_ELEMENTS", 0), \
            mock.patch.object(rp_module, "_BLOCK_ELEMENTS", 1):
        check_rp_against_brute(*case)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_rp_large_case_is_right_and_deterministic(dtype: type) -> None:
    rng = np.random.default_rng(7)
    self_shape, padding = (3, 5, 40, 41, 42), (3, -2, 0, 4, 5, 1)
    grad = random_array(rng, (3, 5, 46, 45, 43), dtype)
    assert grad.size >= rp_module._THREAD_MIN_ELEMENTS
    check_rp_against_brute(grad, self_shape, padding)
    first = replication_pad3d_backward(rp_args(grad, self_shape, padding))["gradInput"]
    second = replication_pad3d_backward(rp_args(grad, self_shape, padding))["gradInput"]
    assert first.value.tobytes() == second.value.tobytes()
    assert first.abs_sum.tobytes() == second.abs_sum.tobytes()


def test_rp_worked_example() -> None:
    args = rp_args(np.ones((1, 1, 4, 4, 4), np.float32), (1, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1))
    golden = replication_pad3d_backward(args)["gradInput"]
    assert golden.value.shape == (1, 1, 2, 2, 2) and golden.value.dtype == np.float64
    np.testing.assert_array_equal(golden.value, np.full((1, 1, 2, 2, 2), 8.0))
    np.testing.assert_array_equal(golden.abs_sum, np.full((1, 1, 2, 2, 2), 8.0))
    np.testing.assert_array_equal(np.broadcast_to(golden.count, (1, 1, 2, 2, 2)), 8)


def test_rp_complex_worked_example() -> None:
    grad = np.full((1, 1, 4, 4, 4), 1 - 2j, np.complex64)
    golden = replication_pad3d_backward(rp_args(grad, (1, 1, 2, 2, 2), (1,) * 6))["gradInput"]
    assert golden.value.dtype == np.complex128
    np.testing.assert_array_equal(golden.value, np.full((1, 1, 2, 2, 2), 8 - 16j))
    np.testing.assert_allclose(golden.abs_sum, np.full((1, 1, 2, 2, 2), 8 * math.sqrt(5)),
                               rtol=1e-15)


def test_rp_negative_padding_crops_along_w() -> None:
    # W: n=4, left=-1, right=2 -> 5 outputs reading clamp(p + 1, 0, 3) = 1, 2, 3, 3, 3.
    grad = np.array([1, -2, 3, -4, 5], np.float64).reshape(1, 1, 1, 1, 5)
    golden = replication_pad3d_backward(rp_args(grad, (1, 1, 1, 1, 4), (-1, 2, 0, 0, 0, 0)))
    result = golden["gradInput"]
    np.testing.assert_array_equal(result.value.ravel(), [0, 1, -2, 4])
    np.testing.assert_array_equal(result.abs_sum.ravel(), [0, 1, 2, 12])
    np.testing.assert_array_equal(result.count.ravel(), [0, 1, 1, 3])


def test_rp_negative_padding_crops_along_d_and_h() -> None:
    # H: n=3, top=-1 -> 2 outputs read rows 1, 2. D: n=3, back=-2 -> 1 output reads plane 0.
    grad = np.array([7.0, -5.0]).reshape(1, 1, 1, 2, 1)
    value = replication_pad3d_backward(
        rp_args(grad, (1, 1, 3, 3, 1), (0, 0, -1, 0, 0, -2)), bounds=False)["gradInput"].value
    expected = np.zeros((1, 1, 3, 3, 1))
    expected[0, 0, 0, 1, 0], expected[0, 0, 0, 2, 0] = 7.0, -5.0
    np.testing.assert_array_equal(value, expected)


@pytest.mark.parametrize(("grad_shape", "self_shape", "padding"), [
    ((0, 1, 4, 4, 4), (0, 1, 2, 2, 2), (1,) * 6),
    ((1, 2, 2, 5, 5), (1, 2, 0, 3, 3), (1,) * 6),
    ((2, 0, 3, 3), (2, 3, 3, 3), (0, 0, 0, 0, -2, -1)),
    ((1, 1, 2, 2, 0), (1, 1, 2, 2, 2), (-1, -1, 0, 0, 0, 0)),
])
def test_rp_empty(grad_shape: tuple, self_shape: tuple, padding: tuple) -> None:
    golden = replication_pad3d_backward(rp_args(np.ones(grad_shape, np.float32), self_shape,
                                                padding))["gradInput"]
    np.testing.assert_array_equal(golden.value, np.zeros(self_shape))
    np.testing.assert_array_equal(golden.abs_sum, np.zeros(self_shape))
    assert not np.broadcast_to(golden.count, self_shape).any()


def test_rp_bounds_false_gives_the_same_value_and_empty_bounds() -> None:
    grad = random_array(np.random.default_rng(3), (2, 3, 6, 7, 8), np.float32)
    args = rp_args(grad, (2, 3, 4, 4, 4), (3, 1, 2, 1, 0, 2))
    full = replication_pad3d_backward(args)["gradInput"]
    fast = replication_pad3d_backward(args, bounds=False)["gradInput"]
    assert fast.value.tobytes() == full.value.tobytes()
    assert fast.abs_sum.shape == (0,) and fast.count.shape == (0,) and not fast.has_bounds
    assert full.has_bounds


def test_rp_accepts_tensor_like_arguments() -> None:
    grad = np.ones((1, 1, 4, 4, 4), np.float32)
    args = {"gradOutput": SimpleNamespace(array=grad),
            "self": SimpleNamespace(array=np.zeros((1, 1, 2, 2, 2), np.float32)),
            "padding": (1,) * 6}
    np.testing.assert_array_equal(replication_pad3d_backward(args)["gradInput"].value, 8.0)


@pytest.mark.parametrize(("grad_shape", "self_shape", "padding"), [
    ((1, 1, 4, 4, 5), (1, 1, 2, 2, 2), (1,) * 6),  # W should be 4
    ((2, 1, 4, 4, 4), (1, 1, 2, 2, 2), (1,) * 6),  # batch differs
    ((1, 1, 4, 4, 4), (1, 1, 2, 2, 2), (1,) * 5),  # five padding values
    ((4, 4), (2, 2), (1,) * 6),  # rank below 3
])
def test_rp_rejects_inconsistent_arguments(grad_shape: tuple, self_shape: tuple,
                                           padding: tuple) -> None:
    with pytest.raises(ValueError):
        replication_pad3d_backward(rp_args(np.ones(grad_shape), self_shape, padding))


def test_golden_is_frozen() -> None:
    golden = Golden(np.zeros(1), np.zeros(1), np.ones(1, np.int64))
    with pytest.raises(dataclasses.FrozenInstanceError):
        golden.value = np.ones(1)  # type: ignore[misc]
