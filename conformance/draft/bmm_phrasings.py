"""The phrasings of error rows on a batched matrix product of two 3-d operands and the tensor added
to it (the Baddbmm and Addbmm families: self + batch1@batch2): bmm_ties.py builds their clauses.
Apart from the builder so patterns.py can read them without importing the drafting context.

- broadcast: "self不能与batch1@batch2做broadcast操作": the tensor and the product broadcast;
- batch: "batch1和batch2的第一维度不相等" (", 或不能做broadcast操作" too: it refuses what is not
  equal all the same): the operands' batch dimensions are one;
- empty: "self与batch1@batch2必须同时为空tensor或同时不为空tensor".
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import NAME

_END = r"\s*[。.]?$"
_PRODUCT = rf"(?P<a>{NAME})\s*@\s*(?P<b>{NAME})"
_BROADCAST = rx(rf"^(?P<x>{NAME})\s*不能\s*(?:与|和)\s*{_PRODUCT}\s*做\s*broadcast\s*(?:操作)?{_END}")
_BATCH = rx(rf"^(?P<a>{NAME})\s*和\s*(?P<b>{NAME})\s*的\s*第[一1]个?维度?\s*(?:不相等|不一致)"
            rf"(?:\s*或\s*不能做\s*broadcast\s*(?:操作)?)?{_END}")
_EMPTY = rx(rf"^(?P<x>{NAME})\s*(?:与|和)\s*{_PRODUCT}\s*必须同时为空\s*tensor\s*或\s*"
            rf"同时不为空\s*tensor{_END}")
BMM_TIE = any_of(_BROADCAST, _BATCH, _EMPTY)


def bmm_limits(text: str) -> Limits | None:
    """{"bmm": (form, ...)}: ("broadcast", tensor, a, b), ("batch", a, b), ("empty", tensor, a, b);
    None: none of them."""
    if m := _BROADCAST.search(text):
        return {"bmm": ("broadcast", m["x"], m["a"], m["b"])}
    if (m := _BATCH.search(text)) and m["a"] != m["b"]:
        return {"bmm": ("batch", m["a"], m["b"])}
    if m := _EMPTY.search(text):
        return {"bmm": ("empty", m["x"], m["a"], m["b"])}
    return None
