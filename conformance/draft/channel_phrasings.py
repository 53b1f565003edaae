"""The phrasings of error rows about a tensor's channel axis (channel_ties.py builds their clauses,
once it knows which dimension the channel is): apart from the builder so patterns.py can read
them without importing the drafting context.

- tie: "mean、invstd、sumDy或sumDyXmu的shape与input的channel轴不一致", "gradWeight的size与input的
  channel轴不一致", "gamma，beta的shape和x的C轴不一致": each tensor named first has as many
  elements as x's channel axis;
- zero: "input的channel轴的size为0", "不支持input C轴为0的空Tensor": x's channel axis is not 0.

Which dimension the channel is the page says elsewhere (the formats of x, or "第2维固定为channel轴"):
channel_ties.channel_axis; ``STATED`` is that sentence.
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, rank_limits, rx
from conformance.draft.words import DIFFER, NAME

_AXIS = r"(?:channel\s*轴|C\s*轴|通道轴)"
_SIZE = r"(?:size|大小|长度|值)"
_TARGETS = rf"{NAME}(?:\s*(?:、|,|，|或者|或|和|/)\s*{NAME})*"
_TIE = rx(rf"^(?:参数|输入)?\s*(?P<targets>{_TARGETS})\s*的\s*(?:shape|size|大小|元素个数)\s*(?:与|和)\s*"
          rf"(?:输入|入参)?\s*(?P<source>{NAME})\s*(?:的\s*shape\s*中\s*|的\s*)?{_AXIS}\s*(?:的\s*{_SIZE})?\s*"
          rf"{DIFFER}\s*[。.]?$")
_ZERO = rx(rf"^(?:参数|输入)?\s*(?P<x>{NAME})\s*的\s*{_AXIS}\s*(?:的\s*)?{_SIZE}?\s*(?:为|等于)\s*0\s*"
           r"[。.]?$|"
           rf"^不支持\s*(?P<y>{NAME})\s*的?\s*{_AXIS}\s*(?:的\s*{_SIZE}\s*)?为\s*0\s*的\s*空\s*tensor\s*[。.]?$")
# "mean或invstd在第二维上的size与input的channel轴不一致": one dimension of each (counted from 1 only
# where the tensors have no dimension k counted from 0: channel_ties.py checks their ranks)
_AT_TIE = rx(rf"^(?P<at_targets>{_TARGETS})\s*(?:的\s*)?在?\s*第\s*(?P<k>[1-8])\s*维度?\s*上?\s*的\s*"
             rf"(?:size|大小)\s*(?:与|和)\s*(?:输入|入参)?\s*(?P<at_source>{NAME})\s*的\s*{_AXIS}\s*"
             rf"(?:的\s*{_SIZE})?\s*{DIFFER}\s*[。.]?$")
CHANNEL = rx(f"{_TIE.pattern}|{_ZERO.pattern}|{_AT_TIE.pattern}")
_SPLIT = rx(r"\s*(?:、|,|，|或者|或|和|/)\s*")
# "weight/bias/mean/invstd维度不为1维，或者shape不等于input C轴的长度": a rank and the tie (the
# rank part read by sentence_limits.rank_limits; patterns.match has made "一维" "1维")
_RANK_OR_TIE = rx(rf"^(?P<targets>{_TARGETS})\s*的?\s*(?P<rank>维度\s*(?:数)?\s*不为\s*\d+\s*维)\s*[，,]?\s*"
                  rf"(?:或者|或)\s*shape\s*(?:不等于|与)\s*(?:输入|入参)?\s*(?P<source>{NAME})\s*的?\s*{_AXIS}\s*"
                  rf"(?:的\s*(?:{_SIZE}))?\s*(?:{DIFFER})?\s*[。.]?$")
RANK_OR_CHANNEL = _RANK_OR_TIE

# "第2维固定为channel轴", "默认第二维为channel轴", "其中第2维固定为channel轴": which dimension (counted
# from 1, as the pages count it here) the channel axis is
STATED = rx(r"第\s*(?P<k>[1-8一二三四五六七八])\s*维度?\s*(?:固定)?\s*(?:为|是)\s*(?:channel|C|通道)\s*轴")
_ORDINALS = {c: i for i, c in enumerate("一二三四五六七八", 1)}


def channel_limits(text: str) -> Limits | None:
    """{"tie": (targets, x)} (with "at": k, the targets' dimension k counted from 1) or
    {"zero": x}; None: none of these."""
    if m := _TIE.search(text):
        return {"tie": (tuple(_SPLIT.split(m["targets"])), m["source"])}
    if m := _ZERO.search(text):
        return {"zero": m["x"] or m["y"]}
    if m := _AT_TIE.search(text):
        return {"tie": (tuple(_SPLIT.split(m["at_targets"])), m["at_source"]), "at": int(m["k"])}
    return None


def rank_or_channel_limits(text: str) -> Limits | None:
    """The rank limits and {"tie": (targets, x)} of a rank-or-tie row; None: not one."""
    m = _RANK_OR_TIE.search(text)
    rank = rank_limits(m["rank"]) if m else None
    return {**rank, "tie": (tuple(_SPLIT.split(m["targets"])), m["source"])} if m and rank else None


def stated_ordinal(text: str) -> int | None:
    """The dimension ``text`` says the channel axis is, counted from 1 (None: it says none)."""
    m = STATED.search(text)
    return None if m is None else _ORDINALS.get(m["k"]) or int(m["k"])
