"""Conditions on a tensor's data type: "当x的数据类型为INT32时，…", "self的数据类型为FLOAT16、BFLOAT16时，…",
"y的数据类型不为INT32时，…", "当x为BFLOAT16时，…" (conditions.py reads the body and writes the clause).

The condition is ``x.dtype == 'INT32'`` (``in``/``!=``/``not in`` for several values or a negation),
the dtypes named in the vocabulary's spelling. A break cannot set a dtype (a break draws shapes and
attributes; dtypes are drawn by the case builder from each tensor's list), so a case breaking the
clause is one drawn in a dtype making the condition true: that dtype must be one the tensor may
have on EVERY product of the page, or the run's item on the product lacking it could never break
the clause (and the draft would leave it out as one nothing breaks alone). A condition naming a
dtype the vocabulary does not know (INT4, HIFLOAT8), two tensors ("y1Out或y2Out的数据类型…"), a
class of dtypes ("为实数", "为浮点型") or a tensor list is not read.
"""
from __future__ import annotations

import re
from typing import Any

from conformance.draft.context import Context, expressible
from conformance.draft.dtype_phrasings import dtype_names
from conformance.draft.sentence_limits import rx
from conformance.draft.table_clauses import dtypes_per_product
from conformance.draft.words import DTYPE_SEP, DTYPES, NAME

# "x的数据类型为INT32" / "x数据类型是float16" / "x的dtype为BF16" / "x为BFLOAT16" (the dtype's name says it)
_CONDITION = rx(rf"^(?:输入|参数|输出)?\s*(?P<name>{NAME})\s*(?:的?\s*(?:数据类型|dtype))?\s*"
                r"(?P<op>不为|不是|不等于|为|是|等于)\s*"
                rf"(?P<values>{DTYPES})\s*(?:类型)?$")
_NEGATIONS = ("不为", "不是", "不等于")


def condition(ctx: Context, text: str) -> tuple[str, dict[str, Any]] | None:
    """(the expression, no attribute draws: the case's dtypes make it true) of a condition on one
    tensor's dtype; None when the text is not one, or some product cannot make it true."""
    m = _CONDITION.search(text)
    if m is None or m["name"] not in ctx.params or ctx.params[m["name"]]["kind"] != "tensor" \
            or not expressible(m["name"]):
        return None
    name, negated = m["name"], m["op"] in _NEGATIONS
    values = dtype_names(ctx.vocab, re.split(DTYPE_SEP, m["values"]))
    if values is None or not _possible(ctx, name, values, negated):
        return None
    test = (f"{name}.dtype {'!=' if negated else '=='} {values[0]!r}" if len(values) == 1
            else f"{name}.dtype {'not in' if negated else 'in'} {tuple(values)!r}")
    # an optional tensor left out has no dtype: the condition holds only when it is given
    return (f"present({name}) and {test}" if ctx.params[name].get("optional") else test), {}


def _possible(ctx: Context, name: str, values: list[str], negated: bool) -> bool:
    """Whether on every product the tensor may have a dtype making the condition true."""
    table = dtypes_per_product(ctx, name)
    if table is None:
        return False
    return all(any((d in values) != negated for d in listed) for listed in table.values())
