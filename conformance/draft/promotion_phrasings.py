"""The vendor's phrasings of a failed dtype promotion (the deduction_relationship page's tables:
the inputs named have no promoted dtype), alone or joined by "或" to the promoted dtype's cast.

"self和other无法做数据类型推导", "x、y的数据类型不满足数据类型推导规则", "不满足互推导关系", "selfRef与
max类型推导失败", "selfRef与other不能推导出数据类型", "x1或x2无法做数据类型推导" (或 joining names),
"tensors列表中无法做数据类型推导" (a list's elements), "…不满足数据类型推导规则时" (时 closing the
sentence: when it is so). A sentence naming an output is about something else (the promotion
page speaks of inputs only); promotion_clauses.py keeps only inputs.

"self与max类型推导失败，或推导类型无法转为out的数据类型": two rules under one code, the inputs'
promotion and the promoted dtype's cast to out (``{"promote": [...], "from": [], "to": out}``).
"""
from __future__ import annotations

from conformance.draft.sentence_limits import CAST_VERB, IDENT, PROMOTED, SOURCES, Limits, rx
from conformance.draft.words import NAME

_END = r"(?:时)?$"
PROMOTE = rx(r"(?:(?:无法|不能|不可以?)(?:做|进行)?(?:数据)?类型推导|(?:不满足|不符合|无法满足)(?:数据类型)?"
             r"(?:推导规则|互推导关系)|不支持(?:数据)?类型推导|的数据类型无法进行推导|(?<![出后])(?:数据)?类型推导失败"
             r"|(?:无法|不能)推导出(?:数据)?类型)" + _END)
# words no promotion sentence has besides the names: another rule ("或" not joining two names,
# 转换, shape, 维, 范围); checked on the sentence with its compound names blanked
PROMOTE_EXCLUDE = rx(r"或(?!\s*[A-Za-z_])|转|shape|维|范围")

PROMOTE_OR_CAST = rx(rf"^{SOURCES}\s*(?:的)?(?:数据)?类型推导失败\s*[，,]?\s*或者?\s*"
                     rf"(?:{PROMOTED}|推导类型)\s*{CAST_VERB}({NAME})\s*的?(?:数据)?类型$")


def promote_or_cast_limits(text: str) -> Limits | None:
    """The promoted inputs and the cast's target: the cast's sources are the promotion's."""
    m = PROMOTE_OR_CAST.search(text)
    if m is None or not m[1]:
        return None
    return {"promote": IDENT.findall(m[1]), "from": [], "to": m[2]}
