"""The phrasings of dimension rows beyond a rank limit (dim_clauses.py builds their clauses):
same-rank rows, zero-dimension rows, and a rank limit beside equal shapes or one rank. Apart from
the builders so patterns.py can read them without importing the drafting context."""
from __future__ import annotations

import re
from collections.abc import Callable

from conformance.draft.sentence_limits import IDENT, Limits, rank_limits, rx
from conformance.draft.words import DIFFER, NAME, OR

_NAMES = (rf"[（(]?\s*{NAME}(?:\s*(?:、|,|，|和|与|或|以及)\s*{NAME})+"
          r"\s*[)）]?")
_RANK_WORD = r"(?:维度数量|维度数|维数|维度)"
_END = r"[。.]?$"
# "self、index的维度数不一致", "（x1、x2、yOut）的维数不一致", "self和target维度不一致",
# "gradOutput的维度与self不一致", "self与out的维度不一致"
SAME_RANK = rx(rf"^(?:参数|输入)?\s*{_NAMES}\s*的?\s*{_RANK_WORD}\s*{DIFFER}{_END}|"
               rf"^(?:参数|输入)?\s*{NAME}\s*的\s*{_RANK_WORD}\s*(?:与|和)\s*{NAME}\s*"
               rf"(?:的\s*{_RANK_WORD})?\s*{DIFFER}{_END}")
# "（x1、gamma、meanOut）的任意一个维度等于0", "x的某一维不大于0" (a dim is never negative), "传入tensor中
# 任意维度为零的均不满足要求" (every tensor); not "x的shape的…" (the empty-tensor clause takes only
# sentences naming nothing but tensors); patterns.match has made "某一维" "某1维"
ZERO_DIM = rx(rf"^(?:传入的|输入的?)?\s*(?:{_NAMES}|{NAME})\s*(?:的|中)?\s*"
              r"(?:任意一个|任意|任[一1]|某[一1]个?|某个)\s*(?:维度|维|轴)\s*(?:的值|的大小|大小)?\s*"
              rf"(?:等于|为|是|不大于|小于等于)\s*(?:0|零){_END}|"
              rf"^传入的?\s*tensor中任意维度为(?:0|零)的均不满足要求{_END}")

# "self和out的shape超过8维，或者两者shape不一致", "input和output的shape不一致，或者shape的维度大于8维或者
# 小于2维": a rank limit and equal shapes (rank_in and same_shape clauses); "input、angle、out维度超过
# 8维或不一致": a rank limit and one rank (rank_in, and rank_in marked same)
RANK_OR_SHAPE = rx(rf"^{_NAMES}\s*的\s*shape\s*(?P<a>[^，,]*维){OR}(?:两者|二者)?\s*(?:的)?\s*shape\s*"
                   rf"{DIFFER}{_END}|^{_NAMES}\s*的\s*shape\s*{DIFFER}{OR}shape的(?P<b>维度[^，,]*){_END}")
RANK_OR_RANKS = rx(rf"^{_NAMES}\s*的?\s*(?P<a>{_RANK_WORD}\s*(?:超过|大于)\s*\d+\s*维?){OR}{DIFFER}{_END}")


def rank_part_limits(regex: re.Pattern[str]) -> Callable[[str], Limits | None]:
    """The limits of the rank rule ``regex`` finds beside another rule (None: none read)."""
    def limits(text: str) -> Limits | None:
        m = regex.search(text)
        part = next((v for v in m.groupdict().values() if v), None) if m else None
        return rank_limits(part) if part else None
    return limits


def same_rank_limits(text: str) -> Limits | None:
    """{} for a same-rank sentence naming two tensors or more (None: not one)."""
    return {} if SAME_RANK.search(text) and len(set(IDENT.findall(text))) >= 2 else None


# One dimension of a tensor tied to another's (dim_ties.py builds the clause and its draws), read
# only where the dimension is named from the end: "最后一维" (-1), "倒数第二维" (-2), "尾轴" (-1). An
# ordinal from the front ("第二维") is left alone: the vendor's pages count it from 0 on some pages
# and from 1 on others, so the sentence does not say which dimension it means.
_DIM_AT = {"最后一维度": -1, "最后一维": -1, "最后一个维度": -1, "最后一轴": -1, "尾轴": -1,
           "倒数第二维度": -2, "倒数第二维": -2, "倒数第二个维度": -2}
_DIM_AT |= {k.replace("一维", "1维").replace("第二维", "第2维"): v for k, v in _DIM_AT.items()}  # (as
# patterns.match has rewritten the numeral before "维")
_AT = "|".join(sorted(map(re.escape, _DIM_AT), key=len, reverse=True))
_SIZE = r"(?:的大小|大小|的值|的size|的长度)?"
_TENSOR = rf"(?:参数|输入)?\s*({NAME})\s*的?\s*(?:shape\s*的?\s*)?"
# "batch1的最后一维和batch2的倒数第二维不相等", "gamma的最后一维和x最后一维不一致",
# "x最后一维不等于gradY最后一维的2倍"
_PAIR = rx(rf"^{_TENSOR}({_AT}){_SIZE}\s*(?:和|与|跟)\s*{_TENSOR}({_AT}){_SIZE}\s*"
           rf"(?:不相等|不一致|不相同|不同|不等){_END}")
_TIMES = rx(rf"^{_TENSOR}({_AT}){_SIZE}\s*(?:不等于|不为|不是)\s*{_TENSOR}({_AT}){_SIZE}\s*"
            rf"(?:的\s*(\d+)\s*倍)?{_END}")
# "self最后两个维度不相等", "self的最后两维维度不相等": a square matrix
_SQUARE = rx(rf"^{_TENSOR}最后两(?:个)?维(?:度)?(?:维度)?{_SIZE}\s*(?:不相等|不一致|不相同|不同)"
             rf"(?:\s*[（(]\s*不是方阵\s*[）)])?{_END}")  # ("…不相等（不是方阵）": the same said twice)
# "x的最后一维不是2的倍数", "x的最后一维不能被2整除", "x的尾轴大小不是偶数"
_EVEN = rx(rf"^{_TENSOR}({_AT}){_SIZE}\s*(?:不是\s*2\s*的倍数|不能被\s*2\s*整除|不是偶数|不为偶数){_END}")
# "spatialShape的最后一轴不是2", "x的尾轴大小不等于4": one dimension of a fixed size (never 0: an
# empty dimension is the empty-tensor rows' business)
_FIXED = rx(rf"^{_TENSOR}({_AT}){_SIZE}\s*(?:不是|不为|不等于)\s*([1-9]\d*){_END}")
# "self最后一维的大小超过8192", "self最后一个维度的大小不能超过2^24": one dimension's upper limit
_MOST = rx(rf"^{_TENSOR}({_AT}){_SIZE}\s*(?:不能超过|不能大于|超过|大于)\s*(2\s*\^\s*\d+|[1-9]\d*){_END}")
DIM_TIE = rx("|".join(r.pattern for r in (_PAIR, _TIMES, _SQUARE, _EVEN, _FIXED, _MOST)))


def dim_tie_limits(text: str) -> Limits | None:
    """{"tie": (target, at, source, from, times)}: target.shape[at] == times * source.shape[from];
    {"even": (tensor, at)}: tensor.shape[at] % 2 == 0; {"fixed": (tensor, at, n)}: tensor.shape[at]
    == n; {"most": (tensor, at, n)}: tensor.shape[at] <= n (None: not one of these phrasings)."""
    if m := _PAIR.search(text):
        return {"tie": (m[3], _DIM_AT[m[4]], m[1], _DIM_AT[m[2]], 1)}
    if m := _TIMES.search(text):
        return {"tie": (m[1], _DIM_AT[m[2]], m[3], _DIM_AT[m[4]], int(m[5] or 1))}
    if m := _SQUARE.search(text):
        return {"tie": (m[1], -1, m[1], -2, 1)}
    if m := _EVEN.search(text):
        return {"even": (m[1], _DIM_AT[m[2]])}
    if m := _FIXED.search(text):
        return {"fixed": (m[1], _DIM_AT[m[2]], int(m[3]))}
    if m := _MOST.search(text):
        base, _, power = m[3].replace(" ", "").partition("^")
        return {"most": (m[1], _DIM_AT[m[2]], int(base) ** int(power) if power else int(base))}
    return None


# "x与out的shape不满足约束", "out的shape不满足infershape结果", "out的shape与实际不匹配", "out的shape不等于
# 由self，dims，keepDims推导得到的shape": a shape constraint the row does not state (shape_notes.py
# looks for it in the usage notes; reduction_shapes.py reads a reduction's output)
_SHAPE_NAMES = r"(?:传入的|参数|输入的?|输出的?)?[A-Za-z_0-9、，,\s和与或及]*?"
_SHAPE_VAGUE = (r"(?:(?:对应的?\s*)?(?:shape\s*)?约束(?:条件|要求)?|要求|(?:校验|限制)?条件|限制(?:要求)?|"
                r"对应关系|匹配关系|参数说明中?的?要求|参数要求|infer_?shape(?:结果)?|推导结果|推导|(?:计算公式|功能说明)中的推导规则)")
VAGUE_SHAPE = rx(rf"^{_SHAPE_NAMES}(?:的|之间的)?\s*shape\s*"
                  rf"(?:(?:不满足|不符合){_SHAPE_VAGUE}|与实际(?:输出\s*shape)?\s*不匹配|"
                  rf"不等于由{_SHAPE_NAMES}推导得到的\s*shape)\s*。?$")


# "keepdim为true时，out.shape != self.shape(指定维度dim设置为1的形状)", "keepdim为false时，out.shape !=
# self.shape(去除指定维度dim后的形状)": a reduction's output, each half of it said under its flag
# (reduction_shapes.py joins the halves: the clause needs both)
_KEPT = r"指定维度\s*\w+\s*设置为\s*1\s*的形状"
_DROPPED = r"去除指定维度\s*\w+\s*后的形状"
KEEP_SHAPE = rx(r"keep_?dims?\s*为\s*(?:(?P<kept>true)|false)\s*时\s*[，,]\s*"
                r"(?P<out>[A-Za-z_]\w*)\.shape\s*!=\s*"
                rf"(?P<x>[A-Za-z_]\w*)\.shape\s*[（(]\s*(?(kept){_KEPT}|{_DROPPED})\s*[)）]")


def keep_shape_limits(text: str) -> Limits | None:
    """{"keep": the flag values said, "reduced": (output, input)}; None when the halves of a
    sentence name different tensors."""
    found = list(KEEP_SHAPE.finditer(text))
    pairs = {(m["out"], m["x"]) for m in found}
    if len(pairs) != 1:
        return None
    return {"keep": sorted({bool(m["kept"]) for m in found}), "reduced": pairs.pop()}


# "self中需要reduce的维度size为0", "dim指定的轴为空轴", "self对应dim维度的size不能为0": a reduction over
# an axis of no elements (reduction_shapes.py: the reduction's input and dimension)
EMPTY_AXIS = rx(rf"^(?:{NAME}\s*中)?\s*需要\s*reduce\s*的维度\s*size\s*为\s*0$|^{NAME}\s*指定的轴为空轴$|"
                rf"^{NAME}\s*对应\s*{NAME}\s*维度的\s*size\s*不能为\s*0$")


# "（x1、x2、yOut、xOut）的shape不是完全相同的shape", "输入x和输出y的shape不是完全相同的shape": the
# tensors named share one shape (the whole sentence: "…，或二者的维度数不为1" says more)
NOT_IDENTICAL = rx(r"^[（(]?(?:输入的?|输出的?|[A-Za-z_0-9、，,\s和与及])+[)）]?\s*的\s*shape\s*"
                    r"不是完全相同的\s*shape\s*。?$")
# "x的shape与antiquantScale不一致": one tensor's shape against another's, a name too long for the
# gap "shapes differ" allows (the whole sentence)
SHAPE_WITH = rx(rf"^{NAME}\s*的?\s*shape\s*(?:与|和|跟)\s*"
                 rf"(?:输入的?)?{NAME}\s*(?:的\s*shape)?\s*(?:不一致|不相同|不同)\s*。?$")


# Pad operators' rows (pads.py builds their clauses; the padding row must say which dims its pairs
# pad). "padding的数值大于等于self对应维度的值", "padding内的数值大于等于self的维度大小", "padding里的数值
# 大于等于对应self的维度大小", "padding的数值大于等于self最后一维度的值" (patterns.match has made "一维"
# "1维"): a padding value at or above the size of the dim it pads
PAD_LIMIT = rx(rf"^({NAME})\s*(?:的|内的?|里的?|中的?)\s*数值\s*大于等于\s*(?:对应的?\s*)?({NAME})\s*的?\s*"
               rf"(对应|最后1)?\s*维度?\s*的?\s*(?:值|大小)?{_END}")
# "out后两维度的值不等于self后两维度的值加对应padding", "out最后一维的值不等于self最后一维的值加padding的
# 两个值": the padded dims of the output; "gradOutput shape需要与reflection_pad2d正向传播的output一致":
# the gradient has the forward output's shape
_PADDED = r"(最后1维度?|后两维度?|后3维度?)"
_PAD_OUT = rx(rf"^({NAME})\s*的?\s*{_PADDED}\s*的?\s*(?:值|大小)\s*不等于\s*({NAME})\s*的?\s*{_PADDED}"
              rf"\s*的?\s*(?:值|大小)\s*加\s*(?:对应的?\s*)?({NAME})\s*(?:的两个值)?{_END}")
_PAD_GRAD = rx(rf"^({NAME})\s*的?\s*shape\s*(?:需要|需)?\s*与\s*\w+\s*正向传播的\s*output\s*一致{_END}")
PAD_SHAPE = rx(f"{_PAD_OUT.pattern}|{_PAD_GRAD.pattern}")
_PAIRS = {"最后1维度": 1, "最后1维": 1, "后两维度": 2, "后两维": 2, "后3维度": 3, "后3维": 3}


def pad_limit_limits(text: str) -> Limits | None:
    """{"pad", "tensor"} and, for "最后一维度", "pairs": 1 (None: not this row)."""
    m = PAD_LIMIT.search(text)
    if m is None:
        return None
    return {"pad": m[1], "tensor": m[2], **({"pairs": 1} if m[3] == "最后1" else {})}


def pad_shape_limits(text: str) -> Limits | None:
    """{"padded", "tensor", "pad", "pairs"} for an output's padded dims; {"padded", "forward": True}
    for a gradient of the forward output's shape (None: neither)."""
    if m := _PAD_OUT.search(text):
        if _PAIRS[m[2]] != _PAIRS[m[4]]:
            return None
        return {"padded": m[1], "tensor": m[3], "pad": m[5], "pairs": _PAIRS[m[2]]}
    if m := _PAD_GRAD.search(text):
        return {"padded": m[1], "forward": True}
    return None


# One parameter's rank, length or value against a tensor's rank (rank_ties.py builds the clause):
# "input的维度小于normalizedShape的维度", "x1的维数小于gamma", "参数repeats的参数个数小于输入tensor的维度",
# "axis的值大于self的维度数量", "indices中Tensor个数超过selfRef维度数" (a list's count); "输入tensor" is
# the page's one input tensor
_MEASURE = (r"(shape\s*维度|维度数量|维度数|维数|维度|参数个数|元素个数|个数|长度|值|"
            r"中\s*tensor\s*(?:个数|数量))")
RANK_COMPARE = rx(rf"^(?:参数|输入)?\s*({NAME})\s*的?\s*{_MEASURE}\s*(小于等于|大于等于|小于|大于|超过)\s*"
                  rf"(输入tensor|{NAME})\s*(?:的?\s*(?:shape\s*)?(维度数量|维度数|维数|维度))?{_END}")
_RANK_WORDS = {"维度数量", "维度数", "维数", "维度"}


def rank_compare_limits(text: str) -> Limits | None:
    """{"left", "measure": rank | length | value | count, "op", "right"} (None: not this row)."""
    m = RANK_COMPARE.search(text)
    if m is None:
        return None
    word = re.sub(r"^shape\s*", "", m[2])
    if (m[5] or word) not in _RANK_WORDS or (m[5] is None and word not in _RANK_WORDS):
        return None
    measure = ("rank" if word in _RANK_WORDS else "value" if word == "值"
               else "count" if word.startswith("中") else "length")
    return {"left": m[1], "measure": measure, "op": m[3], "right": m[4]}
