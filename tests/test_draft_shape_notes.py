"""Vague shape rows ("x与out的shape不满足约束") coded by the shape relation the usage notes state
(shape_notes.py), on invented operators; and the usage notes that state no whole-shape relation."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.clauses import draft_clauses
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.usage import relations

BAD = "ACLNN_ERR_PARAM_INVALID"


def _page(rows: tuple[str, ...], notes: dict[str, tuple[str, ...]], lists: bool = False) -> PageFacts:
    """aclnnToyTwin(a, b, out): the usage notes ``notes`` (by parameter), one error row per text."""
    ctype = "aclTensorList*" if lists else "aclTensor*"
    proto = tuple(PrototypeParam(n, ctype, const=n != "out", optional=False) for n in ("a", "b", "out"))
    params = tuple(param(n, i + 1, dtypes=("FLOAT",), direction="output" if n == "out" else "input",
                         usage=notes.get(n, ())) for i, n in enumerate(("a", "b", "out")))
    errors = tuple(error(BAD, 161002, text, i + 1) for i, text in enumerate(rows))
    return PageFacts("aclnnToyTwin", "toy/docs/aclnnToyTwin.md", PRODUCTS[:2], proto, params, errors,
                     deterministic=None)


def _coded(d) -> list[tuple[str, list[str], object]]:  # noqa: ANN001 - a Draft
    return [(c["kind"], c.get("params") or c.get("all"), c["on_violation"]) for c in d.clauses
            if str(c.get("on_violation")).startswith("ACLNN_")]


@pytest.mark.parametrize("text, params", [
    ("a与out的shape不满足约束。", ("a", "out")),
    ("a、b、out的shape不满足约束条件。", ("a", "b", "out")),
    ("out的shape不满足infershape结果。", ("out",)),
    ("传入的out的shape不满足功能说明中的推导规则。", ("out",)),
    ("out shape与实际不匹配。", ("out",)),
    ("a或out的shape不符合参数说明中的要求。", ("a", "out")),
])
def test_the_vague_phrasings_are_one_pattern(text, params):
    m = match(text, ["a", "b", "out"])
    assert (m.pattern, m.kinds, m.params) == ("vague shape", ("shape_note",), params)


@pytest.mark.parametrize(("text", "found"), [
    # a matrix product: its k tie (built only where the table makes a and b matrices)
    ("a、b的shape不满足乘法运算条件。", ("matrix product", ("a", "b"))),
    ("a的shape不满足(*1, M, *2)。", None),
    # a dimension's range: the dim_range pattern, which codes nothing without an int attribute
    ("a的shape某一维范围不满足要求。", ("dimension range", ("a",))),
    ("a和b的shape不满足broadcast关系。", ("cannot broadcast", ("a", "b"))),
])
def test_a_row_saying_more_than_a_vague_shape_is_not_it(text, found):
    m = match(text, ["a", "b", "out"])
    assert (m if m is None else (m.pattern, m.params)) == found


def test_a_row_is_coded_by_the_notes_same_shape(vocab):
    d = draft_clauses(_page(("a、b的shape不满足约束。",), {"b": ("shape与a一致。",)}), vocab)
    assert _coded(d) == [("same_shape", ["a", "b"], BAD)]
    assert [o.checkable for o in d.outcomes] == [True]
    quotes = [c["source"]["quote"] for c in d.clauses if c["kind"] == "same_shape"]
    assert quotes == ["a、b的shape不满足约束 / shape与a一致。"]  # the row and the note


def test_an_output_row_alone_is_coded_when_its_note_ties_it(vocab):
    d = draft_clauses(_page(("out的shape不满足infershape结果。",), {"out": ("shape需要与a一致。",)}), vocab)
    assert _coded(d) == [("same_shape", ["a", "out"], BAD)]  # a break changes out, the row's tensor
    assert [o.checkable for o in d.outcomes] == [True]


def test_a_row_naming_a_tensor_no_note_ties_stays_a_review(vocab):
    # the notes tie out to a: they promise nothing about b
    d = draft_clauses(_page(("a、b、out的shape不满足约束。",), {"out": ("shape与a一致。",)}), vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]
    assert [c["source"]["quote"] for c in d.reviews] == ["a、b、out的shape不满足约束"]


def test_a_note_whose_break_changes_a_tensor_the_row_does_not_name_is_not_used(vocab):
    # "a的shape…": same_shape(a, b) is broken by changing b, which the row does not name
    d = draft_clauses(_page(("a的shape不满足约束。",), {"b": ("shape与a一致。",)}), vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]


def test_a_row_is_coded_by_the_notes_broadcast_shape(vocab):
    notes = {"out": ("shape需要是a与b broadcast之后的shape。",)}
    d = draft_clauses(_page(("a、b、out的shape不满足约束。",), notes), vocab)
    exprs = [(c["all"], c["on_violation"]) for c in d.clauses if c["kind"] == "expr"]
    assert exprs == [(["not broadcastable(a.shape, b.shape) or out.shape == broadcast(a.shape, b.shape)"],
                      BAD)]
    assert [o.checkable for o in d.outcomes] == [True]


def test_a_size_note_is_no_shape(vocab):
    # (an element count: list_sizes.py codes the row with it, tests/test_draft_list_sizes.py)
    notes = {"out": ("数据类型与入参a一致，shape size大于等于入参a的shape size。",)}
    d = draft_clauses(_page(("a与out的shape不满足约束。",), notes, lists=True), vocab)
    assert [c for c in d.clauses if c["kind"] == "same_shape"] == []


def test_tensor_lists_are_paired_by_position_and_broken_alone(vocab, tmp_path):
    from test_draft_rows import _valid_and_broken_alone
    page = _page(("a、b的shape不满足约束。",), {"b": ("数据类型、数据格式和shape与入参a一致。",)}, lists=True)
    d = draft_spec(page, vocab, "toy")
    same = [(c["params"], c["on_violation"]) for c in d.spec["constraints"] if c["kind"] == "same_shape"]
    assert same == [(["a", "b"], BAD)]
    assert [o.checkable for o in d.draft.outcomes] == [True]
    _valid_and_broken_alone(d, tmp_path)


@pytest.mark.parametrize("note", [
    "shape与a的batch一致。", "shape需要与a前n-1维保持一致。", "shape需要与a最后一维一致。",
    "shape可以和a或b一致。", "perTensor模式下shape与a一致。", "其他数据类型时shape和a保持一致。",
    "shape建议与a一致。", "与a的shape大小保持一致。",
])
def test_a_note_on_part_of_a_shape_or_some_cases_is_no_same_shape(note):
    assert [k for k, _ in relations(note, "out", ("a", "b", "out")) if k == "same_shape"] == []


def test_the_shape_after_the_broadcast_relation_is_the_broadcast():
    # (it was read as out broadcastable with a and b: out larger than both passed as valid)
    said = relations("shape需要是a与b满足broadcast关系之后的shape。", "out", ("a", "b", "out"))
    assert said == [("broadcast_of", ("out", "a", "b"))]


def test_names_listed_with_commas_are_one_broadcast():
    said = relations("shape为a，b的broadcast结果。", "out", ("a", "b", "out"))
    assert said == [("broadcast_of", ("out", "a", "b"))]  # not out = broadcast(b)
    assert relations("shape为一维，且元素个数为a和b广播后的shapesize。", "out", ("a", "b", "out")) == []


def test_two_outputs_against_the_actual_shape_are_no_same_shape_of_the_two(vocab):
    # "…的shape与实际输出shape不匹配" says each differs from what the operator computes, not from
    # each other (it was read as same_shape(a, out))
    d = draft_clauses(_page(("a或out的shape与实际输出shape不匹配。",), {}), vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]
