"""Drafting attribute values: a string attribute's documented set (conformance/draft/string_values.py)
becomes a value_in clause carrying the code of the error row naming it. Sentences and pages here
are invented, written in the vendor's layout."""
from __future__ import annotations

import pytest
from draft_facts import error, param, toy_dim
from helpers import loaded_draft, value_clause

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.string_values import string_set, string_values
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser


@pytest.mark.parametrize(("text", "values"), [
    ('mode仅支持{"keep", "floor"}。', ["keep", "floor"]),
    ('支持{"up", "down", "even"}模式。', ["up", "down", "even"]),
    ('支持["first", "last", "all"]。', ["first", "last", "all"]),
    ('取值范围是：["up", "down"]。', ["up", "down"]),
    ("支持“fast”和“exact”。", ["fast", "exact"]),
    ('可配置为"fast"或者"exact"，其中"fast"代表近似计算。', ["fast", "exact"]),
    ("支持取值up/down/even。", ["up", "down", "even"]),
    ('当前仅支持"keep"。', ["keep"]),
    ('支持"up"/"down"模式。', ["up", "down"]),
    ('计算方式。取值可以是"up"或"down"。', ["up", "down"]),  # one "。"-part of the cell
    ('当前版本仅支持“keep”。', ["keep"]),
    ('取整模式取值必须是""（表示不取整）、"2up"、"down"中的一种。', ["", "2up", "down"]),
    ('支持"up"、"down"，传入空指针时，采用"up"模式。', ["up", "down"]),  # and an absent one's default
    ('当前仅支持"fast"近似计算，"exact"精确计算。', ["fast", "exact"]),  # each value with its name
])
def test_a_plain_set_is_read(text, values):
    assert string_set(text, "mode", named="表示取整模式。") == values


def test_a_noun_before_its_values_is_the_attribute_only_where_its_row_calls_it_so():
    text = '取整模式取值必须是"up"、"down"中的一种。'
    assert string_set(text, "mode", named="表示取整模式。") == ["up", "down"]
    assert string_set('动态模式取值为"up"、"down"。', "mode", named="表示量化模式。") is None  # one mode's
    assert string_set(text, "mode") is None


@pytest.mark.parametrize("text", [
    '当scale为0时，支持{"keep"}。',  # one branch, not the set
    'scale为2时，仅支持{"keep"}。',
    'other仅支持{"keep", "floor"}。',  # another parameter's set
    '可选"fast"近似计算，"exact"精确计算。',  # values with their names: only as what is supported
    '非空时仅支持取值"keep"。',
    '支持{"keep", "floor"}，默认"keep"。',  # says more than the set
    "支持up/down。",  # a bare a/b only after 取值
    'FP16输入仅支持"keep"。',
    '静态量化仅支持"keep"。',  # said of one mode
    '支持"up"、"down"，传入空指针时，采用"even"模式。',  # a default the set lacks
    '支持"up"、"down"（暂不支持）。',  # a value marked not supported yet is no valid value
    '支持"up"（预留）、"down"。',
    '支持"up"、"down"、"even"，其中Atlas A2仅支持"down"。',  # narrowed in the same part
    '支持"up"、"down"等。',  # an open list: a value outside it may be valid
    '取值为"up"、"down"等模式。',
    '支持{"up", "down"}等',
    "支持取值up/down等。",
])
def test_a_sentence_saying_more_than_the_set_is_not_read(text):
    assert string_set(text, "mode") is None


def _row(*usage: str):
    return param("mode", 4, dtypes=(), formats=(), rank=None, noncontiguous=None, usage=usage)


def test_other_notes_narrowing_the_set_are_seen():
    plain = string_values(_row('mode仅支持{"keep", "floor"}。', '默认值为"keep"。'))
    assert plain is not None and plain.values == ["keep", "floor"] and not plain.narrowed
    narrowed = string_values(_row('支持{"keep", "floor"}。', 'self为INT8时，仅支持{"keep"}。'))
    assert narrowed is not None and narrowed.narrowed
    assert string_values(_row('当self为INT8时，支持{"keep"}。')) is None
    said_with_default = string_values(_row('支持{"keep", "floor"}。',
                                           '取整时仅支持整数，传入空指针时代表"keep"。'))
    assert said_with_default.narrowed  # a restriction beside the default is still one
    unbranched = string_values(_row('支持取值keep/floor。', "当self为INT8时，支持取值keep。"))
    assert unbranched is not None and unbranched.narrowed  # a bare value under a condition
    elsewhere = ['当mode为"floor"时，out必须是nullptr。']  # another row ties a value to an argument
    assert string_values(_row('支持{"keep", "floor"}。'), elsewhere).narrowed
    assert not string_values(_row('支持{"keep", "floor"}。'), ['当other为"floor"时…']).narrowed


@pytest.mark.parametrize(("usage", "draw"), [
    (('支持"keep"、"floor"。其中Atlas A2仅支持"floor"。',), ["floor"]),  # a later part of its cell
    (('支持"keep"、"floor"。', '其中Atlas A2仅支持"floor"。'), ["floor"]),
    (('支持"keep"、"floor"。', 'self为INT8时，不支持"keep"。'), ["floor"]),
    (('支持"keep"、"floor"。', 'self为INT8时，仅支持"keep"。'), ["keep"]),
])
def test_a_narrowed_set_draws_the_value_its_narrowings_keep(usage, draw):
    sv = string_values(_row(*usage))
    assert sv is not None and sv.values == ["keep", "floor"] and sv.narrowed and sv.draw == draw


@pytest.mark.parametrize(("text", "values"), [
    ('mode的值不是"keep"或"floor"', ["keep", "floor"]),
    ('传入的mode不属于""、"2up"以及"down"中的一种', ["", "2up", "down"]),
    ("mode不为“keep”", ["keep"]),
])
def test_an_error_row_quoting_the_set_is_read(text, values):
    found = match(text, ["mode", "self"])
    assert found is not None and found.pattern == "string values"
    assert found.params == ("mode",) and found.limits == {"strings": values}


def test_an_error_row_saying_more_is_not_the_string_set():
    assert match('mode的值不是"keep"或"floor"时，self不能为空', ["mode", "self"]) is None
    assert match('mode的值不是"keep"，或self为空', ["mode", "self"]) is None


# -- a page: aclnnToyDim with a string attribute ---------------------------------------------------
def _page(*usage: str, row: str = "mode、dim不在支持的范围之内。"):
    base = toy_dim()
    proto = (*base.prototype[:2], PrototypeParam("mode", "char*", const=True, optional=False),
             base.prototype[2])
    errors = (*base.errors, error("ACLNN_ERR_PARAM_INVALID", 161002, row, 4))
    return toy_dim(prototype=proto, params=(*base.params, _row(*usage)), errors=errors)


def test_a_row_naming_a_documented_string_is_checkable(vocab):
    d = draft_spec(_page('mode仅支持{"keep", "floor"}。', row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    clause = value_clause(d, "mode")
    assert clause["values"] == ["keep", "floor"] and clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert clause["source"]["quote"] == 'mode不在支持的范围之内 / mode仅支持{"keep", "floor"}。'
    assert d.spec["generate"]["draws"]["mode"] == {"sampled": ["keep", "floor"]}
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [True]


def test_a_narrowed_set_draws_its_first_value_and_says_so(vocab):
    d = draft_spec(_page('支持{"keep", "floor"}。', 'self为FLOAT16时，仅支持{"keep"}。',
                         row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    assert value_clause(d, "mode")["values"] == ["keep", "floor"]
    assert d.spec["generate"]["draws"]["mode"] == {"sampled": ["keep"]}
    reviews = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert any("draws 'keep' alone" in q for q in reviews)
    assert any("仅支持{\"keep\"}" in q for q in reviews)  # the narrowing note itself, unread


def test_a_row_quoting_the_set_is_checkable_and_one_quoting_another_is_not(vocab):
    same = draft_spec(_page('mode仅支持{"keep", "floor"}。', row='mode的值不是"keep"或"floor"。'),
                      vocab, "toy: x.md")
    assert [o.checkable for o in same.draft.outcomes if o.row == 3] == [True]
    other = draft_spec(_page('mode仅支持{"keep", "floor"}。', row='mode的值不是"keep"。'), vocab, "toy: x.md")
    assert [o.checkable for o in other.draft.outcomes if o.row == 3] == [False]
    assert value_clause(other, "mode")["on_violation"] == "unspecified"


def test_a_row_naming_an_attribute_without_a_set_stays_unchecked(vocab):
    d = draft_spec(_page("取整方式。"), vocab, "toy: x.md")  # "mode、dim…": neither has a set
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [False]


def test_the_string_clause_loads_and_its_break_gets_the_code(vocab, tmp_path):
    d = draft_spec(_page('mode仅支持{"keep", "floor"}。', row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    spec, pack_vocab, specs, product, dtype = loaded_draft(d, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, pack_vocab, product, dtype, FixedChooser(mode))
        assert explain(case, specs).expected == "success"
    cid = value_clause(d, "mode")["id"]
    cases = broken_cases(spec, pack_vocab, product, dtype, FixedChooser("max"), cid)
    assert [c.args["mode"] for c in cases] == ["undocumented"]
    for case in cases:
        e = explain(case, specs)
        assert e.expected == "error" and e.status == (161002,)



# -- an int array of axes naming one axis twice ----------------------------------------------------
