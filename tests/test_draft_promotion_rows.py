"""More promotion rows (draft/promotion_phrasings.py): 或 joining names, a closing 时, 类型推导失败,
a tensor list's elements promoting together (a break moving one element: generate/dtype_relations.py),
a "输入/输出" tensor taking part, and a promotion joined by "或" to its cast. Pages invented (PageFacts
built by hand, no vendor text)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import PRODUCTS, error, param
from test_draft_promotion import NAMES, toy_blend

from conformance.cases.oracle import explain
from conformance.draft.cells import read_and_written
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.stats import page_stats
from conformance.generate.build import broken_cases
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import read_operator, specs_dir
from conformance.spec.model import SpecSet
from conformance.spec.values import TensorList

NULL = error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other或out是空指针。", 1)


@pytest.mark.parametrize("text, pattern, params, limits", [
    ("self或other无法做数据类型推导", "dtype promotion", ("self", "other"), {}),
    ("self、other或gradOutput的数据类型不满足推导规则", "dtype promotion",
     ("self", "other", "gradOutput"), {}),
    ("self和other数据类型不满足数据类型推导规则时", "dtype promotion", ("self", "other"), {}),
    ("self和other的数据类型无法进行推导时", "dtype promotion", ("self", "other"), {}),
    ("self与other类型推导失败", "dtype promotion", ("self", "other"), {}),
    ("self与other不能推导出数据类型", "dtype promotion", ("self", "other"), {}),
    ("self列表中的tensor无法做数据类型推导", "dtype promotion", ("self",), {}),
    ("self与other类型推导失败，或推导类型无法转为out的数据类型", "dtype promotion or cast",
     ("self", "other", "out"), {"promote": ["self", "other"], "from": [], "to": "out"}),
    ("self、other和alpha类型推导失败，或者推导后的数据类型无法转为self的数据类型", "dtype promotion or cast",
     ("self", "other", "alpha"), {"promote": ["self", "other", "alpha"], "from": [], "to": "self"}),
])
def test_phrasings(text, pattern, params, limits):
    m = match(text, NAMES)
    assert (m.pattern, m.params, m.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "self不能转为out的数据类型，或self和out的数据类型不满足互推导关系",  # 或 joins another rule
    "self和other的数据类型不满足数据类型推导规则，或者推导后的结果无效",
    "self与other推导出的数据类型不属于支持的数据类型",  # a list the page does not name
    "self与other数据类型不同时，不能做数据类型推导",  # conditional
    "推导失败",  # whose?
])
def test_sentences_left_alone(text):
    assert match(text, NAMES) is None


def test_the_direction_cell_says_which_outputs_are_read():
    assert [read_and_written(c) for c in ("输入/输出", "输入输出", "输出", "输入", "input/output")] == \
        [True, True, False, False, True]


def _checked(d, kind: str) -> list[tuple[list[str], object, str]]:
    return [(c["params"], c.get("to"), c["on_violation"]) for c in d.spec["constraints"] if c["kind"] == kind]


def _loaded(d, vocab):
    spec = read_operator(specs_dir() / f"{d.api}.yaml", vocab, text=d.text)
    return spec, SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "draft")


def test_a_promotion_joined_to_its_cast_is_two_clauses_each_broken_alone(vocab):
    """One row, one code, two rules: no promoted dtype, or one out cannot take (FLOAT into BOOL,
    which no cast page allows)."""
    rows = (NULL, error("ACLNN_ERR_PARAM_INVALID", 161002,
                        "self与other类型推导失败，或推导类型无法转为out的数据类型。", 2))
    d = draft_spec(toy_blend(rows=rows), vocab, "toy/ops: x.md")
    assert _checked(d, "promotable") == [(["self", "other"], None, "ACLNN_ERR_PARAM_INVALID")]
    assert _checked(d, "castable") == [(["self", "other"], "out", "ACLNN_ERR_PARAM_INVALID")]
    assert d.draft.implied == [] and page_stats(d)["error_rows_checkable"] == 2
    spec, specs = _loaded(d, vocab)
    for clause in ("TB-PROMOTE", "TB-CAST"):
        cases = broken_cases(spec, vocab, "atlas-a2", "FLOAT", FixedChooser("min"), clause)
        assert cases and all([v.clause for v in explain(c, specs).violations] == [clause] for c in cases)


def test_a_promotion_joined_to_a_cast_naming_no_input_is_no_clause(vocab):
    rows = (NULL, error("ACLNN_ERR_PARAM_INVALID", 161002,
                        "self与out类型推导失败，或推导类型无法转为out的数据类型。", 2))
    d = draft_spec(toy_blend(rows=rows), vocab, "toy/ops: x.md")
    assert _checked(d, "promotable") == [] and _checked(d, "castable") == []
    assert page_stats(d)["error_rows_checkable"] == 1


def toy_join(dtypes: tuple[str, ...]) -> PageFacts:
    """aclnnToyJoin(tensors, out): a list of tensors whose elements may differ in dtype."""
    proto = (PrototypeParam("tensors", "aclTensorList*", const=True, optional=False),
             PrototypeParam("out", "aclTensor*", const=False, optional=False))
    params = (param("tensors", 1, dtypes=dtypes), param("out", 2, direction="output", dtypes=dtypes))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的tensors或out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "tensors列表中的tensor无法做数据类型推导。", 2))
    return PageFacts("aclnnToyJoin", "toy/docs/aclnnToyJoin.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def test_a_list_whose_elements_cannot_promote_breaks_by_its_last_element(vocab):
    d = draft_spec(toy_join(("FLOAT", "INT32", "UINT16")), vocab, "toy/ops: x.md")
    assert _checked(d, "promotable") == [(["tensors"], None, "ACLNN_ERR_PARAM_INVALID")]
    assert page_stats(d)["error_rows_checkable"] == 2
    spec, specs = _loaded(d, vocab)
    cases = broken_cases(spec, vocab, "atlas-a2", "FLOAT", FixedChooser("max"), "TJ-PROMOTE")
    assert cases
    for case in cases:
        elements = case.args["tensors"]
        assert isinstance(elements, TensorList) and elements[0].dtype == "FLOAT"
        assert elements[-1].dtype == "UINT16"  # (INT32 promotes with FLOAT: no break)
        assert [v.clause for v in explain(case, specs).violations] == ["TJ-PROMOTE"]


def test_a_list_whose_dtypes_all_promote_is_left_out(vocab):
    d = draft_spec(toy_join(("FLOAT", "INT32", "FLOAT16")), vocab, "toy/ops: x.md")
    assert _checked(d, "promotable") == [] and d.draft.implied == ["TJ-PROMOTE"]
    assert page_stats(d)["error_rows_checkable"] == 1


def test_an_output_read_as_an_input_takes_part_in_the_promotion(vocab):
    """aclnnToyInplaceBlend(self, other): other is "输入/输出" (no Ref in its name): the call reads
    its dtype, so "self和other无法做数据类型推导" is read; an output only written is not."""
    facts = toy_blend()
    proto = (PrototypeParam("self", "aclTensor*", const=True, optional=False),
             PrototypeParam("other", "aclTensor*", const=False, optional=False))
    rows = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self或other是空指针。", 1),
            error("ACLNN_ERR_PARAM_INVALID", 161002, "self和other无法做数据类型推导。", 2))

    def drafted(reads: bool):
        other = replace(facts.params[1], direction="output", reads=reads)
        page = replace(facts, api="aclnnToyInplaceBlend", prototype=proto,
                       params=(facts.params[0], other), errors=rows)
        return draft_spec(page, vocab, "toy/ops: x.md")

    assert _checked(drafted(True), "promotable") == [(["self", "other"], None, "ACLNN_ERR_PARAM_INVALID")]
    assert _checked(drafted(False), "promotable") == []
