"""Error rows about tensors' dimensions beyond one rank limit (conformance/draft/dim_clauses.py):
tensors sharing one rank ("self、index的维度数不一致": a rank_in clause marked ``same``), a zero-sized
dimension ("任意一个维度等于0": the empty-tensor clause), and the rank sentences the rank pattern
must not read (a named dimension "K维度", a relation; two rules on different tensors: the parts
pattern's, test_draft_rank_parts.py). Invented operators."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param, toy_loss

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
NAMES = ("self", "index", "src", "out", "gradOut", "x1", "x2", "gamma", "meanOut", "dim", "mu",
         "sigma", "normShape", "p", "q", "w", "v")


@pytest.mark.parametrize(("text", "params"), [
    ("self、index的维度数不一致。", ("self", "index")),
    ("self、index、src的维度数不一致", ("self", "index", "src")),
    ("（x1、x2、out）的维数不一致", ("x1", "x2", "out")),
    ("self和out维度不一致", ("self", "out")),
    ("gradOut与self的维度不同", ("gradOut", "self")),
    ("gradOut的维度与self不一致", ("gradOut", "self")),
    ("self、index或out的维度不一致", ("self", "index", "out")),
])
def test_same_rank_sentences(text: str, params: tuple[str, ...]) -> None:
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.kinds, m.params) == ("same rank", ("same_rank",), params)


@pytest.mark.parametrize("text", [
    "self和out的NC维度不一致",  # named dimensions: the layout decides which
    "p与q维度或尺寸不一致",  # two rules
    "self和index在dim维度上的size不一致",
    "self的维度不一致",  # one tensor: with what?
])
def test_not_same_rank(text: str) -> None:
    assert match(text, NAMES) is None  # no pattern: each stays for review


@pytest.mark.parametrize(("text", "params"), [
    ("（x1、gamma、meanOut）的任意一个维度等于0", ("x1", "gamma", "meanOut")),
    ("self的某一维为0", ("self",)),
    ("x1或x2的任一维度不大于0", ("x1", "x2")),
    ("传入tensor中任意维度为零的均不满足要求", ()),
])
def test_zero_dimension_is_an_empty_tensor(text: str, params: tuple[str, ...]) -> None:
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.kinds, m.params) == ("zero dimension", ("not_empty",), params)


@pytest.mark.parametrize("text", [
    "x1、x2的K维度为0",  # a named dimension's size, no rank
    "w的维度和x1的需要作norm的维度不相同",
    "self的维度大于8或不一致",
])
def test_rank_sentences_the_rank_pattern_leaves(text: str) -> None:
    assert match(text, NAMES) is None  # no pattern: each stays for review


@pytest.mark.parametrize(("text", "limits"), [
    ("normShape维度小于1维", {"min": 1}),  # a name with "norm" in it is still a rank rule
    ("self的维度小于2维，或者大于8维", {"max": 8, "min": 2}),
    ("self的维度不是3维且不是4维", {"ranks": [3, 4]}),
])
def test_rank_sentences_still_read(text: str, limits: dict[str, object]) -> None:
    m = match(text, NAMES)
    assert m is not None and m.pattern == "rank" and m.limits == limits


@pytest.mark.parametrize(("text", "pattern", "params", "limits"), [
    ("self和out的shape超过8维，或者两者shape不一致。", "rank or shapes differ", ("self", "out"), {"max": 8}),
    ("x1和x2的shape不一致，或者shape的维度大于8维或者小于2维", "rank or shapes differ", ("x1", "x2"),
     {"max": 8, "min": 2}),
    ("self、index、out维度超过8维或不一致", "rank or ranks differ", ("self", "index", "out"), {"max": 8}),
])
def test_a_rank_limit_beside_another_rule(text: str, pattern: str, params: tuple[str, ...],
                                          limits: dict[str, object]) -> None:
    m = match(text, NAMES)
    assert m is not None and (m.pattern, m.params, m.limits) == (pattern, params, limits)


def toy_gather(*rows: str) -> PageFacts:
    """aclnnToyGather(self, index, out): out's shape is index's; the error rows given (161002)."""
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "out", optional=False)
                  for n in ("self", "index", "out"))
    params = (param("self", 1, dtypes=("FLOAT", "FLOAT16")), param("index", 2, dtypes=("INT64",)),
              param("out", 3, direction="output", same_as="self"))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、index或out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "out和index的shape不一致。", 2),
              *(error("ACLNN_ERR_PARAM_INVALID", 161002, text, 3 + i) for i, text in enumerate(rows)))
    return PageFacts("aclnnToyGather", "toy/docs/aclnnToyGather.md", PRODUCTS[:1], proto, params,
                     errors, deterministic=None)


def checkable(d, text: str) -> bool:  # noqa: ANN001 - a DraftedSpec
    return next(o.checkable for o in d.draft.outcomes if o.sentence.text == text)


def test_a_same_rank_row_is_a_coded_rank_clause_the_rank_limit_moves_with() -> None:
    rows = ("self、index或out的维度大于8。", "self和index的维度数不一致。")
    d = draft_spec(toy_gather(*rows), VOCAB, "toy: g.md")
    coded = "ACLNN_ERR_PARAM_INVALID"
    ranks = [{k: c.get(k) for k in ("params", "max", "min", "same", "on_violation")}
             for c in d.spec["constraints"] if c["kind"] == "rank_in" and c["on_violation"] == coded]
    # the limit covers index and out too (else breaking it on self alone breaks the tie as well)
    assert ranks == [
        {"params": ["self", "index", "out"], "max": 8, "min": None, "same": None, "on_violation": coded},
        {"params": ["self", "index", "out"], "max": None, "min": 0, "same": True, "on_violation": coded}]
    assert checkable(d, "self和index的维度数不一致") and checkable(d, "self、index或out的维度大于8")
    assert d.draft.implied == []


def test_a_zero_dimension_row_is_the_empty_tensor_clause() -> None:
    d = draft_spec(toy_gather("（self、index）的任意一个维度等于0。"), VOCAB, "toy: g.md")
    empty = [c for c in d.spec["constraints"] if "EMPTY" in c["id"]]
    # self and index are drawn apart: a clause each, each broken in its own draw (one clause
    # broken in self's draw only passed a kernel that never checks index)
    assert [(c["all"], c["on_violation"], c["break"]) for c in empty] == [
        (["self.numel > 0"], "ACLNN_ERR_PARAM_INVALID", {"self_shape": {"mode": "zero_dim"}}),
        (["index.numel > 0"], "ACLNN_ERR_PARAM_INVALID", {"index_shape": {"mode": "zero_dim"}})]
    assert checkable(d, "（self、index）的任意一个维度等于0")
    shared = draft_spec(toy_gather("（index、out）的任意一个维度等于0。"), VOCAB, "toy: g.md")
    empty = [c for c in shared.spec["constraints"] if "EMPTY" in c["id"]]  # out is drawn as index
    assert [(c["all"], c["break"]) for c in empty] == [
        (["index.numel > 0", "out.numel > 0"], {"index_shape": {"mode": "zero_dim"}})]


def test_a_same_rank_row_naming_a_non_tensor_is_reviewed() -> None:
    d = draft_spec(toy_gather("self和dim的维度数不一致。"), VOCAB, "toy: g.md")
    assert not any(c.get("same") for c in d.spec["constraints"])
    assert any(c["kind"] == "review" and c["source"]["quote"] == "self和dim的维度数不一致"
               for c in d.spec["constraints"])


def test_a_rank_limit_or_shapes_differ_row_is_both_clauses() -> None:
    d = draft_spec(toy_gather("index和out的shape超过7维，或者两者shape不一致。"), VOCAB, "toy: g.md")
    coded = [(c["kind"], c["params"], c.get("max")) for c in d.spec["constraints"]
             if c.get("on_violation") == "ACLNN_ERR_PARAM_INVALID" and c["kind"] in ("rank_in", "same_shape")]
    assert coded == [("same_shape", ["index", "out"], None), ("rank_in", ["index", "out"], 7)]
    assert checkable(d, "index和out的shape超过7维，或者两者shape不一致")


def test_a_same_rank_row_on_broadcasting_tensors_is_reviewed() -> None:
    # self and target broadcast (their ranks may differ): a tie over them, and over the others the
    # broadcast joins them to, would be a false clause
    row = error("ACLNN_ERR_PARAM_INVALID", 161002, "self和target的维度数不一致。", 9)
    d = draft_spec(toy_loss(errors=(*toy_loss().errors, row)), VOCAB, "toy: l.md")
    assert not any(c.get("same") for c in d.spec["constraints"])
    assert not checkable(d, "self和target的维度数不一致")


def test_a_same_rank_tie_breaks_on_a_tensor_no_shape_tie_holds() -> None:
    """aclnnToyScatter(self, index, out), out's shape self's: the tie's break gives index one
    dimension more (on self it broke the shape tie too, and the row went unread as implied)."""
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "out", optional=False)
                  for n in ("self", "index", "out"))
    params = (param("self", 1, dtypes=("FLOAT",)), param("index", 2, dtypes=("INT64",)),
              param("out", 3, direction="output", same_as="self"))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、index或out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "self和out的shape不一致。", 2),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "self、index的维度数不一致。", 3))
    facts = PageFacts("aclnnToyScatter", "toy/docs/aclnnToyScatter.md", PRODUCTS[:1], proto, params,
                      errors, deterministic=None)
    d = draft_spec(facts, VOCAB, "toy: s.md")
    tie = [c for c in d.spec["constraints"] if c.get("same")]
    assert [(c["params"], c["on_violation"]) for c in tie] == [
        (["index", "self", "out"], "ACLNN_ERR_PARAM_INVALID")]
    assert checkable(d, "self、index的维度数不一致")
    assert d.draft.implied == ["TS-SAME-DTYPE"]  # (the dtype cell's tie, the coded row says it)
