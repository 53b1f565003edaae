"""The spec language's optional tensors, value domains (``data``) and ``data_in`` clauses, on the
shipped BCE spec and on small edits of it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conformance.cases.case import Case, case_from_dict, case_to_dict
from conformance.cases.domain_values import fill_domain
from conformance.cases.materialize import REGIMES, materialize
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.errors import SpecError
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.dry_run import load_operator
from conformance.spec.domains import parse_domain
from conformance.spec.expressions import Expression
from conformance.spec.loader import specs_dir

BCE = "aclnnBinaryCrossEntropyBackward"
BCE_SPEC = (specs_dir() / f"{BCE}.yaml").read_text(encoding="utf-8")


def bce(weight=(2, 3), dtype="FLOAT", reduction=0, **over) -> Case:
    args = {"gradOutput": TensorMeta((2, 3), dtype), "self": TensorMeta((2, 3), dtype),
            "target": TensorMeta((3,), dtype),
            "weightOptional": None if weight is None else TensorMeta(tuple(weight), dtype),
            "reduction": reduction, "out": TensorMeta((2, 3), dtype)}
    args.update(over)
    return Case(BCE, "atlas-a2", args)


def _error(specs, text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        load_operator(Path("bce.yaml"), specs.vocabulary, text=text)
    return info.value


# -- optional tensors ---------------------------------------------------------------------------
def test_an_absent_optional_tensor_is_valid_and_a_required_null_is_not(specs):
    assert explain(bce(weight=None), specs).expected == "success"
    e = explain(bce(gradOutput=None), specs)
    assert (e.expected, e.status, e.violations[0].clause) == ("error", (161001,), "BCE-NULL")


def test_a_present_optional_tensor_is_still_judged(specs):
    e = explain(bce(weight=(4,)), specs)
    assert [v.clause for v in e.violations] == ["BCE-BCAST-WEIGHT"]
    assert "weightOptional" in e.violations[0].message


def test_generation_omits_the_optional_tensor_in_some_valid_cases(specs):
    spec = specs.operator(BCE)
    present = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max"))
    leave_out = FixedChooser("max", frozenset({"absent"}))
    absent = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", leave_out)
    assert isinstance(present.args["weightOptional"], TensorMeta)
    assert absent.args["weightOptional"] is None and explain(absent, specs).expected == "success"


def test_the_reference_gets_none_for_an_absent_weight(specs):
    m = materialize(bce(weight=None), specs, seed=3)
    x, t, g = (m.case.args[k].array.astype(np.float64) for k in ("self", "target", "gradOutput"))
    from reference.binary_cross_entropy import binary_cross_entropy_backward
    value = binary_cross_entropy_backward(m.case.args)["out"].value
    np.testing.assert_allclose(value, g * (x - t) / (x * (1 - x)), rtol=1e-15)


def test_a_not_null_clause_cannot_name_an_optional_tensor(specs):
    null = "    on_violation: ACLNN_ERR_PARAM_NULLPTR"
    text = BCE_SPEC.replace(f"params: [gradOutput, self, target, out]\n{null}",
                            f"params: [gradOutput, self, target, weightOptional, out]\n{null}")
    err = _error(specs, text)
    assert err.field == "constraints[0].params[3]" and "'weightOptional' is optional" in err.message


def test_present_tells_an_absent_argument():
    e = Expression("not present(w) or w.rank == 1", frozenset({"w"}))
    assert e.evaluate({"w": None}) is True
    assert e.evaluate({"w": TensorMeta((2, 2), "FLOAT")}) is False


# -- value domains ------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["FLOAT16", "BFLOAT16", "FLOAT"])
@pytest.mark.parametrize("regime", REGIMES)
def test_valid_data_stays_inside_the_domain_after_the_cast(specs, dtype, regime):
    case = bce(dtype=dtype, self=TensorMeta((40, 50), dtype), gradOutput=TensorMeta((40, 50), dtype),
               out=TensorMeta((40, 50), dtype), target=TensorMeta((50,), dtype), weight=None)
    m = materialize(case, specs, seed=11, regime=regime)
    x = m.case.args["self"].array.astype(np.float64)
    t = m.case.args["target"].array.astype(np.float64)
    assert 0 < x.min() and x.max() < 1 and 0 <= t.min() and t.max() <= 1
    assert explain(m.case, specs).expected == "success"  # recomputed from the data


def test_near_edge_regimes_reach_the_open_bounds(specs):
    case = bce(dtype="FLOAT16", self=TensorMeta((64,), "FLOAT16"), gradOutput=TensorMeta((64,), "FLOAT16"),
               out=TensorMeta((64,), "FLOAT16"), target=TensorMeta((64,), "FLOAT16"), weight=None)
    low = materialize(case, specs, seed=1, regime="zeros").case.args["self"].array
    high = materialize(case, specs, seed=1, regime="huge").case.args["self"].array
    assert float(low.min()) == float(np.float16(2.0**-24))   # the least FLOAT16 above 0
    assert float(high.max()) == float(np.float16(1) - np.float16(2.0**-11))  # the last below 1


def test_breaking_a_data_in_clause_puts_data_outside(specs):
    spec = specs.operator(BCE)
    cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max"), "BCE-SELF-DOMAIN")
    assert len(cases) == 1 and cases[0].args["self"].outside
    e = explain(cases[0], specs)
    assert (e.expected, [v.clause for v in e.unspecified]) == ("unspecified", ["BCE-SELF-DOMAIN"])
    m = materialize(cases[0], specs, seed=5)
    x = m.case.args["self"].array.astype(np.float64)
    assert not ((x > 0) & (x < 1)).all()
    assert [v.clause for v in explain(m.case, specs).unspecified] == ["BCE-SELF-DOMAIN"]


def test_the_oracle_reads_the_domain_from_the_data(specs):
    m = materialize(bce(weight=None), specs, seed=2)
    m.case.args["self"].array[0, 0] = 1.0  # the open bound itself
    e = explain(m.case, specs)
    assert [(v.clause, v.message) for v in e.unspecified] == [
        ("BCE-SELF-DOMAIN", "self has elements outside its documented domain (values in (0, 1))")]


def test_outside_survives_a_case_file(specs):
    case = bce(self=TensorMeta((2, 3), "FLOAT", outside=True))
    saved = case_to_dict(case, case.args)
    assert saved["args"]["self"]["outside"] is True and "outside" not in saved["args"]["target"]
    assert case_from_dict(saved, specs).args["self"].outside


def test_integer_domain_bounds_read_other_shapes():
    d = parse_domain("target", {"integers": [0, "self.shape[-1] - 1"]}, frozenset({"self", "target"}))
    names = {"self": TensorMeta((4, 5), "FLOAT")}
    assert d.describe(names) == "integers in [0, 4]"
    for dtype in (np.int64, np.int32, np.uint8):
        inside, outside = np.empty(200, dtype), np.empty(200, dtype)
        fill_domain(inside, d, names, np.random.default_rng(0), "ordinary", False)
        fill_domain(outside, d, names, np.random.default_rng(0), "ordinary", True)
        assert sorted(set(inside.tolist())) == [0, 1, 2, 3, 4]
        assert not d.inside(outside, names).all() and d.inside(outside, names).sum() > 100


@pytest.mark.parametrize(("edit", "field", "words"), [
    ("data:\n  reduction: {range: [0, 1]}\n", "data.reduction", "not an input tensor parameter"),
    ("data:\n  self: {range: [1, 0]}\n", "data.self", "inverted"),
    ("data:\n  self: {range: [0, \"nosuch.shape[0]\"]}\n", "data.self", "unknown name 'nosuch'"),
    ("data:\n  self: {range: [0, \"target.shape\"]}\n", "data.self", "data.self fails on the values"),
])
def test_a_bad_domain_is_a_spec_error(specs, edit, field, words):
    text = BCE_SPEC.replace("data:\n  self: {range: [0, 1], open: true}\n", edit)
    err = _error(specs, text)
    assert err.field == field and words in err.message


def test_a_data_in_clause_needs_a_domain(specs):
    text = BCE_SPEC.replace("  target: {range: [0, 1]}\n", "")
    err = _error(specs, text)
    assert "needs its domain under data.target" in err.message
