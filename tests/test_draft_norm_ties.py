"""Error rows tying tensors to an int array naming another tensor's trailing dimensions (norm_ties.py,
the LayerNorm family's normalizedShape): the array right-aligned with x's shape, a tensor's shape
equal to the array, a tensor with as many elements as x's leading dimensions. The fixture page
(tests/fixtures/norm_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import by_quote, draft_text, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "norm_pages" / "docs" / "aclnnToyNorm.md"
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
        cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), cid)
        assert cases
        for case in cases:
            e = explain(case, specs)
            assert e.status == (161002,) and {v.clause for v in e.violations} == {cid}


def test_a_shape_row_between_two_tensors_stays_same_shape(drafted):
    same = by_quote(drafted.spec)["x与y的shape不相同"]
    assert (same["kind"], same["params"]) == ("same_shape", ["x", "y"])


def test_an_array_row_with_no_tensor_to_draw_it_from_is_reviewed():
    text = PAGE.read_text(encoding="utf-8")
    for row in (ALIGN, LEADING):
        text = text.replace(f"<td>{row}。</td>", "<td>y的数据类型不在支持范围内。</td>")
    clause = by_quote(_drafted(text).spec)[EQUAL]
    assert clause["kind"] == "review"


def test_a_rank_row_beside_the_tie_leaves_no_dangling_requirement(tmp_path):
    """"x的维度小于normShape的维度" is drafted before the tie draws normShape from x, then cannot
    be drawn (rank_ties) and goes for review: the tie that required it must not name it still
    (the spec would not load, so nothing would be left out as untestable either)."""
    rank_row = "x的维度小于normShape的维度"
    row = "<td>normShape的长度小于1。</td>"
    added = f"{row}\n    </tr>\n    <tr>\n      <td>{rank_row}。</td>"
    text = PAGE.read_text(encoding="utf-8").replace(row, added)
    text = text.replace('rowspan="5">ACLNN_ERR_PARAM_INVALID', 'rowspan="6">ACLNN_ERR_PARAM_INVALID')
    text = text.replace('rowspan="5">161002', 'rowspan="6">161002')
    drafted = _drafted(text)
    clauses = by_quote(drafted.spec)
    assert clauses[rank_row]["kind"] == "review"
    ids = {c["id"] for c in drafted.spec["constraints"]}
    assert all(set(c.get("requires", [])) <= ids for c in drafted.spec["constraints"])
    loaded_draft(drafted, tmp_path)  # (it loads: a dangling requirement is a lint error)
