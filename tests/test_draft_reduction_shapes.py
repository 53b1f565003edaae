"""A reduction's outputs (a keepDims flag, a dimension attribute a range row ties to the input): drawn
as the input reduced over the dimension, and a vague shape row on them ("out的shape与实际不匹配")
read as ``out.shape == reduced(self.shape, dims, keepDims)`` with the row's code. Drawn with the
input's shape, as they were, nearly every valid case of a drafted reduction was one a kernel refuses.
On an invented page in the vendor's layout (tests/fixtures/reduction_pages), drafted here, and
against a backend right in its own way (numpy's reduction) and two wrong ones."""
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
from reduction_backends import numpy_refuses, numpy_shape

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.dry_run import load_specs
from conformance.generate.strategies import breaks_only
from conformance.spec.expression_functions import FUNCTIONS, ExprError

PAGES = Path(__file__).parent / "fixtures" / "reduction_pages"
PAGE = PAGES / "docs" / "aclnnToyPeak.md"
BACKENDS = Path(__file__).with_name("reduction_backends.py")
API, CLAUSE = "aclnnToyPeak", "TP-REDUCED"
ROW = "out的shape与实际不匹配。"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
reduced = FUNCTIONS["reduced"]


specs = drafted_specs_fixture()


@pytest.mark.parametrize(("shape", "dims", "keep", "want"), [
    ((2, 3, 4), [1], False, (2, 4)), ((2, 3, 4), [1], True, (2, 1, 4)),
    ((2, 3, 4), [-1, 0], False, (3,)), ((2, 3, 4), 2, True, (2, 3, 1)),
    ((5,), [0], False, ()), ((), [0], True, ()), ((), -1, False, ()),
])
def test_reduced_is_numpys_reduction(shape, dims, keep, want):
    assert reduced(shape, dims, keep) == want
    assert numpy_shape(shape, [dims] if isinstance(dims, int) else dims, keep) == want


def test_an_empty_list_of_axes_is_not_given_a_meaning():
    with pytest.raises(ExprError, match="no axes"):
        reduced((2, 3), [], False)


@pytest.mark.parametrize("text", ["out的shape不等于由self，dims，keepDims推导得到的shape",
                                  "out shape与实际不匹配", "self与out的shape不满足计算公式中的推导规则"])
def test_the_phrasings_are_vague_shape_rows(text):
    found = match(text, ("self", "dims", "keepDims", "out"))
    assert (found.pattern, found.kinds) == ("vague shape", ("shape_note",))


KEPT = "keepDims为true时，out.shape != self.shape(指定维度dims设置为1的形状)"
DROPPED = "keepDims为false时，out.shape != self.shape(去除指定维度dims后的形状)"


def test_the_halves_under_each_flag_are_read_with_their_tensors():
    names = ("self", "dims", "keepDims", "out")
    found = match(f"out的shape在下列情况报错：1. {KEPT} 2. {DROPPED}", names)
    assert found.pattern == "reduced shape"
    assert found.limits == {"keep": [False, True], "reduced": ("out", "self")}
    assert match(DROPPED, names).limits == {"keep": [False], "reduced": ("out", "self")}
    # a flag paired with the other's shape is no phrasing read here (nor any other: a condition)
    assert match(DROPPED.replace("去除指定维度dims后的形状", "指定维度dims设置为1的形状"), names) is None


def _with_row(text: str):
    page = PAGE.read_text(encoding="utf-8").replace(f"<td>{ROW}</td>", f"<td>{text}</td>")
    return draft_text(page, "toy: aclnnToyPeak.md")


def test_both_halves_make_the_clause_one_half_does_not():
    d = _with_row(f"{KEPT}；{DROPPED}。")
    clause = next(c for c in d.spec["constraints"] if c["id"] == CLAUSE)
    assert clause["source"]["quote"] == f"{KEPT} / {DROPPED}"
    assert all(o.checkable for o in d.draft.outcomes)
    d = _with_row(f"{KEPT}。")
    assert not any(c["id"] == CLAUSE for c in d.spec["constraints"])
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True, True, False, True]


def test_the_row_becomes_a_coded_clause_and_out_is_drawn_reduced(drafted):
    spec = drafted_spec(drafted, API)
    clause = next(c for c in spec["constraints"] if c["id"] == CLAUSE)
    assert clause["all"] == ["len(dims) == 0 or out.shape == reduced(self.shape, dims, keepDims)"]
    assert clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert clause["requires"] == ["TP-NULL", "TP-EXPR", "TP-EXPR-2"]  # (null, dims' range, repeats)
    assert clause["break"] == {"out_reduced_shape": {"mode": "perturb"}}
    assert spec["generate"]["args"]["out"] == "out_reduced_shape"
    assert spec["generate"]["draws"]["out_reduced_shape"] == {"expr": "reduced(self_shape, dims, keepDims)"}
    assert_rows_checkable(drafted, 6)


def test_without_the_row_out_is_still_drawn_reduced_and_the_guess_is_said():
    text = PAGE.read_text(encoding="utf-8").replace(
        f"    <tr>\n      <td>{ROW}</td>\n    </tr>\n", "").replace('rowspan="5"', 'rowspan="4"')
    d = draft_text(text, "toy: aclnnToyPeak.md")
    assert not any(c["id"] == CLAUSE for c in d.spec["constraints"])
    assert d.spec["generate"]["args"]["out"] == "out_reduced_shape"
    reviews = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert any(q.startswith("Drafted guess: out drawn as self reduced over dims") for q in reviews)


def test_an_output_the_notes_give_the_inputs_shape_is_no_reduction():
    text = PAGE.read_text(encoding="utf-8").replace(
        "<td><ul><li>数据类型与self相同。</li></ul></td>",
        "<td><ul><li>数据类型与self相同，shape与self相同。</li></ul></td>")
    d = draft_text(text, "toy: aclnnToyPeak.md")
    assert d.spec["generate"]["args"]["out"] == "self_shape"
    assert not any(c["id"] == CLAUSE for c in d.spec["constraints"])


def test_valid_cases_have_numpys_shape_and_the_break_breaks_the_clause_alone(specs):
    spec, vocab = specs.operator(API), specs.vocabulary
    for seed in range(40):
        case = build_case(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed))
        self, out = case.args["self"], case.args["out"]
        want = numpy_shape(self.shape, list(case.args["dims"]), case.args["keepDims"])
        assert out.shape == want and explain(case, specs).expected == "success", seed
        for bad in broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), CLAUSE):
            assert breaks_only(explain(bad, specs), CLAUSE), seed


def test_the_oracle_at_2_to_the_24_elements(specs):
    big = TensorMeta((256, 256, 256), "FLOAT")
    for out, keep, expected in [((256, 256), False, "success"), ((256, 1, 256), True, "success"),
                                ((256, 1, 256), False, "error"), ((256, 256), True, "error")]:
        args = {"self": big, "dims": [-2], "keepDims": keep, "out": TensorMeta(out, "FLOAT")}
        e = explain(Case(API, "atlas-a2", args), specs)
        assert e.expected == expected
        if expected == "error":
            assert ({v.clause for v in e.violations}, e.status) == ({CLAUSE}, (161002,))
    args = {"self": big, "dims": [3], "keepDims": False, "out": TensorMeta((256, 256, 256), "FLOAT")}
    e = explain(Case(API, "atlas-a2", args), specs)  # (an axis out of range: the shape is not judged)
    assert {v.clause for v in e.violations} == {"TP-EXPR"}


EMPTY = "TP-EMPTY-AXIS"


@pytest.mark.parametrize("text", ["self中需要reduce的维度size为0", "dim指定的轴为空轴",
                                  "self对应dim维度的size不能为0"])
def test_the_empty_axis_phrasings(text):
    assert match(text, ("self", "dim", "keepDim", "out")).pattern == "empty reduced axis"


def test_an_empty_reduced_axis_is_a_clause_broken_by_a_zero_first_dim(drafted, specs):
    spec = drafted_spec(drafted, API)
    clause = next(c for c in spec["constraints"] if c["id"] == EMPTY)
    assert clause["all"] == ["self.rank == 0 or all(self.shape[a % self.rank] > 0 for a in dims)"]
    assert clause["break"] == {"self_shape": {"expr": "[0]"}, "dims": {"expr": "[0]"}}
    spec, vocab = specs.operator(API), specs.vocabulary
    case = broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(0), EMPTY)[0]
    assert case.args["self"].shape == (0,) and case.args["out"].shape in ((), (1,))  # (as keepDims says)
    assert breaks_only(explain(case, specs), EMPTY)
    empty_kept = {"self": TensorMeta((3, 0, 2), "FLOAT"), "dims": [0], "keepDims": True,
                  "out": TensorMeta((1, 0, 2), "FLOAT")}  # (an empty axis not reduced: valid)
    assert explain(Case(API, "atlas-a2", empty_kept), specs).expected == "success"
    assert numpy_refuses((3, 0, 2), [1]) and not numpy_refuses((3, 0, 2), [0])


def test_a_0d_only_input_has_no_empty_axis_to_draw_and_the_row_is_reviewed():
    text = PAGE.read_text(encoding="utf-8").replace("<td>0-8</td>", "<td>0</td>", 1)
    d = draft_text(text, "toy: aclnnToyPeak.md")
    assert not any(c["id"] == EMPTY for c in d.spec["constraints"])
    reviews = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert "dims指定的轴为空轴" in reviews
    assert any(c["id"] == CLAUSE for c in d.spec["constraints"])  # (the shape row still holds)


_run = quick_runner(API, max_examples=8)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyPeak"])
def test_backends_reducing_right_pass(drafted, backend, tmp_path):
    assert_clean_pass(_run(drafted, backend, tmp_path), CLAUSE, 8)


def test_a_backend_ignoring_keepdims_is_caught(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:KeepDimsIgnored", tmp_path)
    assert report["outcome"] == "nonconformant"
    # valid cases without keepDims refused; broken ones whose out is the kept shape accepted
    assert {f["clause"] for f in report["findings"]} == {"TP-PHASE", CLAUSE}
    messages = [f["message"] for f in report["findings"] if f["clause"] == "TP-PHASE"]
    assert all(m.startswith("returned 161002 (ACLNN_ERR_PARAM_INVALID) from phase 1, but should be 0 "
                            "(success)") and "keepDims=False" in m for m in messages)


def test_a_backend_not_checking_out_is_caught(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:OutShapeUnchecked", tmp_path)
    assert_caught_alone(report, CLAUSE)
    assert report["findings"][0]["message"].startswith(
        f"returned 0 (success), but should be 161002 (ACLNN_ERR_PARAM_INVALID) because {CLAUSE}")


def test_a_backend_reducing_an_empty_axis_is_caught(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:EmptyAxisAccepted", tmp_path)
    assert_caught_alone(report, EMPTY)


RANK_ROW = "self的维度超过8维。"


def _with_rank_row():
    page = PAGE.read_text(encoding="utf-8").replace('rowspan="5"', 'rowspan="6"').replace(
        "<td>dims指定的轴为空轴。</td>\n    </tr>",
        f"<td>dims指定的轴为空轴。</td>\n    </tr>\n    <tr>\n      <td>{RANK_ROW}</td>\n    </tr>")
    d = draft_text(page, "toy: aclnnToyPeak.md")
    return d, next(c for c in d.spec["constraints"] if c["source"]["quote"] == RANK_ROW[:-1])


def test_the_inputs_rank_limit_is_broken_by_drawing_it_anew_past_it():
    d, clause = _with_rank_row()
    assert (clause["kind"], clause["params"], clause["max"]) == ("rank_in", ["self"], 8)
    assert clause["break"] == {"self_shape": {"shape": {**d.spec["generate"]["draws"]["self_shape"]["shape"],
                                                        "rank": [9, 9]}}}
    assert all(o.checkable for o in d.draft.outcomes)


def test_the_rank_break_reduces_the_new_input_and_breaks_the_limit_alone(tmp_path):
    d, clause = _with_rank_row()
    (tmp_path / f"{API}.yaml").write_text(d.text, encoding="utf-8")
    specs = load_specs(str(tmp_path))
    spec, vocab, alone = specs.operator(API), specs.vocabulary, 0
    for seed in range(20):
        for case in broken_cases(spec, vocab, "atlas-a2", "FLOAT", SeededChooser(seed), clause["id"]):
            a = case.args
            assert a["self"].rank == 9 and a["out"].shape == numpy_shape(a["self"].shape, list(a["dims"]),
                                                                         a["keepDims"])
            alone += breaks_only(explain(case, specs), clause["id"])
    assert alone >= 5  # (with keepDims the out is 9-d too: its own limit breaks beside)


def test_a_usage_sentence_giving_the_rank_alone_is_the_rank_range():
    said, cell = "shape支持1到6维。", "<td>取最大值的玩具张量。</td>\n      <td>{}</td>"
    page = PAGE.read_text(encoding="utf-8").replace(cell.format("-"), cell.format(said))
    page = page.replace("<td>0-8</td>", "<td>-</td>", 1)
    d = draft_text(page, "toy: aclnnToyPeak.md")
    ranks = [c for c in d.spec["constraints"] if c["kind"] == "rank_in" and c["params"] == ["self"]]
    assert sorted((c.get("min", 0), c.get("max", 9)) for c in ranks) == [(0, 6), (1, 9)]
    assert {c["source"]["quote"] for c in ranks} == {said}
    assert said not in [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
