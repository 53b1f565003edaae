"""The phrasing of error rows giving each dimension of a tensor, counted from the front, a range
("x的第一维度超出范围[1, 262144]，或者第二维度超出[1, 256]，或者第三维度超出[1, 256]"): axis_limits.py
builds one clause per dimension, once it knows the tensor's rank settles how the page counts. Apart
from the builder so patterns.py can read it without importing the drafting context.
"""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import NAME

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
