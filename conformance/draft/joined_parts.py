"""A sentence joining two conditions with 或 ("dim的绝对值超出self的dim最大值或超出8维", "axes中有值…越界，
…，或表示的轴有重复", "self的数据类型和数据格式不在支持的范围之内", "x、y维度超过8维或不一致") says the row's
code for each: it is checkable only where every part became a
clause. Each clause encoding one part counts for the sentence only beside the others' clauses (the
``_with`` ids clauses.py checks, so a part left out later, as untestable, takes the sentence along);
a part no clause encodes leaves none counting."""
from __future__ import annotations

from conformance.draft.context import Clause, Evidence

#: The patterns whose sentences join their clause kinds with 或 (patterns.py), each kind a part.
JOINED = frozenset({"dimension range or rank", "dimension range or duplicates", "rank or shapes differ",
                    "rank or ranks differ", "dtype and format not supported", "dtype promotion or cast",
                    "dimension range or even", "cannot broadcast or shape differs",
                    "rank or dimensions tied"})
_NONE = "(a part no clause encodes)"


def link(clauses: list[Clause], kinds: dict[str, tuple[str, ...]]) -> list[Clause]:
    """Ties the parts of each joined sentence (``kinds``: each joined pattern's clause kinds)."""
    parts: dict[tuple[int, object], dict[str, list[tuple[Clause, Evidence]]]] = {}
    for c in clauses:
        for e in c.get("_evidence", []):
            if e.pattern in kinds:
                parts.setdefault((e.row, e.sentence), {}).setdefault(e.kind, []).append((c, e))
    for found in parts.values():
        pattern = next(e.pattern for pairs in found.values() for _, e in pairs)
        for kind, pairs in found.items():
            others = [c["id"] for k, more in found.items() if k != kind for c, _ in more]
            whole = set(found) == set(kinds[pattern])
            for c, e in pairs:
                c.setdefault("_with", {})[id(e)] = [*c.get("_with", {}).get(id(e), []),
                                                    *(others if whole else [_NONE])]
    return clauses
