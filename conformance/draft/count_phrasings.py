"""The phrasings of error rows tying an int attribute that counts along one dimension of a tensor
(Topk's and Kthvalue's k, Multinomial's numsamples) to that dimension and to an output's:
count_ties.py builds their clauses. Apart from the builder so patterns.py can read them without
importing the drafting context.

- bound: "k小于0或者k大于输入self在dim维度上的size大小", "replacement为false且numsamples大于self最后
  一个维度的大小": the count is at most the dimension's size (at least 0 where the row says so;
  only while a bool attribute has the value the row names, where it names one);
- last: "out的最后一个维度要与numsamples的大小保持一致": the output's last dimension is the count;
- first: "当self为2维Tensor时，out的第一个维度要与self第一个维度的大小相等": under that rank of
  the input, the output's first dimension is the input's.
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, any_of, rx
from conformance.draft.words import DIFFER, NAME

_END = r"\s*[。.]?$"
_ONE = r"(?:一|1)个?"  # (patterns.match reads "一维" as "1维")
_FLAG = rf"(?:(?P<flag>{NAME})\s*(?:为|是|=)\s*(?P<value>true|false)\s*(?:且|并且|，且)\s*)?"
_SIGNED = rf"(?:(?P<signed>{NAME})\s*小于\s*0\s*(?:或者|或|，)\s*)?"
_ALONG = rf"(?:在\s*(?P<dim>{NAME})\s*维度?上的\s*(?:size)?\s*大小|的?\s*最后{_ONE}维度的\s*(?:size)?\s*大小)"
_BOUND = rx(rf"^{_FLAG}{_SIGNED}(?P<a>{NAME})\s*(?:的值)?\s*大于\s*(?:输入)?\s*(?P<t>{NAME})\s*"
            rf"{_ALONG}{_END}")
_OF_A = r"\s*的?\s*(?:值|大小)?\s*"
_AGREE = rf"(?:(?:要|需要|需|必须)\s*(?:与|和)\s*(?P<a>{NAME}){_OF_A}(?:保持)?\s*(?:一致|相等|相同)|" \
         rf"(?:与|和)\s*(?P<b>{NAME}){_OF_A}{DIFFER})"
_LAST = rx(rf"^(?P<y>{NAME})\s*的\s*最后{_ONE}维度的?\s*(?:size|大小)?\s*{_AGREE}{_END}")
_FIRST = rx(rf"^当\s*(?P<x>{NAME})\s*为\s*(?P<rank>\d)\s*维\s*(?:Tensor|张量)?\s*时\s*[，,]\s*"
            rf"(?P<y>{NAME})\s*的\s*第{_ONE}维度\s*(?:要|需要|需|必须)\s*与\s*(?P=x)\s*的?\s*"
            rf"第{_ONE}维度的?\s*(?:size|大小)?\s*(?:相等|一致|相同){_END}")
COUNT_TIE = any_of(_BOUND, _LAST, _FIRST)
# the count's usage note saying the bound without a code: "取值范围[0, self.size(dim)]。"
_NOTE = rx(rf"^取值范围(?:为|是)?\s*\[\s*0\s*[,，]\s*(?P<t>{NAME})\.size\(\s*(?P<dim>{NAME})\s*\)\s*\]{_END}")


def count_limits(text: str) -> Limits | None:
    """{"count": (form, ...)}: ("bound", count, tensor, dim or None for the last, flag or None,
    the flag's value in the row, signed), ("last", output, count), ("first", output, input,
    rank); None: none of them."""
    if (m := _BOUND.search(text)) and m["signed"] in (None, m["a"]):
        value = m["value"].lower() == "true" if m["flag"] else None
        return {"count": ("bound", m["a"], m["t"], m["dim"], m["flag"], value, bool(m["signed"]))}
    if m := _LAST.search(text):
        return {"count": ("last", m["y"], m["a"] or m["b"])}
    if m := _FIRST.search(text):
        return {"count": ("first", m["y"], m["x"], int(m["rank"]))}
    return None


def note_bound(text: str) -> tuple[str, str] | None:
    """(tensor, dim) of a usage note giving the count's range as [0, tensor.size(dim)]; None."""
    m = _NOTE.search(text)
    return (m["t"], m["dim"]) if m else None
