"""What an error-row sentence states once a pattern (patterns.py) has read it: the ranks, values,
lengths and signs it names, the parameter holding a broadcast shape, the dtypes a cast joins.

Apart from patterns.py so the table of patterns reads on one screen: each reader here takes the
sentence and returns its limits (None when the sentence turns out not to be the pattern's), and
the few regexes a pattern shares with its reader live beside that reader. ``named`` says which of
the page's parameters a sentence mentions.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from conformance.draft.words import DIFFER, NAME

Limits = dict[str, Any]
_NUM = r"(-?\d+)"


def rx(text: str) -> re.Pattern[str]:
    """A phrasing's regular expression: ASCII names match in any case ("Shape", "DIM")."""
    return re.compile(text, re.IGNORECASE)


def any_of(*forms: re.Pattern[str]) -> re.Pattern[str]:
    """One expression matching where any of ``forms`` does (their group names and back references
    go: forms may share a name)."""
    bare = (re.sub(r"\(\?P=\w+\)", NAME, re.sub(r"\?P<\w+>", "?:", f.pattern)) for f in forms)
    return rx("|".join(bare))


IDENT = re.compile(NAME)
_GLUED = re.compile(r"(?<=[A-Za-z0-9])(?=broadcast)")
_SHAPE_DIM = re.compile(r"shape\s*dim(?![A-Za-z0-9_])")
_DIM_CALL = re.compile(r"\.dim(?:\(\))?(?![A-Za-z0-9_])")


def split_glued(text: str) -> str:
    # "otherbroadcast后" names other; "的shape dim大于8" and "[-self.dim(), self.dim()-1]" name no
    # parameter dim (the rank of the tensor before the dot)
    return _DIM_CALL.sub("的维度数", _SHAPE_DIM.sub("shape维", _GLUED.sub(" ", text)))


# ("size" a word of its own: "outputSize的维度不等于2" names a parameter)
_NOT_RANK = rx(r"某一?维|第.{1,4}维|最后.{0,3}维|后.{1,3}个?维|维度大小|维的大小|维度上|轴|"
               r"(?<![A-Za-z])size|元素|不相同|不一致|不匹配|norm的维度|绝对值|维度shape")
_NAMED_DIM = re.compile(r"(?<![A-Za-z0-9_])[A-Z]{1,2}\s*维")  # "K维度为0", "NC维度": a dimension, no rank
# "input维度小于2或者大于8，mean和invstd维度不为1", "x的维度不为4或gamma/beta的维度非1": two rules on
# different tensors, each rank its own (one clause would put every named tensor under the first)
_RANK_STATEMENT = rx(r"(?:维度|维数|维|shape|dim)\s*(?:数量|数)?\s*"
                     r"(?:不为|不是|不等于|大于|小于|超过|超出|高于|非|不在)")
_RANK_MAX = rx(r"(?:超过|大于|超出|多于|高于)了?\s*(\d+)\s*(?:维|D\b)|"
                r"(?:维度|维数|维度数|维度数量|维|shape\s*dim|维度范围)\s*(?:超过|大于|超出|多于)了?\s*(\d+)")
_RANK_ZERO = rx(r"(?:维度|维数)\s*(?:等于|为|是)\s*0(?!\d)|(?<!不)是0维")
# "input维度小于2或者大于8", "input的维度小于2或大于8": both bounds, the upper one with no 维 after it
_RANK_EITHER = rx(r"(?:维度|维数)\s*小于\s*(\d+)\s*维?\s*(?:或者|或)\s*(?:大于|超过)\s*(\d+)(?!\d)")
_RANK_MIN = rx(r"(?:小于|少于|低于)\s*(\d+)\s*(?:维|D\b)|(?:维度|维数)\s*(?:小于|少于)\s*(\d+)")
# "selfRef的维度小于等于1", "x的维度大于等于9": the bound itself refused too
_RANK_MIN_EQ = rx(r"(?:维度|维数)\s*小于等于\s*(\d+)(?!\d)|小于等于\s*(\d+)\s*维")
_RANK_MAX_EQ = rx(r"(?:维度|维数)\s*大于等于\s*(\d+)(?!\d)|大于等于\s*(\d+)\s*维")
_BOUND_WORD = re.compile(r"大于|小于|超过|超出|少于|多于|高于|低于")
# "index不为0-1维": a range after 不为 too (read as a set, it was [0]: a false finding on rank 1);
# "x的维度数不在[0, 8]范围之内": a closed interval after the word (read as values of x before)
_RANK_RANGE = rx(r"(?:不在|不为|不是|非)\s*\[?\s*(\d+)\s*[~～\-到至]\s*(\d+)\s*\]?\s*维|"
                 r"(?:维度|维数|维度数)\s*不在\s*\[\s*(\d+)\s*[,，]\s*(\d+)\s*\]\s*(?:的?范围)?\s*(?:内|之内)?$")
# "不是3维且不是4维": neither, so either is allowed
# "target非3维tensor", "gamma/beta的维度非1": 非 the same word
_RANK_SET = rx(r"(?:不(?:是|为|等于)|非)\s*"
               r"((?:\d+\s*(?:维|D)?\s*(?:或者|或|、|和|/|,|，|且不是|且不为)?\s*)+)")
RANK_TABLE = rx(r"(?:维度|维数|rank).{0,6}不在.{0,4}(?:支持|范围)|不在支持的维度|"
                 r"(?:输入)?shape\s*(?:在支持范围之外|不在支持的?范围)|"
                 r"shape\s*大小\s*超出\s*最大维度限制")  # as the hand specs read it


# "任意一个维度等于0" (a dim's size), "gamma的维度和x的...维度不相同" (a relation): no rank limit
_NOT_ONE_LIMIT = rx(r"任意一?个?维度|任一维度|(?:维度|维数)\s*(?:不相同|不同|不一致)")


def rank_limits(text: str) -> Limits | None:
    if (_NOT_RANK.search(text) or _NOT_ONE_LIMIT.search(text) or _NAMED_DIM.search(text)
            or len(_RANK_STATEMENT.findall(text)) > 1):
        return None
    if m := _RANK_RANGE.search(text):
        return {"min": int(m[1] or m[3]), "max": int(m[2] or m[4])}
    if (low_eq := _RANK_MIN_EQ.search(text)) or (high_eq := _RANK_MAX_EQ.search(text)):
        if len(_BOUND_WORD.findall(text)) > 1:
            return None  # (two bounds, one of them inclusive: not read yet)
        m = low_eq or high_eq
        return {"min": int(m[1] or m[2]) + 1} if low_eq else {"max": int(m[1] or m[2]) - 1}
    if m := _RANK_EITHER.search(text):
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
    return {"table": True} if RANK_TABLE.search(text) else None


_VALUE_RANGE = rx(rf"不在\s*[\[【(（]?\s*{_NUM}\s*[~～\-到至,，]\s*{_NUM}\s*[\]】)）]?\s*"
                   r"(?:的?范围|之间|内)")
_VALUE_SET = rx(r"(?:不是|不为|不等于|只能是|只能为|仅支持|非|不在|必须属于|必须是|必须为)\s*[{\[]?\s*"
                 r"((?:-?\d+\s*(?:或者|或|、|和|/|,|，)?\s*){2,})")
_VALUE_NAMED = rx(r"不在(?:指定的?|有效的?|支持的?|合法的?)?(?:取值)?范围|取值.{0,4}(?:不合法|非法|不支持)|"
                  rf"不符合当前支持的值|值不(?:符合|满足)要求|不是有效值|^{NAME}\s*(?:不符合约束|不符合要求|不合法|非法)$")


def value_limits(text: str) -> Limits | None:
    if m := _VALUE_RANGE.search(text):
        low, high = int(m[1]), int(m[2])
        return {"values": list(range(low, high + 1))} if 0 <= high - low <= 64 else None
    if m := _VALUE_SET.search(text):
        return {"values": [int(n) for n in re.findall(r"-?\d+", m[1])]}
    if "[" in text or "dim" in text.lower():  # a range over another value: not an enumeration
        return None
    return {"enumerated": True} if _VALUE_NAMED.search(text) else None


_INTO = rx(rf"broadcast\s*(?:到|至|成)\s*({NAME})")
_SAME_AS = rx(rf"与(?:输出|输入)?\s*({NAME})\s*的?\s*(?:shape)?\s*{DIFFER}")
_SUBJECT = rx(rf"^(?:参数|输出|输入)?\s*({NAME})\s*的\s*shape\s*(?:不是|与|和)")


def broadcast_result(text: str) -> Limits:
    """Which parameter is (or must hold) the broadcast shape, when the sentence says so."""
    for regex in (_INTO, _SAME_AS, _SUBJECT):
        if m := regex.search(text):
            return {"result": m[1]}
    names = IDENT.findall(split_glued(text))
    twice = [n for n in dict.fromkeys(names) if names.count(n) > 1 and n.lower() != "shape"]
    return {"result": twice[0]} if twice else {}


def _none(text: str) -> Limits:
    return {}


LENGTH = rx(r"(?:长度|size|大小|元素个数|元素总数)\s*(?:不等于|不为|不是|!=)\s*(\d+)"
            r"(?!\s*(?:或|、|,|，|维|\d))")
# (a comparison with 0: "numSeqs的值小于等于numQueries的值" relates two values, no sign)
# "不小于0", "不是负数": the negated words say the opposite
# "numLayers不满足>0": the condition the value must meet, negated
SIGN = rx(r"不满足\s*(?:>=|≥|>|＞)\s*0(?![.\d])|"
         r"(?<![不非])(?:小于等于|<=|不大于)\s*0(?![.\d])|不是正数|非正|(?<![不非])(?:小于|<)\s*0(?![.\d])|"
         r"(?<![不非])为负|(?<![不非])是负数|(?:不为|不是)\s*自然数")  # (自然数: 0 and up)


LENGTHS = rx(r"(?:长度|size|大小|元素个数)\s*(?:既?不等于|不为|不是)\s*"
              r"((?:\d+\s*(?:或者|或|、|，|,|也不等于)\s*)+\d+)")


def length_limits(text: str) -> Limits | None:
    if m := LENGTH.search(text):
        return {"length": int(m[1])}
    if m := LENGTHS.search(text):
        return {"lengths": sorted({int(n) for n in re.findall(r"\d+", m[1])})}
    return None


# another rule beside the sign ("clampLimit不为-1.0且不大于0", "group不大于0，或者C大于240000", "在step大于0
#时…start大于end"): the sign alone would say less, or of the wrong parameter
_OTHER_RULE = rx(r"大于|小于|不为|不是|不等于|等于|超过|整除|时")


def sign_limits(text: str) -> Limits | None:
    m = SIGN.search(text)
    if m is None or _OTHER_RULE.search(text[:m.start()] + " " + text[m.end():]):
        return None
    return {"positive": bool(re.match(r"小于等于|<=|不大于|不是正数|非正|不满足\s*[>＞](?!=)", m[0]))}


SOURCES = rf"((?:{NAME}\s*(?:、|,|，|和|与)\s*)*{NAME})?"
CAST_VERB = r"(?:无法|不能|不可)(?:转换|转化|转|推导|cast)(?:为|成|到)\s*(?:指定)?(?:的)?(?:输出)?\s*"
PROMOTED = r"(?:进行数据类型)?推导(?:出|后|之后)的(?:数据)?类型"
# "推导出的数据类型无法转换为指定输出out的类型" (the promoted dtype), "self和other推导出的数据类型不能
# 转换为out的数据类型", "self的数据类型无法转换为out的数据类型", "参数out的数据类型不是self可转换的",
# "self与out的数据类型不满足互转换关系": a computed dtype that cannot be cast to a tensor's;
# "alpha无法转换为self和other推导后的数据类型": to their promoted dtype; "alpha的数据类型不可转换为
# FLOAT": to a dtype (or a parameter) named bare
CAST = (
    rx(rf"^(?:参数)?\s*{SOURCES}\s*(?:{PROMOTED}|的数据类型|数据类型)?\s*{CAST_VERB}"
        rf"({NAME})\s*的?(?:数据)?类型$"),
    rx(rf"^(?:参数)?\s*({NAME})\s*的数据类型不是\s*" + SOURCES + r"\s*可转换的?$"),
    rx(rf"^({NAME})\s*(?:与|和)\s*({NAME})\s*的\s*(?:数据类型|dtype)\s*"
        r"(?:不满足互转换(?:规则|关系)|不可转换|不一致且无法转换)$"),
    rx(rf"^(?:参数)?\s*{SOURCES}\s*(?:的数据类型)?\s*{CAST_VERB}{SOURCES}\s*{PROMOTED}$"),
    rx(rf"^(?:参数)?\s*{SOURCES}\s*(?:的数据类型|数据类型)?\s*{CAST_VERB}({NAME})$"),
)


def cast_limits(text: str) -> Limits | None:
    """``{"from": [names], "to": name}`` (from empty: the promoted dtype the row speaks of; ``to`` a
    parameter or a dtype, a list: their promoted dtype; ``each``: every source cast on its own,
    "beta，threshold的数据类型无法转换成self的数据类型"), or ``{"pair": [a, b]}`` where one of the
    two is the output (promotion_clauses.py tells which)."""
    if m := CAST[0].search(text):
        sources = IDENT.findall(m[1] or "")
        if not sources and "推导" not in text:
            return None  # "数据类型无法转换为out的类型": whose?
        return _each({"from": sources, "to": m[2]}, text)
    if m := CAST[1].search(text):
        return _each({"from": IDENT.findall(m[2] or ""), "to": m[1]}, text)
    if m := CAST[2].search(text):
        return {"pair": [m[1], m[2]]}
    if (m := CAST[3].search(text)) and m[1] and m[2]:
        return _each({"from": IDENT.findall(m[1]), "to": IDENT.findall(m[2])}, text[:m.start(2)])
    if (m := CAST[4].search(text)) and m[1]:
        return _each({"from": IDENT.findall(m[1]), "to": m[2]}, text)
    return None


def _each(limits: Limits, text: str) -> Limits:
    """Several sources with no promotion said before the cast are each cast on their own."""
    if len(limits["from"]) > 1 and "推导" not in text:
        limits["each"] = True
    return limits


def named(text: str, names: Collection[str]) -> tuple[str, ...]:
    """The page's parameter names ``text`` mentions, each once, in its order (a name written in
    other case, "gradout" for gradOut, when no other name reads the same)."""
    known = set(names)
    lowered: dict[str, list[str]] = {}
    for n in known:
        lowered.setdefault(n.lower(), []).append(n)
    found = []
    for word in IDENT.findall(split_glued(text)):
        if word in known:
            found.append(word)
        elif len(lowered.get(word.lower(), [])) == 1:
            found.append(lowered[word.lower()][0])
    return tuple(dict.fromkeys(found))


def unnamed(text: str, names: Collection[str]) -> str:
    """``text`` with the page's compound parameter names blanked: an exclusion is about the words
    of the sentence, not a name containing one ("kernelShape的长度不等于1或2" says nothing of a
    shape); a name that is a word itself ("size") stays (the sentence may mean the word)."""
    known = {n for n in names if re.search(r"[A-Z0-9_]", n[1:])}
    return IDENT.sub(lambda m: "_" if m[0] in known else m[0], text)
