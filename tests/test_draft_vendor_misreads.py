"""Misreads the vendor's own test cases exposed (benchmarks/bench_vendor_cases.py replays them
through the drafts): each draft refused every case the vendor runs on its kernel. Two ties stated
in one sentence, a rank range after 不为, one dimension's broadcast read as the shapes', and a
pooling gradient drawn apart from the input whose forward output it is. Sentences and pages are
invented, in the vendor's layout."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param
from test_draft_near_misses import INVALID, NULLS, VOCAB

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.unread_parts import part_readings
from conformance.draft.usage import relations

POOL = ("gradOutput", "self", "indices", "gradInput")


ARRAYS = ("kernelSize", "stride", "padding", "dilation")


def _pool_backward(*rows: str, grad_note: str = "和正向的输出shape一致。",
                   self_note: str = "正向的输入数据。"):  # noqa: ANN202 - a DraftedSpec
    names = (*POOL[:3], *ARRAYS, POOL[3])
    proto = tuple(PrototypeParam(n, "aclIntArray*" if n in ARRAYS else "aclTensor*", const=n != "gradInput",
                                 optional=False) for n in names)
    notes = {"gradOutput": (grad_note,), "self": (self_note,), "indices": ("shape与gradOutput一致。",),
             "gradInput": ("shape与self保持一致。",)}
    params = tuple(param(n, i + 1, dtypes=("INT64",), formats=(), rank=None, noncontiguous=None)
                   if n in ARRAYS else
                   param(n, i + 1, dtypes=("INT32",) if n == "indices" else ("FLOAT",), rank=(4, 4),
                         usage=notes[n], direction="output" if n == "gradInput" else "input")
                   for i, n in enumerate(names))
    errors = (error(NULLS, 161001, "传入的gradOutput、self、indices或gradInput是空指针。", 1),
              *(error(INVALID, 161002, text, i + 2) for i, text in enumerate(rows)))
    facts = PageFacts("aclnnToyPoolBackward", "toy/docs/aclnnToyPoolBackward.md", PRODUCTS[:1], proto,
                      params, errors, deterministic=None)
    return draft_spec(facts, VOCAB, "toy: x.md")


@pytest.mark.parametrize("text", ["gradOutput与indices的shape不一致，self和gradInput的shape不一致",
                                  "gradOutput与indices的shape不一致，或self和gradInput的shape不一致"])
def test_two_ties_in_one_sentence_are_two_clauses(text: str) -> None:
    """Read whole, one same_shape over the four refused every pooled gradOutput (smaller than self)."""
    found = match(text, POOL)
    parts = part_readings(text, found, POOL, match)
    assert [m.params for m in parts] == [("gradOutput", "indices"), ("self", "gradInput")]
    d = _pool_backward(text)
    ties = [c["params"] for c in d.spec["constraints"] if c["kind"] == "same_shape"]
    assert ties == [["gradOutput", "indices"], ["self", "gradInput"]]
    assert [o.checkable for o in d.draft.outcomes] == [True, True]


def test_one_tie_said_twice_stays_one_clause() -> None:
    text = "self与out的shape不一致，self和out的shape不一致"
    assert part_readings(text, match(text, ["self", "out"]), ["self", "out"], match) is None


def test_a_pooling_gradient_is_drawn_with_its_forward_input(tmp_path) -> None:
    """Drawn apart, valid cases paired a gradient of any shape with self (a kernel refuses them);
    drawn with self's shape, it is the forward output under the draft's identity attributes."""
    from test_draft_rows import _valid_and_broken_alone

    d = _pool_backward("gradOutput与indices的shape不一致，self和gradInput的shape不一致")
    args = d.spec["generate"]["args"]
    assert args["gradOutput"] == args["self"] == args["indices"] == args["gradInput"]
    guesses = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert any(q.startswith("Drafted guess: gradOutput has the forward output's shape") for q in guesses)
    _valid_and_broken_alone(d, tmp_path)
    for case in _valid_cases(d, tmp_path):  # the pooling rule, written apart from the suite
        a = case.args
        pooled = [(n + 2 * p - dl * (k - 1) - 1) // s + 1 for n, k, s, p, dl in zip(
            a["self"].shape[-2:], *(_pair(a[x]) for x in ARRAYS))]
        assert list(a["gradOutput"].shape) == [*a["self"].shape[:-2], *pooled]


def _pair(values: tuple[int, ...]) -> tuple[int, int]:
    return (values[0], values[-1]) if values else (1, 1)


def _valid_cases(d, tmp_path) -> list:  # noqa: ANN001 - a DraftedSpec
    from conformance.draft.pack import write_pack
    from conformance.generate.build import build_case
    from conformance.generate.choosers import FixedChooser, SeededChooser
    from conformance.generate.dry_run import load_operator
    from conformance.spec.loader import vocabulary_for

    write_pack(tmp_path, [d])
    vocab, _ = vocabulary_for((tmp_path,))
    spec = load_operator(tmp_path / f"{d.api}.yaml", vocab)
    product, dtype = spec.products[0], spec.test_dtypes(spec.products[0])[0]
    choosers = [FixedChooser("min"), FixedChooser("max"), *(SeededChooser(seed) for seed in range(20))]
    return [build_case(spec, vocab, product, dtype, c) for c in choosers]


def test_without_the_forward_notes_the_gradient_is_drawn_apart() -> None:
    d = _pool_backward("gradOutput与indices的shape不一致，self和gradInput的shape不一致",
                       grad_note="梯度。", self_note="输入。")
    args = d.spec["generate"]["args"]
    assert args["gradOutput"] != args["self"]


@pytest.mark.parametrize("text, limits", [
    ("index不为0-1维", {"min": 0, "max": 1}),  # read as a set it was [0]: rank 1 refused
    ("index的维度不是1-2维", {"min": 1, "max": 2}),
    ("index维度不在0-1维", {"min": 0, "max": 1}),
    ("index不是3维或4维", {"ranks": [3, 4]}),  # a set stays a set
])
def test_a_rank_range_after_not(text: str, limits: dict) -> None:
    found = match(text, ["index"])
    assert (found.pattern, found.limits) == ("rank", limits)


def test_one_dimensions_broadcast_is_not_the_shapes() -> None:
    """"batch1和batch2的第一维度不相等或不能做broadcast操作" read as broadcastable(batch1, batch2)
    refused every [b, n, k] @ [b, k, m] pair whose whole shapes do not broadcast."""
    names = ["batch1", "batch2"]
    row = "batch1和batch2的第一维度不相等或不能做broadcast操作"
    found = match(row, names)
    assert found is None or "broadcastable" not in found.kinds
    note = "shape仅支持三维且第一个维度batch1需要与batch2的batch维度满足broadcast关系。"
    assert not [k for k, _ in relations(note, "batch1", names) if k == "broadcastable"]
    assert match("batch1和batch2的shape不能做broadcast操作", names).kinds == ("broadcastable",)
    assert ("broadcastable", ("batch1", "batch2")) in relations("shape需要与batch2满足broadcast关系。",
                                                                "batch1", names)


def test_attributes_drawn_otherwise_are_named_in_the_review() -> None:
    from types import SimpleNamespace

    from conformance.draft import forward_shapes

    ctx = SimpleNamespace(of_kind=lambda kind: list(ARRAYS) if kind == "int_array" else [])
    draws = {"kernelSize": {"expr": "[2] * 2"}, "stride": {"expr": "[1] * 2"},
             "padding": {"expr": "[1] * 2"}, "dilation": {"expr": "[1]"}}
    said = []
    forward_shapes.resolve(ctx, [("gradOutput", "self")], draws, str, lambda s, **kw: said.append(s.text),
                           lambda c, name: None)
    assert draws["padding"] == {"expr": "[0] * 2"}  # the generic guess, drawn as the identity
    assert draws["kernelSize"] == {"expr": "[2] * 2"}  # a value given: kept, and said
    (text,) = said
    assert "the draws of kernelSize are not the identity" in text
