"""Shape rows drafted into clauses a run can break alone, on invented operators: the table's
unspecified rank limits give way to a coded row at least as strict (merges.py); 广播 is the same
word as broadcast, and "broadcast至/成 X" is into X's shape (relations.py)."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam


def _unpool(rank_row: str) -> PageFacts:
    """self and indices share a shape (a coded row); out's rank is only the table's 3-4."""
    args = (("self", "aclTensor*"), ("indices", "aclTensor*"), ("out", "aclTensor*"))
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in args)
    rows = (param("self", 1, dtypes=("FLOAT",), rank=(3, 4)),
            param("indices", 2, dtypes=("INT64",), rank=(3, 4)),
            param("out", 3, direction="output", same_as="self", rank=(3, 4)))
    errors = tuple(error("ACLNN_ERR_PARAM_INVALID", 161002, text, i + 1) for i, text in
                   enumerate(("self和indices的shape不一致。", rank_row)))
    return PageFacts("aclnnToyUnpool", "toy/docs/aclnnToyUnpool.md", PRODUCTS[:2], proto, rows, errors,
                     deterministic=None)


def _ranks(d) -> list[tuple]:  # noqa: ANN001 - a DraftedSpec
    return [(c["params"], c.get("ranks"), c.get("min"), c.get("max"), c["on_violation"])
            for c in d.spec["constraints"] if c["kind"] == "rank_in"]


def test_a_coded_rank_row_takes_its_tensors_out_of_the_tables_limits(vocab):
    d = draft_spec(_unpool("self的维度不为3维或者4维。"), vocab, "toy")
    assert _ranks(d) == [(["self", "indices"], [3, 4], None, None, "ACLNN_ERR_PARAM_INVALID"),
                         (["out"], None, None, 4, "unspecified"), (["out"], None, 3, None, "unspecified")]
    assert {o.sentence.text: o.checkable for o in d.draft.outcomes}["self的维度不为3维或者4维"]
    assert not [i for i in d.draft.implied if "RANK" in i]


def test_a_looser_coded_row_leaves_the_tables_limits_on_its_tensors(vocab):
    # "超过8维" says nothing of the table's 3-4: self and indices keep those (and the row, which no
    # case breaks without breaking them, is left out: the draws stay within 3-4)
    d = draft_spec(_unpool("self的维度超过8维。"), vocab, "toy")
    assert _ranks(d) == [(["self", "indices", "out"], None, 3, None, "unspecified"),
                         (["self", "indices", "out"], None, None, 4, "unspecified")]


def _copy(row: str, note: str) -> PageFacts:
    args = (("selfRef", "aclTensor*"), ("src", "aclTensor*"))
    proto = tuple(PrototypeParam(n, c, const=n == "src", optional=False) for n, c in args)
    rows = (param("selfRef", 1, direction="output", dtypes=("FLOAT",)),
            param("src", 2, dtypes=("FLOAT",), usage=(note,)))
    errors = (error("ACLNN_ERR_PARAM_INVALID", 161002, row, 1),)
    return PageFacts("aclnnToyCopy", "toy/docs/aclnnToyCopy.md", PRODUCTS[:2], proto, rows, errors,
                     deterministic=None)


def test_a_row_broadcasting_into_a_tensor_reads_as_into(vocab):
    from conformance.draft.clauses import draft_clauses
    d = draft_clauses(_copy("src的shape不能广播至selfRef。", "支持非连续的Tensor。"), vocab)
    exprs = [c["all"] for c in d.clauses if c["kind"] == "expr"]
    assert exprs == [["not broadcastable(src.shape, selfRef.shape) or "
                      "broadcast(selfRef.shape, src.shape) == selfRef.shape"]]
    assert [o.checkable for o in d.outcomes] == [True]


def test_a_note_on_the_broadcast_shape_in_chinese_is_no_same_shape():
    from conformance.draft.usage import relations
    said = relations("shape与self、other广播之后的shape一致。", "out", ("self", "other", "out"))
    assert said == [("broadcast_of", ("out", "self", "other"))]  # was same_shape of the three


def _scaled(row: str) -> PageFacts:
    args = (("self", "aclTensor*"), ("alpha", "aclTensor*"), ("out", "aclTensor*"))
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in args)
    rows = (param("self", 1, dtypes=("FLOAT",), rank=(1, 8)),
            param("alpha", 2, dtypes=("FLOAT",), rank=(0, 8)),
            param("out", 3, direction="output", same_as="self", usage=("shape与self一致。",)))
    errors = (error("ACLNN_ERR_INNER_TILING_ERROR", 561002, row, 1),)
    return PageFacts("aclnnToyScaled", "toy/docs/aclnnToyScaled.md", PRODUCTS[:2], proto, rows, errors,
                     deterministic=None)


def test_an_element_count_row_is_a_numel_clause_on_a_tensor_drawn_alone(vocab, tmp_path):
    from test_draft_rows import _valid_and_broken_alone
    d = draft_spec(_scaled("alpha元素个数不为1。"), vocab, "toy")
    numel = [c for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert [(c["all"], c["break"], c["on_violation"]) for c in numel] == [
        (["alpha.numel == 1"], {"alpha_shape": {"expr": "[2]"}}, "ACLNN_ERR_INNER_TILING_ERROR")]
    draws = d.spec["generate"]["draws"]
    assert draws["alpha_shape"] == {"expr": "[1]"} and "shape" in draws["self_shape"]  # self not [1]
    assert d.spec["generate"]["args"] == {"self": "self_shape", "alpha": "alpha_shape", "out": "self_shape"}
    assert [o.checkable for o in d.draft.outcomes] == [True]
    _valid_and_broken_alone(d, tmp_path)


def test_a_size_row_on_a_tensor_is_not_an_element_count(vocab):
    d = draft_spec(_scaled("alpha的size不为1。"), vocab, "toy")  # a shape? a count? not read
    assert [o.checkable for o in d.draft.outcomes] == [False]


def _halved(row: str, dim_note: str) -> PageFacts:
    args = (("x", "aclTensor*"), ("dim", "int64_t"), ("out", "aclTensor*"))
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in args)
    rows = (param("x", 1, dtypes=("FLOAT",)),
            param("dim", 2, formats=(), rank=None, noncontiguous=None, usage=(dim_note,)),
            param("out", 3, direction="output", same_as="x"))
    errors = (error("ACLNN_ERR_PARAM_INVALID", 161002, row, 1),)
    return PageFacts("aclnnToyHalve", "toy/docs/aclnnToyHalve.md", PRODUCTS[:2], proto, rows, errors,
                     deterministic=None)


@pytest.mark.parametrize("row", ["dim不在指定的取值范围内。", "dim越界时。", "dim的取值越界。",
                                 "dim超出范围。"])
def test_an_attribute_out_of_the_range_its_row_writes_is_a_dimension_range(vocab, row):
    d = draft_spec(_halved(row, "取值范围为[-x.dim(), x.dim()-1]。"), vocab, "toy")
    exprs = [c["all"] for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert exprs == [["dim >= -max(x.rank, 1) and dim < max(x.rank, 1)"]]
    assert [o.checkable for o in d.draft.outcomes] == [True]


def test_an_attribute_out_of_a_range_no_row_writes_is_not_read(vocab):
    d = draft_spec(_halved("dim越界时。", "表示切分的维度。"), vocab, "toy")
    assert not [c for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert [o.checkable for o in d.draft.outcomes] == [False]
