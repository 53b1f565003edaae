"""Rank rows beyond one limit on the tensors named: a sentence stating several tensors' ranks, each
its own rule ("vec1和vec2维度不为1，self维度超过2", "input维度小于2或者大于8，mean和invstd维度不为1",
"x的维度不为4或gamma/beta的维度非1", "target非3维tensor，self非4维tensor"), and the word "dim" for a
tensor's rank ("self的dim不为3", "selfRef的dim不为2、indices的dim超出8维").

One rank_in clause per part, each carrying the row's code (one clause would put every named tensor
under the first part's limits); clauses.py counts the sentence checkable only when every part is.
A part must name its tensors alone before the rank words ("params中权重维度不是2维" speaks of some
elements of a list) and carry no note in brackets ("output、hy维度不是3维（定长模式）": a mode).
"""
from __future__ import annotations

import re
from collections.abc import Collection

from conformance.draft.sentence_limits import Limits, named, rank_limits, rx
from conformance.draft.words import NAME

# "self的dim不为3", "indices的dim超出8维": a tensor's dim written for its rank (never "dim的绝对值…"
# nor "self的dim最大值": only a dim compared with a number)
_DIM_RANK = re.compile(r"(?<=的)\s*dim(?=\s*(?:不为|不是|不等于|超出|超过|大于|小于|非)\s*\d)")
# "x1或x2的维度大小不等于3", "x1或x2的ViewShape的维度大小不等于3", "selfRef和min的维度大小超过8": a
# whole sentence giving tensors one 维度大小 and a bare number, so the size is their number of dims
# (elsewhere "维度大小" is one dim's size, and a sentence naming which dim is no rank row)
_SIZE_RANK = rx(rf"^((?:参数|输入|输出)?\s*{NAME}(?:\s*(?:、|,|，|和|与|或者|或)\s*{NAME})*\s*的\s*)"
                r"(?:ViewShape\s*的\s*)?维度大小(?=\s*(?:不等于|不为|超过|大于)\s*\d+\s*。?$)")
# "self的维度数小于2": the number of dims compared with a number
_COUNT_RANK = re.compile(r"(?<=的)\s*维度数(?=\s*(?:不等于|不为|不是|超过|大于|小于)\s*\d)")
# "x的维度", "gamma/beta的维度", "vec1和vec2维度", "target非3维": names, then the rank words
_SUBJECT = rx(rf"^(?:参数|输入|输出)?\s*{NAME}(?:\s*(?:、|,|，|和|与|或者|或|/)\s*{NAME})*\s*的?\s*"
              r"(?:维度|维数|shape|非|不是|不为)")
# where a part may end and the next begin: a comma, "、", "或" or "或者" before a name
_CUT = re.compile(r"\s*(?:[，,、；;]\s*(?:或者|或)?|或者|或)\s*(?=[A-Za-z_])")
_NOTE = re.compile(r"[（(]")


def spoken_rank(text: str) -> str:
    """``text`` with "的dim" and "的维度数" compared with a number, and a whole sentence's "的维度大小",
written "的维度" (the rank patterns' word)."""
    return _COUNT_RANK.sub("维度", _SIZE_RANK.sub(r"\1维度", _DIM_RANK.sub("维度", text)))


def rank_parts_limits(text: str) -> Limits | None:
    """{"parts": [(part text, its limits), ...]} for two parts or more (None: not such a row)."""
    parts, start = [], 0
    for m in _CUT.finditer(text):
        if _part(text[start:m.start()]) is not None:
            parts.append(text[start:m.start()])
            start = m.end()
    parts.append(text[start:])
    read = [_part(p) for p in parts]
    if len(parts) < 2 or any(r is None for r in read):
        return None
    return {"parts": list(zip(parts, read))}


def _part(text: str) -> Limits | None:
    if not _SUBJECT.search(text) or _NOTE.search(text):
        return None
    return rank_limits(text)


def name_parts(limits: Limits, names: Collection[str]) -> Limits | None:
    """The parts with the page's parameters each names in place of its text (None: a part names
    none of them, so no clause could say it)."""
    parts = [(named(text, names), own) for text, own in limits["parts"]]
    return None if any(not params for params, _ in parts) else {"parts": parts}
