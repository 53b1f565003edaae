"""Valid cases that keep tensors in one dtype where an unread sentence may ask it (``dtype_together``).

A review clause quoting a sentence about dtypes (数据类型, 类型, dtype) that names two or more
tensors ("当gated为true时，gateOut和x的数据类型或shape不一致", "y与x须采用同一种数据类型" on y's row)
may mean they must share a dtype; no clause says so, so valid cases would draw each its own dtype
and a kernel rejecting the mix as its page says would be reported wrong. The draft ties them in
the generate section instead: a generation constraint only, never judged (the review clause stays
for a person). A condition no pattern read is not weighed: the tie holds always, the safe side (a
mix the page allows is left untested; one it forbids is never drawn as valid).
"""
from __future__ import annotations

import re
from typing import Any

from conformance.draft.context import Clause, Context
from conformance.draft.sentence_limits import named

#: What marks a sentence as one about dtypes ("数据类型" and "类型" alike).
_DTYPE_WORD = re.compile(r"类型|dtype", re.IGNORECASE)


def dtype_together(ctx: Context, reviews: list[Clause]) -> list[dict[str, Any]]:
    """One ``dtype_together`` entry per review clause of the page (not the draft's own notes)
    about dtypes naming two or more tensors, with the id of the clause it comes from."""
    out = []
    for clause in reviews:
        quote = clause["source"]["quote"]
        if clause["source"].get("doc") != "upstream" or not _DTYPE_WORD.search(quote):
            continue
        tensors = [n for n in (*_owners(ctx, quote), *named(quote, [*ctx.params, *ctx.omitted]))
                   if n in ctx.tensors]
        tensors = list(dict.fromkeys(tensors))
        if len(tensors) >= 2:
            out.append({"params": tensors, "from": clause["id"]})
    return out


def _owners(ctx: Context, quote: str) -> list[str]:
    """The parameter whose usage notes hold ``quote`` (a note names its own row's tensor by
    standing in its row: "数据类型需与x相同")."""
    return [row.name for row in ctx.facts.params if any(s.text == quote for s in row.usage)]
