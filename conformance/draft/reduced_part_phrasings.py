"""The phrasings of error rows saying one part of a reduction's output shape under one value of its
keepdim flag (NanMedianDim's): reduced_parts.py builds their clauses. Apart from the builder so
patterns.py can read them without importing the drafting context.

- rank: "keepDim为true时，valuesOut或indicesOut的维度与self的维度不一致", "keepDim为false时，…的维度不比
  self的维度少1";
- others: "keepDim为true时，…的shape与self的shape在除dim外的size不一致", "keepDim为false时，…的shape与
  self除dim外的shape不一致";
- one: "keepDim为true时，…的shape在dim上的size不为1".
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import NAME

_END = r"\s*[。.]?$"
_WHEN = (rf"^(?P<k>{NAME})\s*为\s*(?P<v>true|false)\s*时\s*[，,]\s*"
         rf"(?P<ys>{NAME}(?:\s*(?:或|、|和)\s*{NAME})*)\s*的\s*")
_DIMS = r"\s*的\s*维度(?:数)?\s*"
_RANK = rx(rf"{_WHEN}维度(?:数)?\s*(?:与\s*(?P<x>{NAME}){_DIMS}不一致|不比\s*(?P<x2>{NAME}){_DIMS}少\s*1)"
           rf"{_END}")
_OTHERS = rx(rf"{_WHEN}shape\s*与\s*(?P<x>{NAME})\s*(?:的\s*shape\s*在)?\s*除\s*(?P<d>{NAME})\s*外的\s*"
             rf"(?:size|shape)\s*不一致{_END}")
_ONE = rx(rf"{_WHEN}shape\s*在\s*(?P<d>{NAME})\s*上的\s*size\s*不为\s*1{_END}")
REDUCED_PART = any_of(_RANK, _OTHERS, _ONE)


def reduced_part_limits(text: str) -> Limits | None:
    """{"part": (form, flag, its value, outputs, input or None, dim or None)}; None: none of them."""
    for form, regex in (("rank", _RANK), ("others", _OTHERS), ("one", _ONE)):
        if m := regex.search(text):
            groups = m.groupdict()
            ys = tuple(y.strip() for y in rx(r"或|、|和").split(m["ys"]))
            x = groups.get("x") or groups.get("x2")
            return {"part": (form, m["k"], m["v"].lower() == "true", ys, x, groups.get("d"))}
    return None
