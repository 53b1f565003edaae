"""Error rows about element counts and half a dimension (numel_ties.py, numel_phrasings.py): two
tensors of one element count, the dimension an int attribute names half the source's, one element.
The fixture page (tests/fixtures/numel_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_breaks_alone, by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "numel_pages" / "docs" / "aclnnToyHalve.md"
NAMES = ("self", "x", "dim", "idx", "src", "scale", "out", "outAux", "gradY", "alpha", "lr")


@pytest.mark.parametrize(("text", "limits"), [
    ("out、outAux在dim维的size不等于self在dim维size的1/2",
     {"half": (("out", "outAux"), "self", "dim"), "match": "dim"}),
    ("out在dim对应维度上的大小不等于x的一半。", {"half": (("out",), "x", "dim"), "match": "dim"}),
    ("gradY的维度数与x不一致，或gradY在dim对应维度上的大小不等于x的一半",
     {"half": (("gradY",), "x", "dim"), "match": "rank"}),
    ("out、outAux的shape跟self的shape除了dim指定的轴外需要保持一致，dim指定的轴为self的shape对应轴的一半",
     {"half": (("out", "outAux"), "self", "dim"), "match": "shape"}),
])
def test_half_a_dimension_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == ("half a dimension", ("numel_tie",), limits)


@pytest.mark.parametrize(("text", "pair"), [
    ("src和idx的元素数量不等", ("src", "idx")),
    ("src的元素个数与idx的元素个数不一致。", ("src", "idx")),
])
def test_same_element_count_rows_are_read(text, pair):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == (
        "same element count", ("numel_tie",), {"numel": pair})


@pytest.mark.parametrize(("text", "params"), [
    ("alpha、lr 的 shape size 不为 1", ("alpha", "lr")),
    ("scale 不是单元素标量张量（ShapeSize != 1）", ("scale",)),
    ("alpha 不是 1 个元素的标量 Tensor", ("alpha",)),
])
def test_one_element_rows_are_read(text, params):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.params, found.limits) == (
        "one element", ("length",), params, {"length": 1, "elements": True})


@pytest.mark.parametrize("text", [
    "gradY的维度数与self不一致，或gradY在dim对应维度上的大小不等于x的一半",  # the rank of another pair
    "x在dim对应维度上的大小不等于x的一半",  # a tensor against itself
    "out在dim维的size不等于self在dim维size的1/3",  # not a half
    "scale的size大小不是1",  # a tensor's "size" alone may be its shape
])
def test_other_sentences_are_not_these_rows(text):
    found = match(text, NAMES)
    assert found is None or found.pattern not in ("half a dimension", "one element", "same element count")


@pytest.fixture(scope="module")
def drafted():
    facts = read_page(PAGE.read_text(encoding="utf-8"), "toy: aclnnToyHalve.md", VOCAB)
    return draft_spec(facts, VOCAB, "toy: aclnnToyHalve.md")


def test_the_fixture_rows_become_the_exact_clauses(drafted):
    clauses = by_quote(drafted.spec)
    half = clauses["out、outAux在dim维的size不等于self在dim维size的1/2"]
    guard = "self.rank == 0 or dim < -self.rank or dim >= self.rank"
    assert half["all"] == [f"{guard} or {t}.rank != self.rank or 2 * {t}.shape[dim % self.rank] == "
                           "self.shape[dim % self.rank]" for t in ("out", "outAux")]
    d = "dim % len(self_shape)"
    assert half["break"] == {"self_half_shape": {
        "expr": f"self_shape[:{d}] + [self_shape[{d}] + 1] + self_shape[{d} + 1:]"}}
    same = clauses["src和idx的元素数量不等"]
    assert same["all"] == ["src.numel == idx.numel"]
    assert same["break"] == {"src_numel_shape": {
        "expr": "[2] if len(idx_shape) == 0 else idx_shape[:-1] + [idx_shape[-1] + 1]"}}
    one = clauses["scale的shape size不为1"]
    assert (one["all"], one["break"]) == (["scale.numel == 1"], {"scale_shape": {"expr": "[2]"}})
    generate = drafted.spec["generate"]
    # self's rank (0-8 on the page) starts at 1: a 0-d self has no dimension to halve
    assert generate["draws"]["self_shape"]["shape"]["rank"] == [1, 8]
    assert generate["draws"]["self_doubled_shape"] == {
        "expr": f"self_shape[:{d}] + [2 * self_shape[{d}]] + self_shape[{d} + 1:]"}
    assert {n: generate["args"][n] for n in ("self", "out", "outAux", "src")} == {
        "self": "self_doubled_shape", "out": "self_half_shape", "outAux": "self_half_shape",
        "src": "src_numel_shape"}
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_valid_cases_keep_the_ties_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        self_, out, dim = case.args["self"].shape, case.args["out"].shape, case.args["dim"]
        assert self_[dim] == 2 * out[dim] and self_[dim] % 2 == 0
        assert case.args["src"].numel == case.args["idx"].numel and case.args["scale"].numel == 1
        assert explain(case, specs).expected == "success"
    ties = [c["id"] for c in drafted.spec["constraints"]
            if c["source"]["quote"] in ("out、outAux在dim维的size不等于self在dim维size的1/2",
                                        "src和idx的元素数量不等", "scale的shape size不为1")]
    assert len(ties) == 3
    for cid in ties:
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid,
                            (FixedChooser("min"), FixedChooser("max")))


def test_a_target_sharing_the_source_shape_leaves_the_half_row_for_review():
    text = PAGE.read_text(encoding="utf-8").replace(
        "<td>scale的shape size不为1。</td>", "<td>out与self的shape不一致。</td>")
    facts = read_page(text, "toy: aclnnToyHalve.md", VOCAB)
    d = draft_spec(facts, VOCAB, "toy: aclnnToyHalve.md")
    half = by_quote(d.spec)["out、outAux在dim维的size不等于self在dim维size的1/2"]
    assert half["kind"] == "review"


def test_a_guessed_dim_is_redrawn_over_the_dimensions_of_the_halved_tensor():
    # without the dim-range row the generate section guesses dim's draw: the tie draws it again
    text = PAGE.read_text(encoding="utf-8").replace(
        "<td>dim的取值不在[-self.dim(), self.dim()-1]范围内。</td>", "<td>scale的数据类型与self不一致。</td>")
    facts = read_page(text, "toy: aclnnToyHalve.md", VOCAB)
    d = draft_spec(facts, VOCAB, "toy: aclnnToyHalve.md")
    assert d.spec["generate"]["draws"]["dim"] == {"integers": [0, "len(self_shape) - 1"]}
    half = by_quote(d.spec)["out、outAux在dim维的size不等于self在dim维size的1/2"]
    assert half["kind"] == "expr" and "self_half_shape" in half["break"]
    quotes = [c["source"]["quote"] for c in d.spec["constraints"]]
    assert not [q for q in quotes if "no values for dim" in q]
