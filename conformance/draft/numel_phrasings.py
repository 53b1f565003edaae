"""The phrasings of error rows about element counts and the size of one dimension (numel_ties.py
builds their clauses; attr_clauses.py the one-element ones). Apart from the builders so
patterns.py can read them without importing the drafting context.

- one element: "beta1Power、lr 的 shape size 不为 1", "x3 不是单元素标量张量（ShapeSize != 1）",
  "alpha 不是 1 个元素的标量 Tensor" (a tensor's "size" alone may be its shape: not read);
- same count: "source和index的元素数量不等", "x的元素个数与y的元素个数不一致": the two tensors hold
  as many elements (their shapes may differ);
- half: "out、outGelu在dim维的size不等于self在dim维size的1/2", "out在dim对应维度上的大小不等于x的一半"
  (and "out的维度数与x不一致，或…": the ranks too), "out、outGelu的shape跟self的shape除了dim指定的轴外
  需要保持一致，dim指定的轴为self的shape对应轴的一半" (the other dimensions too): the dimension an int
  attribute names is half the source's there; the Glu pages' "out的shape不等于self根据dim拆分后的shape"
  (Glu halves self along dim: its page's out is "(*_1,M,*_2)，M = N /2") and "gradOut的shape不满足
  (*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值" say the same as the last;
- even: "入参self根据指定的dim所对应的维度不能整除2", "x在dim对应维度上不能被2整除": the dimension an int
  attribute names is even; "dim不在指定的取值范围内或x在dim对应维度上不能被2整除" joins it to dim's range
  (the one dim's own row writes).
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, NAME, NAMES, OR

#: The words naming a tensor's element count (its "shape size": the product of its shape).
ELEMENTS = r"(?:元素个数|元素总数|元素数量|元素数|shape\s*size|shape\s*大小|ShapeSize)"
_END = r"\s*[。.]?$"
_ONE = rx(rf"^(?:参数|输入)?\s*{NAMES}\s*的?\s*{ELEMENTS}\s*(?:不为|不等于|不是|!=)\s*1\s*时?{_END}|"
          rf"^(?:参数|输入)?\s*{NAMES}\s*不是\s*(?:1\s*个元素的|单元素)\s*(?:标量)?\s*(?:tensor|张量)\s*"
          rf"(?:[（(]\s*{ELEMENTS}\s*!=\s*1\s*[)）])?{_END}")
_SAME = rx(rf"^(?:参数|输入)?\s*(?P<a>{NAME})\s*(?:和|与|、)\s*(?P<b>{NAME})\s*的\s*{ELEMENTS}\s*"
           rf"{DIFFER}{_END}|"
           rf"^(?:参数|输入)?\s*(?P<c>{NAME})\s*的\s*{ELEMENTS}\s*(?:与|和|跟)\s*(?P<d>{NAME})\s*"
           rf"(?:的\s*{ELEMENTS})?\s*{DIFFER}{_END}")
_TARGETS = rf"{NAME}(?:\s*(?:、|,|，|和|或)\s*{NAME})*"
_AT = r"(?:维|对应维度上|对应的维度上|指定的维度上|维度上)"
_HALF_WORD = r"(?:的\s*1\s*/\s*2|的\s*一半)"
_HALF = (rf"(?P<targets>{_TARGETS})\s*在\s*(?P<dim>{NAME})\s*{_AT}\s*的?\s*(?:size|大小)\s*不等于\s*"
         rf"(?P<source>{NAME})\s*(?:在\s*(?P=dim)\s*{_AT}\s*的?\s*(?:size|大小))?\s*{_HALF_WORD}")
_PLAIN = rx(rf"^{_HALF}{_END}")
# "gradY的维度数与x不一致，或gradY在dim对应维度上的大小不等于x的一半": the ranks and the half
_WITH_RANK = rx(rf"^(?P<first>{NAME})\s*的\s*(?:维度数|维数)\s*(?:与|和)\s*(?P<x>{NAME})\s*{DIFFER}\s*"
                rf"[，,]?\s*(?:或者|或)\s*{_HALF}{_END}")
# "out、outGelu的shape跟self的shape除了dim指定的轴外需要保持一致，dim指定的轴为self的shape对应轴的一半"
_WHOLE = rx(rf"^(?P<targets>{_TARGETS})\s*的\s*shape\s*(?:跟|与|和)\s*(?P<source>{NAME})\s*的\s*shape\s*"
            rf"除了?\s*(?P<dim>{NAME})\s*指定的\s*轴外\s*(?:需要|需)?\s*保持一致\s*[，,]\s*(?P=dim)\s*指定的\s*轴"
            rf"\s*为\s*(?P=source)\s*的\s*shape\s*对应轴{_HALF_WORD}{_END}")
# "out的shape不等于self根据dim拆分后的shape" (or 沿dim, 按dim)
_HALVES = rx(rf"^(?P<targets>{_TARGETS})\s*的\s*shape\s*不等于\s*(?P<source>{NAME})\s*(?:根据|沿|按)\s*"
             rf"(?P<dim>{NAME})\s*拆分后的\s*shape{_END}")
# "gradOut的shape不满足(*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值"
_FORMULA = rx(rf"^(?P<targets>{_TARGETS})\s*的\s*shape\s*不满足\s*[(（]\s*\*_?1\s*,\s*M\s*,\s*\*_?2\s*[)）]"
              rf"\s*[，,]?\s*其中\s*M\s*=\s*N\s*/\s*2\s*[，,]\s*N\s*为\s*(?P<source>{NAME})\s*根据\s*"
              rf"(?P<dim>{NAME})\s*指定的\s*该?\s*维度上的\s*(?:数值|大小){_END}")
_EVEN_PART = (rf"(?:入参|输入)?\s*(?P<x>{NAME})\s*(?:根据指定的|在)\s*(?P<dim>{NAME})\s*"
              r"(?:所对应的维度|对应的?维度上?)\s*(?:的大小)?\s*不能\s*(?:被\s*2\s*整除|整除\s*2)")
_EVEN = rx(rf"^{_EVEN_PART}{_END}")
# "dim不在指定的取值范围内或x在dim对应维度上不能被2整除": the range dim's own row writes, and the even
_RANGE_OR_EVEN = rx(rf"^(?P<attr>{NAME})\s*不在指定的\s*取值范围内?{OR}{_EVEN_PART}{_END}")
_SPLIT = rx(r"\s*(?:、|,|，|和|或)\s*")
ONE_ELEMENT = _ONE
SAME_NUMEL = _SAME
# (the gate: half_limits reads the five forms, their groups alike)
HALF_DIM = rx(rf"{_HALF_WORD}{_END}|拆分后的\s*shape{_END}|M\s*=\s*N\s*/\s*2")
EVEN_DIM = _EVEN
RANGE_OR_EVEN = _RANGE_OR_EVEN


def one_element_limits(text: str) -> Limits | None:
    """{"length": 1, "elements": True}: each tensor named holds one element (None: not this row)."""
    return {"length": 1, "elements": True} if _ONE.search(text) else None


def same_numel_limits(text: str) -> Limits | None:
    """{"numel": (a, b)}: a holds as many elements as b (None: not this row)."""
    m = _SAME.search(text)
    if m is None or (m["a"] or m["c"]) == (m["b"] or m["d"]):
        return None
    return {"numel": (m["a"] or m["c"], m["b"] or m["d"])}


def half_limits(text: str) -> Limits | None:
    """{"half": (targets, source, dim), "match": "dim" | "rank" | "shape"}: each target's dimension
    ``dim`` is half the source's there; "rank": the ranks agree too, "shape": every other
    dimension too (None: not this row)."""
    for regex, also in ((_PLAIN, "dim"), (_WITH_RANK, "rank"), (_WHOLE, "shape"), (_HALVES, "shape"),
                        (_FORMULA, "shape")):
        m = regex.search(text)
        if m is None:
            continue
        targets = tuple(_SPLIT.split(m["targets"]))
        if also == "rank" and (targets != (m["first"],) or m["x"] != m["source"]):
            return None  # (the rank part of another tensor than the half's)
        if m["source"] in targets:
            return None
        return {"half": (targets, m["source"], m["dim"]), "match": also}
    return None


def even_limits(text: str) -> Limits | None:
    """{"even": (x, dim)}: x's dimension ``dim`` is even (None: not this row)."""
    m = _EVEN.search(text)
    return None if m is None else {"even": (m["x"], m["dim"])}


def range_or_even_limits(text: str) -> Limits | None:
    """{"documented": True, "even": (x, dim)}: dim within the range its own row writes, and x's
    dimension dim even (None: not this row, or another attribute's range)."""
    m = _RANGE_OR_EVEN.search(text)
    return None if m is None or m["attr"] != m["dim"] else {"documented": True, "even": (m["x"], m["dim"])}
