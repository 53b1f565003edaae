"""The outer product's row, "self不能扩展成为vec1和vec2的外积结果形状", read as self broadcasting into
[len(vec1), len(vec2)]. The usage notes ("vec1: shape需要与self满足broadcast关系") had put the three in
one broadcast group: both vectors drawn with one length and out with self's shape, nearly every
valid case one a kernel refuses. On an invented page in the vendor's layout
(tests/fixtures/outer_pages), drafted here, and against a backend right in its own way (numpy's
outer product) and two wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    draft_text,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    quick_runner,
)
from outer_backends import expands, outer_shape

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "outer_pages"
PAGE = PAGES / "docs" / "aclnnToyOuter.md"
BACKENDS = Path(__file__).with_name("outer_backends.py")
API, OUTER = "aclnnToyOuter", "TO-OUTER"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


@pytest.mark.parametrize("text", ["self不能扩展成为vec1和vec2的外积结果形状",
                                  "selfRef不能扩展成为vec1和vec2的外积结果形状。",
                                  "self无法扩展为vec1与vec2外积结果的形状。"])
def test_the_phrasing(text):
    found = match(text, ("self", "selfRef", "vec1", "vec2"))
    assert (found.pattern, found.limits["outer"][1:]) == ("outer product shape", ("vec1", "vec2"))


def test_the_vectors_leave_the_broadcast_group_and_the_row_is_a_clause(drafted):
    spec = drafted_spec(drafted, API)
    gen, by_id = spec["generate"], {c["id"]: c for c in spec["constraints"]}
    assert gen["args"] == {"self": "self_in_outer_shape", "vec1": "vec1_shape", "vec2": "vec2_shape",
                           "out": "vec1_vec2_outer_shape"}
    assert gen["draws"]["vec1_vec2_outer_shape"] == {"expr": "vec1_shape + vec2_shape"}
    full = "vec1.shape + vec2.shape"
    # (self past 2-d is the rank row's: it is coded)
    assert by_id[OUTER]["all"] == [f"self.rank > 2 or vec1.rank != 1 or vec2.rank != 1 or broadcastable("
                                   f"self.shape, {full}) and broadcast(self.shape, {full}) == {full}"]
    assert not any(c["kind"] == "broadcastable" for c in spec["constraints"])
    reviews = [c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"]
    assert reviews.count("shape与self满足broadcast关系。") == 2  # (the notes no clause encodes)
    assert any(q.startswith("Drafted guess: out drawn as the outer product's shape") for q in reviews)
    assert_rows_checkable(drafted, 4)


def test_valid_cases_are_numpys_outer_product_and_the_break_breaks_the_row_alone(specs):
    spec, vocab = specs.operator(API), specs.vocabulary
    lengths = alone = 0
    for seed in range(40):
        case = build_case(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed))
        a = {n: case.args[n].shape for n in ("self", "vec1", "vec2", "out")}
        full = outer_shape(a["vec1"], a["vec2"])
        assert a["out"] == full and expands(a["self"], full), seed
        assert explain(case, specs).expected == "success", seed
        lengths += a["vec1"] != a["vec2"]
        for bad in broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), OUTER):
            b = {n: bad.args[n].shape for n in ("self", "vec1", "vec2")}
            assert not expands(b["self"], outer_shape(b["vec1"], b["vec2"])), seed
            alone += breaks_only(explain(bad, specs), OUTER)
    assert lengths >= 10 and alone >= 10


def test_the_oracle_at_2_to_the_24_elements(specs):
    def verdict(self, vec1=(4096,), vec2=(4096,)):
        args = {"self": TensorMeta(self, "FLOAT"), "vec1": TensorMeta(vec1, "FLOAT"),
                "vec2": TensorMeta(vec2, "FLOAT"), "out": TensorMeta((4096, 4096), "FLOAT")}
        e = explain(Case(API, "atlas-a2", args), specs)
        return e.expected, {v.clause for v in e.violations}

    assert verdict((4096, 4096)) == ("success", set())
    assert verdict((4096, 1)) == ("success", set())
    assert verdict((4096,)) == ("success", set())
    assert verdict((4095, 4096)) == ("error", {OUTER})
    assert verdict((1, 4096, 4096)) == ("error", {"TO-RANK"})  # (3-d self: the rank row alone)
    assert verdict((4096, 4096), vec1=(64, 64)) == ("error", {"TO-RANK-2"})  # (a 2-d vector)


def test_without_a_coded_rank_row_self_past_2_d_is_the_outer_rows():
    text = PAGE.read_text(encoding="utf-8").replace("<td>vec1、vec2的维度不为1，self的维度大于2。</td>",
                                                    "<td>vec1或vec2的数据格式不被支持。</td>")
    d = draft_text(text, f"toy: {API}.md")
    clause = next(c for c in d.spec["constraints"] if c["id"] == OUTER)
    assert clause["all"][0].startswith("vec1.rank != 1 or vec2.rank != 1 or broadcastable(")


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyOuter"])
def test_backends_taking_the_outer_product_right_pass(drafted, backend, tmp_path):
    assert_clean_pass(_run(drafted, backend, tmp_path), OUTER, 8)


def test_a_backend_wanting_vectors_of_one_length_is_caught_on_valid_cases(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:SameLengthOnly", tmp_path)
    assert report["outcome"] == "nonconformant"
    assert {f["clause"] for f in report["findings"]} == {"TO-PHASE"}


def test_a_backend_not_checking_self_is_caught_on_the_row(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:SelfUnchecked", tmp_path)
    assert_caught_alone(report, OUTER)
