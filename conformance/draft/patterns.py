"""Which of the vendor's phrasings an error-table row (or usage note) follows.

``match(sentence, names)`` says which pattern of ``pattern_table.PATTERNS`` reads a sentence: the
clause kinds it yields, the page's parameters it names (in its order) and the limits it states; None
when no pattern reads it (a conditional sentence, or one no pattern knows). ``closest.py`` names the
pattern a person should look at for a sentence nothing matched.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from conformance.draft.condition_phrasings import ABSENT, GIVEN, RANK_CONDITION, is_conditional
from conformance.draft.pattern_table import PATTERNS
from conformance.draft.rank_parts import name_parts, spoken_rank
from conformance.draft.sentence_limits import Limits, named, unnamed


@dataclass(frozen=True)
class Match:
    pattern: str
    kinds: tuple[str, ...]
    params: tuple[str, ...]  # the page's parameters the sentence names, in its order
    limits: Limits  # max/min/ranks (rank), values (value_in), result (broadcast), scope: "all"


# the relations a rule said where an optional argument is given may hold among the present ones only
_RELATIONS = {"same_shape", "same_dtype", "same_format", "broadcastable"}
_NUMERALS = {c: str(i) for i, c in enumerate("零一二三四五六七八九")}
_WHEN_GIVEN = re.compile(r"(?<=[A-Za-z0-9_])\s*[（(]\s*(?:非空时|若存在|如果存在|存在时)\s*[)）]|"
                         # "当X不为空且X的数据类型不在支持的范围之内": the rule on X, where X is given
                         r"^当?\s*(?P<x>[A-Za-z_]\w*)\s*(?:不为空指针|不为空|非空)\s*且\s*(?=(?P=x)\s*的)")
_NUMERAL_RANK = re.compile(r"([零一二三四五六七八九])(?=\s*维)")


def match(text: str, names: Collection[str]) -> Match | None:
    """The first pattern reading ``text``; None for a conditional sentence or one none reads."""
    text = _NUMERAL_RANK.sub(lambda m: _NUMERALS[m[1]], text)  # "不是三维" reads as "不是3维"
    text = text.replace("广播", "broadcast")  # "src的shape不能广播至selfRef": the same word
    text = spoken_rank(text)  # "self的dim不为3" reads as "self的维度不为3"
    # "gradInput（非空时）", "beta(若存在)", "当X不为空且X的…": a rule on an optional tensor holds where
    # it is given anyway
    text = _WHEN_GIVEN.sub(lambda m: "" if m["x"] else " ", text).strip()
    # ("对于每一个维度d，…", "且d != dim时，…" quantify over dimensions: no condition; a pattern marked
    # conditional states its condition whole, "keepdim为true时，out.shape != …")
    if is_conditional(text) and not (RANK_CONDITION.search(text)
                                     or any(p.conditional and p.regex.search(text) for p in PATTERNS)) \
            or ABSENT.search(text):
        return None
    bare = unnamed(text, names)
    for p in PATTERNS:
        if not p.regex.search(text) or (p.exclude is not None and p.exclude.search(bare)):
            continue
        limits = p.limits(text)
        if limits is not None and "parts" in limits:
            limits = name_parts(limits, names)  # (each part its own tensors)
        if limits is None:
            continue
        params = named(text, names)
        if (given := GIVEN.search(text)) and not _on_given(given, text, names, p.kinds):
            return None
        if not params:  # "输入或输出的…", "传入的指针类型入参…", "数据类型不在…": every one of them
            limits = {**limits, "scope": "all"}
        return Match(p.name, p.kinds, params, limits)
    return None


def _on_given(given: re.Match[str], text: str, names: Collection[str], kinds: tuple[str, ...]) -> bool:
    """Whether a rule said where an optional argument is given is on that argument alone (or
    relates it to one other), so it holds as an unconditional clause on it does."""
    name, body = given["name"] or given["passed"], text[given.end():]
    if not named(name, names):
        return False  # no parameter of the page's is given: what would the rule be on?
    params = named(body, names)
    if body.lstrip().startswith("其") or not params:  # "X存在时，其shape…", "X存在时，数据类型…": X's
        params = (name, *params)
    return params == (name,) or (name in params and len(params) == 2 and set(kinds) <= _RELATIONS)
