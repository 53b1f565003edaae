"""Drafting broadcast rows (relations.py): a pair's row beside a joint row of its code joins the
joint clause, a broadcastable clause's break reshapes a tensor no same_shape clause ties, and a
row whose clause the generate section leaves out is not counted. Invented pages (PageFacts built
by hand, no vendor text)."""
from __future__ import annotations

import numpy as np
from draft_facts import PRODUCTS, error, param
from test_draft_rows import _valid_and_broken_alone

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.pack import write_pack
from conformance.draft.relations import break_free_last
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.dry_run import load_operator
from conformance.generate.strategies import breaks_only
from conformance.spec.loader import vocabulary_for
from conformance.spec.model import SpecSet

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


def _loaded(d, tmp_path):  # noqa: ANN001, ANN202 - a DraftedSpec; (spec, SpecSet)
    write_pack(tmp_path, [d])
    vocab, _ = vocabulary_for((tmp_path,))
    spec = load_operator(tmp_path / f"{d.api}.yaml", vocab)
    return spec, SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "test")


def test_a_pair_beside_the_joint_row_of_its_code_joins_it(vocab):
    rows = ("gradOutput、self和target的shape无法做broadcast。",
            "target的shape和self的shape不满足broadcast关系。")
    d = draft_spec(toy_grad(rows), vocab, "toy: x.md")
    assert _kinds(d, "broadcastable") == [["gradOutput", "self", "target"]]
    assert _checkable(d) == [True, True, True]


INTO = ("gradOutput的shape不能向self或者target做broadcast。",
        "target的shape和self的shape不满足broadcast关系。")


def test_a_row_saying_into_which_shapes_is_an_expression_over_their_broadcast(vocab, tmp_path):
    d = draft_spec(toy_grad(INTO), vocab, "toy: x.md")
    assert _kinds(d, "broadcastable") == [["self", "target"]] and _checkable(d) == [True, True, True]
    (into,) = [c for c in d.spec["constraints"] if c["kind"] == "expr"]
    joint = "broadcast(self.shape, target.shape)"
    assert into["all"] == [f"broadcastable(gradOutput.shape, {joint})",
                           f"broadcast(gradOutput.shape, self.shape, target.shape) == {joint}"]
    (pair,) = [c["id"] for c in d.spec["constraints"] if c["kind"] == "broadcastable"]
    assert into["requires"][-1] == pair and into["break"] == {"gradOutput_shape": {"mode": "incompatible"}}
    draws = d.spec["generate"]["draws"]
    assert draws["gradOutput_shape"] == {"sub_broadcast": "broadcast(self_shape, target_shape)",
                                         "min_rank": 1}
    _valid_and_broken_alone(d, tmp_path)


def _kernel_accepts(shapes: dict[str, tuple[int, ...]]) -> bool:
    """The vendor kernel's check, written apart from the suite: self and target broadcast to B,
    and gradOutput broadcasts to B unchanged (numpy's broadcasting, not the spec's expressions)."""
    try:
        joint = np.broadcast_shapes(shapes["self"], shapes["target"])
        return np.broadcast_shapes(shapes["gradOutput"], joint) == joint
    except ValueError:
        return False


def test_valid_cases_pass_the_kernels_check_and_each_break_fails_it(vocab, tmp_path):
    """Drawn freely (the draft before broadcast_into.py), a gradOutput larger than self and target
    made a valid case the kernel refuses: a false finding. Every seeded valid case passes the
    check; each case breaking a broadcast clause fails it."""
    d = draft_spec(toy_grad(INTO), vocab, "toy: x.md")
    spec, specs = _loaded(d, tmp_path)
    product, dtype = spec.products[0], spec.test_dtypes(spec.products[0])[0]
    shapes = lambda case: {n: case.args[n].shape for n in ("gradOutput", "self", "target")}  # noqa: E731
    valid = [build_case(spec, specs.vocabulary, product, dtype, SeededChooser(seed)) for seed in range(300)]
    assert all(_kernel_accepts(shapes(case)) for case in valid)
    # (broadcasting is drawn: gradOutput often differs from self)
    assert sum(shapes(case)["gradOutput"] != shapes(case)["self"] for case in valid) > 30
    for clause in [c.id for c in spec.constraints if c.kind in ("broadcastable", "expr")]:
        broken = [k for seed in range(20) for k in broken_cases(spec, specs.vocabulary, product, dtype,
                                                                 SeededChooser(seed), clause)
                  if breaks_only(explain(k, specs), clause)]
        assert broken and not any(_kernel_accepts(shapes(k)) for k in broken), clause


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


def test_an_output_said_only_to_broadcast_is_drawn_as_the_inputs_broadcast_and_reviewed(vocab, tmp_path):
    """Drawn inside ``full`` like an input (before shape_draws' held outputs), gradInput was often
    smaller than the inputs' broadcast: a valid case an elementwise kernel refuses."""
    rows = ("gradOutput、self和target的shape无法做broadcast。",)
    d = draft_spec(toy_grad(rows, ("shape需要与gradOutput满足broadcast关系。",)), vocab, "toy: x.md")
    assert d.spec["generate"]["args"]["gradInput"] == "gradInput_shape"
    assert d.spec["generate"]["draws"]["gradInput_shape"] == {
        "expr": "broadcast(gradOutput_shape, self_shape, target_shape)"}
    guesses = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    said = "Drafted guess: the page says only that the outputs gradInput broadcast"
    assert [q for q in guesses if q.startswith(said)]
    spec, specs = _loaded(d, tmp_path)
    product, dtype = spec.products[0], spec.test_dtypes(spec.products[0])[0]
    for seed in range(100):
        case = build_case(spec, specs.vocabulary, product, dtype, SeededChooser(seed))
        inputs = [case.args[n].shape for n in ("gradOutput", "self", "target")]
        assert case.args["gradInput"].shape == np.broadcast_shapes(*inputs)


def test_a_tensor_written_in_place_keeps_its_own_broadcasting_draw(vocab):
    """selfRef is read too (its shape is given): not an output to draw from the others."""
    from dataclasses import replace

    rows = ("gradOutput、self和target的shape无法做broadcast。",)
    facts = toy_grad(rows, ("shape需要与gradOutput满足broadcast关系。",))
    renamed = replace(facts, prototype=tuple(replace(p, name="gradInputRef") if p.name == "gradInput" else p
                                             for p in facts.prototype),
                      params=tuple(replace(r, name="gradInputRef", reads=True) if r.name == "gradInput" else r
                                   for r in facts.params))
    d = draft_spec(renamed, vocab, "toy: x.md")
    assert d.spec["params"]["gradInputRef"]["role"] == "inout"
    assert d.spec["generate"]["draws"][d.spec["generate"]["args"]["gradInputRef"]] == {
        "sub_broadcast": "full", "min_rank": 1}
    assert not [c for c in d.spec["constraints"] if "broadcast with the inputs" in c["source"]["quote"]]
