"""A conditional row whose body is the parameter table's lists: "当inputG为true时，sumDy或sumDyXmu的
数据类型和数据格式不在支持的范围之内" (conditions.py splits it and reads the condition).

The body names the row's tensors and says their dtype (or format) is outside what the table lists:
a ``dtype_in`` clause with each tensor's per-product lists (a ``format_in`` with its formats), with
the row's code, holding ``only_if`` the condition. The table's own clause on those tensors stays
(unspecified where no other row codes it): where both break only together, the draft keeps the
coded one (emit.py). A body naming a dtype ("数据类型不是INT64"), or tensors whose row lists none
the vocabulary knows, is not read; nor is a condition on a dtype (the clause's own break moves
that dtype). How a bool array's element in the condition is drawn: conditional_breaks.py.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.table_clauses import dtypes_per_product, known_formats

_KINDS = {"dtype_in", "format_in"}
# "不在支持的范围之内", "不支持", "不符合支持的…": the table's lists, no dtype named
_OUTSIDE = re.compile(r"不(?:在|属于|符合|满足)?[^，,]{0,6}支持")
_NAMED = re.compile(r"不是|不为|不等于|为[A-Z]")


def reads(kinds: Sequence[str], body: str) -> bool:
    """Whether a body read as ``kinds`` says the table's dtype or format lists do not hold."""
    return bool(kinds) and set(kinds) <= _KINDS and bool(_OUTSIDE.search(body)) \
        and not _NAMED.search(body)


def clauses(ctx: Context, e: Evidence, test: str, made_true: dict[str, Any]) -> list[Clause]:
    """The row's dtype_in and format_in clauses (none when one of them cannot be stated)."""
    names = list(e.params)
    if e.limits.get("scope") == "all" or not names or not expressible(*names) \
            or any(n not in ctx.tensors for n in names) or ".dtype" in test:
        return []
    out: list[Clause] = []
    for kind in e.limits["tables"]:
        lists = {n: _lists(ctx, kind, n) for n in names}
        if any(v is None for v in lists.values()):
            return []
        groups: dict[str, list[str]] = {}
        for n, v in lists.items():
            groups.setdefault(repr(v), []).append(n)
        for group in groups.values():
            option = ({"per_product": lists[group[0]]} if kind == "dtype_in"
                      else {"formats": lists[group[0]]})
            out.append({"id": ctx.new_id("DTYPE" if kind == "dtype_in" else "FORMAT"),
                        "source": source([e.sentence]), "kind": kind, "params": group, **option,
                        "on_violation": e.status, "only_if": test, "_evidence": [e], "_flag": made_true})
    return out


def _lists(ctx: Context, kind: str, name: str) -> Any:
    """A tensor's per-product dtypes, or its formats (table_clauses.known_formats), from its row;
    None when the row gives none."""
    if kind == "dtype_in":
        table = dtypes_per_product(ctx, name)
        return {p: list(v) for p, v in table.items()} if table else None
    row = ctx.rows.get(name)
    return known_formats(ctx, row) if row is not None and row.formats else None
