"""The phrasings of error rows on an output that is its input with one dimension inserted (OneHot's
out: self's shape with numClasses inserted at axis), and on the attributes saying where and how
big: insert_ties.py builds their clauses. Apart from the builder so patterns.py can read them
without importing the drafting context.

- insert: "out的shape与在self的shape在axis轴插入numClasses后的shape不一致";
- one more: "out的维度不比self的维度多1维": the output has one dimension more;
- least: "axis的值小于-1", "numAxes的取值小于-1": a lower bound below 0 (0 is the sign rows');
- empty sign: "self为空Tensor，且numClasses小于等于0", "self不为空Tensor，且numClasses小于0": an
  attribute's sign, while a tensor is (or is not) empty.
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import DIFFER, NAME

_END = r"\s*[。.]?$"
_INSERT = rx(rf"^(?P<y>{NAME})\s*的\s*shape\s*与\s*在\s*(?P<x>{NAME})\s*的\s*shape\s*在\s*(?P<axis>{NAME})\s*"
             rf"(?:轴|维)\s*插入\s*(?P<n>{NAME})\s*后的\s*shape\s*{DIFFER}{_END}")
_RANK = r"\s*的\s*维度(?:数)?\s*"
_MORE = rx(rf"^(?P<y>{NAME}){_RANK}不比\s*(?P<x>{NAME}){_RANK}多\s*1\s*维{_END}")
_LEAST = rx(rf"^(?P<a>{NAME})\s*的\s*(?:值|取值)\s*小于\s*(?P<n>-[1-9]\d*){_END}")
_EMPTY_SIGN = rx(rf"^(?P<x>{NAME})\s*(?P<neg>不)?为\s*空\s*tensor\s*[，,]\s*且\s*(?P<a>{NAME})\s*(?:的值)?\s*"
                 rf"(?P<op>小于等于|小于)\s*0{_END}")
INSERT_TIE = any_of(_INSERT, _MORE, _LEAST, _EMPTY_SIGN)
# the output's usage note saying both rows without a code: "输出维度比self维度多1维，输出的shape与在
# self的shape在axis轴插入numClasses后的shape一致。"
_NOTE = rx(rf"^输出的?维度比\s*(?P<x>{NAME})\s*的?维度多\s*1\s*维\s*[，,]\s*输出的\s*shape\s*与\s*在\s*"
           rf"(?P=x)\s*的\s*shape\s*在\s*(?P<axis>{NAME})\s*(?:轴|维)\s*插入\s*(?P<n>{NAME})\s*后的\s*shape\s*"
           rf"(?:一致|相同){_END}")


def insert_limits(text: str) -> Limits | None:
    """{"insert": (form, ...)}: ("insert", output, tensor, axis, count), ("more", output, tensor),
    ("least", attribute, bound), ("empty sign", tensor, attribute, whether the tensor is empty,
    whether 0 is refused too); None: none of them."""
    if m := _INSERT.search(text):
        return {"insert": ("insert", m["y"], m["x"], m["axis"], m["n"])}
    if (m := _MORE.search(text)) and m["x"] != m["y"]:
        return {"insert": ("more", m["y"], m["x"])}
    if m := _LEAST.search(text):
        return {"insert": ("least", m["a"], int(m["n"]))}
    if m := _EMPTY_SIGN.search(text):
        return {"insert": ("empty sign", m["x"], m["a"], not m["neg"], m["op"] == "小于等于")}
    return None


def note_insert(text: str) -> tuple[str, str, str] | None:
    """(tensor, axis, count) of an output's usage note saying it is the tensor with one dimension
    inserted; None."""
    m = _NOTE.search(text)
    return (m["x"], m["axis"], m["n"]) if m else None
