"""conformance.check.precision.judge against hand-computed bounds, special values and CANN figures."""
from __future__ import annotations

import json
import math

import ml_dtypes
import numpy as np
import pytest

from conformance.check.precision import judge
from reference.golden import Golden


def gold(value, abs_sum=None, count=1) -> Golden:
    value = np.asarray(value)
    abs_sum = np.abs(value).astype(np.float64) if abs_sum is None else np.asarray(abs_sum, np.float64)
    return Golden(value, abs_sum, np.asarray(count, np.int64))


def test_exact_result_is_ok_with_zero_ratio():
    value = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32).astype(np.float64)
    v = judge(value.astype(np.float32), gold(value), np.float32)
    assert v.ok and v.judged == 35 and v.message == ""
    assert v.worst_ratio == 0.0 and v.max_abs_error == 0.0 and v.max_ulp == 0.0
    assert v.mere == 0.0 and v.mare == 0.0 and v.cann_ok


def test_correctly_rounded_float16_passes():
    value = np.random.default_rng(1).standard_normal(1000) * 10
    v = judge(value.astype(np.float16), gold(value), np.float16)
    assert v.ok and v.judged == 1000
    assert 0.0 < v.worst_ratio <= 1.0
    assert 0.0 < v.max_ulp <= 0.5
    assert v.cann_ok


def test_three_ulp_beyond_bound_fails_and_names_worst_element():
    value = np.ones((3, 4))
    actual = value.astype(np.float16)
    actual[1, 2] = np.float16(1 + 3 * 2.0**-10)  # bound at 1.0 is ~1.1 ulp
    v = judge(actual, gold(value), np.float16)
    bound = 2 * (2.0**-24 + 2.0**-11 + 2.0**-14)
    assert not v.ok and v.judged == 12
    assert v.worst_index == (1, 2)
    assert v.worst_actual == 1.0029296875 and v.worst_expected == 1.0
    assert v.worst_bound == pytest.approx(bound)
    assert v.worst_ratio == pytest.approx(3 * 2.0**-10 / bound)
    assert v.max_ulp == pytest.approx(3.0)
    assert v.message.startswith("out[1, 2]=1.0029296875, but should be 1.0 (|error| 0.00293 > bound "
                                "0.0011, 2.67x the bound); 1 of 12 judged elements out of bound;")
    named = judge(actual, gold(value), np.float16, name="gradInput")
    assert named.message.startswith("gradInput[1, 2]=") and "out[" not in named.message


def test_a_failure_in_a_large_output_names_the_first_and_last_failing_elements():
    value = np.ones((64, 128, 130))  # 1 Mi elements
    actual = value.astype(np.float32)
    actual[3, 5, 129] = actual[40, 0, 7] = actual[63, 127, 0] = 2.0
    v = judge(actual, gold(value), np.float32, name="gradInput")
    assert not v.ok and (v.failed, v.first_failed, v.last_failed) == (3, (3, 5, 129), (63, 127, 0))
    assert ("3 of 1064960 judged elements out of bound, the first gradInput[3, 5, 129], the last "
            "gradInput[63, 127, 0]") in v.message
    assert len(v.message) < 400  # a description of the failing elements, not a page of numbers


def test_cann_figures_count_a_nan_where_a_finite_value_was_expected():
    v = judge(np.array([np.nan, 1.0], np.float32), gold([-12071987.0, 1.0]), np.float32)
    assert not v.ok and v.mare == np.inf and v.mere == np.inf and not v.cann_ok
    assert "a NaN or inf where a finite value is expected" in v.message


def test_an_ieee_special_golden_is_explained_in_words():
    v = judge(np.array([np.nan, 1.0], np.float32), gold([np.inf, 1.0]), np.float32, name="gradInput")
    assert v.message.startswith("gradInput[0]=nan, but should be inf (+inf is the IEEE result of its "
                                "terms: one of them is infinite)")


def test_nan_must_meet_nan():
    failed = judge(np.array([1.0, 1.0], np.float32), gold([np.nan, 1.0]), np.float32)
    assert not failed.ok and failed.worst_index == (0,) and failed.worst_ratio == np.inf
    assert "out[0]=1.0, but should be nan" in failed.message
    passed = judge(np.array([np.nan, 1.0], np.float32), gold([np.nan, 1.0]), np.float32)
    assert passed.ok and passed.judged == 2 and passed.max_abs_error == 0.0


def test_inf_must_meet_the_same_inf():
    assert not judge(np.array([-np.inf], np.float32), gold([np.inf]), np.float32).ok
    assert judge(np.array([np.inf], np.float32), gold([np.inf]), np.float32).ok


def test_overflowed_golden_expects_signed_inf():
    assert judge(np.array([np.inf], np.float16), gold([1e6]), np.float16).ok
    assert not judge(np.array([-np.inf], np.float16), gold([1e6]), np.float16).ok
    assert not judge(np.array([65504.0], np.float16), gold([1e6]), np.float16).ok
    # within the bound of the overflow threshold either answer is accepted
    assert judge(np.array([np.inf], np.float16), gold([65519.0]), np.float16).ok
    assert judge(np.array([65504.0], np.float16), gold([65519.0]), np.float16).ok


def test_abs_sum_overflow_is_not_judged():
    v = judge(np.array([1.0, 5.0], np.float32), gold([1.0, 2.0], abs_sum=[1.0, 1e39]), np.float32)
    assert v.ok and v.judged == 1
    assert not judge(np.array([1.0, 5.0], np.float32), gold([1.0, 2.0]), np.float32).ok


def test_subnormal_golden_flushed_to_zero_is_accepted():
    v = judge(np.array([0.0, 1.0], np.float16), gold([1e-6, 1.0]), np.float16)
    assert v.ok and v.judged == 2


def test_bfloat16():
    value = np.random.default_rng(2).standard_normal(500)
    assert judge(value.astype(ml_dtypes.bfloat16), gold(value), ml_dtypes.bfloat16).ok
    actual = np.array([1 + 3 * 2.0**-7], ml_dtypes.bfloat16)
    v = judge(actual, gold([1.0]), ml_dtypes.bfloat16)
    assert not v.ok and v.max_ulp == pytest.approx(3.0)
    assert v.mare == pytest.approx(3 * 2.0**-7, rel=1e-6) and not v.cann_ok


def test_complex64():
    rng = np.random.default_rng(3)
    value = rng.standard_normal(200) + 1j * rng.standard_normal(200)
    assert judge(value.astype(np.complex64), gold(value), np.complex64).ok
    off = value.astype(np.complex64)
    off[7] += np.complex64(1e-3j)
    v = judge(off, gold(value), np.complex64)
    assert not v.ok and v.worst_index == (7,) and isinstance(v.worst_actual, complex)
    assert v.max_abs_error == pytest.approx(1e-3, rel=1e-3)
    nan_imag = gold([complex(1.0, np.nan)], abs_sum=[1.0])
    assert judge(np.array([complex(1.0, np.nan)], np.complex64), nan_imag, np.complex64).ok
    assert not judge(np.array([1 + 1j], np.complex64), nan_imag, np.complex64).ok


def test_mere_mare_hand_made():
    v = judge(np.array([1.0, 2.002]), gold([1.0, 2.0]), np.float64)
    assert v.mare == pytest.approx(0.001, rel=1e-6)
    assert v.mere == pytest.approx(0.0005, rel=1e-6)
    assert not v.cann_ok and not v.ok


def test_shape_mismatch_names_both_shapes():
    v = judge(np.zeros((2, 3), np.float32), gold(np.zeros((3, 2))), np.float32)
    assert not v.ok and v.judged == 0
    assert "(2, 3)" in v.message and "(3, 2)" in v.message


def test_to_json_is_json_safe():
    v = judge(np.array([1.0], np.float32), gold([np.nan]), np.float32)
    data = v.to_json()
    assert data["worst_expected"] == "nan" and data["worst_ratio"] == "inf"
    assert data["worst_index"] == [0]
    json.dumps(data, allow_nan=False)
    c = judge(np.array([1 + 2j], np.complex64), gold([1 + 2j], abs_sum=[3.0]), np.complex64).to_json()
    assert c["worst_actual"] == [1.0, 2.0]


def test_reference_backend_meets_the_bound_on_every_dtype():
    """End to end: materialized data, the reference backend, judged against the float64 golden."""
    from helpers import kl_case, rp_case

    from conformance.backends.reference import ReferenceBackend
    from conformance.cases.materialize import materialize
    from conformance.generate.dry_run import shipped_specs
    from conformance.spec.reference_loader import reference_function

    specs = shipped_specs()
    backend = ReferenceBackend(product="atlas-a2")
    cases = [rp_case((2, 3, 4, 5, 6), (1, 2, 3, 0, 2, 1), dtype=d) for d in
             ("FLOAT16", "BFLOAT16", "FLOAT", "DOUBLE", "COMPLEX64", "COMPLEX128")]
    cases += [kl_case((3, 1, 4), target_shape=(2, 3, 5, 4), grad_shape=(5, 1), dtype=d, reduction=r)
              for d in ("FLOAT16", "BFLOAT16", "FLOAT") for r in (0, 1, 2, 3)]
    for i, case in enumerate(cases):
        m = materialize(case, specs, seed=i)
        assert backend.call(case.api, m.case.args).status == 0
        spec = specs.operator(case.api)
        for name, golden in reference_function(spec)(m.case.args).items():
            out = m.case.args[name].array
            verdict = judge(out, golden, out.dtype)
            assert verdict.ok, verdict.message
            assert verdict.judged == out.size and verdict.worst_ratio <= 1.0


def test_complex_part_beside_a_nan_part_is_only_required_finite():
    golden = Golden(np.array([complex(np.nan, 0.2830958813428879)]), np.array([np.nan]), np.array([2]))
    actual = np.array([complex(np.nan, 0.2830958962440491)], np.complex64)
    assert judge(actual, golden, np.complex64).ok
    assert not judge(np.array([complex(np.nan, np.inf)], np.complex64), golden, np.complex64).ok
    assert not judge(np.array([complex(1.0, 0.28309588)], np.complex64), golden, np.complex64).ok


# -- sums whose value depends on the summation order ------------------------------------------
def _exact_sum_case(tmp_path, values):
    """A DOUBLE padding case (W of 3 padded 2 on the left): gradInput[..., 0] sums ``values``,
    the two other elements are 1."""
    from helpers import rp_case

    from conformance.generate.strategies import Drawn

    case = rp_case((1, 1, 1, 1, 3), (2, 0, 0, 0, 0, 0), dtype="DOUBLE")
    data = tmp_path / "data.npz"
    np.savez(data, gradOutput=np.array([*values, 1.0, 1.0]).reshape(1, 1, 1, 1, 5))
    return Drawn(case, data_file=str(data))


class SumsInOrder:
    """A padding backend for that case, summing the three terms of gradInput[..., 0] its way."""

    name = "sums-in-order"
    product = "atlas-a2"

    def __init__(self, answer):
        self.answer = answer

    def call(self, api, args):
        from conformance.backends.protocol import CallResult

        t = args["gradOutput"].array.reshape(-1)
        args["gradInput"].array[...] = np.array([self.answer(t[:3]), t[3], t[4]]).reshape(1, 1, 1, 1, 3)
        return CallResult(0, 2)


@pytest.mark.parametrize("name, answer, ok", [
    ("exact (fsum)", lambda t: math.fsum(t), True),
    ("left to right: overflows to +inf", lambda t: (t[0] + t[1]) + t[2], True),
    ("another order, finite", lambda t: (t[0] + t[2]) + t[1], True),
    ("wrong finite value", lambda t: 1.0, False),
])
def test_order_dependent_overflow_accepts_every_order_consistent_answer(specs, tmp_path, name, answer, ok):
    """The golden's own slab order overflows to inf where the exact sum (1.65e308) is finite: a
    backend giving the exact value is right, and so is one whose order overflows; a wrong value
    is still caught, and the message shows the exact value."""
    from conformance.check.judge import Judge

    drawn = _exact_sum_case(tmp_path, [1e308, 1e308, -0.35e308])
    verdict = Judge(SumsInOrder(answer), specs, "atlas-a2").judge(drawn, ("numerics",))
    assert verdict.checks, "the case was judged"
    numerics = [f for f in verdict.findings if f.kind == "numerics"]
    assert (not numerics) == ok, [f.message for f in numerics]
    if not ok:
        assert numerics[0].message.startswith("gradInput[0, 0, 0, 0, 0]=1.0, but should be 1.65e+308")


def test_an_inf_term_is_judged_by_ieee_sums_and_said_plainly(specs, tmp_path):
    from conformance.check.judge import Judge

    drawn = _exact_sum_case(tmp_path, [np.inf, 1.0, 2.0])
    good = Judge(SumsInOrder(lambda t: np.inf), specs, "atlas-a2").judge(drawn, ("numerics",))
    assert good.checks and not good.findings
    bad = Judge(SumsInOrder(lambda t: np.nan), specs, "atlas-a2").judge(drawn, ("numerics",))
    assert bad.findings[0].message.startswith(
        "gradInput[0, 0, 0, 0, 0]=nan, but should be inf (+inf is the IEEE result of its terms: one of "
        "them is infinite)")
