"""Ranks as the pages write them beyond "1-8": a rank tied to another parameter ("维度与self保持一致",
drafted as one rank_in clause marked ``same``), shapes written out as alternatives ("(N,C)或者(C)"),
a shape given in a usage sentence, a rank cell with lines explaining the dims (the fixture page
tests/fixtures/ranks/aclnnTwirlBackward.md, written in the current template), and the older
bullet layout's ranks in words, tied in a ring ("维度支持四维或五维且与self和gradInput一致",
aclnnSwirl3dBackward.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.draft import cells
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, ParamRow
from conformance.draft.reading import read_page
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
RANKS = Path(__file__).parent / "fixtures" / "ranks"
TWIRL = (RANKS / "aclnnTwirlBackward.md").read_text(encoding="utf-8")


def param(facts: PageFacts, name: str) -> ParamRow:
    return next(p for p in facts.params if p.name == name)


@pytest.mark.parametrize(("cell", "expected"), [
    ("(N,C)或者(C)", (1, 2)), ("(T,N,C)或(T,C)", (2, 3)), ("2或3 ([T, H]或[B, S, H])", (2, 3)),
    ("(B, 4*H)", (2, 2)), ("[L * D, B, H]", (3, 3)), ("3 (L*D, B, H)", (3, 3)), ("1 ([G])", (1, 1)),
    ("[B,N,S]、[B,1,S]", (3, 3)), ("不高于8维", (0, 8)),
    # not read: a gap, a 0-d shape, a count the example contradicts, "以上" (is 8 itself allowed?)
    ("(N,C,H,W)或(N)", None), ("(N)或者()", None), ("2 ([T, H]或[B, S, H])", None),
    ("不支持8维以上", None), ("1、3", None)])
def test_rank_cells_with_shapes_written_out(cell: str, expected: tuple[int, int] | None) -> None:
    assert cells.rank(cell) == expected


@pytest.mark.parametrize(("cell", "expected"), [
    ("与self一致", "self"), ("维度与self保持一致", "self"), ("与“varRef”参数一致。", "varRef"),
    ("要求与scale一致。", "scale"), ("同target.shape", "target"), ("shape与x1一致。", "x1"),
    ("与self的shape一致", "self"), ("shape与target完全一致。", "target"),
    ("需要和Quant的输出保持一致", None), ("与self和gradInput一致", None), ("1-8", None)])
def test_rank_ties(cell: str, expected: str | None) -> None:
    assert cells.rank_same_as(cell) == expected


def test_a_page_with_tied_ranks_and_shapes_written_out() -> None:
    facts = read_page(TWIRL, "twirl.md", VOCAB)
    assert [(p.name, p.rank, p.rank_same_as) for p in facts.params] == [
        ("gradOutput", None, "self"), ("self", (3, 4), None), ("weight", (1, 2), None),
        ("label", (1, 1), None), ("gradInput", None, "self")]
    # weight's rank is its usage sentence's shape; label's cell explains N below the shape: to review
    assert [s.text for s in facts.unread] == ["label 维度(shape): (N)\nN与weight第零维相等。"]


def test_a_tie_to_a_parameter_the_table_lacks_is_reviewed() -> None:
    text = TWIRL.replace("<td>与self一致</td>", "<td>与selfOut一致</td>")
    facts = read_page(text, "twirl.md", VOCAB)
    assert param(facts, "gradInput").rank_same_as is None
    assert "gradInput 维度(shape): 与selfOut一致" in [s.text for s in facts.unread]


def test_tied_ranks_draft_one_clause_that_says_they_share_a_rank() -> None:
    d = draft_spec(read_page(TWIRL, "twirl.md", VOCAB), VOCAB, "upstream")
    ranks = [c for c in d.spec["constraints"] if c["kind"] == "rank_in"]
    tied = [c for c in ranks if c.get("same")]
    assert len(tied) == 1
    assert (tied[0]["params"], tied[0]["min"], tied[0]["max"], tied[0]["on_violation"]) == (
        ["gradOutput", "self", "gradInput"], 3, 4, "ACLNN_ERR_PARAM_INVALID")
    assert tied[0]["source"]["quote"] == "gradOutput、self和gradInput的输入shape在支持范围之外"
    # the shapes the draft draws keep the tie (one draw for the three)
    args = d.spec["generate"]["args"]
    assert args["gradOutput"] == args["self"] == args["gradInput"]
    assert all(o.checkable for o in d.draft.outcomes)
    untied = {tuple(c["params"]): (c.get("min"), c.get("max")) for c in ranks if not c.get("same")}
    assert untied[("weight",)] == (None, 2) and untied[("label",)] == (None, 1)


BULLETS = (RANKS / "aclnnSwirl3dBackward.md").read_text(encoding="utf-8")  # the older bullet layout


def test_the_bullet_layout_writes_ranks_in_words_and_ties_them_in_a_ring() -> None:
    facts = read_page(BULLETS, "swirl.md", VOCAB)
    assert [(p.name, p.rank, p.rank_same_as) for p in facts.params] == [
        ("gradOutput", (4, 5), "self"), ("self", (4, 5), "gradOutput"), ("gradInput", (4, 5), "gradOutput")]
    d = draft_spec(facts, VOCAB, "upstream")
    tied = [c for c in d.spec["constraints"] if c["kind"] == "rank_in" and c.get("same")]
    assert [(c["params"], c["min"], c["max"], c["on_violation"]) for c in tied] == [
        (["gradOutput", "self", "gradInput"], 4, 5, "ACLNN_ERR_PARAM_INVALID")]
    # "四维或六维" is no range; a ring of ties still has one clause
    gap = read_page(BULLETS.replace("四维或五维且与self", "四维或六维且与self"), "swirl.md", VOCAB)
    assert param(gap, "gradOutput").rank is None
