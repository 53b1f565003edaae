"""A sentence one pattern reads may say more after a comma and 或 ("groupIndex的数据类型不是INT64，或
groupIndex为空tensor", "latent不是2维，或headDim不等于512", "x的数据类型不受支持，或x与out的数据类型不同"):
the pattern encodes its own part only, so the sentence is checkable only when every comma-or part
is a rule of the pattern's kinds. Otherwise its clause still judges what it reads, and the sentence
is reviewed. Patterns that read two parts themselves (" or " in their names, a dimension's half
with its rank) are read whole."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection

from conformance.draft.patterns import Match

Matcher = Callable[[str, Collection[str]], Match | None]

_PARTS = re.compile(r"[，,]\s*(?:或者|或)")
# the subject a bare continuation shares ("self维度大于8，或小于2": "小于2" is self维度's too)
_SUBJECT = re.compile(r"^(.*?(?:的|维度|维数|shape))")
_CONTINUATION = re.compile(r"^(?:小于|大于|超过|不等于|不为|不是|不在|非)")
_WHOLE = frozenset({"half a dimension"})


def unread_part(text: str, found: Match, names: Collection[str], matcher: Matcher) -> bool:
    """Whether a comma-or part of ``text`` states a rule ``found`` (the whole sentence's reading)
    does not encode: a part no pattern reads, or one read as another kind of clause."""
    if " or " in found.pattern or found.pattern in _WHOLE:
        return False
    parts = [p.strip() for p in _PARTS.split(text) if p.strip()]
    for before, part in zip(["", *parts], parts if len(parts) > 1 else []):
        subject = _SUBJECT.match(before)
        if _CONTINUATION.match(part) and subject:
            part = subject[1] + part
        m = matcher(part, names)
        if m is None or not set(m.kinds) <= set(found.kinds):
            return True
    return False
