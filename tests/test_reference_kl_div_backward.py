"""The KlDivBackward golden model against the document's worked example and an independent
formulation: one Python loop over the broadcast shape."""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_arrays import LAYOUTS, assert_close, random_array, with_layout

from reference import kl_div_backward

KL_DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]


# ---------------------------------------------------------------- KlDiv


def kl_args(grad: np.ndarray, self_: np.ndarray, target: np.ndarray, reduction: int,
            log_target: bool) -> dict:
    return {"gradOutput": grad, "self": self_, "target": target, "reduction": reduction,
            "logTarget": log_target}


def brute_kl(args: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """value, Σ|terms| and count by one Python loop over every element of B."""
    self_shape = args["self"].shape
    shape = np.broadcast_shapes(self_shape, args["target"].shape)
    g = np.broadcast_to(args["gradOutput"].astype(np.float64), shape)
    t = np.broadcast_to(args["target"].astype(np.float64), shape)
    numel = math.prod(shape)
    scale = {0: 1.0, 2: 1.0, 1: 1.0 / max(numel, 1),
             3: 1.0 / shape[0] if shape and shape[0] else 1.0}[args["reduction"]]
    value, abs_sum = np.zeros(self_shape), np.zeros(self_shape)
    count = np.zeros(self_shape, np.int64)
    lead = len(shape) - len(self_shape)
    for idx in np.ndindex(*shape):
        weight = math.exp(t[idx]) if args["logTarget"] else t[idx]
        term = -weight * g[idx] * scale
        at = tuple(0 if n == 1 else i for i, n in zip(idx[lead:], self_shape))
        value[at] += term
        abs_sum[at] += abs(term)
        count[at] += 1
    return value, abs_sum, count


def sub_shape(draw: st.DrawFn, full: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to ``full``: some leading dims dropped, some dims set to 1."""
    dims = full[draw(st.integers(0, len(full))):]
    return tuple(n if draw(st.booleans()) else 1 for n in dims)


@st.composite
def kl_cases(draw: st.DrawFn) -> dict:
    full = tuple(draw(st.lists(st.integers(1, 4), max_size=4)))
    self_shape, target_shape = sub_shape(draw, full), sub_shape(draw, full)
    grad_shape = sub_shape(draw, np.broadcast_shapes(self_shape, target_shape))
    log_target = draw(st.booleans())
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def tensor(shape: tuple[int, ...], scale: float = 4.0) -> np.ndarray:
        array = random_array(rng, shape, draw(st.sampled_from(KL_DTYPES)), scale)
        return with_layout(array, draw(st.sampled_from(LAYOUTS)))

    target = tensor(target_shape, 2.0 if log_target else 4.0)
    return kl_args(tensor(grad_shape), tensor(self_shape), target,
                   draw(st.sampled_from([0, 1, 2, 3])), log_target)


def check_kl_against_brute(args: dict) -> None:
    golden = kl_div_backward(args)["out"]
    value, abs_sum, count = brute_kl(args)
    assert golden.value.dtype == np.float64 and golden.count.dtype == np.int64
    assert_close(golden.value, value, abs_sum)
    assert_close(golden.abs_sum, abs_sum, abs_sum)
    np.testing.assert_array_equal(np.broadcast_to(golden.count, value.shape), count)


@settings(max_examples=300, deadline=None)
@given(kl_cases())
def test_kl_matches_direct_formulation(args: dict) -> None:
    check_kl_against_brute(args)


@pytest.mark.parametrize("reduction", [0, 1, 2, 3])
@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize(("grad_shape", "self_shape", "target_shape"), [
    ((), (3, 1), (2, 3, 4)),  # scalar-like gradOutput, target larger than self
    ((4,), (2, 3, 4), (3, 1)),  # gradOutput smaller than B
    ((2, 1, 4), (1, 4), (2, 3, 1)),  # both self and target broadcast
    ((), (), ()),  # 0-d everything: batchmean divides by 1
])
def test_kl_broadcast_shapes(reduction: int, log_target: bool, grad_shape: tuple,
                             self_shape: tuple, target_shape: tuple) -> None:
    rng = np.random.default_rng(11)
    args = kl_args(random_array(rng, grad_shape, np.float32),
                   random_array(rng, self_shape, ml_dtypes.bfloat16),
                   random_array(rng, target_shape, np.float16, 1.0), reduction, log_target)
    check_kl_against_brute(args)


def test_kl_worked_example() -> None:
    x = np.array([[2, 3], [5, 8]], np.float32)
    golden = kl_div_backward(kl_args(x, x, x, 0, False))["out"]
    np.testing.assert_array_equal(golden.value, [[-4, -9], [-25, -64]])
    np.testing.assert_array_equal(golden.abs_sum, [[4, 9], [25, 64]])
    np.testing.assert_array_equal(np.broadcast_to(golden.count, (2, 2)), 1)


def test_kl_reductions_scale_by_hand() -> None:
    # B = (2, 3): mean divides by 6, batchmean by B[0] = 2; self (1, 3) sums the 2 rows.
    target = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    args = kl_args(np.ones((2, 3)), np.zeros((1, 3)), target, 0, False)
    none = kl_div_backward(args)["out"]
    np.testing.assert_array_equal(none.value, [[-5, -7, -9]])
    np.testing.assert_array_equal(np.broadcast_to(none.count, (1, 3)), 2)
    args["reduction"] = 1
    np.testing.assert_allclose(kl_div_backward(args)["out"].value, [[-5 / 6, -7 / 6, -9 / 6]])
    args["reduction"] = 3
    np.testing.assert_allclose(kl_div_backward(args)["out"].value, [[-2.5, -3.5, -4.5]])
    args.update(reduction=2, logTarget=True, target=np.zeros((2, 3)))
    np.testing.assert_array_equal(kl_div_backward(args)["out"].value, [[-2, -2, -2]])


def test_kl_no_mask_on_nonpositive_target() -> None:
    target = np.array([-2.0, 0.0, 3.0], np.float32)
    golden = kl_div_backward(kl_args(np.ones(3), np.ones(3), target, 0, False))["out"]
    np.testing.assert_array_equal(golden.value, [2.0, -0.0, -3.0])


@pytest.mark.parametrize("reduction", [0, 1, 2, 3])
@pytest.mark.parametrize(("grad_shape", "self_shape", "target_shape"), [
    ((0, 3), (0, 3), (0, 3)),
    ((), (1, 3), (0, 3)),  # B is empty although self is not: nothing lands on self
])
def test_kl_empty(reduction: int, grad_shape: tuple, self_shape: tuple,
                  target_shape: tuple) -> None:
    golden = kl_div_backward(kl_args(np.ones(grad_shape), np.ones(self_shape),
                                     np.ones(target_shape), reduction, False))["out"]
    np.testing.assert_array_equal(golden.value, np.zeros(self_shape))
    np.testing.assert_array_equal(golden.abs_sum, np.zeros(self_shape))
    assert golden.count == 0


def test_kl_bounds_false() -> None:
    x = np.array([[2, 3], [5, 8]], np.float32)
    golden = kl_div_backward(kl_args(x, x, x, 1, True), bounds=False)["out"]
    np.testing.assert_allclose(golden.value, -np.exp(x.astype(np.float64)) * x / 4, rtol=1e-15)
    assert golden.abs_sum.shape == (0,) and golden.count.shape == (0,)


@pytest.mark.parametrize("reduction", [-1, 4, 7])
def test_kl_rejects_unknown_reduction(reduction: int) -> None:
    x = np.ones(2)
    with pytest.raises(ValueError):
        kl_div_backward(kl_args(x, x, x, reduction, False))


def test_kl_rejects_gradoutput_that_enlarges_b() -> None:
    with pytest.raises(ValueError):
        kl_div_backward(kl_args(np.ones((2, 3)), np.ones(3), np.ones(3), 0, False))
