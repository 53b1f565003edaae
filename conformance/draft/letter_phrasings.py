"""The phrasings of error rows tying tensors to int attributes named for a layout's letters (the
GroupNorm family's N, C, HxW and group): letter_ties.py builds their clauses. Apart from the
builder so patterns.py can read them without importing the drafting context.

- product: "self的元素数量不等于N*C*HxW", "mean的元素个数不等于N*group": the tensor holds as many
  elements as the attributes' product;
- letter: "self在N维度上的空间大小不等于N": the dimension the letter stands for (N the first, C
  the second) is the attribute's value;
- rest: "self第三维度及之后维度的size乘积不等于HxW": the dimensions from the third on hold as many
  elements as the attribute says (a 2-d self: 1);
- pair: "meanOut与rstdOut的shape不为(N, group)": each tensor's shape is the attributes' values;
- divides: "C不能被group整除" (and ", 或者C/group＞8000": the quotient's limit too): one attribute
  is a multiple of the other.
"""
from __future__ import annotations

from conformance.draft.numel_phrasings import ELEMENTS
from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import NAME

_END = r"\s*[。.]?$"
_OF = r"^(?:参数|输入)?\s*"
_LETTER_NAME = r"(?-i:[A-Z])[A-Za-z]{0,3}\b"  # (one attribute alone: named as a letter, "C", "HxW")
_GIVEN = rf"(?:{NAME}\s*(?:不为空指针|非空)\s*且\s*)?"  # ("gamma不为空指针且gamma的元素数量不为C")
_PRODUCT = rx(rf"{_OF}{_GIVEN}(?P<t>{NAME})\s*的\s*{ELEMENTS}\s*(?:不等于|不为|不是|!=)\s*"
              rf"(?P<attrs>{NAME}(?:\s*\*\s*{NAME})+|{_LETTER_NAME}){_END}")
_LETTER = rx(rf"{_OF}(?P<t>{NAME})\s*在\s*(?P<letter>[NC])\s*维度?上的\s*(?:空间)?\s*(?:大小|size)\s*"
             rf"(?:不等于|不为)\s*(?P<attr>{NAME}){_END}")
_REST = rx(rf"{_OF}(?P<t>{NAME})\s*第(?:三|3)维度?及之后(?:的)?维度的\s*(?:size|大小)\s*乘积\s*"
           rf"(?:不等于|不为)\s*(?P<attr>{NAME})\s*(?:[(（][^)）]*[)）])?{_END}")
_PAIR = rx(rf"{_OF}(?P<ts>{NAME}(?:\s*(?:与|和|、)\s*{NAME})*)\s*的\s*shape\s*(?:不为|不等于|不是)\s*"
           rf"[(（]\s*(?P<a>{NAME})\s*[,，]\s*(?P<b>{NAME})\s*[)）]{_END}")
_DIVIDES = rx(rf"{_OF}(?P<a>{NAME})\s*(?:不能|无法)被\s*(?P<b>{NAME})\s*整除"
              rf"(?:\s*[，,]\s*或者?\s*(?P=a)\s*/\s*(?P=b)\s*(?:>|＞|大于)\s*(?P<most>\d+))?{_END}")
_FORMS = (_PRODUCT, _LETTER, _REST, _PAIR, _DIVIDES)
LETTER_TIE = any_of(*_FORMS)
# a usage note saying what a product row says, without a code: "元素数量需与C相同。", "元素个数需要等于
# N*group。"
_NOTE = rx(rf"^{ELEMENTS}\s*(?:需要|需|要|应|必须)?\s*(?:与|和|等于|为)\s*"
           rf"(?P<attrs>{NAME}(?:\s*\*\s*{NAME})*)\s*(?:相同|一致)?{_END}")
#: The dimension each letter stands for.
LETTERS = {"N": 0, "C": 1}


def note_factors(text: str) -> tuple[str, ...] | None:
    """The attributes a usage note gives a tensor's element count as the product of; None."""
    m = _NOTE.search(text)
    return tuple(a.strip() for a in m["attrs"].split("*")) if m else None


def letter_limits(text: str) -> Limits | None:
    """{"letters": (form, ...)}: ("product", t, attrs), ("letter", t, dimension, attr), ("rest",
    t, attr), ("pair", tensors, attrs), ("divides", a, b, most or None); None: none of them."""
    if m := _PRODUCT.search(text):
        return {"letters": ("product", m["t"], tuple(a.strip() for a in m["attrs"].split("*")))}
    if m := _LETTER.search(text):
        return {"letters": ("letter", m["t"], LETTERS[m["letter"]], m["attr"])}
    if m := _REST.search(text):
        return {"letters": ("rest", m["t"], m["attr"])}
    if (m := _PAIR.search(text)) and (m["a"][0].isupper() or m["b"][0].isupper()):
        tensors = tuple(t.strip() for t in rx(r"与|和|、").split(m["ts"]))  # ((n, m): no layout's letters,
        return {"letters": ("pair", tensors, (m["a"], m["b"]))}  # attr_shape_phrasings.py reads it)
    if m := _DIVIDES.search(text):
        return {"letters": ("divides", m["a"], m["b"], int(m["most"]) if m["most"] else None)}
    return None
