"""Rows tying tensors to int attributes named for the layout's letters (letter_ties.py: GroupNorm's N,
C, HxW and group). Until read, N, C, HxW and group were drawn apart from self, so nearly every valid
case was one a kernel refuses. On an invented page in the vendor's layout (tests/fixtures/
letter_pages), drafted here, and against a backend right in its own way (numpy's reshapes) and two
wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    draft_text,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    quick_runner,
)
from letter_backends import grouping_refused

from conformance.cases.oracle import explain
from conformance.draft.letter_phrasings import note_factors
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "letter_pages"
PAGE = PAGES / "docs" / "aclnnToyGroupNorm.md"
BACKENDS = Path(__file__).with_name("letter_backends.py")
API = "aclnnToyGroupNorm"
DIVIDES, STATS = "C无法被group整除，或C/group大于4000", "avgOut和spreadOut的shape不是(N, group)"
NAMES = ("self", "x", "input", "mean", "gamma", "meanOut", "rstdOut", "N", "C", "HxW", "group")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "tie"), [
    ("self在N维度上的空间大小不等于N", ("letter", "self", 0, "N")),
    ("self在C维度上的空间大小不等于C", ("letter", "self", 1, "C")),
    ("self第三维度及之后维度的size乘积不等于HxW(self为二维时，HxW需要为1)", ("rest", "self", "HxW")),
    ("self的元素数量不等于N*C*HxW", ("product", "self", ("N", "C", "HxW"))),
    ("mean的元素个数不等于N*group", ("product", "mean", ("N", "group"))),
    ("gamma不为空指针且gamma的元素数量不为C", ("product", "gamma", ("C",))),
    ("meanOut与rstdOut的shape不为(N, group)", ("pair", ("meanOut", "rstdOut"), ("N", "group"))),
    ("C不能被group整除", ("divides", "C", "group", None)),
    ("C不能被group整除，或者C/group＞8000", ("divides", "C", "group", 8000)),
])
def test_the_vendor_phrasings(text, tie):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["letters"]) == ("layout letters", tie)


@pytest.mark.parametrize(("note", "factors"), [
    ("元素数量需与C相同。", ("C",)),
    ("元素个数需要等于N*group。", ("N", "group")),
    ("元素个数需要等于N*C*HxW。", ("N", "C", "HxW")),
    ("shape与self相同。", None),
])
def test_the_vendor_usage_notes(note, factors):
    assert note_factors(note) == factors


@pytest.mark.parametrize("text", [
    "self的元素数量不等于mean",  # (a tensor, not an attribute named as a letter)
    "gamma不为1维且元素数量不等于C",  # (both at once, literally: left for review)
])
def test_other_sentences_are_not_letter_rows(text):
    found = match(text, NAMES)
    assert found is None or found.pattern != "layout letters"


def test_every_row_is_checkable_and_the_attributes_follow_x(drafted):
    assert_rows_checkable(drafted, 7)
    spec = drafted_spec(drafted, API)
    draws = spec["generate"]["draws"]
    assert (draws["N"], draws["C"], draws["HxW"]) == (
        {"expr": "x_shape[0]"}, {"expr": "x_shape[1]"}, {"expr": "prod(x_shape[2:])"})
    assert draws["group"] == {"expr": "max(1, [1, C][group_pick])"}
    assert draws["avgOut_letter_shape"] == {"expr": "[max(N, 0), max(group, 0)]"}
    assert draws["scaleOptional_letter_shape"] == {"expr": "[max(C, 0)]"}
    clauses = by_quote(spec)
    assert clauses[DIVIDES]["all"] == ["group <= 0 or C % group == 0 and C <= group * 4000"]
    assert clauses[STATS]["all"] == ["avgOut.shape == [N, group]", "spreadOut.shape == [N, group]"]
    assert clauses["x在C维度上的大小不等于C"]["all"] == ["x.rank <= 1 or x.shape[1] == C"]
    assert not any("Drafted guess" in c["source"]["quote"] for c in spec["constraints"])


def test_valid_cases_fit_numpys_grouping_and_each_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not grouping_refused(case.args)
        assert explain(case, specs).expected == "success"
    for c in (c for c in spec.constraints if "LETTER" in c.id):
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max"), c.id)
        assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), c.id


def test_a_product_row_on_x_beside_the_letter_rows_says_nothing_they_do_not():
    """With x's dimensions each equal to its letter, x holds N*C*HxW elements: no case breaks
    that row alone, and the draft leaves it out (the letter rows say it)."""
    row = "<td>x在N维度上的大小不等于N。</td>"
    text = PAGE.read_text(encoding="utf-8").replace(
        row, row + "\n    </tr>\n    <tr>\n      <td>x的元素个数不等于N*C*HxW。</td>")
    text = text.replace('rowspan="6"', 'rowspan="7"')
    d = draft_text(text, f"toy: {API}.md")
    quotes = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert not any("N*C*HxW" in q for q in quotes)
    assert any(q.startswith("x在N维度上") for q in quotes)


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyGroupNorm"])
def test_backends_grouping_right_pass(drafted, specs, backend, tmp_path):
    report = _run(drafted, backend, tmp_path)
    for c in specs.operator(API).constraints:
        if "LETTER" in c.id:
            assert_clean_pass(report, c.id, 8)


@pytest.mark.parametrize(("backend", "row"), [("UnevenGroupsAccepted", DIVIDES),
                                              ("StatsShapeUnchecked", STATS)])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(drafted, specs, backend, row, tmp_path):
    report = _run(drafted, f"{BACKENDS}:{backend}", tmp_path)
    cid = next(c.id for c in specs.operator(API).constraints if c.source.quote.startswith(row))
    assert_caught_alone(report, cid)
