"""The vendor's phrasings of error-table rows (and usage notes), each a named pattern.

``match(sentence, names)`` says which pattern a sentence follows: the clause kinds it yields, the
page's parameters it names (in its order) and the limits it states; None when no pattern reads it
(a conditional sentence, or one no pattern knows). ``closest(sentence)`` names the pattern a
person should look at for a sentence nothing matched. The phrasings come from reading the error
tables of hicann/ops-nn and hicann/ops-math (e.g. 空指针, 的数据类型不在支持的范围之内, 无法做broadcast).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from conformance.draft.phrasings import (
    ELEMENT_SIGN,
    INTERVAL,
    NOT_EMPTY,
    OUT_OF_RANGE,
    element_sign_limits,
    interval_limits,
)

Limits = dict[str, Any]
_NUM = r"(-?\d+)"


@dataclass(frozen=True)
class Pattern:
    name: str
    kinds: tuple[str, ...]  # the clause kinds a match yields; () for a row read but not a clause
    regex: re.Pattern[str]
    keywords: tuple[str, ...]  # what closest() looks for
    example: str  # a typical phrasing (closest() breaks ties with it)
    exclude: re.Pattern[str] | None = None
    limits: Callable[[str], Limits | None] = field(default=lambda text: {})  # None: no match


@dataclass(frozen=True)
class Match:
    pattern: str
    kinds: tuple[str, ...]
    params: tuple[str, ...]  # the page's parameters the sentence names, in its order
    limits: Limits  # max/min/ranks (rank), values (value_in), result (broadcast), scope: "all"


def _re(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


# -- limits read off a sentence -------------------------------------------------------------------
_NOT_RANK = _re(r"某一?维|第.{1,4}维|最后.{0,3}维|后.{1,3}个?维|维度大小|维的大小|维度上|轴|size|元素")
_RANK_MAX = _re(r"(?:超过|大于|超出|多于|高于)了?\s*(\d+)\s*(?:维|D\b)|"
                r"(?:维度|维数|维度数|维度数量|维|shape\s*dim)\s*(?:超过|大于|超出|多于)了?\s*(\d+)")
_RANK_ZERO = _re(r"(?:维度|维数)\s*(?:等于|为|是)\s*0(?!\d)|(?<!不)是0维")
_RANK_MIN = _re(r"(?:小于|少于|低于)\s*(\d+)\s*(?:维|D\b)|(?:维度|维数)\s*(?:小于|少于)\s*(\d+)")
_RANK_RANGE = _re(r"不在\s*\[?\s*(\d+)\s*[~～\-到至]\s*(\d+)\s*\]?\s*维")
_RANK_SET = _re(r"不(?:是|为|等于)\s*((?:\d+\s*(?:维|D)?\s*(?:或者|或|、|和|/|,|，)?\s*)+)")
_RANK_TABLE = _re(r"(?:维度|维数|rank).{0,6}不在.{0,4}(?:支持|范围)|不在支持的维度|"
                  r"(?:输入)?shape\s*(?:在支持范围之外|不在支持的?范围)")  # as the hand specs read it


def _rank_limits(text: str) -> Limits | None:
    if _NOT_RANK.search(text):
        return None
    if m := _RANK_RANGE.search(text):
        return {"min": int(m[1]), "max": int(m[2])}
    if m := _RANK_MAX.search(text):
        limits: Limits = {"max": int(m[1] or m[2])}
        if low := _RANK_MIN.search(text):
            limits["min"] = int(low[1] or low[2])
        return limits
    if m := _RANK_MIN.search(text):
        return {"min": int(m[1] or m[2])}
    if (m := _RANK_SET.search(text)) and ("维" in text or "D" in m[1]):
        return {"ranks": sorted({int(n) for n in re.findall(r"\d+", m[1])})}
    if _RANK_ZERO.search(text):
        return {"min": 1}
    return {"table": True} if _RANK_TABLE.search(text) else None


_VALUE_RANGE = _re(rf"不在\s*[\[【(（]?\s*{_NUM}\s*[~～\-到至,，]\s*{_NUM}\s*[\]】)）]?\s*"
                   r"(?:的?范围|之间|内)")
_VALUE_SET = _re(r"(?:不是|不为|不等于|只能是|只能为|仅支持|非|不在)\s*[{\[]?\s*"
                 r"((?:-?\d+\s*(?:或者|或|、|和|/|,|，)?\s*){2,})")
_VALUE_NAMED = _re(r"不在(?:指定的?|有效的?|支持的?|合法的?)?(?:取值)?范围|取值.{0,4}(?:不合法|非法|不支持)|"
                  r"不符合当前支持的值|值不符合要求|不是有效值|^[A-Za-z_][A-Za-z0-9_]*\s*(?:不符合约束|不符合要求|不合法|非法)$")


def _value_limits(text: str) -> Limits | None:
    if m := _VALUE_RANGE.search(text):
        low, high = int(m[1]), int(m[2])
        return {"values": list(range(low, high + 1))} if 0 <= high - low <= 64 else None
    if m := _VALUE_SET.search(text):
        return {"values": [int(n) for n in re.findall(r"-?\d+", m[1])]}
    if "[" in text or "dim" in text.lower():  # a range over another value: not an enumeration
        return None
    return {"enumerated": True} if _VALUE_NAMED.search(text) else None


_INTO = _re(r"broadcast\s*(?:到|至|成)\s*([A-Za-z_][A-Za-z0-9_]*)")
_SAME_AS = _re(r"与(?:输出|输入)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*的?\s*(?:shape)?\s*"
               r"(?:不一致|不同|不相同|不相等|不一样|不匹配)")
_SUBJECT = _re(r"^(?:参数|输出|输入)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*shape\s*(?:不是|与|和)")


def _broadcast_result(text: str) -> Limits:
    """Which parameter is (or must hold) the broadcast shape, when the sentence says so."""
    for regex in (_INTO, _SAME_AS, _SUBJECT):
        if m := regex.search(text):
            return {"result": m[1]}
    names = _IDENT.findall(_split_glued(text))
    twice = [n for n in dict.fromkeys(names) if names.count(n) > 1 and n.lower() != "shape"]
    return {"result": twice[0]} if twice else {}


def _none(text: str) -> Limits:
    return {}


_LENGTH = _re(r"(?:长度|size|大小|元素个数)\s*(?:不等于|不为|不是|!=)\s*(\d+)(?!\s*(?:或|、|,|，|维|\d))")
_SIGN = _re(r"(?:小于等于|<=|不大于|不是正数|非正)\s*0?(?![.\d])|(?:小于|<)\s*0(?![.\d])|为负|是负数")


_LENGTHS = _re(r"(?:长度|size|大小|元素个数)\s*(?:既?不等于|不为|不是)\s*"
               r"((?:\d+\s*(?:或者|或|、|，|,|也不等于)\s*)+\d+)")


def _length_limits(text: str) -> Limits | None:
    if m := _LENGTH.search(text):
        return {"length": int(m[1])}
    if m := _LENGTHS.search(text):
        return {"lengths": sorted({int(n) for n in re.findall(r"\d+", m[1])})}
    return None


def _sign_limits(text: str) -> Limits | None:
    m = _SIGN.search(text)
    if m is None:
        return None
    return {"positive": bool(re.match(r"小于等于|<=|不大于|不是正数|非正", m[0]))}


# "self和other无法做数据类型推导", "x、y的数据类型不满足数据类型推导规则", "不满足互推导关系": the inputs
# named have no promoted dtype (a sentence naming an output, or joining another rule by "或", is
# not this; promotion_clauses.py keeps only inputs)
_PROMOTE = _re(r"(?:无法|不能|不可以?)(?:做|进行)?(?:数据)?类型推导$|(?:不满足|不符合|无法满足)(?:数据类型)?"
               r"(?:推导规则|互推导关系)$|不支持(?:数据)?类型推导$|的数据类型无法进行推导$")
_SOURCES = r"((?:[A-Za-z_][A-Za-z0-9_]*\s*(?:、|,|，|和|与)\s*)*[A-Za-z_][A-Za-z0-9_]*)?"
_CAST_VERB = r"(?:无法|不能|不可)(?:转换|转化|转|推导)(?:为|成)\s*(?:指定)?(?:的)?(?:输出)?\s*"
# "推导出的数据类型无法转换为指定输出out的类型" (the promoted dtype), "self和other推导出的数据类型不能
# 转换为out的数据类型", "self的数据类型无法转换为out的数据类型", "参数out的数据类型不是self可转换的",
# "self与out的数据类型不满足互转换关系": a computed dtype that cannot be cast to an output's
_CAST = (
    _re(rf"^(?:参数)?\s*{_SOURCES}\s*(?:推导(?:出|后)的数据类型|的数据类型|数据类型)?\s*{_CAST_VERB}"
        r"([A-Za-z_][A-Za-z0-9_]*)\s*的?(?:数据)?类型$"),
    _re(r"^(?:参数)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*的数据类型不是\s*" + _SOURCES + r"\s*可转换的?$"),
    _re(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:与|和)\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*(?:数据类型|dtype)\s*"
        r"(?:不满足互转换(?:规则|关系)|不可转换|不一致且无法转换)$"),
)


def _cast_limits(text: str) -> Limits | None:
    """``{"from": [names], "to": name}`` (from empty: the promoted dtype the row speaks of), or
    ``{"pair": [a, b]}`` where one of the two is the output (promotion_clauses.py tells which)."""
    if m := _CAST[0].search(text):
        sources = _IDENT.findall(m[1] or "")
        if not sources and "推导" not in text:
            return None  # "数据类型无法转换为out的类型": whose?
        return {"from": sources, "to": m[2]}
    if m := _CAST[1].search(text):
        return {"from": _IDENT.findall(m[2] or ""), "to": m[1]}
    if m := _CAST[2].search(text):
        return {"pair": [m[1], m[2]]}
    return None


# -- the patterns, in the order they are tried (the first that matches reads the sentence) --------
_DIFFER = r"(?:不一致|不同|不相同|不相等|不一样|不匹配|不等)"
PATTERNS: tuple[Pattern, ...] = (
    Pattern("dtype promotion", ("promotable",), _PROMOTE, ("推导", "数据类型", "规则"),
            "self和other无法做数据类型推导。", exclude=_re(r"或|转|shape|维|范围|失败|列表")),
    Pattern("dtype cast", ("castable",), _re("|".join(r.pattern for r in _CAST)),
            ("转换", "数据类型", "输出"),
            "推导出的数据类型无法转换为指定输出out的类型。", exclude=_re(r"或|格式|维度|shape"),
            limits=_cast_limits),
    Pattern("platform not supported", (), _re(r"(?:平台|产品型号|芯片|型号|soc).{0,10}不(?:在|支持|被支持)"
                                               r"|不支持.{0,6}(?:平台|产品|芯片)"),
            ("平台", "产品", "芯片", "型号"), "当前平台不在支持的平台范围内。"),
    Pattern("null pointer", ("not_null",), _re(r"空指针|nullptr|null\b"),
            ("空指针",), "传入的self、other或out是空指针。",
            exclude=_re(r"不为空指针时|非空指针时|不是nullptr|不为nullptr|空tensor|空Tensor")),
    Pattern("empty tensor", ("not_empty",), NOT_EMPTY, ("空tensor", "空Tensor", "为空"), "self是空tensor。"),
    Pattern("dtype and format not supported", ("dtype_in", "format_in"),
            _re(r"数据类型(?:和|或|、|与|以及)数据格式.{0,8}不(?:在|符合|满足|属于)|数据类型、数据格式"
                r"(?:不在|不符合)"),
            ("数据类型", "数据格式", "支持"), "self和out的数据类型和数据格式不在支持的范围之内。"),
    Pattern("dtype not supported", ("dtype_in",),
            _re(r"(?:数据类型|dtype).{0,10}不(?:在|属于|符合|满足)?.{0,6}(?:支持|允许)|不(?:在|属于|是)?(?:支持|允许)的"
                r"(?:数据类型|dtype)|数据类型不是[A-Z]|数据类型非法|不支持.{0,12}数据类型"),
            ("数据类型", "支持", "范围"), "self的数据类型不在支持的范围之内。",
            exclude=_re(r"推导|转换|一致|相同|不同")),
    Pattern("format not supported", ("format_in",),
            _re(r"(?:数据格式|format).{0,10}不(?:在|属于|符合)?.{0,6}支持|不支持.{0,10}(?:数据格式|format)"),
            ("数据格式", "format", "支持"), "self的数据格式不在支持的范围之内。"),
    Pattern("dtypes differ", ("same_dtype",),
            _re(rf"(?:数据类型|type).{{0,12}}{_DIFFER}|数据类型不与.{{0,30}}(?:一致|相同)"),
            ("数据类型", "一致", "不同"), "self和other的数据类型不一致。",
            exclude=_re(r"推导|转换|取值")),
    Pattern("broadcast shape differs", ("expr",),
            _re(rf"broadcast.{{0,16}}(?:shape|结果|形状).{{0,16}}{_DIFFER}|shape.{{0,4}}不是.{{0,40}}broadcast"
                r"|broadcast\s*(?:到|至|成)"),
            ("broadcast", "shape", "后", "不一致"), "self和other做broadcast后的shape与out的shape不一致。",
            exclude=_re(r"不满足broadcast|无法做broadcast|无法进行broadcast|@|乘"),
            limits=_broadcast_result),
    Pattern("cannot broadcast", ("broadcastable",),
            _re(r"(?:无法|不能|不可以|不可|不满足|不支持)[^，。]{0,24}broadcast|broadcast.{0,8}(?:失败|不满足|不成立)"),
            ("broadcast", "无法", "满足"), "self和other的shape无法做broadcast。", exclude=_re(r"@|乘")),
    Pattern("shapes differ", ("same_shape",),
            _re(rf"(?:shape|形状|数据形状).{{0,8}}{_DIFFER}"),
            ("shape", "不一致", "不同"), "self和out的shape不一致。",
            exclude=_re(r"broadcast|维|元素|size|轴|长度|推导|@|乘")),
    Pattern("dimension range", ("dim_range",),
            _re(r"(?:维度|维)\s*(?:数量|数|大小)?\s*(?:的|可选)?\s*(?:合法|有效|取值)?\s*范围|维度范围|\.dim\s*\(?|"
                r"(?:超出|越界|不在).{0,8}维度"),
            ("dim", "维度范围", "取值", "[-"), "dim的取值不在[-self.dim(), self.dim()-1]范围内。",
            # "dims数组中元素超出输入tensor的维度范围" is each element's range, other arrays not
            exclude=_re(r"数组(?!中(?:的维度|元素)超出)|重复|整除|size|(?<!数组中)元素")),
    Pattern("element sign", ("sign",), ELEMENT_SIGN, ("存在", "小于等于0", "数值中"),
            "kernelSize中存在小于等于0的数值。", limits=element_sign_limits),
    Pattern("value interval", ("interval",), INTERVAL, ("之间", "超出范围", "不在"),
            "p的值不在0和1之间。", limits=interval_limits),
    Pattern("attribute out of its range", ("value_in", "dim_range"), OUT_OF_RANGE, ("越界", "取值范围"),
            "dim不在指定的取值范围内。", limits=lambda text: {"enumerated": True, "documented": True}),
    Pattern("rank", ("rank_in",), _re(rf"维|\dD\b|rank|shape\s*dim|{_RANK_TABLE.pattern}"),
            ("维", "超过", "大于", "8"), "self的维度超过8维。", limits=_rank_limits),
    Pattern("length", ("length",), _re(f"{_LENGTH.pattern}|{_LENGTHS.pattern}"), ("长度", "size"),
            "padding的长度不等于6。",
            exclude=_re(r"维|shape|轴"), limits=_length_limits),
    Pattern("value sign", ("sign",), _SIGN, ("小于0", "小于等于0", "负"), "p小于0。",
            exclude=_re(r"数值中|元素|存在|tensor|Tensor|维"), limits=_sign_limits),
    Pattern("value out of range", ("value_in",),
            _re(r"值|取值|范围|(?:不是|不为|不等于|只能是|只能为|非)\s*-?\d|^[A-Za-z_][A-Za-z0-9_]*\s*(?:不符合约束|"
                r"不符合要求|不合法|非法)$"),
            ("取值", "范围", "值"), "reduction值不在0~2范围之内。", limits=_value_limits),
)

# Phrasings no pattern reads into a clause yet: only closest() names them, for the review item.
_NAMES_ONLY: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("element count", ("元素个数", "元素数"), "alpha元素个数不为1。"),
    ("shape condition", ("shape", "不满足", "约束", "条件"), "self与other的shape不满足约束。"),
    ("duplicates", ("重复",), "dims数组中元素重复。"),
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GLUED = re.compile(r"(?<=[A-Za-z0-9])(?=broadcast)")
_SHAPE_DIM = re.compile(r"shape\s*dim(?![A-Za-z0-9_])")
# "当…时，" / "若…" / "…时，…": a conditional sentence is no unconditional clause (but "X不为空指针
# 时，…", the condition of an optional argument's presence, is what a clause on it means anyway)
# "当self.dim()=0时，dim的取值不在[-1, 0]内": the two branches of one dimension-range rule
_RANK_CONDITION = re.compile(r"^当\s*\w+\.dim\(\)\s*[=>]")
_CONDITION = re.compile(r"^(?:当(?!前)|若|对于)|"
                        r"(?<!空指针)(?<!不为空)(?<!非空)(?<!存在)(?:时|情况下|场景下)[，,:：]")


def _split_glued(text: str) -> str:
    # "otherbroadcast后" names other; "的shape dim大于8" names no parameter dim
    return _SHAPE_DIM.sub("shape维", _GLUED.sub(" ", text))


def named(text: str, names: Collection[str]) -> tuple[str, ...]:
    """The page's parameter names ``text`` mentions, each once, in its order (a name written in
    other case, "gradout" for gradOut, when no other name reads the same)."""
    known = set(names)
    lowered: dict[str, list[str]] = {}
    for n in known:
        lowered.setdefault(n.lower(), []).append(n)
    found = []
    for word in _IDENT.findall(_split_glued(text)):
        if word in known:
            found.append(word)
        elif len(lowered.get(word.lower(), [])) == 1:
            found.append(lowered[word.lower()][0])
    return tuple(dict.fromkeys(found))


def is_conditional(text: str) -> bool:
    return bool(_CONDITION.search(text))


_NUMERALS = {c: str(i) for i, c in enumerate("零一二三四五六七八九")}
_NUMERAL_RANK = re.compile(r"([零一二三四五六七八九])(?=\s*维)")


def match(text: str, names: Collection[str]) -> Match | None:
    """The first pattern reading ``text``; None for a conditional sentence or one none reads."""
    text = _NUMERAL_RANK.sub(lambda m: _NUMERALS[m[1]], text)  # "不是三维" reads as "不是3维"
    text = text.replace("广播", "broadcast")  # "src的shape不能广播至selfRef": the same word
    if is_conditional(text) and not _RANK_CONDITION.search(text):
        return None
    for p in PATTERNS:
        if not p.regex.search(text) or (p.exclude is not None and p.exclude.search(text)):
            continue
        limits = p.limits(text)
        if limits is None:
            continue
        params = named(text, names)
        if not params:  # "输入或输出的…", "传入的指针类型入参…", "数据类型不在…": every one of them
            limits = {**limits, "scope": "all"}
        return Match(p.name, p.kinds, params, limits)
    return None


def closest(text: str) -> str:
    """The pattern (or known phrasing) nearest ``text``: most keyword characters in common (half
    as many without its first keyword), then the most similar example sentence."""
    candidates = [(p.name, p.keywords, p.example) for p in PATTERNS] + list(_NAMES_ONLY)
    lowered = text.lower()

    def score(item: tuple[str, tuple[str, ...], str]) -> tuple[float, float]:
        name, keywords, example = item
        hits = sum(len(k) for k in keywords if k.lower() in lowered)
        anchored = hits if keywords[0].lower() in lowered else hits / 2
        return anchored, difflib.SequenceMatcher(None, text, example).ratio()

    return max(candidates, key=score)[0]


def pattern_names() -> tuple[str, ...]:
    return tuple(p.name for p in PATTERNS) + tuple(n for n, _, _ in _NAMES_ONLY)
