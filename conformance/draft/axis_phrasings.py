"""The phrasing of error rows giving each dimension of a tensor, counted from the front, a range
("x的第一维度超出范围[1, 262144]，或者第二维度超出[1, 256]，或者第三维度超出[1, 256]"): axis_limits.py
builds one clause per dimension, once it knows the tensor's rank settles how the page counts. Apart
from the builder so patterns.py can read it without importing the drafting context.
"""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, NAME

_ORDINALS = {c: i for i, c in enumerate("一二三四五六七八", 1)}
# (patterns.match has made "第一维" "第1维")
_PART = (r"第\s*([1-8一二三四五六七八])\s*个?\s*维度?\s*(?:的?\s*(?:大小|size))?\s*超出\s*(?:取值)?\s*"
         r"(?:范围)?\s*\[\s*(\d+)\s*[,，]\s*(\d+)\s*\]")
_BARE = re.sub(r"\((?!\?)", "(?:", _PART)  # (the same, capturing nothing: for the whole sentence)
AXIS_LIMITS = rx(rf"^(?P<t>{NAME})\s*的\s*{_BARE}(?:\s*[，,]?\s*(?:或者|或)\s*{_BARE})*\s*[。.]?$")


def axis_limits(text: str) -> Limits | None:
    """{"parts": [(tensor, {"axis": (k, low, high), "rank": r}), ...]}: dimension k (counted from 1
    as the sentence writes it) within [low, high], r the largest k the sentence names (axis_limits.py
    reads it only where the tensor has exactly r dimensions); None: not this phrasing."""
    m = AXIS_LIMITS.search(text)
    if m is None:
        return None
    axes = [(int(_ORDINALS.get(k, k)), int(lo), int(hi)) for k, lo, hi in re.findall(_PART, text)]
    rank = max(k for k, _, _ in axes)  # (the count from 1 needs the tensor to have exactly as many)
    return {"parts": [(m["t"], {"axis": axis, "rank": rank}) for axis in axes]}



# "kroneckerP1的维度不为2，或者第一维度和第二维度与x的第二维度不一致": the tensor's rank, and its named
# dimensions tied to one of another tensor, all counted from 1 as written (patterns.match has made
# "第一维" "第1维"); axis_limits.py reads the ties, table_clauses.py the rank (joined_parts.py: both)
_TIED = (r"第\s*(?P<a>[1-8])\s*维度?\s*(?:(?:和|与|、)\s*第\s*(?P<b>[1-8])\s*维度?\s*)?(?:都)?\s*(?:与|和)\s*"
         rf"(?P<s>{NAME})\s*的\s*第\s*(?P<k>[1-8])\s*维度?\s*(?:的?大小)?\s*{DIFFER}")
RANK_AND_TIES = rx(rf"^(?P<t>{NAME})\s*的\s*维度数?\s*(?:不为|不是|不等于)\s*(?P<r>[1-8])\s*维?\s*[，,]\s*"
                   rf"(?:或者|或)\s*{_TIED}\s*[。.]?$")


def rank_and_ties(text: str) -> Limits | None:
    """{"ranks": [r], "ranked": (target,), "ties": (target, (a, b…), source, k)}: target has r
    dimensions and each named one (from 1) is source's dimension k (from 1); None: not this
    phrasing."""
    m = RANK_AND_TIES.search(text)
    if m is None or m["t"] == m["s"] or max(int(x) for x in (m["a"], m["b"]) if x) > int(m["r"]):
        return None
    return {"ranks": [int(m["r"])], "ranked": (m["t"],),
            "ties": (m["t"], tuple(int(x) for x in (m["a"], m["b"]) if x), m["s"], int(m["k"]))}
