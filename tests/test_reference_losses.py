"""The loss golden models (reference/losses.py) against brute force: explicit loops over the
broadcast index space, one element at a time, with the pages' formulas written out in math."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from reference import kl_div, mse_loss_backward, smooth_l1_loss_backward

SHAPES = [((2, 3), (2, 3), (2, 3)), ((1, 3), (2, 1), (2, 3)), ((3,), (2, 3), (1,)), ((), (2,), (2, 2))]


def _at(array: np.ndarray, index: tuple[int, ...]) -> float:
    """array[index] with numpy broadcasting rules done by hand (right-aligned, size-1 dims)."""
    lead = len(index) - array.ndim
    return float(array[tuple(0 if n == 1 else i for i, n in zip(index[lead:], array.shape))])


def _index_space(*arrays: np.ndarray) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return shape, list(itertools.product(*(range(n) for n in shape)))


def _kl_point(s: float, t: float, log_target: bool) -> float:
    if log_target:
        return math.exp(t) * (t - s)
    return math.nan if t <= 0 else t * (math.log(t) - s)


def _brute_kl(s: np.ndarray, t: np.ndarray, reduction: int, log_target: bool) -> np.ndarray:
    shape, space = _index_space(s, t)
    losses = [_kl_point(_at(s, i), _at(t, i), log_target) for i in space]
    if reduction == 0:
        return np.array(losses).reshape(shape)
    total = math.fsum(losses) if not any(map(math.isnan, losses)) else math.nan
    divisor = {1: len(losses), 2: 1, 3: s.shape[0] if s.ndim else 1}[reduction]
    return np.array([total / divisor])


@pytest.mark.parametrize("reduction", [0, 1, 2, 3])
@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("shapes", SHAPES)
def test_kl_div_matches_brute_force(reduction, log_target, shapes):
    rng = np.random.default_rng(reduction * 10 + log_target)
    s = rng.standard_normal(shapes[0])
    t = rng.uniform(0.1, 2.0, shapes[1]) if not log_target else rng.standard_normal(shapes[1])
    golden = kl_div({"self": s, "target": t, "reduction": reduction, "logTarget": log_target})["out"]
    np.testing.assert_allclose(golden.value, _brute_kl(s, t, reduction, log_target), rtol=1e-12)
    assert int(golden.count) == (1 if reduction == 0 else math.prod(np.broadcast_shapes(s.shape, t.shape)))


def test_kl_div_is_nan_where_target_is_not_positive():
    s, t = np.zeros(4), np.array([1.0, 0.0, -0.0, -2.0])
    golden = kl_div({"self": s, "target": t, "reduction": 0, "logTarget": False})["out"]
    assert golden.value[0] == 0.0 and np.isnan(golden.value[1:]).all()
    assert np.isnan(kl_div({"self": s, "target": t, "reduction": 2, "logTarget": False})["out"].value).all()


def test_kl_div_sample_program():
    """The page's sample: mean of target*(log target - self) over the (4, 2) inputs."""
    s = np.arange(8.0).reshape(4, 2)
    t = np.array([1, 1, 1, 2, 2, 2, 3, 3], float).reshape(4, 2)
    golden = kl_div({"self": s, "target": t, "reduction": 1, "logTarget": False})["out"]
    expected = np.mean(t * (np.log(t) - s))
    assert golden.value.shape == (1,)
    assert golden.value[0] == pytest.approx(expected) == pytest.approx(-6.90618, abs=1e-5)
    sums = kl_div({"self": s, "target": t, "reduction": 1, "logTarget": False})["out"].abs_sum
    assert sums[0] == pytest.approx(np.mean(t * (np.abs(np.log(t)) + s)))


def test_kl_div_batchmean_divides_by_self_dim0():
    s, t = np.zeros((1, 2)), np.full((3, 2), 1.0)  # log target: exp(1)*(1-0) per element
    golden = kl_div({"self": s, "target": t, "reduction": 3, "logTarget": True})["out"]
    assert golden.value[0] == pytest.approx(6 * math.e / 1)


def _brute_mse(g, s, t, reduction):
    shape, space = _index_space(g, s, t)
    scale = 2.0 / s.size if reduction == 1 else 2.0
    return np.array([_at(g, i) * (_at(s, i) - _at(t, i)) * scale for i in space]).reshape(shape)


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("shapes", SHAPES[:3] + [((2, 1, 3), (3,), (1, 3))])
def test_mse_loss_backward_matches_brute_force(reduction, shapes):
    rng = np.random.default_rng(reduction)
    g, s, t = (rng.standard_normal(shape) for shape in (shapes[2], shapes[0], shapes[1]))
    golden = mse_loss_backward({"gradOutput": g, "self": s, "target": t, "reduction": reduction})["out"]
    np.testing.assert_allclose(golden.value, _brute_mse(g, s, t, reduction), rtol=1e-12)
    scale = 2.0 / s.size if reduction == 1 else 2.0
    expected_abs = np.abs(g) * (np.abs(s) + np.abs(t)) * scale
    np.testing.assert_allclose(golden.abs_sum, np.broadcast_to(expected_abs, golden.value.shape), rtol=1e-12)


def _sl1_slope(d: float, beta: float) -> float:
    if abs(d) < beta:
        return d / beta
    return 0.0 if d == 0 else math.copysign(1.0, d)


def _brute_sl1(g, s, t, reduction, beta):
    shape, space = _index_space(g, s, t)
    n = math.prod(np.broadcast_shapes(s.shape, t.shape))
    scale = 1.0 / n if reduction == 1 else 1.0
    return np.array([_at(g, i) * _sl1_slope(_at(s, i) - _at(t, i), beta) * scale
                     for i in space]).reshape(shape)


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 2.0])
@pytest.mark.parametrize("shapes", SHAPES[:3])
def test_smooth_l1_loss_backward_matches_brute_force(reduction, beta, shapes):
    rng = np.random.default_rng(reduction)
    g, s, t = (rng.standard_normal(shape) for shape in (shapes[2], shapes[0], shapes[1]))
    s.flat[0] = _at(t, (0,) * t.ndim) if s.ndim == t.ndim else s.flat[0]  # one d == 0
    args = {"gradOut": g, "self": s, "target": t, "reduction": reduction, "beta": beta}
    golden = smooth_l1_loss_backward(args)["gradInput"]
    np.testing.assert_allclose(golden.value, _brute_sl1(g, s, t, reduction, beta), rtol=1e-12)


def test_smooth_l1_sample_program():
    """The page's sample: self 0..7, target 1, gradOut 1, beta 1, none: x-y inside |x-y|<1, else sign."""
    s, t, g = np.arange(8.0).reshape(4, 2), np.ones((4, 2)), np.ones((4, 2))
    golden = smooth_l1_loss_backward({"gradOut": g, "self": s, "target": t, "reduction": 0, "beta": 1.0})
    assert golden["gradInput"].value.ravel().tolist() == [-1.0, 0.0, 1, 1, 1, 1, 1, 1]


def test_smooth_l1_beta_zero_is_l1_and_beta_is_a_c_float():
    s, t, g = np.array([0.0, 1e-9, -3.0]), np.zeros(3), np.ones(3)
    value = smooth_l1_loss_backward({"gradOut": g, "self": s, "target": t, "reduction": 0,
                                     "beta": 0.0})["gradInput"].value
    assert value.tolist() == [0.0, 1.0, -1.0]
    value = smooth_l1_loss_backward({"gradOut": g, "self": np.array([0.05]), "target": np.zeros(1),
                                     "reduction": 0, "beta": 0.1})["gradInput"].value
    assert value[0] == 0.05 / float(np.float32(0.1))


@pytest.mark.parametrize("fn,args", [
    (mse_loss_backward, {"gradOutput": np.ones(1), "self": np.ones(1), "target": np.ones(1), "reduction": 3}),
    (smooth_l1_loss_backward, {"gradOut": np.ones(1), "self": np.ones(1), "target": np.ones(1),
                               "reduction": -1, "beta": 1.0}),
    (kl_div, {"self": np.ones(1), "target": np.ones(1), "reduction": 4, "logTarget": False}),
])
def test_undocumented_reductions_raise(fn, args):
    with pytest.raises(ValueError, match="reduction"):
        fn(args)


def test_bounds_false_skips_the_error_scales():
    args = {"gradOutput": np.ones((2, 2)), "self": np.ones((2, 2)), "target": np.zeros((2, 2)),
            "reduction": 0}
    golden = mse_loss_backward(args, bounds=False)["out"]
    assert golden.value.tolist() == [[2.0, 2.0], [2.0, 2.0]] and not golden.abs_sum.size
