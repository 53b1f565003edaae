"""Rows comparing an attribute with a tensor's rank (rank_ties.py): an int array's length, an int's
value; and a rank limit refusing its bound too ("维度小于等于1"). The fixture page
(tests/fixtures/rank_tie_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.patterns import match
from conformance.draft.rank_ties import _count
from conformance.draft.reading import read_page
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "rank_tie_pages" / "docs" / "aclnnToyTile.md"
NAMES = ("self", "repeats", "axis", "normalizedShape", "input", "mask", "out", "indices")
LENGTH = "repeats的元素个数小于输入tensor的维度"
VALUE = "axis的值大于self的维数"


@pytest.mark.parametrize(("text", "limits"), [
    ("input的维度小于normalizedShape的维度", {"left": "input", "measure": "rank", "op": "小于",
                                              "right": "normalizedShape"}),
    ("参数repeats的参数个数小于输入tensor的维度", {"left": "repeats", "measure": "length", "op": "小于",
                                                 "right": "输入tensor"}),
    ("axis的值大于self的维度数量", {"left": "axis", "measure": "value", "op": "大于", "right": "self"}),
    ("mask的shape维度大于self", {"left": "mask", "measure": "rank", "op": "大于", "right": "self"}),
    ("indices中Tensor个数超过self维度数", {"left": "indices", "measure": "count", "op": "超过",
                                         "right": "self"}),
])
def test_rank_comparisons_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.limits) == ("rank comparison", limits)


@pytest.mark.parametrize(("text", "pattern"), [
    ("repeats的长度小于out", None),  # a length against a bare name: which of out's measures?
    ("axis的值大于self", "attribute order"),  # a value against a tensor: not a rank (order_clauses
])                                          # makes no clause of it: self is no attribute)
def test_comparisons_not_against_a_rank_are_not_read(text, pattern):
    found = match(text, NAMES)
    assert (found.pattern if found else None) == pattern


@pytest.mark.parametrize(("text", "limits"), [
    ("self的维度小于等于1", {"min": 2}),
    ("self的维度大于等于9", {"max": 8}),
])
def test_a_rank_limit_refusing_its_bound_too_is_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.limits) == ("rank", limits)


def test_two_bounds_one_inclusive_are_not_read_as_one():
    assert match("self的维度小于等于1或大于8", NAMES) is None


@pytest.fixture(scope="module")
def drafted():
    facts = read_page(PAGE.read_text(encoding="utf-8"), "toy: aclnnToyTile.md", VOCAB)
    return draft_spec(facts, VOCAB, "toy: aclnnToyTile.md")


def test_the_fixture_rows_become_the_exact_clauses(drafted):
    clauses = by_quote(drafted.spec)
    assert clauses[LENGTH]["all"] == ["len(repeats) >= self.rank"]
    assert clauses[LENGTH]["break"] == {"repeats": {"expr": "[1] * (len(self_shape) - 1)"}}
    assert clauses[VALUE]["all"] == ["axis <= self.rank"]
    assert clauses[VALUE]["break"] == {"axis": {"integers": ["len(self_shape) + 1", "len(self_shape) + 2"]}}
    draws = drafted.spec["generate"]["draws"]
    assert draws["repeats"] == {"expr": "[1] * len(self_shape)"}  # as long as self's rank
    assert draws["axis"] == {"integers": [0, 1]}  # (self has a rank of 1 at least)
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_valid_cases_keep_the_ranks_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        assert len(case.args["repeats"]) == len(case.args["self"].shape)
        assert explain(case, specs).expected == "success"
    ids = {c["source"]["quote"]: c["id"] for c in drafted.spec["constraints"]}
    for cid in (ids[LENGTH], ids[VALUE]):
        cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), cid)
        assert cases
        for case in cases:
            e = explain(case, specs)
            assert e.status == (161002,) and {v.clause for v in e.violations} == {cid}


def test_a_list_counted_against_a_rank_gets_its_own_count_capped_by_the_rank():
    draws, args = {"count": {"integers": [1, 3]}}, {"indices": "[x_shape] * count"}
    name, drawn = _count(draws, args, "indices", "x_shape", "<=", 1)
    assert name == "indices_count" and args["indices"] == "[x_shape] * indices_count"
    assert drawn == ({"expr": "min(count, len(x_shape))"}, {"expr": "len(x_shape) + 1"})
    # fewer than the rank needs a rank of 2 at least (a list of one tensor at the least)
    assert _count({}, {"indices": "[x_shape] * count"}, "indices", "x_shape", "<", 1)[1] is None
    assert _count({}, {"indices": "[x_shape] * count"}, "indices", "x_shape", "<", 2)[1] == (
        {"expr": "min(count, len(x_shape) - 1)"}, {"expr": "len(x_shape)"})
    assert _count({}, {"indices": "[x_shape] * count"}, "indices", "x_shape", ">=", 3)[1] is None
