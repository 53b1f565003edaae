"""Rows giving a tensor's whole shape as int attributes or numbers (attr_shape_ties.py: Eye's
"out的shape不为(n，m)", Randperm's "out的shape不为n", Histc's "out的size不等于bins", Equal's "out的shape不是
[1]"). Until read, the tensor was drawn apart from the attributes, so nearly every valid case was
one a kernel refuses. On an invented page in the vendor's layout (tests/fixtures/attr_shape_pages),
drafted here, and against a backend right in its own way (numpy's eye) and one with the bug
planted."""
from __future__ import annotations

from pathlib import Path

import pytest
from attr_shape_backends import GridUnchecked, grid_refused
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "attr_shape_pages"
BACKENDS = Path(__file__).with_name("attr_shape_backends.py")
API = "aclnnToyGrid"
NAMES = ("out", "n", "m", "bins", "meanOut", "rstdOut", "N", "group")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "read"), [
    ("out的shape不为(n，m)", ("shape of attributes", ("out", ("n", "m")))),
    ("out的shape不为n", ("shape of attributes", ("out", ("n",)))),
    ("out的size不等于bins", ("shape of attributes", ("out", ("bins",)))),
    ("out的shape不是[1]", ("shape of attributes", ("out", (1,)))),
    ("meanOut与rstdOut的shape不为(N, group)", ("layout letters", None)),  # (a layout's letters)
    # both dimensions of a 2-D tensor in order (AdvanceStep's sampledTokenIds)
    ("输入out的shape的第一维长度与n不一致，或者shape的第二维长度不为1",
     ("shape of attributes", ("out", ("n", 1)))),
])
def test_the_vendor_phrasings(text, read):
    found = match(text, NAMES)
    assert (found.pattern, found.limits.get("attr_shape")) == read


def test_a_tensor_refusing_empty_draws_its_attributes_from_one():
    """An attribute drawn 0 or 1 as a guess drew out empty, a case the page refuses, as valid."""
    from conformance.draft.attr_shape_ties import _at_least_one

    draws = {"n": {"integers": [0, 1]}, "m": {"integers": [2, 5]}, "k": {"sampled": [0, 3]}}
    _at_least_one(draws, ["n", "m", "k"])
    assert draws == {"n": {"integers": [1, 1]}, "m": {"integers": [2, 5]}, "k": {"sampled": [0, 3]}}


@pytest.mark.parametrize("text", ["out的shape不为2维", "out的shape不为(n，m",
                                  "out的size不为1", "out的size不等于4",  # (a count? a length?)
                                  "输入out的shape的第一维长度与n不一致"])  # (one dimension: not the shape)
def test_near_misses_are_not_shapes_of_attributes(text):
    found = match(text, NAMES)
    assert found is None or found.pattern != "shape of attributes"


def test_every_row_is_checkable_and_the_tensors_are_drawn_from_the_attributes(drafted):
    assert_rows_checkable(drafted, 5)
    spec = drafted_spec(drafted, API)
    draws = spec["generate"]["draws"]
    assert draws["out_attr_shape"] == {"expr": "[max(rows, 0), max(cols, 0)]"}
    assert draws["flags_attr_shape"] == {"expr": "[1]"}
    assert "out_shape" not in draws and "flags_shape" not in draws  # (the guesses dropped)
    clauses = by_quote(spec)
    assert clauses["out的shape不是(rows，cols)"]["all"] == [
        "out.rank != 2 or rows < 0 or cols < 0 or out.shape == [rows, cols]"]
    assert clauses["flags的shape不为[1]"]["all"] == ["flags.rank != 1 or flags.shape == [1]"]
    assert not any("fixes the shapes" in c["source"]["quote"] for c in spec["constraints"])


def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    for seed in range(30):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not grid_refused(case.args) and explain(case, specs).expected == "success"
    for c in spec.constraints:
        if c.kind in ("expr", "rank_in") and c.on_violation != "unspecified":
            for mode in ("min", "max"):
                cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), c.id)
                assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, mode)


def test_a_right_backend_passes_and_one_with_the_bug_planted_is_caught(drafted, specs, tmp_path):
    ids = {c.source.quote: c.id for c in specs.operator(API).constraints}
    right = oracle_quick(drafted, API, tmp_path / "right", f"{BACKENDS}:NumpyGrid", max_examples=8)
    assert_clean_pass(right, ids["out的shape不是(rows，cols)"], 8)
    wrong = oracle_quick(drafted, API, tmp_path / "wrong", f"{BACKENDS}:GridUnchecked", max_examples=8)
    assert_caught_alone(wrong, ids[GridUnchecked.row])


@pytest.mark.parametrize(("note", "otherwise"), [
    ("shape第一维长度与numQueries一致，第二维长度为1。", False),  # (AdvanceStep's: the row's own shape)
    ("shape第一维长度与numSeqs一致，第二维长度为1+specNum。", True),  # (AdvanceStepV2's: not the row's)
    ("不支持空Tensor。", False),
])
def test_a_row_its_tensors_note_contradicts_is_left_for_review(note, otherwise):
    """AdvanceStepV2's row says [numQueries, 1] where the tensor's own note (and the vendor's cases,
    [24, 11]) say [numSeqs, 1 + specNum]: a coded clause would refuse every case the vendor runs."""
    from types import SimpleNamespace

    from conformance.draft.attr_shape_ties import _noted_otherwise
    from conformance.draft.facts import Sentence

    ctx = SimpleNamespace(rows={"ids": SimpleNamespace(usage=(Sentence(note, None),))})
    assert _noted_otherwise(ctx, "ids", ("numQueries", 1)) is otherwise
