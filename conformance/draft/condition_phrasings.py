"""How the vendor writes a condition in an error row or usage note: "当…时，", "若…", "…时，…", an
attribute's value and 时 with no comma, a flag joined by 且, an optional argument given or absent.
``is_conditional`` says whether a sentence is one (patterns.match reads no unconditional clause
from it; conditions.py reads those it can)."""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import rx
from conformance.draft.words import NAME, QUOTE

# "当…时，" / "若…" / "…时，…": a conditional sentence is no unconditional clause (but "X不为空指针
# 时，…", the condition of an optional argument's presence, is what a clause on it means anyway)
# "当self.dim()=0时，dim的取值不在[-1, 0]内": the two branches of one dimension-range rule; "当输入self
# 的维度不在[2,8]范围内": a rank range, the 当 saying when the call fails (no 时, nothing after it)
RANK_CONDITION = re.compile(r"^当\s*\w+\.dim\(\)\s*[=>]|"
                            r"^当\s*(?:输入)?\s*\w+\s*的?\s*(?:维度|维数)数?\s*不在\s*\[[^\]]*\]\s*范围(?:内|之内)?$")
_CONDITION = re.compile(r"^(?:当(?!前)|若|对于)|"
                        r"(?<!空指针)(?<!不为空)(?<!非空)(?<!存在)(?:时|情况下|场景下)[，,:：]")
# "quant_type为static时quantScaleOptional为空指针": an attribute's value, 时 and no comma before a name
BARE_WHEN = rx(rf"^(?:当|若|如果)?\s*(?P<cond>{NAME}\s*(?:为|是|等于|=)\s*"
               rf"{QUOTE}?[A-Za-z0-9_.\-]+{QUOTE}?)\s*时(?=\s*[A-Za-z_])")
# "outputMask[0]为True且gradInputOut为空指针": a flag (or a bool array's element) and what is wrong
FLAG_AND = rx(rf"^\s*(?P<cond>{NAME}(?:\s*\[\s*\d+\s*\])?\s*(?:为|是|等于|=)\s*(?:true|false))\s*且")
# "biasOptional存在时，…", "x不为空指针时，…", "传入biasOptional时，…": the condition that an optional
# argument is given. A rule on that argument (alone, or relating it to one other) holds only where it
# is given anyway, so match() reads it as unconditional; one naming any other argument is not
# (conditions.py reads it, or it stays for review)
GIVEN = rx(rf"^\s*(?:(?:可选输入|输入|参数)?\s*(?P<name>{NAME})\s*(?:存在输入|存在|不为空指针|非空指针|"
           rf"不为nullptr|不是nullptr|不为空|非空)|传入了?\s*(?P<passed>{NAME}))\s*时\s*[，,]")
# "biasOptional为空指针时，scaleOptional为空指针": a rule where an argument is absent, no clause here
ABSENT = rx(rf"^\s*(?:传入的?)?\s*{NAME}\s*(?:为|是)\s*(?:空指针|nullptr)\s*时\s*[，,]")


def is_conditional(text: str) -> bool:
    """Whether ``text`` states a condition (no unconditional clause reads it)."""
    return bool(_CONDITION.search(text) or BARE_WHEN.search(text) or FLAG_AND.search(text))
