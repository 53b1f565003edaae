"""Drafting promotable and castable clauses (draft/pattern_table.py "dtype promotion" and "dtype cast",
draft/promotion_clauses.py) from sentences and a page we wrote: an invented operator whose two
inputs mix dtypes, promoted and cast to out."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.stats import page_stats
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import read_operator, specs_dir
from conformance.spec.model import SpecSet

NAMES = ("self", "other", "out", "gradOutput", "gradInput", "alpha", "outMask")


@pytest.mark.parametrize("text, pattern, params, limits", [
    ("self和other无法做数据类型推导。", "dtype promotion", ("self", "other"), {}),
    ("self与other的数据类型不满足数据类型推导规则", "dtype promotion", ("self", "other"), {}),
    ("self、other的数据类型不支持类型推导", "dtype promotion", ("self", "other"), {}),
    ("self和other的数据类型不满足互推导关系", "dtype promotion", ("self", "other"), {}),
    ("self和other的数据类型无法进行推导", "dtype promotion", ("self", "other"), {}),
    ("输入无法做数据类型推导", "dtype promotion", (), {"scope": "all"}),
    ("推导出的数据类型无法转换为指定输出out的类型。", "dtype cast", ("out",), {"from": [], "to": "out"}),
    ("self和other推导出的数据类型不能转换为out的数据类型", "dtype cast", ("self", "other", "out"),
     {"from": ["self", "other"], "to": "out"}),
    ("参数self的数据类型无法推导为指定输出out的类型", "dtype cast", ("self", "out"),
     {"from": ["self"], "to": "out"}),
    ("gradOutput不能转换为out的数据类型", "dtype cast", ("gradOutput", "out"),
     {"from": ["gradOutput"], "to": "out"}),
    ("参数out的数据类型不是self可转换的。", "dtype cast", ("out", "self"), {"from": ["self"], "to": "out"}),
    ("self与out的数据类型不满足互转换关系", "dtype cast", ("self", "out"), {"pair": ["self", "out"]}),
    ("self与out的dtype不可转换", "dtype cast", ("self", "out"), {"pair": ["self", "out"]}),
    ("alpha无法转换为self和other推导后的数据类型", "dtype cast", ("alpha", "self", "other"),
     {"from": ["alpha"], "to": ["self", "other"]}),
    ("参数alpha、other的数据类型不可转换为FLOAT", "dtype cast", ("alpha", "other"),
     {"from": ["alpha", "other"], "to": "FLOAT", "each": True}),
    ("alpha，other的数据类型无法转换成self的数据类型", "dtype cast", ("alpha", "other", "self"),
     {"from": ["alpha", "other"], "to": "self", "each": True}),
    ("self和other进行数据类型推导后的类型无法cast为out的数据类型", "dtype cast", ("self", "other", "out"),
     {"from": ["self", "other"], "to": "out"}),
])
def test_phrasings(text, pattern, params, limits):
    m = match(text.rstrip("。"), NAMES)
    assert (m.pattern, m.params, m.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "other与self数据类型不同时，不能做数据类型推导",
    "self或other无法做数据类型推导后的结果不在支持的范围之内",
    "计算结果的数据类型无法转换为指定输出out的类型",  # a compute dtype, not the promoted one
    "推导出的数据类型/数据格式无法转换为指定输出out的类型/格式",
    "self或other不能转换成out的数据类型",
    "数据类型无法转换为out的类型",  # whose?
])
def test_sentences_left_alone(text):
    m = match(text, NAMES)
    if text.endswith("不在支持的范围之内"):  # a value range of tensors: value_in codes ints only
        assert m is not None and (m.pattern, m.params) == ("value out of range", ("self", "other"))
    else:
        assert m is None


def toy_blend(other_dtypes=("FLOAT", "FLOAT16", "INT32", "UINT16"), rows=None, usage=()) -> PageFacts:
    """aclnnToyBlend(self, other, out): the inputs may differ in dtype; out takes their promotion."""
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "out", optional=False)
                  for n in ("self", "other", "out"))
    params = (
        param("self", 1, dtypes=("FLOAT", "FLOAT16", "INT32", "BOOL"),
              usage=("shape与other一致。", *usage)),
        param("other", 2, dtypes=other_dtypes, usage=("shape与self一致。",)),
        param("out", 3, direction="output", dtypes=("FLOAT", "FLOAT16", "INT32", "BOOL"),
              usage=("shape与self一致。",)),
    )
    errors = rows or (
        error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other或out是空指针。", 1),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "self、other或out的数据类型不在支持的范围之内。", 2),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "self和other无法做数据类型推导。", 3),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "推导出的数据类型无法转换为指定输出out的类型。", 4),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "self、other和out的shape不一致。", 5),
    )
    return PageFacts("aclnnToyBlend", "toy/docs/aclnnToyBlend.md", PRODUCTS, proto, params, errors,
                     deterministic=None, revision="0123456789abcdef0123456789abcdef01234567",
                     date="2026-01-02")


def _clauses(d):
    return {c["id"]: c for c in d.spec["constraints"]}


def test_promotion_and_cast_rows_draft_checkable_clauses(vocab):
    d = draft_spec(toy_blend(), vocab, "toy/ops: toy/docs/aclnnToyBlend.md")
    c = _clauses(d)
    assert {k: (v["params"], v.get("to"), v["on_violation"]) for k, v in c.items()
            if v["kind"] in ("promotable", "castable")} == {
        "TB-PROMOTE": (["self", "other"], None, "ACLNN_ERR_PARAM_INVALID"),
        "TB-CAST": (["self", "other"], "out", "ACLNN_ERR_PARAM_INVALID")}
    assert c["TB-CAST"]["source"]["quote"] == "推导出的数据类型无法转换为指定输出out的类型"
    stats = page_stats(d)
    assert (stats["error_rows"], stats["error_rows_checkable"]) == (5, 5)


def test_the_draft_runs_as_the_pages_say(vocab):
    d = draft_spec(toy_blend(), vocab, "toy/ops: x.md")
    spec = read_operator(specs_dir() / "aclnnToyBlend.yaml", vocab, text=d.text)
    specs = SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "draft")
    for dtype in spec.test_dtypes("atlas-a2"):
        for mode in ("min", "max"):
            assert explain(build_case(spec, vocab, "atlas-a2", dtype, FixedChooser(mode)), specs).expected \
                == "success"
        for clause in ("TB-PROMOTE", "TB-CAST"):
            for case in broken_cases(spec, vocab, "atlas-a2", dtype, FixedChooser("min"), clause):
                assert [v.clause for v in explain(case, specs).violations] == [clause]


def test_a_promotion_the_lists_cannot_break_is_left_out(vocab):
    """Every pair of these lists promotes (no UINT16): no case breaks the clause, so the draft
    leaves it out and the row is not counted checkable."""
    d = draft_spec(toy_blend(other_dtypes=("FLOAT", "FLOAT16", "INT32")), vocab, "toy/ops: x.md")
    kinds = [c["kind"] for c in d.spec["constraints"]]
    assert "promotable" not in kinds and "castable" in kinds
    stats = page_stats(d)
    assert (stats["error_rows"], stats["error_rows_checkable"]) == (5, 4)


def test_a_cast_row_naming_an_attribute_or_a_promotion_with_an_output_is_no_clause(vocab):
    rows = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other或out是空指针。", 1),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "self的数据类型无法转换为dtype的数据类型。", 2),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "self和out的数据类型不满足数据类型推导规则。", 3))
    d = draft_spec(toy_blend(rows=rows), vocab, "toy/ops: x.md")
    assert not [c for c in d.spec["constraints"] if c["kind"] in ("promotable", "castable")]
    assert page_stats(d)["error_rows_checkable"] == 1


def test_a_cast_row_into_an_input_is_read_and_left_out_where_the_lists_cannot_break_it(vocab):
    """self into other's dtype: read as castable [self] -> other. Within these lists every cast is
    allowed or disputed (FLOAT to INT32), so no case breaks it: the draft leaves it out (implied)."""
    rows = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other或out是空指针。", 1),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "self的数据类型无法转换为other的数据类型。", 2))
    d = draft_spec(toy_blend(rows=rows), vocab, "toy/ops: x.md")
    assert d.draft.implied == ["TB-CAST"]
    assert page_stats(d)["error_rows_checkable"] == 1
    d = draft_spec(toy_blend(rows=rows, other_dtypes=("FLOAT", "BOOL")), vocab, "toy/ops: x.md")
    assert [(c["params"], c["to"]) for c in d.spec["constraints"] if c["kind"] == "castable"] == [
        (["self"], "other")]
    assert page_stats(d)["error_rows_checkable"] == 2


def test_the_usage_note_joins_the_coded_clause(vocab):
    note = "self与other的数据类型需满足数据类型推导规则。"
    d = draft_spec(toy_blend(usage=(note,)), vocab, "toy/ops: x.md")
    quote = _clauses(d)["TB-PROMOTE"]["source"]["quote"]
    assert quote == "self和other无法做数据类型推导 / " + note
    assert not [c for c in d.spec["constraints"] if c["kind"] == "review" and note in c["source"]["quote"]]


def test_a_usage_note_alone_is_an_unspecified_clause(vocab):
    rows = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other或out是空指针。", 1),)
    d = draft_spec(toy_blend(rows=rows, usage=("self与other的数据类型需满足数据类型推导规则。",)), vocab,
                   "toy/ops: x.md")
    (clause,) = [c for c in d.spec["constraints"] if c["kind"] == "promotable"]
    assert (clause["params"], clause["on_violation"]) == (["self", "other"], "unspecified")


def test_same_row_promotion_names_the_cast_sources(vocab):
    facts = toy_blend()
    rows = (*facts.errors[:2],
            replace(facts.errors[2], text=replace(facts.errors[2].text,
                                                  text="self和other无法做数据类型推导。推导出的数据类型无法转换为out的类型。")))
    d = draft_spec(replace(facts, errors=rows), vocab, "toy/ops: x.md")
    assert _clauses(d)["TB-CAST"]["params"] == ["self", "other"]


def test_an_in_place_tensor_promotes_with_the_other_input(vocab):
    """aclnnToyInplaceBlend(selfRef, other): selfRef is read and written, so it takes part in the
    promotion its row names, and the promoted dtype is cast back into it."""
    facts = toy_blend()
    proto = (PrototypeParam("selfRef", "aclTensor*", const=False, optional=False),
             PrototypeParam("other", "aclTensor*", const=True, optional=False))
    params = (replace(facts.params[0], name="selfRef", direction="output"),
              replace(facts.params[1], dtypes=("FLOAT", "FLOAT16", "INT32", "BOOL", "UINT16")))
    rows = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的selfRef或other是空指针。", 1),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "selfRef和other无法做数据类型推导。", 2),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "推导出的数据类型无法转换为selfRef的类型。", 3))
    inplace = replace(facts, api="aclnnToyInplaceBlend", prototype=proto, params=params, errors=rows)
    d = draft_spec(inplace, vocab, "toy/ops: x.md")
    got = {c["kind"]: (c["params"], c.get("to")) for c in d.spec["constraints"]
           if c["kind"] in ("promotable", "castable")}
    assert got == {"promotable": (["selfRef", "other"], None), "castable": (["selfRef", "other"], "selfRef")}
    assert page_stats(d)["error_rows_checkable"] == 3
