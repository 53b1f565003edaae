"""The phrasings of error rows giving a tensor's whole shape as attributes or numbers ("out的shape不为
(n，m)", "out的shape不为n", "out的size不等于bins", "out的shape不是[1]"): attr_shape_ties.py builds their
clauses. Apart from the builder so patterns.py can read them without importing the drafting context.
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import NAME

_END = r"\s*[。.]?$"
_DIM = rf"(?:{NAME}|\d+)"
ATTR_SHAPE = rx(rf"^(?P<t>{NAME})\s*的\s*(?P<word>shape|size)\s*(?:不为|不是|不等于)\s*(?P<open>[\[(（])?\s*"
                rf"(?P<dims>{_DIM}(?:\s*[,，]\s*{_DIM})*)\s*(?(open)[\])）]){_END}")


# "输入sampledTokenIds的shape的第一维长度与numQueries不一致，或者shape的第二维长度不为1": both dimensions of a
# 2-D tensor, in order (a second of two counts from 1: the first then is its first); the clause's
# guard keeps it to 2-D tensors
_FIRST = r"的\s*shape\s*的\s*第\s*[1一]\s*维\s*(?:的)?\s*(?:长度|大小)\s*"
_SECOND = r"shape\s*的\s*第\s*[2二]\s*维\s*(?:的)?\s*(?:长度|大小)\s*"
_BY_DIMENSION = rx(rf"^(?:输入)?\s*(?P<bt>{NAME})\s*{_FIRST}"
                   rf"(?:与\s*(?P<a>{_DIM})\s*(?:不一致|不相等|不同)|(?:不为|不等于)\s*(?P<a2>{_DIM}))\s*[，,]\s*"
                   rf"(?:或者|或)\s*(?:(?P=bt)\s*的\s*)?{_SECOND}(?:不为|不等于)\s*(?P<b>{_DIM}){_END}")
ATTR_SHAPE = rx(f"{ATTR_SHAPE.pattern}|{_BY_DIMENSION.pattern}")


def attr_shape_limits(text: str) -> Limits | None:
    """{"attr_shape": (tensor, (attribute or number, ...))}; None: not the phrasing."""
    if m := _BY_DIMENSION.search(text):
        dims = (m["a"] or m["a2"], m["b"])
        return {"attr_shape": (m["bt"], tuple(int(d) if d.isdigit() else d for d in dims))}
    m = ATTR_SHAPE.search(text)
    if m is None:
        return None
    dims = tuple(int(d) if d.isdigit() else d for d in rx(r"[,，]").split(m["dims"].replace(" ", "")))
    if m["word"].lower() == "size" and (len(dims) != 1 or isinstance(dims[0], int)):
        return None  # ("alpha的size不为1", "padding的size不等于4": a shape? a count? a length?)
    return {"attr_shape": (m["t"], dims)}
