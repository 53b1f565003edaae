"""Sentences joining rules with a comma and 或 that one pattern reads only in part
(unread_parts.py): each part is read on its own, and the sentence is checkable only when every part
is a clause. The page is tests/fixtures/dim_range_pages (invented, in the vendor's layout)."""
from __future__ import annotations

import pytest
from helpers import draft_text
from test_draft_dim_ranges import TEXT

from conformance.draft.patterns import match
from conformance.draft.unread_parts import part_readings

NAMES = ("self", "out", "x", "y", "groupIndex", "latent", "headDim")


def _parts(text: str) -> list[tuple[str, tuple[str, ...]]] | None:
    found = match(text, NAMES)
    assert found is not None
    readings = part_readings(text, found, NAMES, match)
    return None if readings is None else [(m.pattern, m.params) for m in readings]


@pytest.mark.parametrize(("text", "parts"), [
    ("x的数据类型不受支持，或x与out的数据类型不同",
     [("dtype not supported", ("x",)), ("dtypes differ", ("x", "out"))]),
    ("x的数据类型不受支持，或二者数据类型不一致",  # "二者": the tensors named before
     [("dtype not supported", ("x",)), ("dtypes differ", ("x",))]),
    ("groupIndex的数据类型不是INT64，或groupIndex为空tensor",
     [("one dtype", ("groupIndex",)), ("empty tensor", ("groupIndex",))]),
    ("self的数据类型不在支持的范围之内,或shape不相互匹配", []),  # a part no pattern reads
    ("latent不是2维，或偏置维度不是1维", []),  # a part naming nothing of the page's
    ("self维度大于8，或小于2", None),  # one rule's two bounds: read whole
    ("self维度大于8，或小于2且不是0", None),
    ("self、out的数据类型不在支持的范围之内", None),  # no comma-or
    ("x、y维度超过8维或不一致", None),  # a two-part pattern of its own
])
def test_parts_of_a_sentence(text, parts):
    assert _parts(text) == parts


ROW = "<td>self和out的shape不一致。</td>"


@pytest.mark.parametrize(("sentence", "checkable", "kinds"), [
    ("self的数据类型不受支持，或self与out的数据类型不同", True, ["dtype_in", "same_dtype"]),
    ("self的数据类型不在支持的范围之内,或shape不相互匹配", False, ["dtype_in", "review"]),
])
def test_a_sentence_is_checkable_only_when_every_part_is_a_clause(sentence, checkable, kinds):
    d = draft_text(TEXT.replace(ROW, f"<td>{sentence}。</td>"), "toy: aclnnToyAxes.md")
    outcome = next(o for o in d.draft.outcomes if o.sentence.text == sentence)
    assert (outcome.checkable, outcome.reviewed) == (checkable, not checkable)
    quoted = sorted(c["kind"] for c in d.spec["constraints"] if sentence in c["source"]["quote"])
    assert quoted == kinds
    coded = [c for c in d.spec["constraints"] if sentence in c["source"]["quote"] and c["kind"] != "review"]
    assert all(c["on_violation"] == "ACLNN_ERR_PARAM_INVALID" for c in coded)
