"""The phrasings of an int (or int array) attribute naming a dimension of a tensor outside the
tensor's dimensions (attr_clauses.dim_range builds the clause: within [-max(rank, 1), max(rank, 1)
- 1]). A sentence either writes the range over a tensor it names ("[-self.dim(), self.dim()-1]",
"[-N, N-1] (N表示self的维度)"), or says only that the attribute is out of range ("dim不在合法范围内",
"[-N, N-1]" with no N said): then the range is the one the attribute's own row writes, or none
(``documented``: attr_clauses.documented_dim). Apart from patterns.py so it reads them without
importing the drafting context."""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import NAME, OR

_END = r"[。.]?$"
_SUBJECT = rf"^(?:传入的|参数)?\s*{NAME}\s*"

# The dimension ranges a "dimension range" row may write out: [-r, r-1] as "[-x.dim(), x.dim()-1]"
# (or "[-x.dim，x.dim-1]"),
# "[-x.dim(), x.dim())", "[-x的维度数量, x的维度数量-1]" or "[-rank, rank-1]" (and "[-1, 0]" for a
# 0-d tensor, as max(rank, 1) gives). A sentence writing any other range that starts "[-"
# ("[-self.dim()-1, self.dim()]": an inserted dimension) is not that row.
_DIM_FORMS = re.compile(
    rf"\[\s*-\s*({NAME})\.dim(?:\(\))?\s*[,，]\s*\1\.dim(?:\(\))?\s*(?:-\s*1\s*\]|\))|"
    rf"\[\s*-\s*({NAME})\s*的\s*(维度数量|维度数|维数)\s*[,，]\s*\2\s*的\s*\3\s*-\s*1\s*\]|"
    r"\[\s*-\s*rank\s*[,，]\s*rank\s*-\s*1\s*\]|\[\s*-\s*1\s*[,，]\s*0\s*\]")


def dim_range_limits(text: str) -> Limits | None:
    """{} when every range ``text`` writes from "[-" is [-r, r-1]; None (not this row) otherwise."""
    starts = [m.start() for m in re.finditer(r"\[\s*-", text)]
    return None if any(_DIM_FORMS.match(text, i) is None for i in starts) else {}


def letter_range(group: str) -> str:
    """"[-N, N-1]", "[-dimNum, dimNum -1]", "[-x_rank, x_rank)": a range over a letter (in the named
    group ``group``) a sentence may say is a tensor's rank; any other range is not one."""
    return rf"\[\s*-\s*(?P<{group}>[A-Za-z][A-Za-z0-9_]*)\s*[,，]\s*(?P={group})\s*(?:-\s*1\s*\]|\))"


def letter_is(letter: str, group: str) -> str:
    """"N为self的维度", "N表示self的维度", "x_rank表示x的shape维度", "dimNum为self的维度大小" (a rank,
    as the range over it says): ``letter`` (a pattern) is the rank of the tensor in group ``group``."""
    return (rf"(?<![A-Za-z0-9_]){letter}\s*(?:为|表示|指)\s*(?:输入)?\s*(?P<{group}>{NAME})\s*的\s*"
            r"(?:shape\s*的?\s*)?维(?:度|数)")


_RANK = r"\[\s*-\s*rank\s*[,，]"  # "[-rank, rank-1]": the "dimension range" row's own form
# "dims超过[-N, N-1] (N表示self的维度)", "dim的取值越界不在[-dimNum, dimNum -1],dimNum为self的维度大小"
# (the tensor said), "dim的取值不在 [-N, N-1]的范围中", "axis的取值不在[-x_rank, x_rank)范围内" (not said)
LETTER_RANGE = rx(rf"{_SUBJECT}(?:的取值|的值)?\s*(?:越界)?\s*(?:不在|超过|超出)\s*"
                  rf"(?!{_RANK}){letter_range('n')}\s*(?:的|之间的)?\s*(?:范围)?\s*(?:中|内|之内|以内)?\s*"
                  rf"(?:[,，]?\s*[（(]?\s*{letter_is('(?P=n)', 't')}(?:大小|数量)?\s*[)）]?)?{_END}")


def letter_range_limits(text: str) -> Limits | None:
    """{} where the sentence says whose rank the letter is (it names the tensor); else documented."""
    m = LETTER_RANGE.search(text)
    return None if m is None else {} if m["t"] else {"documented": True}


# "dim指定的维度不在合法范围内", "dim超出tensor数组维度": out of range, the range unsaid
DOCUMENTED = rx(rf"{_SUBJECT}(?:指定的维度\s*不在合法的?范围内?|超出\s*tensor\s*数组维度)时?{_END}")

# "dim的绝对值超出self的dim最大值或超出8维": the attribute past the tensor's dimensions (the range its
# own row writes: the absolute value alone leaves -rank in doubt), or the tensor past 8 dimensions
ABS_OR_RANK = rx(rf"{_SUBJECT}的绝对值\s*(?:超出|超过|大于)\s*(?:输入)?\s*{NAME}\s*的\s*(?:dim|维度)\s*最大值"
                 rf"{OR}(?:超出|超过|大于)\s*(?P<max>\d+)\s*维{_END}")


def abs_or_rank_limits(text: str) -> Limits | None:
    """{"documented": True, "max": n}: the dimension range its row writes and the rank limit."""
    m = ABS_OR_RANK.search(text)
    return None if m is None else {"documented": True, "max": int(m["max"])}


# "axes中有值的取值越界，不在[-self.dim(), self.dim() - 1]，或表示的轴有重复": every axis within the
# range written, and no axis twice (two clauses: distinct_clauses.py)
RANGE_OR_REPEAT = rx(rf"{_SUBJECT}中有值的?\s*(?:取值)?\s*越界\s*[，,]?\s*不在\s*\[[^\]]*\]\s*(?:范围内?)?"
                     rf"{OR}表示的轴有重复{_END}")
