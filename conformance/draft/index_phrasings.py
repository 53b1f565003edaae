"""The phrasings of error rows tying an index-style operator's shapes along its ``dim`` attribute
(index_ties.py builds their clauses). Apart from the builder so patterns.py can read them
without importing the drafting context.

- dim size ("index的shape大小和source在维度dim上的shape值不相等", "source在dim轴上的大小和index的元素
  数量不等时"): the source's size at dimension dim is the index's element count (its "shape大小":
  the product of its shape, as "shape size" is elsewhere; the index is 0-1 dimensional);
- other dims ("self和source除了在维度dim上，其余维度上存在shape值不相等", "selfRef和source的shape在
  非dim轴上的大小不同时"): the two shapes agree at every dimension but dim;
- size bound ("对于每一个维度d，有index.size(d) <= src.size(d)", "对于每一个维度d，如果d != dim，有
  index.size(d) <= self.size(d)的限制", and the second half of a row split at its "；": "且d != dim
  时，index.size(d) <= self.size(d)", whose d is the first half's "每一个维度d"): one tensor's size
  at each dimension d (but dim) is at most the other's;
- gather shape ("out的shape不满足除dim维扩展为跟index的shape一样外，其他维长度与self相应维一致"): out's
  shape is self's with dimension dim replaced by index's whole shape ("除0维…" names no attribute:
  not read).
"""
from __future__ import annotations

from conformance.draft.numel_phrasings import ELEMENTS
from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, NAME, NAMES

_END = r"\s*[。.]?$"
# "在维度dim上", "在dim轴上", "在dim维度上": the dimension the attribute names
_AT = rf"在\s*(?:维度\s*(?P<d1>{NAME})|(?P<d2>{NAME})\s*(?:轴|维度|维))\s*上"
_SIZE = r"(?:shape\s*值|大小|size)"
_COUNT = rf"(?:shape\s*大小|{ELEMENTS})"
_DIM_SIZE = (
    rx(rf"^(?P<index>{NAME})\s*的\s*{_COUNT}\s*(?:和|与|跟)\s*(?P<source>{NAME})\s*"
       rf"{_AT}\s*的\s*{_SIZE}\s*{DIFFER}\s*时?{_END}"),
    rx(rf"^(?P<source>{NAME})\s*{_AT}\s*的\s*{_SIZE}\s*(?:和|与|跟)\s*"
       rf"(?P<index>{NAME})\s*的\s*{_COUNT}\s*{DIFFER}\s*时?{_END}"),
)
_OTHER_DIMS = (
    rx(rf"^(?P<a>{NAME})\s*(?:和|与)\s*(?P<b>{NAME})\s*除了?\s*{_AT}\s*(?:以外|之外|外)?"
       rf"\s*[，,]\s*其余维度上?\s*存在\s*shape\s*值\s*{DIFFER}{_END}"),
    rx(rf"^(?P<a>{NAME})\s*(?:和|与)\s*(?P<b>{NAME})\s*的\s*shape\s*在\s*非\s*(?P<d1>{NAME})\s*(?:轴|维度|维)"
       rf"\s*上\s*的\s*{_SIZE}\s*{DIFFER}\s*时?{_END}"),
)
_LEAD = rf"^(?:(?:{NAMES}\s*的\s*)?shape\s*不符合(?:以下)?限制\s*[：:]\s*)?"
_BOUND = rf"有?\s*(?P<a>{NAME})\.size\(d\)\s*<=\s*(?P<b>{NAME})\.size\(d\)\s*(?:的限制)?{_END}"
_BUT = r"d\s*!=\s*(?P<{}>" + NAME + ")"
#: every dimension ("对于每一个维度d，有…"), every one but dim ("…，如果d != dim，有…"), or the
#: second half of a split row ("且d != dim时，…": its d is the first half's)
SIZE_BOUND = rx(rf"{_LEAD}(?:对于每一个维度\s*d\s*[，,]\s*(?:如果\s*{_BUT.format('dim')}\s*[，,]\s*)?|"
                rf"^且\s*{_BUT.format('but')}\s*时\s*[，,]\s*){_BOUND}")
GATHER_SHAPE = rx(rf"^(?P<out>{NAME})\s*的\s*shape\s*不满足\s*除\s*(?P<dim>{NAME})\s*维\s*扩展为\s*"
                  rf"(?:跟|与|和)\s*(?P<index>{NAME})\s*的\s*shape\s*一样\s*外\s*[，,]\s*其他维\s*(?:长度|大小)?\s*(?:与|和|跟)\s*"
                  rf"(?P<x>{NAME})\s*的?\s*相应维\s*一致{_END}")
# the gates (the limits read each form): a size at the dimension an attribute names, or at all others
DIM_SIZE = rx(rf"{NAME}\s*(?:轴|维度|维)\s*上\s*的\s*{_SIZE}|维度\s*{NAME}\s*上\s*的\s*{_SIZE}")
OTHER_DIMS = rx(r"其余维度上?\s*存在|非\s*[A-Za-z_]\w*\s*(?:轴|维度|维)\s*上")


def dim_size_limits(text: str) -> Limits | None:
    """{"dim_size": (source, dim, index)}: source's size at dim is index's element count."""
    for regex in _DIM_SIZE:
        m = regex.search(text)
        if m is not None and m["source"] != m["index"]:
            return {"dim_size": (m["source"], m["d1"] or m["d2"], m["index"])}
    return None


def other_dims_limits(text: str) -> Limits | None:
    """{"other_dims": (a, b, dim)}: a's and b's shapes agree but at dim."""
    for regex in _OTHER_DIMS:
        m = regex.search(text)
        if m is not None and m["a"] != m["b"]:
            return {"other_dims": (m["a"], m["b"], m["d1"] or m["d2"])}
    return None


def size_bound_limits(text: str) -> Limits | None:
    """{"size_bound": (a, b, dim or None)}: a's size at each dimension (but dim) is at most b's."""
    m = SIZE_BOUND.search(text)
    if m is None or m["a"] == m["b"]:
        return None
    return {"size_bound": (m["a"], m["b"], m["dim"] or m["but"])}


def gather_shape_limits(text: str) -> Limits | None:
    """{"gather_shape": (out, x, dim, index)}: out's shape is x's with dim replaced by index's."""
    m = GATHER_SHAPE.search(text)
    if m is None or len({m["out"], m["x"], m["index"], m["dim"]}) < 4:
        return None
    return {"gather_shape": (m["out"], m["x"], m["dim"], m["index"])}
