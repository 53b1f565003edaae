"""A sentence one pattern reads may say more after a comma and 或 ("x的数据类型不受支持，或x与out的数据类型
不同", "groupIndex的数据类型不是INT64，或groupIndex为空tensor"): the pattern encodes its own part only.
Each comma-or part is read on its own then, and the sentence is checkable only when every part is a
clause (each part's evidence marked as such, as rank_parts.py marks its parts); a part no pattern
reads leaves the sentence for review, while the parts read still judge. Patterns that read two
parts themselves (" or " in their names, a dimension's half with its rank) are read whole."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import replace

from conformance.draft.patterns import Match

Matcher = Callable[[str, Collection[str]], Match | None]

_PARTS = re.compile(r"[，,]\s*(?:或者|或)")
# the subject a bare continuation shares ("self维度大于8，或小于2": "小于2" is self维度's too)
_SUBJECT = re.compile(r"^(.*?(?:的|维度|维数|shape))")
_CONTINUATION = re.compile(r"^(?:小于|大于|超过|不等于|不为|不是|不在|非)")
# a part naming no parameter that is about the ones before ("或两者数据类型不一致", "或broadcast后的shape…")
_BEFORE = re.compile(r"^(?:两者|二者|其|推导后|broadcast后)")
# (C不能被group整除，或者C/group＞8000; "x的第一维度超出…，或者第二维度超出…": each dimension a part;
# "T的shape的第一维长度与n不一致，或者shape的第二维长度不为1": the whole shape)
_WHOLE = frozenset({"half a dimension", "layout letters", "dimensions' ranges", "shape of attributes"})
# "gradOutput与indices的shape不一致，self和gradInput的shape不一致": two ties, each of its own pair (read
# whole, one tie over the four made false findings: a pooled gradOutput is smaller than self)
_COMMA = re.compile(r"[，,]")
_TIES = frozenset({"same_shape", "same_dtype", "same_format"})


def part_readings(text: str, found: Match, names: Collection[str], matcher: Matcher) -> list[Match] | None:
    """None: ``found`` reads ``text`` whole; else the reading of each comma-or part, or [] where a
    part is read by no pattern (or names nothing and refers to nothing before it)."""
    if (ties := _tie_parts(text, found, names, matcher)) is not None:
        return ties
    parts = [p.strip() for p in _PARTS.split(text) if p.strip()]
    if len(parts) < 2 or " or " in found.pattern or found.pattern in _WHOLE:
        return None
    readings: list[Match] = []
    for before, part in zip(["", *parts], parts):
        continued = _CONTINUATION.match(part) and (subject := _SUBJECT.match(before))
        m = matcher(subject[1] + part if continued else part, names)
        if m is None and continued and readings:
            continue  # ("或小于2且不是0": the whole reading's bound, no rule of its own)
        if m is not None and not m.params:
            if not (readings and _BEFORE.match(part)):
                return []  # ("或偏置维度不是1维": whose?)
            m = replace(m, params=readings[-1].params,
                        limits={k: v for k, v in m.limits.items() if k != "scope"})
        if m is None:
            return []
        readings.append(m)
    return None if all(set(m.kinds) <= set(found.kinds) for m in readings) and _same(readings, found) \
        else readings


def _tie_parts(text: str, found: Match, names: Collection[str], matcher: Matcher) -> list[Match] | None:
    """The ties of a sentence stating one per comma part, each part naming two tensors or more and
    not all the same ones; None for any other sentence."""
    if not set(found.kinds) <= _TIES:
        return None
    parts = [p.strip() for p in _COMMA.split(text) if p.strip()]
    readings = [matcher(p, names) for p in parts]
    if len(parts) < 2 or any(m is None or m.pattern != found.pattern or len(m.params) < 2 for m in readings):
        return None
    return readings if _separate(readings) else None


def _separate(readings: list[Match]) -> bool:
    return len({frozenset(m.params) for m in readings}) > 1


def _same(readings: list[Match], found: Match) -> bool:
    """Whether the whole reading already says what the parts do (one kind, the same parameters;
    ties of different tensors are not one tie)."""
    return all(m.pattern == found.pattern for m in readings) and \
        {p for m in readings for p in m.params} <= set(found.params) and \
        not (set(found.kinds) <= _TIES and _separate(readings))
