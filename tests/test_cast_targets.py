"""castable's targets besides an output (spec/promotion.py): an input tensor's dtype, a dtype name,
and the promoted dtype of several parameters ("alpha无法转换为self和other推导后的数据类型"). The
predicate, the loader's checks, meaning, the generator (valid cases keep such a clause, a broken case
breaks it alone) and an invented operator (tests/fixtures/promotion_pack, aclnnToyScaledMix) judged
against the reference backend and backends with the rule planted wrong either way."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from toy_promotion import SPEC_DIR, CastsAlphaStrictly, CastsAnything

from conformance.backends.reference import OracleBackend, ReferenceBackend
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.check.judge import Judge
from conformance.errors import SpecError
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import Drawn
from conformance.spec.loader import read_operator, read_packs, specs_dir
from conformance.spec.meaning import facts
from conformance.spec.predicates import PREDICATES
from conformance.spec.values import Scalar

A2 = "atlas-a2"
API = "aclnnToyScaledMix"


@pytest.fixture(scope="module")
def specs():
    return read_packs((specs_dir(), Path(SPEC_DIR)))


@pytest.fixture(scope="module")
def spec(specs):
    return specs.operator(API)


def _names(self="INT32", other="INT32", alpha="FLOAT", value=1.0):
    return {"self": TensorMeta((2,), self), "other": TensorMeta((2,), other),
            "alpha": Scalar(value, alpha), "out": TensorMeta((2,), "FLOAT")}


def test_to_the_promoted_dtype_of_several_parameters(spec):
    c = spec.constraint("TSM-ALPHA-CAST")
    assert PREDICATES["castable"](c, _names("INT32", "BOOL", "INT32", 1), A2) == []
    assert PREDICATES["castable"](c, _names("BOOL", "BOOL", "INT32", 1), A2) == [
        "alpha.dtype=INT32, which cannot be cast to the dtype self.dtype=BOOL and other.dtype=BOOL "
        "promote to, BOOL"]
    (disputed,) = PREDICATES["castable"](c, _names("INT32", "INT32", "FLOAT"), A2)
    assert disputed.startswith("alpha.dtype=FLOAT, which may or may not be cast to the dtype")
    # a null target, or targets with no promoted dtype: nothing to cast to (other clauses speak)
    assert PREDICATES["castable"](c, {**_names("BOOL", "BOOL", "INT32", 1), "other": None}, A2) == []
    assert PREDICATES["castable"](c, _names("INT32", "UINT16", "COMPLEX64", 1j), A2) == []


def test_to_an_input_and_to_a_dtype_name(spec):
    c = spec.constraint("TSM-SELF-CAST")
    assert PREDICATES["castable"](c, _names("INT32", "FLOAT"), A2) == []
    assert PREDICATES["castable"](c, _names("INT32", "BOOL"), A2) == [
        "self.dtype=INT32, which cannot be cast to other.dtype=BOOL"]
    to_bool = dataclasses.replace(c, options={**c.options, "to_params": (), "to_dtype": "BOOL"})
    assert PREDICATES["castable"](to_bool, _names("FLOAT"), A2) == [
        "self.dtype=FLOAT, which cannot be cast to BOOL"]
    assert PREDICATES["castable"](to_bool, _names("BOOL"), A2) == []


@pytest.mark.parametrize("edit, words", [
    (("    to: other\n", "    to: float32\n"), None),  # a dtype's alias: its canonical name
    (("    to: other\n", "    to: nothing\n"), "'to' names 'nothing', neither a parameter nor a dtype"),
    (("    to: [self, other]\n", "    to: [self, shape]\n"), "castable 'to' names 'shape', not a tensor"),
    (("    to: [self, other]\n", "    to: []\n"), "to"),
])
def test_the_loader_checks_the_target(specs, edit, words):
    path = Path(SPEC_DIR) / f"{API}.yaml"
    text = path.read_text(encoding="utf-8").replace(*edit)
    assert text != path.read_text(encoding="utf-8")
    if words is None:
        c = read_operator(path, specs.vocabulary, text=text).constraint("TSM-SELF-CAST")
        assert (c.options["to_params"], c.options["to_dtype"]) == ((), "FLOAT")
        return
    with pytest.raises(SpecError, match=words):
        read_operator(path, specs.vocabulary, text=text)


def test_meaning_keys_name_the_target(spec):
    got = facts(spec)
    assert got["castable {alpha} -> promoted {other, self}"].clauses == ("TSM-ALPHA-CAST",)
    assert got["castable {self} -> other"].code == "ACLNN_ERR_PARAM_INVALID"


def test_valid_cases_keep_the_clauses_and_each_breaks_alone(spec, specs):
    broken = {"TSM-SELF-CAST": set(), "TSM-ALPHA-CAST": set()}
    for dtype in spec.test_dtypes(A2):
        for mode in ("min", "max"):
            case = build_case(spec, specs.vocabulary, A2, dtype, FixedChooser(mode))
            assert explain(case, specs).expected == "success", case.args
        for clause, seen in broken.items():
            for case in broken_cases(spec, specs.vocabulary, A2, dtype, FixedChooser("min"), clause):
                assert [v.clause for v in explain(case, specs).violations] == [clause], case.args
                seen.add((case.args["self"].dtype, case.args["other"].dtype, case.args["alpha"].dtype))
    # FLOAT self casts to no other dtype of the lists undisputed; INT32 and BOOL inputs promote to
    # themselves, which a COMPLEX64 (or, for BOOL, an INT32) alpha cannot be cast to
    assert ("FLOAT", "BOOL", "FLOAT") in broken["TSM-SELF-CAST"]
    assert {(s, o) for s, o, a in broken["TSM-ALPHA-CAST"]} >= {("INT32", "INT32"), ("BOOL", "BOOL")}
    assert all(a in ("COMPLEX64", "INT32", "FLOAT") for *_, a in broken["TSM-ALPHA-CAST"])


def _judge(backend_cls, specs, case):
    return Judge(backend_cls(specs), specs, A2).judge(Drawn(case, 1, "ordinary")).findings


def _cases(spec, specs):
    valid = [build_case(spec, specs.vocabulary, A2, d, FixedChooser(m))
             for d in spec.test_dtypes(A2) for m in ("min", "max")]
    bad = [c for d in spec.test_dtypes(A2)
           for c in broken_cases(spec, specs.vocabulary, A2, d, FixedChooser("min"), "TSM-ALPHA-CAST")]
    return valid, bad


def test_the_reference_and_the_oracle_are_conformant(spec, specs):
    valid, bad = _cases(spec, specs)
    assert valid and bad
    for backend in (ReferenceBackend, OracleBackend):
        for case in (*valid, *bad):
            findings = _judge(backend, specs, case)
            assert [f for f in findings if f.kind == "status"] == [], (backend.name, case.args)


def test_a_backend_accepting_a_cast_it_must_refuse_is_caught(spec, specs):
    _, bad = _cases(spec, specs)
    for case in bad:
        assert [(f.kind, f.clause) for f in _judge(CastsAnything, specs, case)] == \
            [("status", "TSM-ALPHA-CAST")]


def test_a_backend_refusing_a_cast_it_must_accept_is_caught(spec, specs):
    """An INT32 alpha with FLOAT inputs: the documents let it cast to FLOAT."""
    case = build_case(spec, specs.vocabulary, A2, "FLOAT", FixedChooser("min"))
    args = {**case.args, "alpha": Scalar(2, "INT32")}
    case = dataclasses.replace(case, args=args)
    assert explain(case, specs).expected == "success"
    assert _judge(ReferenceBackend, specs, case) == []
    assert [f.kind for f in _judge(CastsAlphaStrictly, specs, case)] == ["status"]


@pytest.mark.slow
def test_runs_of_the_toy_operator(tmp_path, no_packs_left):
    """A whole run: the reference conformant; each planted bug caught on status only."""
    import conformance

    toy = Path(__file__).parent / "toy_promotion.py"
    got = {}
    for backend in ("reference", f"{toy}:CastsAnything", f"{toy}:CastsAlphaStrictly"):
        report = conformance.run_suite(backend, specs=[SPEC_DIR], ops=[API], profile="quick",
                                       report_dir=tmp_path / backend.rsplit(":", 1)[-1], isolate=False)
        got[backend.rsplit(":", 1)[-1]] = (report["outcome"], {f["kind"] for f in report["findings"]},
                                           {f["clause"] for f in report["findings"]})
    assert got == {
        "reference": ("conformant", set(), set()),
        "CastsAnything": ("nonconformant", {"status"}, {"TSM-SELF-CAST", "TSM-ALPHA-CAST"}),
        # a valid case refused: blamed on the phase clause (no clause's 'when' names it)
        "CastsAlphaStrictly": ("nonconformant", {"status"}, {f"{API}:status"})}
