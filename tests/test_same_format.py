"""The same_format clause ("self、scale与out的数据格式互不一致"): the draft, the predicate and the
oracle's code, the break (another format the tensor's own list allows) and the format_in break
that moves the tied tensors together, the spec comparison's fact, and a tie no case can break alone
(every tensor ND only) left for review, and a list without a code the tie implies left out. On
invented pages in the vendor's layout (tests/fixtures/format_pages), drafted here."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from helpers import drafted_pack_fixture, drafted_spec, drafted_specs_fixture

import conformance
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.errors import SpecError
from conformance.generate.breaks import variants
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import breaks_only
from conformance.spec import meaning
from conformance.spec.loader import read_operator, specs_dir
from conformance.spec.predicates import same_format

PAGES = Path(__file__).parent / "fixtures" / "format_pages"
API, COPY = "aclnnToyFormatScale", "aclnnToyFormatCopy"
TIE, LISTS = "TFS-SAME-FORMAT", "TFS-FORMAT"
INVALID = 161002

pytestmark = pytest.mark.usefixtures("no_packs_left")


drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


def _clauses(drafted: Path, api: str) -> dict[str, dict]:
    spec = yaml.safe_load((drafted / f"{api}.yaml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in spec["constraints"]}


def _meta(fmt: str) -> TensorMeta:
    return TensorMeta((2, 3, 4, 5), "FLOAT", format=fmt)


def judged(specs, self_format: str, scale_format: str, out_format: str) -> tuple[set[str], tuple[int, ...]]:
    args = {"self": _meta(self_format), "scale": _meta(scale_format), "out": _meta(out_format)}
    e = explain(Case(API, "atlas-a2", args), specs)
    return {v.clause for v in (*e.violations, *e.unspecified)}, e.status


def test_the_draft_reads_the_row_as_a_coded_tie(drafted):
    clauses = _clauses(drafted, API)
    assert {k: clauses[TIE][k] for k in ("kind", "params", "on_violation")} == {
        "kind": "same_format", "params": ["self", "scale", "out"], "on_violation": "ACLNN_ERR_PARAM_INVALID"}
    assert clauses[TIE]["source"]["quote"] == "self、scale与out的数据格式互不一致"
    assert clauses[LISTS]["formats"] == ["ND", "NCHW"]  # (the lists stay beside the tie)
    stats = json.loads((drafted / "stats.json").read_text(encoding="utf-8"))
    page = next(p for p in stats["pages"] if p["api"] == API)
    assert page["error_rows_checkable"] == page["error_rows"] == 4 and page["implied"] == []


def test_the_predicate_and_the_oracle(specs):
    assert judged(specs, "ND", "ND", "ND") == (set(), ())
    assert judged(specs, "NCHW", "NCHW", "NCHW") == (set(), ())
    assert judged(specs, "ND", "ND", "NCHW") == ({TIE}, (INVALID,))
    assert judged(specs, "NC1HWC0", "NC1HWC0", "NC1HWC0") == ({LISTS}, (INVALID,))
    clause = specs.operator(API).constraint(TIE)
    assert same_format(clause, {"self": _meta("NCHW"), "scale": None, "out": _meta("ND")}, "atlas-a2") == [
        "out.format=ND must equal self.format=NCHW"]  # (a null tensor is another clause's matter)


def test_each_break_changes_one_tensor_within_its_own_list(specs):
    spec = specs.operator(API)
    valid = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"))
    assert [valid.args[p].format for p in ("self", "scale", "out")] == ["ND", "ND", "ND"]
    cases = variants(spec.constraint(TIE), valid.args, spec, specs.vocabulary, "atlas-a2")
    changed = [{p: c[p].format for p in ("self", "scale", "out") if c[p].format != "ND"} for c in cases]
    assert changed == [{"self": "NCHW"}, {"scale": "NCHW"}, {"out": "NCHW"}]
    assert all(breaks_only(explain(replace(valid, args=c), specs), TIE) for c in cases)


def test_the_list_break_moves_the_tied_tensors_together(specs):
    spec = specs.operator(API)
    valid = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"))
    cases = variants(spec.constraint(LISTS), valid.args, spec, specs.vocabulary, "atlas-a2")
    assert len(cases) == 1  # (one per tensor, all the same case: the whole tie moves)
    assert len({cases[0][p].format for p in ("self", "scale", "out")}) == 1
    assert cases[0]["self"].format not in ("ND", "NCHW")
    assert breaks_only(explain(replace(valid, args=cases[0]), specs), LISTS)


def test_a_tie_no_case_breaks_alone_is_left_for_review(drafted):
    clauses = _clauses(drafted, COPY)
    assert [c["kind"] for c in clauses.values()].count("same_format") == 0
    [review] = [c for c in clauses.values() if c["kind"] == "review" and "格式" in c["source"]["quote"]]
    assert (review["source"]["quote"], review["closest"]) == ("self与out的数据格式并不相同", "formats differ")


def test_an_uncoded_list_the_tie_implies_goes_before_the_tie(drafted):
    # gradInput lists gradOut's formats without a row of its own: breaking gradOut's coded list
    # moves the tie together and so broke gradInput's list too; the tie and the coded list say it
    clauses = _clauses(drafted, "aclnnToyFormatGrad")
    kept = {c["kind"]: (c["params"], c["on_violation"]) for c in clauses.values()
            if c["kind"] in ("format_in", "same_format")}
    assert kept == {"format_in": (["gradOut", "input"], "ACLNN_ERR_PARAM_INVALID"),
                    "same_format": (["gradOut", "input", "gradInput"], "ACLNN_ERR_PARAM_INVALID")}
    stats = json.loads((drafted / "stats.json").read_text(encoding="utf-8"))
    page = next(p for p in stats["pages"] if p["api"] == "aclnnToyFormatGrad")
    assert page["implied"] == ["TFG-FORMAT-2"] and page["error_rows_checkable"] == page["error_rows"] == 4


def test_spec_comparison_has_the_tie_as_a_fact(specs):
    facts = meaning.facts(specs.operator(API))
    tie = {k: (f.code, f.clauses) for k, f in facts.items() if k.startswith("same_format")}
    assert tie == {"same_format {out, scale, self}": ("ACLNN_ERR_PARAM_INVALID", (TIE,))}
    assert meaning.unexpressed(specs.operator(API)) == []


def _enums(node):
    if isinstance(node, dict):
        yield from ([node["enum"]] if isinstance(node.get("enum"), list) else [])
        for child in node.values():
            yield from _enums(child)
    elif isinstance(node, list):
        for child in node:
            yield from _enums(child)


@pytest.mark.parametrize("schema", [specs_dir() / "schema" / "operator.schema.json",
                                    Path(conformance.__file__).parent / "schema" / "report.schema.json"])
def test_every_list_of_kinds_has_the_tie(schema):
    kinds = [e for e in _enums(json.loads(schema.read_text(encoding="utf-8"))) if "format_in" in e]
    assert kinds and all("same_format" in e and "rank_in" in e for e in kinds)


@pytest.mark.parametrize("change, message", [
    ({"params": ["self"]}, r"\[.self.\] is too short"),
    ({"params": ["self", "diagonal"]},
     "a same_format constraint needs a tensor or tensor_list parameter, 'diagonal' is int"),
])
def test_the_lint_refuses_a_tie_of_one_tensor_or_of_no_tensor(drafted, specs, change, message):
    spec = drafted_spec(drafted, API)
    spec["params"]["diagonal"] = {"kind": "int", "role": "attr"}
    spec["generate"]["args"]["diagonal"] = 0
    next(c for c in spec["constraints"] if c["id"] == TIE).update(change)
    with pytest.raises(SpecError, match=message):
        read_operator(drafted / f"{API}.yaml", specs.vocabulary, text=yaml.safe_dump(spec))
