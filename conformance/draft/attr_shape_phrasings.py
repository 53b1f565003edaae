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


def attr_shape_limits(text: str) -> Limits | None:
    """{"attr_shape": (tensor, (attribute or number, ...))}; None: not the phrasing."""
    m = ATTR_SHAPE.search(text)
    if m is None:
        return None
    dims = tuple(int(d) if d.isdigit() else d for d in rx(r"[,，]").split(m["dims"].replace(" ", "")))
    if m["word"].lower() == "size" and (len(dims) != 1 or isinstance(dims[0], int)):
        return None  # ("alpha的size不为1", "padding的size不等于4": a shape? a count? a length?)
    return {"attr_shape": (m["t"], dims)}
