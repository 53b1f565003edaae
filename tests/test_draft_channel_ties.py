"""Error rows about a tensor's channel axis (channel_ties.py): tensors with one element per channel,
the channel axis not 0, and such a tie as the body of a conditional row; which dimension the
channel is, read from the page (formats, or "第2维固定为channel轴") or left for review. The fixture
page (tests/fixtures/channel_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_breaks_alone, by_quote, draft_text, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "channel_pages" / "docs" / "aclnnToyChannel.md"
NAMES = ("x", "avg", "spread", "withGrad", "gradScale", "y")
ZERO, TIE = "x的channel轴的大小为0", "avg或spread的shape和x的channel轴不一致"
WHEN = "当withGrad为true时，gradScale的size和x的channel轴不一致"
STATED = "<td>ND排布时，第2维是channel轴。</td>"


@pytest.mark.parametrize(("text", "limits"), [
    ("mean、invstd、sumDy或sumDyXmu的shape与input的channel轴不一致",
     {"tie": (("mean", "invstd", "sumDy", "sumDyXmu"), "input")}),
    ("gradWeight的size与input的channel轴不一致", {"tie": (("gradWeight",), "input")}),
    ("gamma，beta的shape和x的C轴不一致", {"tie": (("gamma", "beta"), "x")}),
    ("input的channel轴size为0", {"zero": "input"}),
    ("不支持input C轴为0的空Tensor", {"zero": "input"}),
    ("mean或invstd在第二维上的size与input的channel轴不一致", {"tie": (("mean", "invstd"), "input"), "at": 2}),
])
def test_channel_rows_are_read(text, limits):
    names = ("mean", "invstd", "sumDy", "sumDyXmu", "gradWeight", "gamma", "beta", "input", "x")
    found = match(text, names)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == ("channel axis", ("channel",), limits)


@pytest.mark.parametrize("text", [
    "avg的shape长度与x shape中channel轴的长度不相等",  # "shape长度": a rank or a size?
    "x，y的C轴或H*W长度小于32 Bytes",  # a bound in bytes
])
def test_other_channel_sentences_are_not_read(text):
    found = match(text, (*NAMES, "mean", "invstd"))
    assert found is None


def _drafted(text: str):
    return draft_text(text, "toy: aclnnToyChannel.md")


@pytest.fixture(scope="module")
def drafted():
    return _drafted(PAGE.read_text(encoding="utf-8"))


def test_the_rows_become_clauses_on_the_stated_channel_axis(drafted):
    clauses = by_quote(drafted.spec)
    zero = clauses[ZERO]
    assert zero["all"] == ["x.rank < 2 or x.shape[1] > 0"]
    assert zero["break"] == {"x_shape": {"mode": "zero_dim", "at": [1]}}
    tie = clauses[TIE]
    assert tie["all"] == ["not present(avg) or x.rank < 2 or avg.numel == x.shape[1]",
                          "not present(spread) or x.rank < 2 or spread.numel == x.shape[1]"]
    assert tie["break"] == {"avg_channel_shape": {"expr": "[x_shape[1] + 1]"}}
    when = clauses[WHEN]
    assert when["all"] == ["not (withGrad) or not present(gradScale) or x.rank < 2 "
                           "or gradScale.numel == x.shape[1]"]
    assert when["break"] == {"withGrad": {"sampled": [True]},
                             "gradScale_channel_shape": {"expr": "[x_shape[1] + 1]"}}
    # the null row under the same condition is still drawn (the tie says nothing of a null gradScale)
    assert clauses["当withGrad为true时，gradScale为空指针"]["kind"] == "expr"
    draws = drafted.spec["generate"]["draws"]
    assert draws["avg_channel_shape"] == draws["gradScale_channel_shape"] == {"expr": "[x_shape[1]]"}
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_valid_cases_keep_the_ties_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        channels = case.args["x"].shape[1]
        assert channels > 0 and case.args["avg"].shape == case.args["spread"].shape == (channels,)
        assert explain(case, specs).expected == "success"
    clauses = by_quote(drafted.spec)
    for quote in (ZERO, TIE, WHEN, "当withGrad为true时，gradScale为空指针"):
        cid = clauses[quote]["id"]
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid)


def _x_row(fmt: str, rank: str, usage: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    old = f"{STATED}\n      <td>FLOAT、FLOAT16</td>\n      <td>ND</td>\n      <td>2-8</td>"
    assert old in text
    return text.replace(old, f"<td>{usage}</td>\n      <td>FLOAT、FLOAT16</td>\n      <td>{fmt}</td>\n"
                             f"      <td>{rank}</td>")


@pytest.mark.parametrize(("fmt", "rank", "usage", "axis"), [
    ("NCHW", "4", "-", 1),  # the layout says it
    ("NCL、NCHW、NCDHW", "3-5", "-", 1),  # every layout puts C at 1
    ("NHWC", "4", "-", 3),  # one layout: its index
    ("NHWC、NDHWC", "4-5", "-", -1),  # the last, at either rank
    ("ND", "2-8", "-", None),  # nothing says where C is
    ("NCHW、NHWC", "4", "-", None),  # layouts disagree (an attribute decides)
    ("ND", "3-8", "第2维固定为channel轴。", None),  # counted from 0 or 1? dimension 2 exists at every rank
    ("NCHW、ND", "4", "第2维固定为channel轴。", 1),  # the layout settles the count
])
def test_the_channel_axis_is_read_from_the_page_or_left_open(fmt, rank, usage, axis):
    clauses = by_quote(_drafted(_x_row(fmt, rank, usage)).spec)
    tie = clauses[TIE]
    if axis is None:
        assert tie["kind"] == "review" and clauses[ZERO]["kind"] == "review"
        return
    guard = f"x.rank < {axis + 1}" if axis >= 0 else "x.rank < 1"
    assert tie["all"][0] == f"not present(avg) or {guard} or avg.numel == x.shape[{axis}]"
    # a zero dim is put at an index from the front: an axis from the end stays for review
    assert clauses[ZERO]["kind"] == ("expr" if axis >= 0 else "review")


def test_a_rank_beside_the_tie_is_two_clauses_of_the_row():
    rule = "avg/spread维度不为一维，或者shape不等于x C轴的长度"
    drafted = _drafted(PAGE.read_text(encoding="utf-8").replace(f"<td>{TIE}。</td>", f"<td>{rule}。</td>"))
    rank, tie = (c for c in drafted.spec["constraints"] if c["source"]["quote"] == rule)
    assert (rank["kind"], rank["params"], rank["ranks"]) == ("rank_in", ["avg", "spread"], [1])
    assert tie["all"][1] == "not present(spread) or x.rank < 2 or spread.numel == x.shape[1]"
    assert all(o.checkable for o in drafted.draft.outcomes)


@pytest.mark.parametrize(("rank", "read"), [("2", True), ("2-3", False)])
def test_a_dimension_counted_from_one_is_read_only_where_it_cannot_be_from_zero(rank, read):
    rule = "avg或spread在第二维上的size和x的channel轴不一致"
    text = PAGE.read_text(encoding="utf-8").replace(f"<td>{TIE}。</td>", f"<td>{rule}。</td>")
    for name in ("avg", "spread"):  # (both rows: description, usage, dtypes, format, then the rank)
        head = text.index(f"<td>{name}(aclTensor*)</td>")
        at = text.index("<td>1</td>", head)
        text = text[:at] + f"<td>{rank}</td>" + text[at + len("<td>1</td>"):]
    clause = by_quote(_drafted(text).spec)[rule]
    if not read:  # (a 3-D avg has a dimension 2 counted from 0: which one is meant is unsure)
        assert clause["kind"] == "review"
        return
    assert clause["all"][0] == "not present(avg) or x.rank < 2 or avg.rank < 2 or avg.shape[1] == x.shape[1]"
    bumped = "avg_shape[:1] + [x_shape[1] + 1] + avg_shape[2:]"
    assert clause["break"] == {"avg_channel_shape": {"expr": bumped}}
