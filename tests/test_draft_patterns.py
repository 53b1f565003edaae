"""The error-row patterns (conformance/draft/pattern_table.py, matched by patterns.py) on single
sentences: each phrasing (and real variants of it) read as its pattern with the parameters and
limits it names, sentences no pattern reads, and the nearest pattern named for review. Apart from
test_draft_clauses.py, which drafts whole pages: these need no page, only a sentence and the
parameter names."""
from __future__ import annotations

import pytest

from conformance.draft.closest import closest
from conformance.draft.patterns import match

NAMES = ("gradOutput", "self", "target", "weight", "out", "reduction", "dim", "padding", "n", "x1", "x2")


@pytest.mark.parametrize("text, pattern, params, limits", [
    ("传入的gradOutput、self、target或out是空指针时。", "null pointer",
     ("gradOutput", "self", "target", "out"), {}),
    ("如果传入参数是必选输入，输出或者必选属性，且是空指针，则返回161001。", "null pointer", (),
     {"scope": "all"}),
    ("self的数据类型不在支持的范围之内。", "dtype not supported", ("self",), {}),
    ("self、target 或 out 的 dtype 不在支持范围内", "dtype not supported", ("self", "target", "out"), {}),
    ("x1和x2的数据类型和数据格式不在支持的范围之内。", "dtype and format not supported", ("x1", "x2"), {}),
    ("weight不为空指针时，数据类型或数据格式不在支持的范围之内。", "dtype and format not supported",
     ("weight",), {}),
    ("self的数据格式不在支持的范围之内。", "format not supported", ("self",), {}),
    ("gradOutput、target的数据类型和self不同。", "dtypes differ", ("gradOutput", "target", "self"), {}),
    ("self与out的数据类型不一致。", "dtypes differ", ("self", "out"), {}),
    ("self和out的type不匹配", "dtypes differ", ("self", "out"), {}),
    ("gradOutput、self和target的shape无法做broadcast。", "cannot broadcast",
     ("gradOutput", "self", "target"), {}),
    ("self和target的shape不满足broadcast规则。", "cannot broadcast", ("self", "target"), {}),
    ("gradOutput、self和target做broadcast后的shape与out的shape不一致。", "broadcast shape differs",
     ("gradOutput", "self", "target", "out"), {"result": "out"}),
    ("out的shape不是self和targetbroadcast后的shape。", "broadcast shape differs", ("out", "self", "target"),
     {"result": "out"}),
    ("gradOutput不能broadcast到self的shape", "broadcast shape differs", ("gradOutput", "self"),
     {"result": "self"}),
    ("self和out的shape不一致。", "shapes differ", ("self", "out"), {}),
    ("self与out的shape不同。", "shapes differ", ("self", "out"), {}),
    ("gradOutput、self或target的shape超过8维。", "rank", ("gradOutput", "self", "target"), {"max": 8}),
    ("self和out的维度大于8。", "rank", ("self", "out"), {"max": 8}),
    ("gradOutput或self的shape dim大于8。", "rank", ("gradOutput", "self"), {"max": 8}),
    ("self的维度不是4维或5维。", "rank", ("self",), {"ranks": [4, 5]}),
    ("weight的维度不是零维，一维或二维", "rank", ("weight",), {"ranks": [0, 1, 2]}),
    ("self的维度等于0。", "rank", ("self",), {"min": 1}),
    ("输入或输出的参数维度不在支持的范围内。", "rank", (), {"table": True, "scope": "all"}),
    ("self和target的输入shape在支持范围之外。", "rank", ("self", "target"), {"table": True}),
    ("传入的self、target、gradoutput为空指针。", "null pointer", ("self", "target", "gradOutput"), {}),
    ("reduction不符合约束。", "value out of range", ("reduction",), {"enumerated": True}),
    ("dim的取值不在[-self.dim(), self.dim()-1]范围内。", "dimension range", ("dim", "self"), {}),
    ("dim值不在self维度范围内", "dimension range", ("dim", "self"), {}),
    ("reduction值不在0~2范围之内。", "value out of range", ("reduction",), {"values": [0, 1, 2]}),
    ("reduction的值非0, 1, 2三值之一", "value out of range", ("reduction",), {"values": [0, 1, 2]}),
    ("reduction不在指定的取值范围内。", "attribute out of its range", ("reduction",),
     {"enumerated": True, "documented": True}),  # its values, or the dims its own row writes
    ("padding的长度不等于6。", "length", ("padding",), {"length": 6}),
    ("self的元素总数不等于16。", "length", ("self",), {"length": 16}),  # (a tensor's: its numel)
    ("传入的n小于0。", "value sign", ("n",), {"positive": False}),
    ("当前平台不在支持的平台范围内。", "platform not supported", (), {"scope": "all"}),
])
def test_each_phrasing_reads_as_its_pattern(text, pattern, params, limits):
    found = match(text.rstrip("。"), NAMES)
    assert found is not None, text
    assert (found.pattern, found.params, found.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "当reduction的值为0时，self和target做broadcast后的shape与out的shape不一致。",  # conditional
    "self和other无法做数据类型推导。",  # promotion: no clause kind
    "target的每个元素都必须是偶数。",
])
def test_sentences_no_pattern_reads(text):
    assert match(text, NAMES) is None


def test_closest_names_the_nearest_phrasing():
    assert closest("self和other无法做数据类型推导。") == "dtype promotion"
    assert closest("alpha元素个数不为1。") == "element count"
    assert closest("当reduction为0时，self和out的shape不一致") == "shapes differ"
    # one name per phrasing: a vague shape row is the "vague shape" pattern's, no second entry's
    assert closest("self与other的shape不满足约束。") == "vague shape"
