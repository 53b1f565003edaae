"""Rank rows: sentences that state no one limit over the tensors they name
(sentence_limits.rank_limits: a dim's size, a relation between tensors' ranks, two limits each of
its own tensors), and one row the table's rank ties split (merges.tie_ranks). Sentences and pages
we wrote in the vendor's phrasing, with invented parameter names."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.sentence_limits import rank_limits
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir


@pytest.mark.parametrize("text", [
    "（a1、w、m）的任意一个维度等于0",  # a dim of size 0, not a rank
    "a的维度不为4或w/b的维度非1",  # two limits, each of its own tensors
    "v1和v2维度不为1，acc维度不为2",
    "w的维度和a的需要作norm的维度不相同，或m的需要norm的维度不为1",  # a relation
])
def test_no_one_limit(text):
    assert rank_limits(text) is None


@pytest.mark.parametrize(("text", "limits"), [
    ("a的维度不为3或4", {"ranks": [3, 4]}),
    ("a、w的维度超过8维", {"max": 8}),
    ("a的维度不为2维", {"ranks": [2]}),
    ("aRef的维度范围超过8", {"max": 8}),  # (not a dimension attribute's range)
    ("a的shape大小超出最大维度限制", {"table": True}),  # (the limit the parameter table gives)
    ("a的维度数不在[0, 8]范围之内", {"min": 0, "max": 8}),  # (read as values of a before)
    ("当输入a的维度不在[1,6]范围内", {"min": 1, "max": 6}),  # (the 当 says when the call fails)
])
def test_one_limit(text, limits):
    assert rank_limits(text) == limits
    if "范围" in text or "限制" in text:
        assert match(text, ("a", "aRef", "dim")).pattern == "rank"


def test_a_rank_range_under_a_real_condition_is_not_read_as_unconditional():
    assert match("当输入a的维度不在[1,6]范围内时，w不能为空指针", ("a", "w")) is None
    assert match("当输入a的维度不在[1,6]范围内", ("a", "w")).params == ("a",)


def test_an_attributes_range_over_the_dimensions_stays_a_dimension_range():
    assert match("dim超出输入a的维度范围", ("a", "dim")).pattern == "dimension range"


def test_a_row_the_tables_rank_ties_split_is_one_clause():
    names = ("g", "a", "t", "gt")
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "gt", optional=False) for n in names)
    own = ("g", "a")  # the others' rank cells say "与a一致"
    params = tuple(param(n, i + 1, direction="output" if n == "gt" else "input", dtypes=("FLOAT",),
                         rank=(1, 8) if n in own else None, rank_same_as=None if n in own else "a")
                   for i, n in enumerate(names))
    invalid = ("ACLNN_ERR_PARAM_INVALID", 161002)
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的g、a、t、gt是空指针。", 1),
              error(*invalid, "a、t、gt的shape不一致。", 2),
              error(*invalid, "g不能broadcast到a的shape。", 3),
              error(*invalid, "g、a、t、gt维度大于8。", 4))
    facts = PageFacts("aclnnToyTie", "toy/docs/aclnnToyTie.md", PRODUCTS[:1], proto, params, errors,
                      deterministic=None)
    d = draft_spec(facts, load_vocabulary(specs_dir() / VOCABULARY_FILE), "toy: x.md")
    coded = [c for c in d.spec["constraints"]
             if c["kind"] == "rank_in" and c["on_violation"] != "unspecified"]
    assert [(c["params"], c.get("max"), c.get("same")) for c in coded] == [(["g", "a", "t", "gt"], 8, None)]
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [True]


@pytest.mark.parametrize("given", ["（非空时）", "(若存在)"])
def test_an_optional_tensor_said_when_given_is_read_as_the_others(given):
    """"gradInput（非空时）": the rule holds where the tensor is given, as every clause on an optional
    tensor does (the annotation used to keep the whole row from being read)."""
    found = match(f"a、w、g{given}的shape不一致，或者shape的维度大于8维或者小于2维", ("a", "w", "g"))
    assert (found.pattern, found.params, found.limits) == ("rank or shapes differ", ("a", "w", "g"),
                                                           {"max": 8, "min": 2})


def test_the_annotation_goes_without_gluing_the_name_to_the_next_word():
    """"gOut（非空时）shape与s不相等": gOut and shape stay two words (a shapes-differ row)."""
    found = match("gOut（非空时）shape与s不相等", ("gOut", "s"))
    assert (found.pattern, found.params) == ("shapes differ", ("gOut", "s"))
