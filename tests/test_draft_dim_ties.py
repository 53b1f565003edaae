"""Error rows tying one dimension of a tensor to another's, named from the end (dim_ties.py): "最后一维"
against "倒数第二维", a square matrix, twice another's last dimension, an even last dimension; and
a dimension of a fixed size ("out的倒数第二维不是3") or under a limit ("gain最后一维的大小超过16"); and
"（a、b）的shape不是完全相同的shape" as same_shape. The fixture page (tests/fixtures/dim_tie_pages) is
an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_breaks_alone, by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft import dim_ties
from conformance.draft.emit import draft_spec
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "dim_tie_pages" / "docs" / "aclnnToyPair.md"
NAMES = ("left", "right", "sq", "gain", "bias", "out", "x", "y")


@pytest.mark.parametrize(("text", "limits"), [
    ("left的最后一维和right的倒数第二维不相等", {"tie": ("right", -2, "left", -1, 1)}),
    ("left的最后一维与right的倒数第二维大小不一致。", {"tie": ("right", -2, "left", -1, 1)}),
    ("gain的最后一维和x最后一维不一致", {"tie": ("x", -1, "gain", -1, 1)}),
    ("out的最后一维不等于gain最后一维的2倍", {"tie": ("out", -1, "gain", -1, 2)}),
    ("sq最后两个维度不相等", {"tie": ("sq", -1, "sq", -2, 1)}),
    ("sq的最后两维维度不相等", {"tie": ("sq", -1, "sq", -2, 1)}),
    ("sq的最后两维不相等（不是方阵）", {"tie": ("sq", -1, "sq", -2, 1)}),
    ("x的最后一维不是2的倍数", {"even": ("x", -1)}),
    ("right的尾轴大小不能被2整除", {"even": ("right", -1)}),
    ("x的最后一轴不是2", {"fixed": ("x", -1, 2)}),
    ("out的倒数第二维的大小不等于16。", {"fixed": ("out", -2, 16)}),
    ("x最后一维的大小超过8192", {"most": ("x", -1, 8192)}),
    ("x最后一个维度的大小不能超过2^24", {"most": ("x", -1, 2 ** 24)}),
])
def test_dimension_ties_named_from_the_end_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == ("dimension tie", ("dim_tie",), limits)


@pytest.mark.parametrize("text", [
    "x的第二维和y的第一维度不相等",  # an ordinal from the front: counted from 0 on some pages, 1 on others
    "left的最后一维和right的倒数第二维不相等，或left的维度不为3",  # two rules
    "当x为2维时，x最后两个维度不相等",  # a condition
    "x的最后一维不是4的倍数",  # another multiple: not read (yet)
    "x的最后一轴不是0",  # an empty dimension: the empty-tensor rows' business
])
def test_other_dimension_sentences_are_not_ties(text):
    found = match(text, NAMES)
    assert found is None


@pytest.mark.parametrize(("text", "params"), [
    ("（gain、bias）的shape不是完全相同的shape", ("gain", "bias")),
    ("输入x和输出y的shape不是完全相同的shape", ("x", "y")),
    ("输入left、right和输出out的shape不是完全相同的shape。", ("left", "right", "out")),
])
def test_not_identical_shapes_are_same_shape(text, params):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.params) == ("shapes differ", ("same_shape",), params)


@pytest.mark.parametrize(("text", "params"), [
    ("bias的shape与shiftOptional不一致", ("bias", "shiftOptional")),
    ("x的shape与shiftOptional不相同", ("x", "shiftOptional")),
])
def test_one_shape_against_another_named_at_length_is_same_shape(text, params):
    found = match(text, (*NAMES, "shiftOptional"))
    assert found is not None
    assert (found.pattern, found.kinds, found.params) == ("shapes differ", ("same_shape",), params)


def test_a_shape_row_under_a_condition_is_not_read_as_same_shape():
    # (conditions.py reads "X存在输入时，shape与Y不相同" as a conditional clause)
    found = match("shiftOptional存在输入时，shape与bias不一致", (*NAMES, "shiftOptional"))
    assert found is None


def test_not_identical_shapes_saying_more_stay_for_review():
    assert match("gain、bias(若存在)的shape不是完全相同的shape，或二者的维度数不为1", NAMES) is None


@pytest.fixture(scope="module")
def drafted():
    facts = read_page(PAGE.read_text(encoding="utf-8"), "toy: aclnnToyPair.md", VOCAB)
    return draft_spec(facts, VOCAB, "toy: aclnnToyPair.md")


def test_the_fixture_rows_become_the_exact_clauses(drafted):
    clauses = by_quote(drafted.spec)
    pair = clauses["left的最后一维与right的倒数第二维大小不一致"]
    assert pair["kind"] == "expr" and pair["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert pair["all"] == ["right.rank < 2 or left.rank < 1 or right.shape[-2] == left.shape[-1]"]
    # right is drawn like left (no clause fixes it): its own draw sets the tied dimension
    assert pair["break"] == {
        "right_tied_shape": {"expr": "left_shape[:-2] + [left_shape[-1] + 1] + left_shape[-1:]"}}
    even = clauses["right的尾轴大小不能被2整除"]
    assert even["all"] == ["right.rank < 1 or right.shape[-1] % 2 == 0"]
    assert even["break"] == {
        "right_tied_shape_2": {"expr": "right_tied_shape[:-1] + [2 * right_tied_shape[-1] + 1]"}}
    square = clauses["sq最后两个维度的大小不一致"]
    assert square["all"] == ["sq.rank < 2 or sq.shape[-1] == sq.shape[-2]"]
    twice = clauses["out的最后一维不等于gain最后一维的2倍"]
    assert twice["all"] == ["out.rank < 1 or gain.rank < 1 or out.shape[-1] == 2 * gain.shape[-1]"]
    # the second row joins the same_shape clause of its code sharing bias (an absent optional tensor
    # is skipped by the clause)
    same = clauses["（gain、bias）的shape不是完全相同的shape / bias的shape与shiftOptional不一致"]
    assert (same["kind"], same["params"], same["on_violation"]) == (
        "same_shape", ["gain", "bias", "shiftOptional"], "ACLNN_ERR_PARAM_INVALID")
    fixed = clauses["out的倒数第二维不是3"]  # a size: drawn so, broken one more
    assert fixed["all"] == ["out.rank < 2 or out.shape[-2] == 3"]
    assert fixed["break"] == {
        "out_tied_shape_2": {"expr": "out_tied_shape[:-2] + [4] + out_tied_shape[-1:]"}}
    most = clauses["gain最后一维的大小超过16"]  # a limit: valid draws stay below, broken one past it
    assert most["all"] == ["gain.rank < 1 or gain.shape[-1] <= 16"]
    assert most["break"] == {"gain_shape": {"expr": "[17]"}}  # (at its least rank, the others 1)
    draws = drafted.spec["generate"]["draws"]
    assert draws["right_tied_shape"] == {"expr": "left_shape[:-2] + [left_shape[-1]] + left_shape[-1:]"}
    assert draws["sq_tied_shape"] == {"expr": "left_shape[:-1] + [left_shape[-2]]"}
    assert draws["out_tied_shape"] == {"expr": "left_shape[:-1] + [2 * gain_shape[-1]]"}
    assert draws["out_tied_shape_2"] == {"expr": "out_tied_shape[:-2] + [3] + out_tied_shape[-1:]"}
    assert drafted.spec["generate"]["args"]["right"] == "right_tied_shape_2"
    assert drafted.spec["generate"]["args"]["out"] == "out_tied_shape_2"
    assert all(o.checkable for o in drafted.draft.outcomes)  # every row of the page, the ties included


def test_valid_cases_keep_the_ties_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        left, right, sq = (case.args[n].shape for n in ("left", "right", "sq"))
        assert right[-2] == left[-1] and right[-1] % 2 == 0 and sq[-1] == sq[-2]
        assert case.args["out"].shape[-2] == 3
        assert explain(case, specs).expected == "success"
    ties = [c["id"] for c in drafted.spec["constraints"] if c["id"].startswith("TP-DIM")]
    assert len(ties) == 6
    for cid in ties:
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid)


class _OneClass:
    """Shapes with every tensor in a class of its own, of rank 2."""

    def __init__(self, draws):
        self.ranges = dict.fromkeys(draws, (2, 2))

    def members(self, t):
        return [t]


def test_a_size_on_a_draw_another_tie_reads_stays_for_review():
    # b's draw was set from a's old draw: fixing a's last dimension afterwards would not reach it
    draws = {"a_shape": {"shape": {"rank": [2, 2]}},
             "b_tied_shape": {"expr": "a_shape[:-1] + [a_shape[-1]]"}}
    args = {"a": "a_shape", "b": "b_tied_shape"}
    clause = {"id": "T-DIM", "source": {"quote": "a的最后一轴不是2"},
              "_dim_tie": (("a", -1, "a", -1, 1), ("fixed", 2))}
    clauses, reviewed = [clause], []
    dim_ties.resolve(_OneClass(draws), draws, args, clauses, lambda s, p: reviewed.append((s.text, p)),
                     lambda t: None)
    assert clauses == [] and reviewed == [("a的最后一轴不是2", "dimension tie")]
    assert args == {"a": "a_shape", "b": "b_tied_shape"} and len(draws) == 2
