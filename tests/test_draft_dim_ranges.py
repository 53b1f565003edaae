"""Dimension-range rows the "dimension range" pattern does not read (dim_range_phrasings.py): a range
over a letter the sentence says is a tensor's rank ("[-N, N-1] (N表示self的维度)"), one over a letter
it leaves unsaid or no range at all ("dim指定的维度不在合法范围内"), read over the range the attribute's
own row writes, and two rows joining two rules with 或 (joined_parts.py): "dim的绝对值超出self的dim最大值
或超出8维" (the range and a rank limit) and "axes中有值…越界…，或表示的轴有重复" (the range and distinct
axes), checkable only where both parts are clauses. The page, tests/fixtures/dim_range_pages, is
invented and written in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import by_quote, draft_text, loaded_draft
from test_draft_rows import _valid_and_broken_alone

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGE = Path(__file__).parent / "fixtures" / "dim_range_pages" / "docs" / "aclnnToyAxes.md"
TEXT = PAGE.read_text(encoding="utf-8")
NAMES = ("self", "selfRef", "x", "dim", "dims", "axis", "axes", "out")
INVALID = "ACLNN_ERR_PARAM_INVALID"
LETTER = "dims的值超出[-N, N-1]范围（N为self的维度数量）"
X_RANK = "axis的值不在[-x_rank, x_rank)之内"
ABS = "dim的绝对值超过输入self的维度最大值或超过8维"
REPEAT = "axes中有值越界，不在[-self.dim(), self.dim() - 1]范围内，或表示的轴有重复"


@pytest.mark.parametrize(("text", "pattern", "params", "limits"), [
    (LETTER, "dimension range by letter", ("dims", "self"), {}),
    ("dim的取值越界不在[-dimNum, dimNum -1],dimNum为self的维度大小", "dimension range by letter",
     ("dim", "self"), {}),
    ("dim的取值不在 [-N, N-1]的范围中", "dimension range by letter", ("dim",), {"documented": True}),
    (X_RANK, "dimension range by letter", ("axis",), {"documented": True}),
    ("dim指定的维度不在合法范围内", "dimension out of its range", ("dim",), {"documented": True}),
    ("dim超出tensor数组维度", "dimension out of its range", ("dim",), {"documented": True}),
    ("dim不在合法范围内", "attribute out of its range", ("dim",), {"enumerated": True, "documented": True}),
    (ABS, "dimension range or rank", ("dim", "self"), {"documented": True, "max": 8}),
    # ("self.dim()" names no parameter dim)
    (REPEAT, "dimension range or duplicates", ("axes", "self"), {}),
    ("dim超出[-rank, rank-1]", "dimension range", ("dim",), {}),  # (that pattern's own form)
    # the vendor's own phrasings of the rows the fixture page words its own way
    ("dims超过[-N, N-1] (N表示self的维度)", "dimension range by letter", ("dims", "self"), {}),
    ("axis的取值不在[-x_rank, x_rank)范围内", "dimension range by letter", ("axis",), {"documented": True}),
    ("dim的绝对值超出self的dim最大值或超出8维", "dimension range or rank", ("dim", "self"),
     {"documented": True, "max": 8}),
    ("axes中有值的取值越界，不在[-self.dim(), self.dim() - 1]，或表示的轴有重复",
     "dimension range or duplicates", ("axes", "self"), {}),
])
def test_the_phrasings_are_read(text, pattern, params, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.params, found.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "dims超过[-N, N] (N表示self的维度)",  # not [-r, r-1]
    "dims超过[-N, N-1] (M表示self的维度)",  # another letter said
    "dims超过[-N, M-1] (M表示self的维度)",
    "axes中有值的取值越界，不在[-self.dim()-1, self.dim()]，或表示的轴有重复",  # an inserted dimension
    "dim的值大于self的shape大小",  # a size or a rank?
])
def test_other_ranges_are_not_read_as_dimension_ranges(text):
    assert match(text, NAMES) is None


@pytest.fixture(scope="module")
def axes():  # noqa: ANN201 - a DraftedSpec
    return draft_text(TEXT, "toy: aclnnToyAxes.md")


def test_every_row_is_checkable_with_the_exact_clauses(axes):
    assert all(o.checkable for o in axes.draft.outcomes)
    clauses = [c for c in axes.spec["constraints"] if c["kind"] in ("expr", "rank_in")]
    said = {(c["source"]["quote"], c["kind"]): (c.get("all", c.get("max")), c["on_violation"], c.get("break"))
            for c in clauses if c["source"]["quote"] != REPEAT}
    bound, drawn = "max(self.rank, 1)", "max(len(self_shape), 1)"
    assert said == {
        (LETTER, "expr"): ([f"len(dims) == 0 or (min(dims) >= -{bound} and max(dims) < {bound})"], INVALID,
                           {"dims": {"mode": "above"}}),
        (X_RANK, "expr"): ([f"axis >= -{bound} and axis < {bound}"], INVALID,
                           {"axis": {"outside": [f"-{drawn}", f"{drawn} - 1"]}}),
        (ABS, "expr"): ([f"dim >= -{bound} and dim < {bound}"], INVALID,
                        {"dim": {"outside": [f"-{drawn}", f"{drawn} - 1"]}}),
        (ABS, "rank_in"): (8, INVALID, None),
    }
    repeat = [c for c in clauses if c["source"]["quote"] == REPEAT]
    assert [(c["all"], c["on_violation"]) for c in repeat] == [
        ([f"len(axes) == 0 or (min(axes) >= -{bound} and max(axes) < {bound})"], INVALID),
        ([f"len(distinct(axes, {bound})) == len(axes)"], INVALID)]
    assert [c["break"] for c in repeat] == [{"axes": {"mode": "above"}},
                                            {"axes": {"expr": f"[-1, {drawn} - 1]"}}]
    draws = axes.spec["generate"]["draws"]
    assert draws["axis"] == draws["dim"] == {"integers": [f"-{drawn}", f"{drawn} - 1"]}
    assert draws["dims"] == draws["axes"] == {"below": f"[{drawn}]"}


def test_each_coded_clause_breaks_alone(axes, tmp_path):
    _valid_and_broken_alone(axes, tmp_path)


def test_an_int_dimension_is_broken_on_both_sides_of_its_range(axes, tmp_path):
    # a kernel checking only dim < rank (or only dim >= -rank) is caught on the other side
    spec, vocab, specs, product, dtype = loaded_draft(axes, tmp_path)
    cid = by_quote(axes.spec)[X_RANK]["id"]
    seen = set()
    for chooser in (FixedChooser("min"), FixedChooser("max"), *map(SeededChooser, range(40))):
        for case in broken_cases(spec, vocab, product, dtype, chooser, cid):
            rank, axis = len(case.args["self"].shape), case.args["axis"]
            assert breaks_only(explain(case, specs), cid)
            assert axis in (max(rank, 1), max(rank, 1) + 1, -max(rank, 1) - 1, -max(rank, 1) - 2)
            seen.add("above" if axis > 0 else "below")
    assert seen == {"above", "below"}


@pytest.mark.parametrize("sentence", ["axis指定的维度不在合法范围内", "axis不在合法范围内",
                                      "axis超出tensor数组维度", "axis的取值不在 [-N, N-1]的范围中"])
def test_a_range_unsaid_is_the_one_the_attribute_row_writes(sentence):
    d = draft_text(TEXT.replace(f"<td>{X_RANK}。</td>", f"<td>{sentence}。</td>"), "toy: aclnnToyAxes.md")
    c = by_quote(d.spec)[sentence]
    assert (c["kind"], c["all"], c["on_violation"]) == (
        "expr", ["axis >= -max(self.rank, 1) and axis < max(self.rank, 1)"], INVALID)


def test_without_the_row_range_the_rows_are_left_for_review():
    """No range in the rows of axis and dim: neither sentence is checkable, and the joined one is
    reviewed although its rank part is a coded clause (a part alone is not the sentence)."""
    notes = ("取值范围[-x_rank, x_rank)（x_rank表示self的shape维度）。",
             "self为1-8维时，dim取值在[-self.dim(), self.dim())内；self为0维时，dim取值在[-1, 1)内。")
    text = TEXT.replace(notes[0], "-").replace(notes[1], "-")
    d = draft_text(text, "toy: aclnnToyAxes.md")
    outcomes = {o.sentence.text: (o.checkable, o.reviewed) for o in d.draft.outcomes}
    assert outcomes[X_RANK] == outcomes[ABS] == (False, True)
    assert outcomes[LETTER] == outcomes[REPEAT] == (True, False)
    kinds = {(c["source"]["quote"], c["kind"]) for c in d.spec["constraints"]}
    assert {(X_RANK, "review"), (ABS, "review"), (ABS, "rank_in")} <= kinds


def test_a_joined_row_whose_distinct_part_cannot_break_alone_is_reviewed():
    """axes tied in length to another array (steps, drawn [1]): a duplicate pair breaks the length
    tie too, so the distinct clause goes (no case breaks it alone); the range part stays, and the
    sentence is reviewed."""
    steps = ("    <tr>\n      <td>steps(aclIntArray*)</td>\n      <td>输入</td>\n      <td>步长。</td>\n"
             + "      <td>-</td>\n" * 4 + "      <td>-</td>\n    </tr>\n")
    axes, out = "    const aclIntArray* axes,\n", "    <tr>\n      <td>out(aclTensor*)</td>"
    text = TEXT.replace(axes, axes + "    const aclIntArray* steps,\n").replace(out, steps + out)
    text = text.replace("<td>self和out的shape不一致。</td>", "<td>axes、steps中元素个数不相同。</td>")
    d = draft_text(text, "toy: aclnnToyAxes.md")
    outcome = next(o for o in d.draft.outcomes if o.sentence.text == REPEAT)
    assert (outcome.checkable, outcome.reviewed) == (False, True)
    kinds = sorted(c["kind"] for c in d.spec["constraints"] if c["source"]["quote"] == REPEAT)
    assert kinds == ["expr", "review"]


@pytest.mark.parametrize(("self_formats", "outcome"), [("ND", (True, False)),
                                                       ("见约束说明", (False, True))])
def test_a_dtype_and_format_row_is_checkable_only_with_both_parts(self_formats, outcome):
    """"self的数据类型和数据格式不在支持的范围之内" says the code for a dtype and for a format: with no
    format read for self (a cell pointing elsewhere), the dtype clause alone is not the sentence."""
    row = "self的数据类型和数据格式不在支持的范围之内。"
    text = TEXT.replace("<td>self和out的shape不一致。</td>", f"<td>{row}</td>")
    head, rest = text.split("<td>self(aclTensor*)</td>", 1)
    text = head + "<td>self(aclTensor*)</td>" + rest.replace("<td>ND</td>", f"<td>{self_formats}</td>", 1)
    d = draft_text(text, "toy: aclnnToyAxes.md")
    found = next(o for o in d.draft.outcomes if o.sentence.text == row.rstrip("。"))
    assert (found.checkable, found.reviewed) == outcome
