"""An error row listing, item by item, the conditions a call must meet ("self和out的数据格式不在支持的
范围内。<br>1) self和out的数据格式相同；<br>2) self和out支持ND、NCHW、NCDHW。", the global pooling
pages): each numbered item states a requirement, not what is wrong, so no pattern reads it as
written. ``negated`` writes the item the way the vendor writes a violation, for patterns.match to
read; the clause quotes the item as the page gives it.

Read: the same format, rank or shape ("…的数据格式相同" → "…的数据格式不一致"), a largest and a
least rank ("最大维度不超过8维", "最小维度为4维"), and the formats supported, only where the item
lists exactly the formats the parameter table gives each tensor it names ("支持ND、NCHW、NCDHW" →
"…的数据格式不在支持的范围内", the table's list). Anything else stays for review.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection

from conformance.draft.context import Context
from conformance.draft.patterns import Match, match
from conformance.draft.sentence_limits import IDENT, rx

_ITEM = rx(r"^\s*\d\s*[)）]\s*(?P<rest>.+?)\s*[；;。.]?$")
_SAME = rx(r"^(?P<s>.+?)的?\s*(?P<w>数据格式|维度数|维数|shape|数据类型)\s*(?:相同|一致)$")
_MOST = rx(r"^(?P<s>.+?)最大维度数?\s*(?:不超过|为)\s*(?P<n>\d+)\s*维$")
_LEAST = rx(r"^(?P<s>.+?)最小维度数?\s*为\s*(?P<n>\d+)\s*维$")
_FORMATS = rx(r"^(?P<s>.+?)\s*(?:仅)?支持\s*(?P<f>[A-Z]+(?:\s*、\s*[A-Z]+)*)$")


def negated(text: str, names: Collection[str],
            formats_of: Callable[[str], tuple[str, ...]]) -> str | None:
    """The violation a numbered requirement item states, in the vendor's words; None: not one."""
    item = _ITEM.search(text)
    if item is None:
        return None
    rest = item["rest"]
    if m := _SAME.search(rest):
        return f"{m['s']}的{m['w']}不一致"
    if m := _MOST.search(rest):
        return f"{m['s']}的维度超过{m['n']}维"
    if m := _LEAST.search(rest):
        return f"{m['s']}的维度小于{m['n']}维"
    if m := _FORMATS.search(rest):
        listed = set(re.split(r"\s*、\s*", m["f"]))
        named = [n for n in IDENT.findall(m["s"]) if n in names]
        if named and all(set(formats_of(n)) == listed for n in named):
            return f"{m['s']}的数据格式不在支持的范围内"
    return None


def read(ctx: Context, text: str, names: Collection[str]) -> Match | None:
    """The reading of a numbered requirement item (its violation, ``negated``); None: not one."""
    said = negated(text, names, lambda n: ctx.rows[n].formats if n in ctx.rows else ())
    return match(said, names) if said is not None else None
