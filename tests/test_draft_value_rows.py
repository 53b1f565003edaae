"""Drafting attribute values: duplicate axes (an expr counting axes from either end) and single
values (a value_in or nonzero clause). Sentences and pages here are invented, written in the
vendor's layout."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import error, param, toy_dim
from helpers import loaded_draft, value_clause

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PrototypeParam, Sentence
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases
from conformance.generate.choosers import FixedChooser


@pytest.mark.parametrize("text", ["dims数组中元素重复", "dims中数值重复", "dims数组中的轴重复",
                                  "dims指定的轴重复", "参数dims中存在重复"])
def test_a_duplicates_row_is_read(text):
    found = match(text, ["dims", "self"])
    assert found is not None and found.pattern == "duplicates" and found.params == ("dims",)


@pytest.mark.parametrize("text", ["dims中有值越界，或表示的轴有重复", "dims重复时，self不能为空"])
def test_a_duplicates_row_saying_more_is_not_read(text):
    assert match(text, ["dims", "self"]) is None


def _axes_page(*rows: str):
    base = toy_dim()
    proto = tuple(PrototypeParam("dims", "aclIntArray*", const=True, optional=False) if p.name == "dim"
                  else p for p in base.prototype)
    dims = param("dims", 2, dtypes=(), formats=(), rank=None, noncontiguous=None,
                 usage=("取值范围为[-self.dim(), self.dim()-1]。",))
    params = tuple(dims if p.name == "dim" else p for p in base.params)
    errors = (*base.errors[:1],
              *(error("ACLNN_ERR_PARAM_INVALID", 161002, r, 2 + i) for i, r in enumerate(rows)))
    return toy_dim(prototype=proto, params=params, errors=errors)


def test_duplicate_axes_are_an_expr_clause_counting_axes_from_either_end(vocab, tmp_path):
    d = draft_spec(_axes_page("dims数组中的维度超出self的维度范围。", "dims数组中元素重复。"), vocab,
                   "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if "distinct" in " ".join(c.get("all", [])))
    assert clause["all"] == ["len(distinct(dims, max(self.rank, 1))) == len(dims)"]
    # one axis from each end: a kernel comparing raw values ([0, 0] alone) must fail it too
    assert clause["break"] == {"dims": {"expr": "[-1, max(len(self_shape), 1) - 1]"}}
    assert clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert [o.checkable for o in d.draft.outcomes if o.row == 2] == [True]
    spec, pack_vocab, specs, product, dtype = loaded_draft(d, tmp_path)
    cases = broken_cases(spec, pack_vocab, product, dtype, FixedChooser("max"), clause["id"])
    assert [c.args["dims"] for c in cases] == [(-1, len(cases[0].args["self"].shape) - 1)]
    assert all(explain(c, specs).status == (161002,) for c in cases)


def test_duplicate_axes_take_their_tensor_from_the_notes_else_stay_unchecked(vocab):
    d = draft_spec(_axes_page("dims数组中元素重复。"), vocab, "toy: x.md")  # the notes' [-self.dim(), …]
    texts = [" ".join(c.get("all", [])) for c in d.spec["constraints"]]
    assert any("distinct(dims, max(self.rank, 1))" in t for t in texts)
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]
    page = _axes_page("dims数组中元素重复。")
    bare = tuple(replace(p, usage=()) if p.name == "dims" else p for p in page.params)
    d = draft_spec(replace(page, params=bare), vocab, "toy: x.md")  # no range anywhere
    assert not any("distinct" in " ".join(c.get("all", [])) for c in d.spec["constraints"])
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [False]


# -- one value: "yDtype不为0", "dilation的数值不等于1" ------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [("dim不为0", 0), ("dim的取值不为0", 0), ("dim的数值不等于1", 1)])
def test_a_single_value_row_is_read(text, value):
    found = match(text, ["dim", "self"])
    assert found is not None and found.pattern == "single value" and found.limits["values"] == [value]


@pytest.mark.parametrize(("text", "found"), [
    ("self的维度不为2", ("rank", {"ranks": [2]})),  # a rank, not a value
    ("dim不为0时，self不能为空", None),  # a condition
    ("dim不为0或1", ("value out of range", {"values": [0, 1]})),  # two values
])
def test_a_row_saying_more_than_one_value_is_not_single(text, found):
    m = match(text, ["dim", "self"])
    assert (m if m is None else (m.pattern, m.limits)) == found


def test_a_single_value_row_is_a_value_in_clause_unless_the_notes_say_otherwise(vocab):
    base = toy_dim()  # without its dimension-range row: dim is drawn from its values
    errors = (base.errors[0], base.errors[2], error("ACLNN_ERR_PARAM_INVALID", 161002, "dim不为0。", 4))
    alone = draft_spec(toy_dim(errors=errors), vocab, "toy: x.md")
    clause = value_clause(alone, "dim")
    assert clause["values"] == [0] and clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert alone.spec["generate"]["draws"]["dim"] == {"sampled": [0]}
    assert [o.checkable for o in alone.draft.outcomes if o.row == 2] == [True]
    noted = tuple(replace(p, usage=(Sentence("取值为0、1。", p.where),)) if p.name == "dim" else p
                  for p in base.params)
    other = draft_spec(toy_dim(params=noted, errors=errors), vocab, "toy: x.md")
    assert value_clause(other, "dim")["values"] == [0, 1]
    assert [o.checkable for o in other.draft.outcomes if o.row == 2] == [False]


def test_every_element_of_an_array_is_the_onevalue_clause(vocab):
    d = draft_spec(_axes_page("dims的数值不等于1。"), vocab, "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if "max(dims) == 1" in " ".join(c.get("all", [])))
    assert clause["all"] == ["len(dims) == 0 or (min(dims) == 1 and max(dims) == 1)"]
    assert clause["break"] == {"dims": {"expr": "[2]"}}  # the array as drawn ([1]), every element 2
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]


# -- a float attribute that must not be zero: "beta为0" -------------------------------------------
def test_a_zero_row_on_a_float_is_a_nonzero_clause_drawn_positive(vocab):
    base = toy_dim()
    proto = (*base.prototype, PrototypeParam("beta", "float", const=True, optional=False))
    beta = param("beta", 4, dtypes=(), formats=(), rank=None, noncontiguous=None)
    errors = (*base.errors, error("ACLNN_ERR_PARAM_INVALID", 161002, "beta为0。", 4))
    d = draft_spec(toy_dim(prototype=proto, params=(*base.params, beta), errors=errors), vocab, "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if c.get("all") == ["beta != 0"])
    assert clause["break"] == {"beta": {"sampled": [0.0]}}
    assert d.spec["generate"]["draws"]["beta"] == {"sampled": [0.5, 1.0]}
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [True]
    assert match("self为0", ["self"]).pattern == "zero value"  # read, but a tensor gets no clause
    assert match("beta为0或1", ["beta"]) is None


def test_quoted_names_never_encode_an_int_attribute(vocab):
    base = toy_dim()
    noted = tuple(replace(p, usage=(Sentence("取值为0、1。", p.where),)) if p.name == "dim" else p
                  for p in base.params)
    errors = (base.errors[0], error("ACLNN_ERR_PARAM_INVALID", 161002, 'dim的值不是"keep"或"floor"。', 2))
    d = draft_spec(toy_dim(params=noted, errors=errors), vocab, "toy: x.md")
    assert value_clause(d, "dim")["on_violation"] == "unspecified"
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [False]
