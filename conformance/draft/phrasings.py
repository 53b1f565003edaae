"""Phrasings of error rows about attributes and empty tensors that read only as whole sentences
(patterns.py tries them in its order): an int array's element signs, a float attribute's
interval, tensors refused when empty. Anchored at both ends, so a sentence saying anything more
("…小于0或者大于kernelSize") is none of them."""
from __future__ import annotations

import re
from collections.abc import Callable

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import NAME, NAMES, QUOTED_VALUE, QUOTES


def _reader(regex: re.Pattern[str],
            build: Callable[[re.Match[str]], Limits | None]) -> Callable[[str], Limits | None]:
    """The limits ``build`` reads from the match of ``regex`` in a sentence (None: no match)."""
    return lambda text: build(m) if (m := regex.search(text)) is not None else None

# "kernelSize中存在小于等于0的数值", "stride的数值中存在小于等于0的值", "参数repeats中含有小于0的值",
# "steps中有值小于等于0", "kernelSize、dilation或stride存在值等于或小于0的元素", "outputSize或stride的
# 元素值不大于0": the whole sentence
ELEMENT_SIGN = rx(rf"^(?:传入的|参数)?\s*{NAMES}\s*(?:中的数值中|的数值中|中的数值|的数值|中的元素|中)?\s*"
                    r"(?:存在|含有|有)\s*(?:某个?维度的|某个维度)?\s*(?:值|数值|元素值)?\s*"
                    r"(小于等于|等于或小于|<=|小于|<)\s*0\s*(?:的(?:数值|值|元素))?$|"
                    rf"^(?:传入的|参数)?\s*{NAMES}\s*(?:中|的)\s*元素值\s*(小于等于|不大于|小于)\s*0$")


element_sign_limits = _reader(ELEMENT_SIGN, lambda m: {"positive": (m[1] or m[2]) not in ("小于", "<"),
                                                      "elements": True})


# "p的值不在0和1之间", "clipRatio的数值超出范围(0, 1]", "p不满足0≤p≤1": a float attribute's interval
# (bounds as written; "之间" and a bracket-less range leave the bounds open to doubt, see
# attr_clauses.interval)
INTERVAL = rx(rf"^(?:传入的|参数)?\s*{NAME}\s*的?(?:值|数值|取值)?\s*"
                r"(?:不在\s*(-?\d+(?:\.\d+)?)\s*(?:和|与|到|至)\s*(-?\d+(?:\.\d+)?)\s*之间|"
                r"(?:超出|不在)\s*(?:范围)?\s*([\[(（])\s*(-?\d+(?:\.\d+)?)\s*[,，]\s*(-?\d+(?:\.\d+)?)\s*([\])）])"
                r"\s*(?:范围)?(?:内|之内)?|"
                # "prob不满足0≤prob≤1": the interval the attribute must lie in, written out
                rf"不满足\s*(?P<low>-?\d+(?:\.\d+)?)\s*(?P<lop>≤|<=|<)\s*(?P<name>{NAME})\s*"
                r"(?P<hop>≤|<=|<)\s*(?P<high>-?\d+(?:\.\d+)?))$")


def _interval(m: re.Match[str]) -> Limits | None:
    if m[1] is not None:
        return {"low": float(m[1]), "high": float(m[2])}
    if m["low"] is not None:  # (of the attribute the sentence is about, not another)
        if not re.match(rf"(?:传入的|参数)?\s*{m['name']}(?![A-Za-z0-9_])", m[0]):
            return None
        return {"low": float(m["low"]), "high": float(m["high"]), "open_low": m["lop"] == "<",
                "open_high": m["hop"] == "<"}
    return {"low": float(m[4]), "high": float(m[5]), "open_low": m[3] != "[", "open_high": m[6] != "]"}


def _whole(limits: Limits | None) -> Limits | None:
    """An int attribute's values too ("axes不在[0, 1]范围内": 0 and 1), where the bounds are whole
    numbers each bracket (or ≤) says is in or out ("之间" does not say)."""
    if limits is None or "open_low" not in limits or limits["low"] != int(limits["low"]) \
            or limits["high"] != int(limits["high"]):
        return limits
    low, high = int(limits["low"]) + limits["open_low"], int(limits["high"]) - limits["open_high"]
    return {**limits, "values": list(range(low, high + 1))} if 0 <= high - low <= 64 else limits


interval_limits = _reader(INTERVAL, lambda m: _whole(_interval(m)))


# "x1、x2或out是空tensor", "不支持空tensor场景" (all tensors): the whole sentence says empty tensors
# are refused (not "X为空且Y不为空", a condition, nor "X为不支持的空Tensor", some empty ones only)
_EMPTY = r"空\s*(?:tensor|Tensor|张量)"
NOT_EMPTY = rx(rf"^(?:传入的|输入的?)?\s*{NAMES}\s*(?:是|为)\s*{_EMPTY}$|"
                 rf"^不支持\s*(?:传入)?\s*{_EMPTY}\s*(?:场景|输入|的?输入或输出)?$|^传入\s*{_EMPTY}\s*场景$")


# "dim不在指定的取值范围内", "dim越界", "dim的取值越界", "dim超出范围", "dim不在合法范围内": an attribute
# out of its range, read as a dimension range only where its own row writes [-x.dim(), x.dim()-1]
# (attr_clauses)
OUT_OF_RANGE = rx(rf"^(?:传入的|参数)?\s*{NAME}\s*(?:的取值|的值)?\s*"
                   r"(?:越界|超出范围|不在(?:指定的|有效的?|支持的)?取值范围内?|不在合法的?(?:取值)?范围内?)时?$")


# "quantMode的值不是"static"或"dynamic"", "传入的fusedOpType不属于""、"add"以及"relu"中的一种",
# "quantMode不为“dynamic”": a string attribute outside the values the sentence itself quotes
STRING_VALUES = rx(rf"^(?:传入的|输入的?|参数)?\s*{NAME}\s*(?:的值|的取值|参数)?\s*"
                   rf"(?:不属于|不是|不为|不在|不等于)\s*({QUOTED_VALUE}(?:\s*(?:、|,|，|或者|或|和|以及)\s*{QUOTED_VALUE})*)\s*"
                   r"(?:中的(?:一种|一个|任意一个)|之一|范围内|中)?$")


string_values_limits = _reader(STRING_VALUES, lambda m: {
    "strings": list(dict.fromkeys(q.strip(QUOTES + " ") for q in re.findall(QUOTED_VALUE, m[1])))})


# "dims数组中元素重复", "dim中数值重复", "axes数组中的轴重复", "dim指定的轴重复": an int array naming
# one axis twice (the whole sentence; "…越界，或表示的轴有重复" says more)
DUPLICATES = rx(rf"^(?:传入的|参数)?\s*{NAME}\s*(?:数组)?\s*(?:中|里|指定)?\s*的?\s*"
                r"(?:数值|元素|值|数据|轴|维度)?\s*(?:有|存在)?\s*重复$")


# "yDtype不为0", "quantMode的取值不为0", "dilation的数值不等于1": one attribute (or every element of
# an int array) that must be the one value written (the whole sentence); "modulated参数不等于true",
# "fixTriuMask不是false": a bool attribute that must be that one
SINGLE_VALUE = rx(rf"^(?:传入的|参数)?\s*{NAME}\s*(?:参数|的取值|的值|的数值|内的数值|中的数值)?\s*"
                  r"(?:不为|不是|不等于)\s*(-?\d+|true|false)$")
_FLAGS = {"true": True, "false": False}


single_value_limits = _reader(SINGLE_VALUE, lambda m: {"values": [_FLAGS.get(m[1].lower()) if m[1].isalpha()
                                                                  else int(m[1])], "single": True})


# "alpha等于0", "beta为0": a float attribute (or host scalar) that must not be zero
ZERO_VALUE = rx(rf"^(?:传入的|参数)?\s*{NAME}\s*(?:的取值|的值|的数值)?\s*"
                r"(?:等于|为|是)\s*0(?:\.0+)?$")


# "quantMin大于quantMax", "clipValueMin的数值大于clipValueMax", "输入numSeqs的值小于等于输入numQueries的值",
# "vocabEndIndex<= vocabStartIndex", "输入numSeqs的值不等于输入numQueries的值": two attributes in the
# wrong order, or unequal (the whole sentence)
_ONE = rf"(?:传入的|输入的?|参数)?\s*({NAME})\s*(?:的值|的数值|的取值)?"
ORDER = rx(rf"^{_ONE}\s*(大于等于|小于等于|大于|小于|不等于|>=|<=|>|<|!=)\s*{_ONE}$")
_OPPOSITE = {"大于等于": "<", ">=": "<", "小于等于": ">", "<=": ">", "大于": "<=", ">": "<=",
             "小于": ">=", "<": ">=", "不等于": "==", "!=": "=="}  # the order the row leaves valid


order_limits = _reader(ORDER, lambda m: {"order": (m[1], _OPPOSITE[m[2]], m[3])} if m[1] != m[3] else None)


# "normalizedShape的元素个数超过8", "repeats的参数个数超过8", "kernelSize或paddings的长度小于1": an int
# array's length bound (the whole sentence; attr_clauses.length: an expr clause)
LENGTH_BOUND = rx(rf"^(?:传入的|参数)?\s*{NAMES}\s*的\s*(?:长度|元素个数|参数个数)\s*"
                  r"(超过|大于|小于)\s*(\d+)$")


length_bound_limits = _reader(LENGTH_BOUND, lambda m: {"min" if m[1] == "小于" else "max": int(m[2])})


# "begin和end和strides的长度不一致", "starts、ends、axes、steps中元素个数不相同": int arrays of one length
SAME_LENGTH = rx(rf"^(?:传入的|参数)?\s*{NAMES}\s*(?:的|中)?\s*(?:长度|元素个数|元素数量)\s*"
                 r"(?:不一致|不相同|不相等|不同)$")


# "self为空tensor且存在非第一维度的值为0", "self或out为空tensor，且self最后三个维度的值存在0", "self为空
# tensor且后4维存在维度大小为0": empty only by some dims (the first may be 0; the rest never); "第1维度"
# too (patterns.match reads 一维 as 1维); "二维self不支持为空tensor": a 2-D self never empty
_COUNT = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5}
EMPTY_DIMS = rx(rf"^(?P<t>{NAME})\s*(?:或\s*{NAME})?\s*(?:为|是){_EMPTY}\s*[，,]?"
                r"\s*且\s*(?:(?P=t)\s*)?(?:存在非第[一1]维度的(?P<rest>值|大小)为0|"
                r"(?:最后|后)\s*(?P<last>[两二三四五2-8])\s*(?:个维度的值存在0|维存在维度大小为0))$|"
                # "二维self不支持为空tensor" (patterns.match: "2维self…"): empty at that rank
                rf"^(?P<rank>[1-8])\s*维\s*(?P<r>{NAME})\s*(?:不支持\s*(?:为|是)?\s*{_EMPTY}|"
                # "五维self为空tensor且存在非batch size维度的大小为0": at that rank, by a dim but the first
                rf"为{_EMPTY}\s*[，,]?\s*且\s*存在非(?:第[一1]维度|batch\s*size\s*维度)的(?P<but>值|大小)为0)$|"
                # "self在非第一维度上的size小于1": the dims but the first ("除N维度外" is not that where
                # a C, D, H, W self has no N); "self在C、D、H、W维度上的size大小不大于0": the last ones,
                # named by letter
                rf"^(?P<s>{NAME})\s*在\s*(?:(?P<other>非第[一1])|(?P<letters>(?:C、)?(?:D、)?H、W))"
                r"\s*维度上?的\s*size\s*(?:大小)?\s*(?:不大于\s*0|小于\s*1|小于等于\s*0)$|"
                # "self的shape在C、H、W的某个轴为0"
                rf"^(?P<s2>{NAME})\s*的\s*shape\s*在\s*(?P<letters2>(?:C、)?(?:D、)?H、W)\s*的\s*某个轴为\s*0$|"
                # "self为4D时，self为空", "当self为5D为空tensor时，且存在非第一维度的大小为0": at that rank
                rf"^当?\s*(?P<r2>{NAME})\s*为\s*(?P<rank2>[1-8])\s*[Dd维]\s*(?:时\s*[，,]\s*(?P=r2)\s*为\s*空"
                rf"(?:tensor|Tensor)?|为{_EMPTY}\s*时\s*[，,]\s*且\s*存在非第[一1]维度的(?P<but2>值|大小)为0)$")


def _empty_dims(m: re.Match[str]) -> Limits:
    if m["r2"]:
        return {"tensor": m["r2"], "rank": int(m["rank2"]), **({"from": 1} if m["but2"] else {})}
    if m["s2"]:
        return {"tensor": m["s2"], "last": m["letters2"].count("、") + 1}
    if m["s"]:
        return {"tensor": m["s"], **({"from": 1} if m["other"] else {"last": m["letters"].count("、") + 1})}
    if m["rank"]:
        return {"tensor": m["r"], "rank": int(m["rank"]), **({"from": 1} if m["but"] else {})}
    if m["rest"]:
        return {"tensor": m["t"], "from": 1}
    return {"tensor": m["t"], "last": _COUNT.get(m["last"]) or int(m["last"])}


empty_dims_limits = _reader(EMPTY_DIMS, _empty_dims)


# Tensor-list counts (list_counts.py builds the clause): "x1、x2的Tensor数量不一致", "x1、x2中的Tensor
# 数量不一致" (lists of one count); "scalars的元素个数与x1的Tensor数量不一致" (a tensor of as many
# elements as the list has tensors)
_LISTS_COUNT = rx(rf"^({NAME}(?:\s*(?:、|和|与)\s*{NAME})+)\s*(?:中)?的?\s*tensor\s*(?:数量|个数)\s*"
                  r"(?:不一致|不相等|不相同|不同)[。.]?$")
_ELEMENTS_COUNT = rx(rf"^({NAME})\s*的\s*元素个数\s*与\s*({NAME})\s*的\s*tensor\s*(?:数量|个数)\s*"
                     r"(?:不一致|不相等|不相同|不同)[。.]?$")
LIST_COUNT = rx(f"{_LISTS_COUNT.pattern}|{_ELEMENTS_COUNT.pattern}")


def list_count_limits(text: str) -> Limits | None:
    """{"lists": names} for lists of one count; {"elements": tensor, "lists": (list,)} for a
    tensor of as many elements as the list has tensors (None: neither)."""
    if m := _LISTS_COUNT.search(text):
        return {"lists": tuple(re.findall(NAME, m[1]))}
    if m := _ELEMENTS_COUNT.search(text):
        return {"elements": m[1], "lists": (m[2],)}
    return None
