"""Which drafted tensors a call writes (role output): the page's direction cell, and the vendor's
names where a page's cell is wrong or missing (conformance/draft/context.py)."""
from __future__ import annotations

from dataclasses import replace

from draft_facts import toy_loss

from conformance.draft.clauses import draft_clauses


def _roles(vocab, facts, renames=None, directions=None, api=None):
    """The drafted roles of toy_loss's tensors with parameters renamed and rows' directions set."""
    renames, directions = renames or {}, directions or {}
    proto = tuple(replace(p, name=renames.get(p.name, p.name)) for p in facts.prototype)
    rows = tuple(replace(r, name=renames.get(r.name, r.name), direction=directions.get(r.name, r.direction))
                 for r in facts.params)
    drafted = draft_clauses(replace(facts, prototype=proto, params=rows, api=api or facts.api), vocab)
    return {n: p["role"] for n, p in drafted.ctx.params.items() if p["kind"] == "tensor"}


def test_a_tensor_the_call_writes_is_an_output_even_where_its_row_says_input(vocab):
    """The vendor's xRef tensors are updated in place, and some pages' rows say 输入 for out: checked
    as inputs, every correct kernel would fail inputs-unchanged."""
    facts = toy_loss()
    assert _roles(vocab, facts, {"self": "selfRef"}) == {
        "gradOutput": "input", "selfRef": "output", "target": "input", "out": "output"}
    assert _roles(vocab, facts, directions={"out": "input"})["out"] == "output"
    # an in-place call whose page marks nothing written writes its first tensor
    roles = _roles(vocab, facts, {"out": "other"}, {"out": "input"}, api="aclnnInplaceToyLoss")
    assert roles == {"gradOutput": "output", "self": "input", "target": "input", "other": "input"}
    assert _roles(vocab, facts, {"out": "other"}, {"out": "input"})["gradOutput"] == "input"
    # no row says a direction: a name ending in Out is written, even declared const
    unlisted = replace(facts, params=tuple(r for r in facts.params if r.name != "out"),
                       prototype=tuple(replace(p, const=True) for p in facts.prototype))
    assert _roles(vocab, unlisted, {"out": "yOut"})["yOut"] == "output"
    assert _roles(vocab, unlisted, {"out": "y"})["y"] == "input"


def test_a_tensor_written_in_place_is_an_inout_in_the_spec(vocab):
    """Read and written: filled with data, guarded like an output, never checked unchanged."""
    from conformance.draft.emit import draft_spec

    facts = toy_loss()
    renamed = tuple(replace(p, name="selfRef") if p.name == "self" else p for p in facts.prototype)
    rows = tuple(replace(r, name="selfRef") if r.name == "self" else r for r in facts.params)
    params = draft_spec(replace(facts, prototype=renamed, params=rows), vocab, "toy").spec["params"]
    assert {n: p["role"] for n, p in params.items() if p["kind"] == "tensor"} == {
        "gradOutput": "input", "selfRef": "inout", "target": "input", "out": "output"}
    # a non-const pointer whose row says 输入 (a running mean the call updates) may be written too
    loose = tuple(replace(p, const=False) if p.name == "target" else p for p in facts.prototype)
    params = draft_spec(replace(facts, prototype=loose), vocab, "toy").spec["params"]
    assert params["target"]["role"] == "inout" and params["self"]["role"] == "input"
    assert all("_in_place" not in p for p in params.values())
    # a row saying 输入/输出 is read and written
    proto = tuple(replace(p, name="result") if p.name == "out" else p for p in facts.prototype)
    both = tuple(replace(r, name="result", reads=True) if r.name == "out" else r for r in facts.params)
    params = draft_spec(replace(facts, prototype=proto, params=both), vocab, "toy").spec["params"]
    assert params["result"]["role"] == "inout"
    # ... but out is a result: an output, even non-const with a row saying 输入
    loose = tuple(replace(p, const=False) for p in facts.prototype)
    rows = tuple(replace(r, direction="input") if r.name == "out" else r for r in facts.params)
    params = draft_spec(replace(facts, prototype=loose, params=rows), vocab, "toy").spec["params"]
    assert params["out"]["role"] == "output"
    # ... and so is a name ending in Out (aclnnAminmax's minOut, its row saying 输入)
    proto = tuple(replace(p, name="minOut", const=False) if p.name == "out" else p for p in facts.prototype)
    rows = tuple(replace(r, name="minOut", direction="input") if r.name == "out" else r for r in facts.params)
    params = draft_spec(replace(facts, prototype=proto, params=rows), vocab, "toy").spec["params"]
    assert params["minOut"]["role"] == "output"
    # ... not a const gradOut: the gradient a backward reads
    proto = tuple(replace(p, name="gradOut", const=True) if p.name == "gradOutput" else p
                  for p in facts.prototype)
    rows = tuple(replace(r, name="gradOut", direction="input") if r.name == "gradOutput" else r
                 for r in facts.params)
    params = draft_spec(replace(facts, prototype=proto, params=rows), vocab, "toy").spec["params"]
    assert params["gradOut"]["role"] == "input"
