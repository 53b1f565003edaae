"""The clause kinds promotable and castable: predicates, the oracle, generation (valid cases respect
them, broken cases break exactly one), meaning, and an invented operator (tests/fixtures/
promotion_pack) judged against the reference backend and one with a planted bug."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy_promotion import API, SPEC_DIR, CastsAnything

import conformance
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.check.judge import Judge
from conformance.errors import SpecError
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, HypothesisChooser
from conformance.generate.strategies import Drawn
from conformance.spec.loader import read_operator, read_packs, specs_dir
from conformance.spec.meaning import facts
from conformance.spec.promotion import Unsettled

A2 = "atlas-a2"


@pytest.fixture(scope="module")
def specs():
    return read_packs((specs_dir(), Path(SPEC_DIR)))


@pytest.fixture(scope="module")
def spec(specs):
    return specs.operator(API)


def _case(**dtypes: str) -> conformance.Case:
    return conformance.Case(API, A2, {p: TensorMeta((2, 3), d) for p, d in dtypes.items()})


@pytest.mark.parametrize("dtypes, expected, clauses", [
    ({"self": "FLOAT16", "other": "INT32", "out": "FLOAT"}, "success", []),
    ({"self": "BOOL", "other": "INT32", "out": "FLOAT16"}, "success", []),
    ({"self": "FLOAT", "other": "UINT16", "out": "FLOAT"}, "error", ["TMA-PROMOTE"]),
    ({"self": "FLOAT", "other": "FLOAT16", "out": "BOOL"}, "error", ["TMA-CAST"]),
    # no promoted dtype: only the promotion clause speaks, the cast clause has nothing to judge
    ({"self": "INT32", "other": "UINT16", "out": "BOOL"}, "error", ["TMA-PROMOTE"]),
])
def test_the_oracle(specs, dtypes, expected, clauses):
    e = explain(_case(**dtypes), specs)
    assert e.expected == expected, e.reason
    assert [v.clause for v in e.violations or e.unspecified] == clauses
    if expected == "error":
        assert e.status == (161002,)


def test_a_disputed_cast_is_unspecified_and_says_why(specs, spec):
    """FLOAT to INT32: ops-math's cast page allows it, ops-nn's does not (out's list here lacks
    INT32, so the test lifts that clause)."""
    lifted = dataclasses.replace(spec, constraints=tuple(c for c in spec.constraints
                                                         if c.id != "TMA-DTYPE-OUT"))
    specs = dataclasses.replace(specs, operators={**specs.operators, API: lifted})
    e = explain(_case(self="FLOAT", other="INT32", out="INT32"), specs)
    assert (e.expected, [v.clause for v in e.unspecified]) == ("unspecified", ["TMA-CAST"])
    (message,) = [v.message for v in e.unspecified]
    assert isinstance(message, Unsettled)
    assert message.startswith("self.dtype=FLOAT and other.dtype=INT32 promote to FLOAT, which may or "
                              "may not be cast to out.dtype=INT32 (the cast pages differ: ops-nn")


def test_boundary_cases(spec, specs):
    seen = set()
    for dtype in spec.test_dtypes(A2):
        for mode in ("min", "max"):
            case = build_case(spec, specs.vocabulary, A2, dtype, FixedChooser(mode))
            assert explain(case, specs).expected == "success", case.args
            seen.add(case.args["other"].dtype)
        for clause in ("TMA-PROMOTE", "TMA-CAST"):
            broken = broken_cases(spec, specs.vocabulary, A2, dtype, FixedChooser("min"), clause)
            assert broken, (dtype, clause)
            for case in broken:
                e = explain(case, specs)
                assert [v.clause for v in e.violations] == [clause], e.reason
    assert "UINT16" not in seen and len(seen) > 1  # mixed dtypes, never the one with no promotion


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data(), st.sampled_from(["FLOAT", "FLOAT16", "INT32", "BOOL"]))
def test_valid_cases_drawn_by_hypothesis_hold(specs, data, dtype):
    spec = specs.operator(API)
    case = build_case(spec, specs.vocabulary, A2, dtype, HypothesisChooser(data.draw))
    assert explain(case, specs).expected == "success", {k: v.dtype for k, v in case.args.items()}


def test_a_clause_the_lists_cannot_break_has_no_broken_case(spec, specs):
    """Without UINT16 in other's list every pair of listed dtypes promotes: nothing breaks it."""
    narrow = dataclasses.replace(spec, constraints=tuple(
        dataclasses.replace(c, options={**c.options, "per_product": {A2: ["FLOAT", "INT32"]}})
        if c.id == "TMA-DTYPE-OTHER" else c for c in spec.constraints))
    assert broken_cases(narrow, specs.vocabulary, A2, "FLOAT", FixedChooser("min"), "TMA-PROMOTE") == []


def test_meaning(spec):
    got = facts(spec)
    assert got["promotable {other, self}"].clauses == ("TMA-PROMOTE",)
    assert got["castable {other, self} -> out"].code == "ACLNN_ERR_PARAM_INVALID"


@pytest.mark.parametrize("edit, words", [
    (("    to: out", "    to: shape"), "castable 'to' names 'shape', neither a parameter nor a dtype"),
    (("    to: out\n", ""), "to"),
])
def test_bad_clauses_are_spec_errors(specs, edit, words):
    path = Path(SPEC_DIR) / f"{API}.yaml"
    text = path.read_text(encoding="utf-8").replace(*edit)
    with pytest.raises(SpecError, match=words):
        read_operator(path, specs.vocabulary, text=text)


def _judged(backend_cls, specs, case):
    return Judge(backend_cls(specs), specs, A2).judge(Drawn(case, 1, "ordinary"))


def test_the_reference_is_conformant_and_the_planted_bug_is_caught(specs):
    from conformance.backends.reference import ReferenceBackend

    spec = specs.operator(API)
    valid = build_case(spec, specs.vocabulary, A2, "FLOAT16", FixedChooser("max"))
    (bad, *_) = broken_cases(spec, specs.vocabulary, A2, "FLOAT", FixedChooser("min"), "TMA-CAST")
    for case in (valid, bad):
        assert _judged(ReferenceBackend, specs, case).findings == []
    assert _judged(CastsAnything, specs, valid).findings == []
    findings = _judged(CastsAnything, specs, bad).findings
    assert [(f.kind, f.clause) for f in findings] == [("status", "TMA-CAST")]


@pytest.mark.slow
def test_a_run_catches_the_planted_bug(tmp_path, no_packs_left):
    good = conformance.run_suite("reference", specs=[SPEC_DIR], ops=[API], profile="quick",
                                 report_dir=tmp_path / "good", isolate=False)
    assert (good["outcome"], good["errors"]) == ("conformant", [])
    assert good["stats"]["per_kind"]["status"]["checks"] > 100
    bad = conformance.run_suite(f"{Path(__file__).parent / 'toy_promotion.py'}:CastsAnything",
                                specs=[SPEC_DIR], ops=[API], profile="quick",
                                report_dir=tmp_path / "bad", isolate=False)
    assert bad["outcome"] == "nonconformant"
    assert {(f["kind"], f["clause"]) for f in bad["findings"]} == {("status", "TMA-CAST")}


def test_a_scalar_promotes_by_the_tensor_scalar_table(spec):
    """A host scalar (a value with a dtype and no shape) joins the tensors' promoted dtype by table 2:
    an INT32 tensor with a FLOAT scalar computes in FLOAT, a BOOL tensor with a UINT16 scalar in
    nothing."""
    from conformance.spec.predicates import PREDICATES
    from conformance.spec.values import Scalar

    promote, cast = (dataclasses.replace(spec.constraint(i), params=("self", "alpha"))
                     for i in ("TMA-PROMOTE", "TMA-CAST"))
    names = {"self": TensorMeta((2,), "INT32"), "alpha": Scalar(1.5, "FLOAT"),
             "out": TensorMeta((2,), "BOOL")}
    assert PREDICATES["promotable"](promote, names, A2) == []
    assert PREDICATES["castable"](cast, names, A2) == [
        "self.dtype=INT32 and alpha.dtype=FLOAT promote to FLOAT, which cannot be cast to out.dtype=BOOL"]
    names.update(self=TensorMeta((2,), "BOOL"), alpha=Scalar(1, "UINT16"))
    assert PREDICATES["promotable"](promote, names, A2) == [
        "alpha.dtype=UINT16 (a scalar) has no promoted dtype with BOOL (promotion table 2)"]


def test_a_complex_scalar_moved_to_a_real_dtype_keeps_its_real_part():
    from conformance.generate.dtype_relations import _with
    from conformance.spec.values import Scalar

    moved = _with({"alpha": Scalar(2.5 + 1j, "COMPLEX64")}, ["alpha"], "FLOAT")
    assert moved == {"alpha": Scalar(2.5, "FLOAT")}
