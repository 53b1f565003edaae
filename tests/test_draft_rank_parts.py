"""Rank rows stating several tensors' ranks, each its own rule (conformance/draft/rank_parts.py),
and the word "dim" for a tensor's rank: one rank_in clause per part with the row's code, the row
checkable only when every part is. Sentences and pages we wrote in the vendor's phrasing, with
invented parameter names."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

NAMES = ("a", "u1", "u2", "w", "b", "m", "s", "t", "k", "params", "hx", "hy", "sizes", "lst")


@pytest.mark.parametrize(("text", "parts"), [
    ("u1和u2维度不为1，a维度超过2", [(("u1", "u2"), {"ranks": [1]}), (("a",), {"max": 2})]),
    ("a维度小于2或者大于8，m和s维度不为1", [(("a",), {"min": 2, "max": 8}), (("m", "s"), {"ranks": [1]})]),
    ("a的维度不为4或w/b的维度非1", [(("a",), {"ranks": [4]}), (("w", "b"), {"ranks": [1]})]),
    ("t非3维tensor，a非4维tensor", [(("t",), {"ranks": [3]}), (("a",), {"ranks": [4]})]),
    ("a的dim不为2、t的dim超出8维", [(("a",), {"ranks": [2]}), (("t",), {"max": 8})]),
    ("a的维度不为2，w维度不为0", [(("a",), {"ranks": [2]}), (("w",), {"ranks": [0]})]),
])
def test_each_part_its_own_tensors_and_limits(text, parts):
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.kinds) == ("ranks of several tensors", ("rank_in",))
    assert m.limits == {"parts": parts}


@pytest.mark.parametrize(("text", "params", "limits"), [
    ("a，w，b的dim不为3", ("a", "w", "b"), {"ranks": [3]}),  # "dim": the rank, one rule
    ("b的dim不为1", ("b",), {"ranks": [1]}),
    ("a的维度小于2或大于8", ("a",), {"min": 2, "max": 8}),  # both bounds, 维 after neither
])
def test_one_rule(text, params, limits):
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.params, m.limits) == ("rank", params, limits)


def test_a_name_ending_in_size_is_still_a_rank_row():  # "Size" in a name is no dim's size
    m = match("outputSize的维度不等于2", ("a", "outputSize"))
    assert m is not None and (m.pattern, m.params, m.limits) == ("rank", ("outputSize",), {"ranks": [2]})


READ_AS = {"k的绝对值超出a的dim最大值或超出8维": "dimension range or rank", "a或w的维度大小不等于3": "rank"}


@pytest.mark.parametrize("text", [
    "params中权重维度不是2维，或偏置维度不是1维",  # some elements of a list, and a part naming nothing
    "hx维度不是3维，或a、hy维度不是3维（定长模式）",  # a part under a mode
    "lst[0] 必须为4维",  # one element of a list
    "a或w不是2维，或者进行计算时，shape不满足[m, k]和[k, n]的k维度相等关系",  # a shape tie beside
    "k的绝对值超出a的dim最大值或超出8维",  # an attribute's range
    "a或w的维度大小不等于3",  # "维度大小": a dim's size on most pages
    "a的维度不为2，甲维度不为1",  # a part naming no parameter
])
def test_not_read_as_parts(text):  # (None, or as READ_AS says)
    m = match(text, NAMES)
    assert (m and m.pattern) == READ_AS.get(text)


def _toy(api: str, ranks: dict[str, tuple[int, int] | None], ctypes: dict[str, str], row: str) -> PageFacts:
    """``api``(tensors and the non-tensors ``ctypes`` names, out last): FLOAT tensors of the table
    ranks given, one null-pointer row and one rank row as given (161002)."""
    names = (*ranks, "out")
    proto = tuple(PrototypeParam(n, ctypes.get(n, "aclTensor*"), const=n != "out", optional=False)
                  for n in names)
    params = (*(param(n, i, rank=r) if n in ctypes else param(n, i, dtypes=("FLOAT",), rank=r)
                for i, (n, r) in enumerate(ranks.items(), 1)),
              param("out", len(names), direction="output", dtypes=("FLOAT",), rank=ranks[names[0]]))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, f"传入的{'、'.join(names[:-1])}或out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, row, 2))
    return PageFacts(api, f"toy/docs/{api}.md", PRODUCTS[:1], proto, params, errors, deterministic=None)


def toy_outer(row: str) -> PageFacts:
    """aclnnToyOuter(a, u1, u2, k, out): k an int."""
    return _toy("aclnnToyOuter", {"a": (2, 2), "u1": (1, 1), "u2": (1, 1), "k": None}, {"k": "int64_t"}, row)


def test_each_part_is_a_coded_clause_and_the_row_checkable():
    d = draft_spec(toy_outer("u1和u2维度不为1，a维度不为2"), load_vocabulary(specs_dir() / VOCABULARY_FILE),
                   "toy: x.md")
    coded = [(c["params"], c.get("ranks"), c["on_violation"]) for c in d.spec["constraints"]
             if c["kind"] == "rank_in" and c["on_violation"] != "unspecified"]
    assert sorted(coded) == [(["a"], [2], "ACLNN_ERR_PARAM_INVALID"),
                             (["u1", "u2"], [1], "ACLNN_ERR_PARAM_INVALID")]
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]


def test_a_part_no_clause_can_say_leaves_the_row_for_review():
    d = draft_spec(toy_outer("a的维度不为2，k的维度不为1"), load_vocabulary(specs_dir() / VOCABULARY_FILE),
                   "toy: x.md")  # k is an int: no rank of its own
    assert [(o.checkable, o.reviewed) for o in d.draft.outcomes if o.row == 1] == [(False, True)]


@pytest.mark.parametrize(("text", "params", "limits"), [
    ("a或w的维度大小不等于3", ("a", "w"), {"ranks": [3]}),  # a whole sentence: their number of dims
    ("a或w的ViewShape的维度大小不等于3", ("a", "w"), {"ranks": [3]}),
    ("a和t的维度大小超过8", ("a", "t"), {"max": 8}),
    ("a的维度数小于2", ("a",), {"min": 2}),  # (the number of dims, whatever the comparison)
])
def test_a_whole_size_of_dims_row_is_a_rank(text, params, limits):
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.params, m.limits) == ("rank", params, limits)


@pytest.mark.parametrize("text", ["a的维度大小不等于w的维度大小", "a的第1维度大小不等于3"])
def test_a_dim_size_is_no_rank(text):
    assert match(text, NAMES) is None


def toy_perm(row: str) -> PageFacts:
    """aclnnToyPerm(a, w, perm, out): perm an int array."""
    return _toy("aclnnToyPerm", {"a": (3, 3), "w": (3, 3), "perm": None}, {"perm": "aclIntArray*"}, row)


def test_tensors_ranks_and_an_arrays_length_in_one_size_of_dims_row():
    d = draft_spec(toy_perm("a、w、perm的维度大小不等于3"), load_vocabulary(specs_dir() / VOCABULARY_FILE),
                   "toy: x.md")
    coded = [(c["kind"], c.get("params"), c.get("ranks"), c.get("all")) for c in d.spec["constraints"]
             if c.get("on_violation") == "ACLNN_ERR_PARAM_INVALID"]
    assert ("rank_in", ["a", "w"], [3], None) in coded and ("expr", None, None, ["len(perm) in [3]"]) in coded
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]

