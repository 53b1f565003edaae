"""Error rows tying tensors to an int array naming another tensor's trailing dimensions (norm_ties.py,
the LayerNorm family's normalizedShape): the array right-aligned with x's shape, a tensor's shape
equal to the array, a tensor with as many elements as x's leading dimensions. The fixture page
(tests/fixtures/norm_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import (
    assert_breaks_alone,
    assert_caught_alone,
    assert_clean_pass,
    by_quote,
    draft_text,
    loaded_draft,
    quick_runner,
)

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.breaks import variants
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "norm_pages" / "docs" / "aclnnToyNorm.md"
BACKENDS = Path(__file__).with_name("norm_backends.py")
NAMES = ("x", "normShape", "scaleOptional", "avg", "y")
ALIGN = "x的shape数组和normShape数组右对齐时对应的维度大小不一致"
LEADING = "avg的shape乘积和x从第0维到第len(x) - len(normShape)维的乘积不一致"
EQUAL = "scaleOptional非空且shape和normShape不一致"


@pytest.mark.parametrize(("text", "limits"), [
    (ALIGN, {"align": ("x", "normShape")}),
    ("x的shape与normShape右对齐时对应维度shape不相等。", {"align": ("x", "normShape")}),
    (LEADING, {"leading": ("avg", "x", "normShape")}),
    ("avg的shape乘积与x从第0根轴到第len(x) - len(normShape)轴的乘积不相等",
     {"leading": ("avg", "x", "normShape")}),
])
def test_normalized_shape_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == ("normalized shape", ("norm_shape",), limits)


@pytest.mark.parametrize(("text", "pattern"), [
    ("avg的shape乘积和x从第0维到第len(y) - len(normShape)维的乘积不一致", None),  # another tensor's rank
    ("x的shape和normShape右对齐时对应维度不一致，或x的维度小于2", None),  # two rules
    ("x的维度小于normShape的维度", "rank comparison"),  # not a tie of dimensions
])
def test_other_sentences_are_not_normalized_shape_rows(text, pattern):
    found = match(text, NAMES)
    assert (found.pattern if found else None) == pattern


def _drafted(text: str):
    return draft_text(text, "toy: aclnnToyNorm.md")


@pytest.fixture(scope="module")
def drafted():
    return _drafted(PAGE.read_text(encoding="utf-8"))


def test_the_rows_become_expr_clauses_drawn_from_x(drafted):
    clauses = by_quote(drafted.spec)
    length = clauses["normShape的长度小于1"]["id"]
    align = clauses[ALIGN]
    assert align["all"] == ["x.rank < len(normShape) or x.shape[x.rank - len(normShape):] == normShape"]
    bumped = "x_shape[len(x_shape) - normShape_len:-1] + [x_shape[-1] + 1]"
    assert align["break"] == {"normShape": {"expr": bumped}}
    assert align["requires"] == ["TN-NULL", length]
    leading = clauses[LEADING]
    assert leading["all"] == [
        "x.rank < len(normShape) or avg.numel == prod(x.shape[:x.rank - len(normShape)])"]
    equal = clauses[EQUAL]
    assert equal["all"] == ["not present(scaleOptional) or scaleOptional.shape == normShape"]
    # the equal tensor follows x, not the array: a case breaking the alignment says nothing of it
    assert equal["requires"] == ["TN-NULL", length, align["id"]]
    draws, args = drafted.spec["generate"]["draws"], drafted.spec["generate"]["args"]
    assert draws["normShape_len"] == {"integers": [1, "min(len(x_shape), 8)"]}
    assert draws["normShape"] == {"expr": "x_shape[len(x_shape) - normShape_len:]"}
    assert draws["avg_norm_shape"] == {"expr": "x_shape[:len(x_shape) - normShape_len] + [1] * normShape_len"}
    assert (args["avg"], args["scaleOptional"]) == ("avg_norm_shape", "scaleOptional_norm_shape")
    assert all(o.checkable for o in drafted.draft.outcomes)
    assert not any("Drafted guess" in c["source"]["quote"] for c in drafted.spec["constraints"])


def test_valid_cases_keep_the_ties_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        x, norm = case.args["x"].shape, case.args["normShape"]
        assert 1 <= len(norm) <= len(x) and x[len(x) - len(norm):] == norm
        assert case.args["scaleOptional"].shape == norm
        assert explain(case, specs).expected == "success"
    clauses = by_quote(drafted.spec)
    for quote in (ALIGN, LEADING, EQUAL, "normShape的长度小于1"):
        cid = clauses[quote]["id"]
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid)


def test_a_shape_row_between_two_tensors_stays_same_shape(drafted):
    same = by_quote(drafted.spec)["x与y的shape不相同"]
    assert (same["kind"], same["params"]) == ("same_shape", ["x", "y"])


def test_an_array_row_with_no_tensor_to_draw_it_from_is_reviewed():
    text = PAGE.read_text(encoding="utf-8")
    for row in (ALIGN, LEADING):
        text = text.replace(f"<td>{row}。</td>", "<td>y的数据类型不在支持范围内。</td>")
    clause = by_quote(_drafted(text).spec)[EQUAL]
    assert clause["kind"] == "review"


def _with_rows(*rows: str) -> str:
    """The page with more PARAM_INVALID rows after "normShape的长度小于1"."""
    row = "<td>normShape的长度小于1。</td>"
    added = row + "".join(f"\n    </tr>\n    <tr>\n      <td>{r}。</td>" for r in rows)
    text = PAGE.read_text(encoding="utf-8").replace(row, added)
    span = 5 + len(rows)
    text = text.replace('rowspan="5">ACLNN_ERR_PARAM_INVALID', f'rowspan="{span}">ACLNN_ERR_PARAM_INVALID')
    return text.replace('rowspan="5">161002', f'rowspan="{span}">161002')


def _breaks_alone(drafted, tmp_path, cid: str) -> None:
    """Every boundary case breaking ``cid``, at both ends, breaks it alone, with the row's code."""
    assert_breaks_alone(loaded_draft(drafted, tmp_path), cid, (FixedChooser("min"), FixedChooser("max")))


def test_an_array_longer_than_the_rank_is_broken_with_the_tensors_equal_to_it(tmp_path):
    """"x的维度小于normShape的维度": normShape is drawn from x's last dimensions, so it is broken
    by normShape one longer than x's rank, and scaleOptional (equal to it) with it: the alignment
    and leading ties say nothing then, and the equal tie still holds."""
    rank_row = "x的维度小于normShape的维度"
    drafted = _drafted(_with_rows(rank_row))
    clause = by_quote(drafted.spec)[rank_row]
    assert clause["all"] == ["x.rank >= len(normShape)"]
    assert clause["break"] == {"normShape": {"expr": "[1] + x_shape"},
                               "scaleOptional_norm_shape": {"expr": "[1] + x_shape"}}
    assert all(o.checkable for o in drafted.draft.outcomes)
    ids = {c["id"] for c in drafted.spec["constraints"]}
    assert all(set(c.get("requires", [])) <= ids for c in drafted.spec["constraints"])
    _breaks_alone(drafted, tmp_path, clause["id"])


def test_the_comparison_requires_the_length_limit_so_each_breaks_alone(tmp_path):
    """At rank 8 an array past "normShape的长度大于8" is longer than the rank too: the comparison
    says nothing where the length row is broken, so the length row's break breaks it alone (and
    the comparison's own break at rank 8 breaks only the length row: the run keeps the others)."""
    drafted = _drafted(_with_rows(LONG_ROW, LENGTH_ROW))
    clauses = by_quote(drafted.spec)
    length, longer = clauses[LENGTH_ROW]["id"], clauses[LONG_ROW]
    assert length in longer["requires"]
    assert all(o.checkable for o in drafted.draft.outcomes)
    _breaks_alone(drafted, tmp_path, length)


def test_a_rank_limit_on_x_is_broken_by_x_drawn_anew(tmp_path):
    """Ones put in front of every tensor of the row would give scaleOptional more dimensions than
    normShape has elements; x drawn again at rank 9 keeps the array and scaleOptional its last
    dimensions."""
    rank_row = "x、scaleOptional、avg、y的维度大于8"
    drafted = _drafted(_with_rows(rank_row))
    clause = by_quote(drafted.spec)[rank_row]
    assert (clause["kind"], clause["max"]) == ("rank_in", 8)
    assert clause["break"]["x_shape"]["shape"]["rank"] == [9, 9]
    assert all(o.checkable for o in drafted.draft.outcomes)
    _breaks_alone(drafted, tmp_path, clause["id"])


def test_a_same_shape_break_also_puts_a_one_in_front(drafted, tmp_path):
    """Widening the last dimension of a tensor that x's ties follow breaks those ties too; a 1 in
    front keeps its trailing dimensions (LayerNormBackward: input has gradOut's shape, and the
    normalized shape is input's last dimensions)."""
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    same = by_quote(drafted.spec)["x与y的shape不相同"]["id"]
    base = build_case(spec, vocab, product, dtype, FixedChooser("min")).args
    shapes = [v["y"].shape for v in variants(spec.constraint(same), base, spec, vocab, product)]
    y = base["y"].shape
    assert shapes == [y[:-1] + (y[-1] + 1,), (1, *y)]


_OUT_ROW = """    <tr>
      <td>{name}(aclTensor*)</td>
      <td>输出</td>
      <td>{what}</td>
      <td>{note}</td>
      <td>FLOAT、FLOAT16</td>
      <td>ND</td>
      <td>1-8</td>
      <td>√</td>
    </tr>
"""
LEADING_NOTE = "shape为[A1,...,Ai,1,...,1]，Ai之后是j个1。"
EQUAL_NOTE = "shape同normShape，为[R1,...,Rj]。"


def _with_noted_outputs() -> str:
    """The page with two more outputs whose usage notes give their shapes in the pages' letters:
    spread (the dimensions not normalized, then ones) and gainGrad (the normalized ones)."""
    text = PAGE.read_text(encoding="utf-8")
    text = text.replace("    aclTensor*         y,\n", "    aclTensor*         y,\n"
                        "    aclTensor*         spread,\n    aclTensor*         gainGrad,\n")
    rows = _OUT_ROW.format(name="spread", what="每组的离散程度。", note=LEADING_NOTE) + \
        _OUT_ROW.format(name="gainGrad", what="缩放的梯度。", note=EQUAL_NOTE)
    return text.replace("    <tr>\n      <td>workspaceSize", rows + "    <tr>\n      <td>workspaceSize")


def test_outputs_whose_notes_give_their_shape_in_letters_are_drawn_so(tmp_path):
    """Neither output has a row; drawn with x's shape (a guess), every valid call would hand a
    kernel checking them the wrong shapes. The notes are read as the leading and equal ties,
    without a code, and valid cases have numpy's shapes: a mean over the normalized axes kept as
    ones, and the normalized shape."""
    drafted = _drafted(_with_noted_outputs())
    clauses = by_quote(drafted.spec)
    spread, gain = clauses[LEADING_NOTE], clauses[EQUAL_NOTE]
    assert spread["all"] == [
        "x.rank < len(normShape) or spread.numel == prod(x.shape[:x.rank - len(normShape)])"]
    assert gain["all"] == ["gainGrad.shape == normShape"]
    assert spread["on_violation"] == gain["on_violation"] == "unspecified"
    assert not any("Drafted guess" in c["source"]["quote"] for c in drafted.spec["constraints"])
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for seed in range(20):
        a = build_case(spec, vocab, product, dtype, SeededChooser(seed)).args
        x, norm = a["x"].shape, tuple(a["normShape"])
        kept = np.mean(np.zeros(x), axis=tuple(range(len(x) - len(norm), len(x))), keepdims=True).shape
        assert (a["spread"].shape, a["gainGrad"].shape) == (kept, norm)
        assert explain(Case(spec.api, product, a), specs).expected == "success"


LONG_ROW, DEEP_ROW = "x的维度小于normShape的维度", "x、scaleOptional、avg、y的维度大于8"
LENGTH_ROW = "normShape的长度大于8"
_run = quick_runner("aclnnToyNorm", max_examples=6)


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    """The page with both rank rows, drafted as a pack; (pack, {row: clause id})."""
    from conformance.draft.pack import write_pack

    d = _drafted(_with_rows(LONG_ROW, DEEP_ROW, LENGTH_ROW))
    pack = tmp_path_factory.mktemp("norm_pack")
    write_pack(pack, [d])
    return pack, {row: by_quote(d.spec)[row]["id"] for row in (LONG_ROW, DEEP_ROW, LENGTH_ROW)}


@pytest.mark.usefixtures("no_packs_left")
@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:NumpyNorm"])
def test_backends_right_about_the_ranks_pass(ranked, backend, tmp_path):
    pack, ids = ranked
    report = _run(pack, backend, tmp_path)
    for cid in ids.values():
        assert_clean_pass(report, cid, 6)


@pytest.mark.usefixtures("no_packs_left")
@pytest.mark.parametrize(("backend", "row"), [("LongArrayAccepted", LONG_ROW),
                                              ("DeepRankAccepted", DEEP_ROW)])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(ranked, backend, row, tmp_path):
    pack, ids = ranked
    report = _run(pack, f"{BACKENDS}:{backend}", tmp_path)
    assert_caught_alone(report, ids[row])
