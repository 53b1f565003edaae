"""The phrasings of error rows tying a tensor's spatial dimensions (the last two, H and W, or three,
D, H and W, of an NCHW or NCDHW layout: a 3-d self is C, H, W) to an int array of their sizes (the
MaxUnpool family's outputSize): spatial_ties.py builds their clauses. Apart from the builder so
patterns.py can read them without importing the drafting context.

- product: "outputSize的两个元素乘积值小于self在H和W维度上的size乘积值", "outputSize的乘积小于self
  的H轴与W轴的乘积": the array's product is at least the tensor's spatial size;
- trailing: "out在H、W维度上的size大小与outputSize中的两个元素值不相等", "gradOutput的shape最后两维的
  size与outputSize的元素不一致": the tensor's spatial dimensions are the array;
- leading: "out在N、C维度上的size大小与self未完全相同": the dimensions before the spatial ones are
  another tensor's (how many are spatial, the page's other rows say);
- at rank: "当self为4维时，self与gradOutput在N，C维度上的size不一致": the leading row while the first
  tensor has that rank, naming the dimensions by letter (N, C: the first two; C alone the first
  where one dimension leads).
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import DIFFER, NAME

_END = r"\s*[。.]?$"
_AND = r"\s*(?:和|与|、|,|，)\s*"
_SPATIAL = rf"(?P<d>D{_AND})?H{_AND}W"
_COUNT = r"(?:两|三|2|3)"
_PRODUCT = rx(rf"^(?P<a>{NAME})\s*的\s*(?:{_COUNT}个元素)?\s*乘积值?\s*小于\s*(?P<x>{NAME})\s*"
              rf"(?:在\s*{_SPATIAL}\s*维度上的\s*size\s*乘积值?|的\s*H\s*轴{_AND}W\s*轴的\s*乘积){_END}")
_TRAILING = rx(rf"^(?P<y>{NAME})\s*(?:在\s*{_SPATIAL}\s*维度上的\s*size\s*(?:大小)?\s*与\s*"
               rf"(?P<a>{NAME})\s*中的\s*{_COUNT}个元素值|的\s*shape\s*最后(?P<k>{_COUNT})维的\s*size\s*与\s*(?P<b>{NAME})\s*的\s*元素)"
               rf"\s*{DIFFER}{_END}")
_LEADING = rx(rf"^(?P<y>{NAME})\s*在\s*N{_AND}C\s*维度上的\s*size\s*(?:大小)?\s*与\s*(?P<x>{NAME})\s*"
              rf"(?:未|不)完全相同{_END}")
# "当self为4维时，self与gradOutput在N，C维度上的size不一致": the leading row at one rank, by letter
_COND_LEADING = rx(rf"^(?:当|在)\s*(?P<x>{NAME})\s*为\s*(?P<rank>\d)\s*维时\s*[，,]\s*(?P<p>{NAME})\s*与\s*"
                   rf"(?P<q>{NAME})\s*在\s*(?P<letters>[NC](?:\s*(?:，|,|、|或|和)\s*[NC])?)\s*维度?上的\s*"
                   rf"size\s*(?:大小)?\s*{DIFFER}{_END}")
SPATIAL_TIE = any_of(_PRODUCT, _TRAILING, _LEADING, _COND_LEADING)


def _k(m, word: str = "") -> int:
    return 3 if m["d"] or word in ("三", "3") else 2


def spatial_limits(text: str) -> Limits | None:
    """{"spatial": (form, ...)}: ("product", array, tensor, k), ("trailing", tensor, array, k),
    ("leading", tensor, other, None), ("at rank", tensor, other, None, rank, letters); None: none
    of them."""
    if m := _PRODUCT.search(text):
        return {"spatial": ("product", m["a"], m["x"], _k(m))}
    if m := _TRAILING.search(text):
        return {"spatial": ("trailing", m["y"], m["a"] or m["b"], _k(m, m["k"] or ""))}
    if m := _LEADING.search(text):
        return {"spatial": ("leading", m["y"], m["x"], None)}
    if (m := _COND_LEADING.search(text)) and m["x"] in (m["p"], m["q"]) and m["p"] != m["q"]:
        y = m["q"] if m["p"] == m["x"] else m["p"]
        letters = tuple(dict.fromkeys(c for c in m["letters"] if c in "NC"))
        return {"spatial": ("at rank", y, m["x"], None, int(m["rank"]), letters)}
    return None
