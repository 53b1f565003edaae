"""Drafting what error rows and notes say of the dtypes of tensor lists (relations.py with
list_kinds.within_lists / ties_elements, list_ties.py): "x和out的数据类型不一致" ties the lists,
"x或out中的Tensor的数据类型不一致" the elements within each list (``lists: each``); beside such a row
of another code, the clause tying the lists ties them position by position (``lists: position``).
The pages are invented foreach-like operators (PageFacts built by hand, no vendor text)."""
from __future__ import annotations

from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.list_kinds import ties_elements, within_lists

INVALID, TILING = ("ACLNN_ERR_PARAM_INVALID", 161002), ("ACLNN_ERR_INNER_TILING_ERROR", 561002)
FLOATS = ("FLOAT", "FLOAT16")
TIED = "该参数中所有Tensor的数据类型保持一致。"


def toy_lists(names: tuple[str, ...], rows: tuple[tuple[tuple[str, int], str], ...],
              usage: tuple[str, ...] = ()) -> PageFacts:
    """aclnnToyForeachSquare(lists..., out): every parameter a tensor list of FLOATS, the last an
    output; a null row and a dtype row, then ``rows`` ((status, code), text)."""
    proto = tuple(PrototypeParam(n, "aclTensorList*", const=n != "out", optional=False) for n in names)
    params = tuple(param(n, i + 1, direction="output" if n == "out" else "input", dtypes=FLOATS,
                         usage=usage) for i, n in enumerate(names))
    listed = "、".join(names)
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, f"传入的{listed}是空指针。", 1),
              error(*INVALID, f"{listed}的数据类型不在支持的范围之内。", 2),
              *(error(*status, text, 3 + i) for i, (status, text) in enumerate(rows)))
    return PageFacts("aclnnToyForeachSquare", "toy/docs/aclnnToyForeachSquare.md", PRODUCTS[:1], proto,
                     params, errors, deterministic=None)


def _same_dtype(d) -> list[tuple[list[str], str, str]]:
    return [(c["params"], c["on_violation"], c.get("lists", "all")) for c in d.spec["constraints"]
            if c["kind"] == "same_dtype"]


def _checkable(d, row: int) -> bool:
    return all(o.checkable for o in d.draft.outcomes if o.row == row)


def test_the_elements_of_one_list_share_a_dtype(vocab):
    d = draft_spec(toy_lists(("x",), ((TILING, "x中的Tensor的数据类型不一致。"),)), vocab, "toy: x.md")
    assert _same_dtype(d) == [(["x"], "ACLNN_ERR_INNER_TILING_ERROR", "each")]
    assert _checkable(d, 2)


def test_lists_tied_and_within_lists_with_two_codes(vocab):
    rows = ((INVALID, "x和out的数据类型不一致。"), (TILING, "x或out中的Tensor的数据类型不一致。"))
    d = draft_spec(toy_lists(("x", "out"), rows), vocab, "toy: x.md")
    # x[i] tied to out[i], and one dtype within each list: a case mixing the dtypes within both
    # lists alike breaks the second alone, all of out in another dtype the first alone
    assert _same_dtype(d) == [(["x", "out"], "ACLNN_ERR_PARAM_INVALID", "position"),
                              (["x", "out"], "ACLNN_ERR_INNER_TILING_ERROR", "each")]
    assert d.draft.implied == []
    assert _checkable(d, 2) and _checkable(d, 3)


def test_a_within_row_of_the_same_code_joins_the_clause_tying_the_lists(vocab):
    rows = ((INVALID, "x和out的数据类型不一致。"), (INVALID, "x或out中的Tensor的数据类型不一致。"))
    d = draft_spec(toy_lists(("x", "out"), rows), vocab, "toy: x.md")
    assert _same_dtype(d) == [(["x", "out"], "ACLNN_ERR_PARAM_INVALID", "all")]
    assert _checkable(d, 2) and _checkable(d, 3)


def test_a_row_split_over_lists_counts_only_while_every_part_stands(vocab):
    rows = ((INVALID, "x和out的数据类型不一致。"), (TILING, "x或y中的Tensor的数据类型不一致。"))
    d = draft_spec(toy_lists(("x", "y", "out"), rows), vocab, "toy: x.md")
    # one clause within x and y; its break mixes out's elements too (tied to x by position)
    assert _same_dtype(d) == [(["x", "out"], "ACLNN_ERR_PARAM_INVALID", "position"),
                              (["x", "y"], "ACLNN_ERR_INNER_TILING_ERROR", "each")]
    assert _checkable(d, 2) and _checkable(d, 3)


def test_the_note_on_a_list_joins_its_clause_or_is_one(vocab):
    rows = ((INVALID, "x和out的数据类型不一致。"),)
    d = draft_spec(toy_lists(("x", "out"), rows, usage=(TIED,)), vocab, "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if c["kind"] == "same_dtype")
    assert TIED.rstrip("。") in clause["source"]["quote"]
    assert not any(r["source"]["quote"].startswith("该参数") for r in d.draft.reviews)
    d = draft_spec(toy_lists(("x",), (), usage=(TIED,)), vocab, "toy: x.md")
    assert _same_dtype(d) == [(["x"], "unspecified", "all")]


def test_within_lists_reads_the_elements_of_lists_only():
    lists = ["x", "tensors", "out"]
    assert within_lists("x或out中的Tensor的数据类型不一致", ("x", "out"), lists) == ["x", "out"]
    assert within_lists("tensors列表中tensor数据类型不一致", ("tensors",), lists) == ["tensors"]
    assert within_lists("x和out的数据类型不一致", ("x", "out"), lists) == []
    assert within_lists("self中的Tensor的数据类型不一致", ("self",), lists) == []  # not a list
    assert within_lists("x或self中的Tensor的数据类型不一致", ("x", "self"), lists) == []
    # the lists and their elements: one dtype over everything, no within-list reading
    assert within_lists("x、tensors与out及其中各个tensor的数据类型不同", ("x", "tensors", "out"), lists) == []


def test_ties_elements():
    assert ties_elements(TIED) and ties_elements("该参数中所有tensor的数据类型一致。")
    assert not ties_elements("数据类型与入参x的数据类型一致。")


def test_lists_and_their_elements_are_one_tie(vocab):
    rows = ((INVALID, "x、y与out及其中各个tensor的数据类型不同。"),)
    d = draft_spec(toy_lists(("x", "y", "out"), rows), vocab, "toy: x.md")
    assert _same_dtype(d) == [(["x", "y", "out"], "ACLNN_ERR_PARAM_INVALID", "all")]
    assert _checkable(d, 2)
