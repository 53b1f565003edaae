"""Drafting broadcast rows (relations.py): a pair's row beside a joint row of its code joins the
joint clause, a broadcastable clause's break reshapes a tensor no same_shape clause ties, and a
row whose clause the generate section leaves out is not counted. Invented pages (PageFacts built
by hand, no vendor text)."""
from __future__ import annotations

from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.relations import break_free_last

INVALID = ("ACLNN_ERR_PARAM_INVALID", 161002)
FLOATS = ("FLOAT", "FLOAT16")


def toy_grad(rows: tuple[str, ...], out_usage: tuple[str, ...] = ()) -> PageFacts:
    """aclnnToyGrad(gradOutput, self, target, gradInput): float tensors, a null row, then ``rows``."""
    names = ("gradOutput", "self", "target", "gradInput")
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "gradInput", optional=False) for n in names)
    params = tuple(param(n, i + 1, direction="output" if n == "gradInput" else "input", dtypes=FLOATS,
                         usage=out_usage if n == "gradInput" else ()) for i, n in enumerate(names))
    null = "传入的gradOutput、self、target、gradInput是空指针。"
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, null, 1),
              *(error(*INVALID, text, 2 + i) for i, text in enumerate(rows)))
    return PageFacts("aclnnToyGrad", "toy/docs/aclnnToyGrad.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def _kinds(d, kind: str) -> list[list[str]]:
    return [c["params"] for c in d.spec["constraints"] if c["kind"] == kind]


def _checkable(d) -> list[bool]:
    return [o.checkable for o in d.draft.outcomes]


def test_a_pair_beside_the_joint_row_of_its_code_joins_it(vocab):
    rows = ("gradOutput、self和target的shape无法做broadcast。",
            "target的shape和self的shape不满足broadcast关系。")
    d = draft_spec(toy_grad(rows), vocab, "toy: x.md")
    assert _kinds(d, "broadcastable") == [["gradOutput", "self", "target"]]
    assert _checkable(d) == [True, True, True]
    # a row saying into which shape says more than the joint clause: neither row counts
    rows = ("gradOutput的shape不能向self或者target做broadcast。", rows[1])
    d = draft_spec(toy_grad(rows), vocab, "toy: x.md")
    assert _kinds(d, "broadcastable") == [] and _checkable(d) == [True, False, False]


def test_the_break_reshapes_a_tensor_no_same_shape_ties(vocab):
    rows = ("gradOutput和target的shape无法做broadcast。",)
    d = draft_spec(toy_grad(rows, ("shape与target的shape相同。",)), vocab, "toy: x.md")
    # target is tied to gradInput: gradOutput is reshaped, so the break leaves same_shape alone
    assert _kinds(d, "broadcastable") == [["target", "gradOutput"]]
    assert _kinds(d, "same_shape") == [["target", "gradInput"]]
    assert _checkable(d) == [True, True] and d.draft.implied == []


def test_break_free_last_keeps_an_order_that_already_works():
    clauses = [{"kind": "broadcastable", "params": ["a", "b"]},
               {"kind": "same_shape", "params": ["b", "c"]},
               {"kind": "broadcastable", "params": ["b", "a"]},
               {"kind": "broadcastable", "params": ["b", "c"]}]
    break_free_last(clauses)
    assert [c["params"] for c in clauses] == [["b", "a"], ["b", "c"], ["b", "a"], ["b", "c"]]


def test_a_row_whose_clause_the_generate_section_leaves_out_is_not_counted(vocab):
    rows = ("gradOutput和target的shape无法做broadcast。",
            "gradInput的shape与gradOutput和target的broadcast结果不一致。")
    d = draft_spec(toy_grad(rows, ("shape与target的shape相同。",)), vocab, "toy: x.md")
    exprs = [c for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert exprs == [] and _checkable(d) == [True, True, False]
