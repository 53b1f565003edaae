"""A string (``char*``) attribute's documented values, read from one plain sentence of its row:
``approximate仅支持{"none", "tanh"}``, ``支持["mean", "sum", "none"]``, ``取值范围是：["rint",
"round"]``, ``支持“dynamic”和“static”``, ``可配置为"none"或者"tanh"``, ``支持取值round/ceil/trunc``.

Only a sentence that is the set and nothing more is read: no condition before it ("当dstType为40
时，支持{…}" is one branch, not the set), no other parameter as its subject, nothing after it but
words about the values it lists. A row whose other sentences name values or narrow them ("dstType
为34时，仅支持{"round"}") is ``narrowed``: the set holds, but only its first value is safe to draw.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft.facts import ParamRow, Sentence
from conformance.draft.patterns import is_conditional

_Q = r"[\"“”'‘’]"
_WORD = r"[A-Za-z_][A-Za-z0-9_\-]*"
_QUOTED = rf"{_Q}\s*{_WORD}\s*{_Q}"
_SEP = r"\s*(?:、|,|，|/|\||或者|或|和|以及)\s*"
_LEAD = (r"(?:当前)?(?:仅|只)?支持(?:取值为?|传入|配置为?)?|取值范围(?:是|为)?|取值(?:仅|只)?(?:为|支持)|"
         r"可配置为|可选值为|可选值|可选")
_SUBJECT = rf"^\s*(?:({_WORD})\s*)?(?:参数|的)?(?:当前|目前)?\s*(?:的?取值)?\s*$"
_LIST = re.compile(
    rf"({_LEAD})\s*[:：]?\s*(?:[{{\[]\s*({_QUOTED}(?:{_SEP}{_QUOTED})*)\s*[}}\]]|"
    rf"({_QUOTED}(?:{_SEP}{_QUOTED})*)|({_WORD}(?:\s*/\s*{_WORD})+))")
_TAIL = re.compile(r"^\s*(?:(?:等|这|几|两|三|四|五)?种?)?(?:模式|方式|取值)?\s*(?:[，,；;。]|$)")
_NOT_PLAIN = re.compile(r"时|当|若|如果|对于|场景|产品|默认|空指针|nullptr")


def string_set(text: str, owner: str) -> list[str] | None:
    """The values the sentence lists for ``owner`` (in order), or None when it is not the plain set."""
    if is_conditional(text):
        return None
    m = _LIST.search(text)
    if m is None:
        return None
    subject = re.match(_SUBJECT, text[:m.start()])
    if subject is None or subject[1] not in (None, owner):
        return None
    if m[4] is not None and not m[1].endswith(("取值", "取值为")):
        return None  # a bare "a/b/c" only where the lead says these are its values
    listed = m[2] or m[3] or m[4]
    values = list(dict.fromkeys(re.findall(_WORD, listed)))
    tail = text[m.end():]
    if not _TAIL.match(tail) or _NOT_PLAIN.search(tail):
        return None
    if not set(re.findall(_WORD, " ".join(re.findall(_QUOTED, tail)))) <= set(values):
        return None  # the rest quotes a value the list lacks
    return values or None


@dataclass(frozen=True)
class StringValues:
    values: list[str]
    sentence: Sentence  # the sentence listing them
    narrowed: bool  # another sentence of the row names or narrows values: draw the first only


_NARROWING = re.compile(r"(?:仅|只|不)支持")
_BRANCH = re.compile(r"时|下|对于|若|当")
_DEFAULT = re.compile(r"默认|空指针|nullptr")  # the value an absent argument takes: no narrowing


def _narrows(text: str) -> bool:
    if _DEFAULT.search(text):
        return False
    return bool(_NARROWING.search(text) or re.search(_QUOTED, text) and _BRANCH.search(text))


def string_values(row: ParamRow | None) -> StringValues | None:
    """The row's set (its description first, then its usage notes), or None."""
    if row is None:
        return None
    texts = [row.description, *row.usage]
    for s in texts:
        values = string_set(s.text, row.name)
        if values:
            narrowed = any(_narrows(t.text) for t in texts if t is not s)
            return StringValues(values, s, narrowed)
    return None
