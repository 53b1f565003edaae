"""A string (``char*``) attribute's documented values, read from one plain sentence of its row:
``approximate仅支持{"none", "tanh"}``, ``支持["mean", "sum", "none"]``, ``取值范围是：["rint",
"round"]``, ``支持“dynamic”和“static”``, ``可配置为"none"或者"tanh"``, ``支持取值round/ceil/trunc``.

Only a sentence that is the set and nothing more is read: no condition before it ("当dstType为40
时，支持{…}" is one branch, not the set), no other parameter as its subject (a noun before "取值"
only where the row's description names the attribute so: "融合模式取值必须是…" of fusedOpType, not
"动态模式取值为…", one mode's values), nothing after it but words about the values it lists (not
"其中…仅支持…", a narrowing, nor a bare "等": an open list). A value marked in brackets as not
supported or reserved ("tanh"（暂不支持）) makes the sentence no set. A row whose other sentences
name values or narrow them ("dstType为34时，仅支持{"round"}") is ``narrowed``: the set holds, but
only its first value is safe to draw.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from conformance.draft.condition_phrasings import is_conditional
from conformance.draft.facts import ParamRow, Sentence
from conformance.draft.words import QUOTE, QUOTED_VALUE, QUOTES, VALUE, WORD

_QUOTED = rf"{QUOTE}\s*{VALUE}\s*{QUOTE}"
_QUOTED_OR_EMPTY = rf"{QUOTED_VALUE}(?:\s*[（(][^）)]{{0,20}}[）)])?"  # '""（表示不做融合）'
_NOUN = r"[\u4e00-\u9fff]{1,8}"  # '"dynamic"动态量化，"static"静态量化': each value and its name
_SEP = r"\s*(?:、|,|，|/|\||或者|或|和|以及)\s*"
_LEAD = (r"(?:当前|目前)?(?:版本)?(?:仅|只)?支持(?:取值为?|传入|配置为?)?|取值范围(?:是|为)?|"
         r"取值(?:仅|只)?(?:为|支持)|取值(?:可以|必须)是|可以是|必须是|可配置为|可选值为|可选值|可选")
# what may stand before the lead: the attribute's name, "当前(版本)", or a short noun naming it
# ("融合模式取值必须是…"), never a condition, a data type or another parameter
_SUBJECT = re.compile(rf"^\s*(?:({WORD})\s*)?(?:参数|的)?(?P<noun>[\u4e00-\u9fff]{{1,6}})?\s*"
                      r"(?:的?取值)?\s*$")
_NOT_SUBJECT = re.compile(r"时|当(?!前)|若|如果|对于|下|中|输入|输出|数据|类型|场景|为|是|在|和|与|非")
_LIST = re.compile(
    rf"({_LEAD})\s*[:：]?\s*(?:[{{\[]\s*(?P<braced>{_QUOTED}(?:{_SEP}{_QUOTED})*)\s*[}}\]]|"
    rf"(?P<named>{_QUOTED}{_NOUN}(?:[，、,]\s*{_QUOTED}{_NOUN})+)|"
    rf"(?P<quoted>{_QUOTED_OR_EMPTY}(?:{_SEP}{_QUOTED_OR_EMPTY})*)|(?P<bare>{WORD}(?:\s*/\s*{WORD})+))")
# (never a bare "等": "支持"a"、"b"等" leaves the list open, so no value outside it is invalid)
_TAIL = re.compile(r"^\s*(?:中的(?:一种|一个)|之一)?\s*(?:(?:这|几|两|三|四|五)?种?)?(?:模式|方式|取值)?"
                   r"\s*(?:[，,；;。]|$)")
# an optional argument's default, said after the set ("传入空指针时，采用"rint"模式"): no more
_NULL_DEFAULT = re.compile(r"[，,]\s*(?:(?:支持)?传入空指针[，,]?\s*)?(?:传入|输入为?)空指针时[，,]?\s*"
                           rf"(?:则)?\s*(?:默认)?(?:采用|使用|表示使用|为)\s*({_QUOTED})\s*(?:模式)?\s*。?$")
_NOT_PLAIN = re.compile(r"时|当|若|如果|对于|场景|产品|默认|空指针|nullptr|仅|只|不支持|必须|暂不")
# a value's bracketed note saying it is not (yet) a valid one: '"tanh"（暂不支持）', '"x"（预留）'
_UNSUPPORTED_NOTE = re.compile(r"[（(][^）)]*(?:不支持|暂不|预留|保留|废弃|未支持|未开放|无效)[^）)]*[）)]")


def string_set(text: str, owner: str, named: str = "") -> list[str] | None:
    """The values the sentence (or one of its "。"-parts) lists for ``owner``, in order; None when
    it is not the plain set (``named``: the row's description, where a noun standing for the
    attribute before "取值" must be written)."""
    found = _set_part(text, owner, named)
    return found[1] if found else None


def _parts(text: str) -> list[str]:
    return [p for p in re.split(r"(?<=。)", text) if p.strip()]


def _set_part(text: str, owner: str, named: str) -> tuple[str, list[str]] | None:
    """(the "。"-part listing the set, its values), or None."""
    return next(((p, v) for p in _parts(text) if (v := _plain_set(p, owner, named))), None)


def _plain_set(text: str, owner: str, named: str) -> list[str] | None:
    if is_conditional(text):
        return None
    m = _LIST.search(text)
    if m is None:
        return None
    before = text[:m.start()]
    subject = _SUBJECT.match(before)
    if subject is None or subject[1] not in (None, owner) or _NOT_SUBJECT.search(before):
        return None
    if re.search(r"[\u4e00-\u9fff]", before.replace("当前", "").replace("版本", "").replace("参数", "")) \
            and not m[1].startswith("取值"):
        return None  # "静态量化仅支持…" is said of one mode; "融合模式取值必须是…" of the attribute
    noun = re.sub(r"当前|版本|参数", "", subject["noun"] or "")
    if noun and noun not in named:
        return None  # "动态模式取值为…": the values in one mode, unless the row calls it so
    if m["named"] is not None and not m[1].endswith("支持"):
        return None  # values with their names only as what is supported
    if m["bare"] is not None and not m[1].endswith(("取值", "取值为")):
        return None  # a bare "a/b/c" only where the lead says these are its values
    listed = m["braced"] or m["named"] or m["quoted"] or m["bare"]
    if _UNSUPPORTED_NOTE.search(listed):
        return None
    if m["braced"] is None and m["bare"] is None:
        values = [q.strip(QUOTES + " ") for q in re.findall(QUOTED_VALUE, listed)]
    else:
        values = re.findall(VALUE, listed)
    values = list(dict.fromkeys(values))
    tail = text[m.end():]
    default = _NULL_DEFAULT.search(tail)
    if default and re.findall(VALUE, default[1])[0] in values:  # the default is one of the set
        tail = tail[:default.start()]
    if not _TAIL.match(tail) or _NOT_PLAIN.search(tail):
        return None
    if not set(re.findall(VALUE, " ".join(re.findall(_QUOTED, tail)))) <= set(values):
        return None  # the rest quotes a value the list lacks
    return values or None


@dataclass(frozen=True)
class StringValues:
    values: list[str]
    sentence: Sentence  # the sentence listing them
    narrowed: bool  # another sentence of the row names or narrows values: draw one value only
    safe: str | None = None  # that value, where the row's narrowings agree on one (else the first)

    @property
    def draw(self) -> list[str]:
        """The values a narrowed set is drawn from: the one safe value."""
        return [self.safe if self.safe is not None else self.values[0]]


_NARROWING = re.compile(r"(?:仅|只|不)支持|必须")
_ONLY = re.compile(r"(?:仅|只)支持")
_BRANCH = re.compile(r"时|下|对于|若|当|如果")
_DEFAULT = re.compile(r"默认|传入空指针|为空指针时")  # an absent argument's value, no condition


def _narrows(text: str, values: list[str]) -> bool:
    """A sentence naming some of the values under a condition, or restricting them."""
    named = {w for w in re.findall(WORD, text) if w in values} or re.search(_QUOTED, text)
    if _NARROWING.search(text):  # "静态量化仅支持per_tensor量化…，传入空指针时代表动态量化" too
        return True
    return bool(named and _BRANCH.search(text) and not _DEFAULT.search(text))


def string_values(row: ParamRow | None, elsewhere: Iterable[str] = ()) -> StringValues | None:
    """The row's set (its description first, then its usage notes), or None; ``elsewhere``: the
    page's other sentences, any naming the attribute with one of its values narrows the set."""
    if row is None:
        return None
    texts = [row.description, *row.usage]
    for s in texts:
        found = _set_part(s.text, row.name, row.description.text)
        if found:
            part, values = found  # (the other parts of its sentence are notes too: "其中P仅支持…")
            own = [*(p for p in _parts(s.text) if p != part), *(t.text for t in texts if t is not s)]
            narrowings = [t for t in own if _narrows(t, values)]
            narrowed = bool(narrowings) or any(
                re.search(_word(row.name), t) and _names_value(t, values) for t in elsewhere)
            return StringValues(values, s, narrowed, _safe(values, narrowings))
    return None


def _safe(values: list[str], narrowings: list[str]) -> str | None:
    """The first value every "仅支持…" note naming values keeps and no "不支持…" note names
    ("其中P仅支持"b"": "b", not the first); None when they leave none."""
    kept = list(values)
    for text in narrowings:
        named = [v for v in values if _names_value(text, [v])]
        if "不支持" in text:
            kept = [v for v in kept if v not in named]
        elif _ONLY.search(text) and named:
            kept = [v for v in kept if v in named]
    return kept[0] if kept else None


def _word(name: str) -> str:
    """``name`` as a whole word (Python's \\b counts CJK characters as word characters)."""
    return rf"(?<![A-Za-z0-9_\-]){re.escape(name)}(?![A-Za-z0-9_\-])"


def _names_value(text: str, values: list[str]) -> bool:
    return any(re.search(_word(v), text) for v in values if v) \
        or ('""' in text and "" in values)
