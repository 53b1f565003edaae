"""Compare two specs of one operator by meaning (spec/meaning.py facts) and by clause id.

Two uses: what a documentation release changed (the old spec against the new one), and the round
trip (a drafted spec against the hand-written one). Meaning differences are keyed by fact
(``dtype self @ atlas-a2``); a fact present on both sides whose outcome on violation differs is a
``codes`` entry of its own. Clauses whose meaning is an expression are compared by id only and
listed as not compared by meaning.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance.spec.meaning import GROUPS, Fact, facts, unexpressed
from conformance.spec.model import Constraint, OperatorSpec, Review

#: Entry groups in report order: the fact groups, then outcome changes.
ENTRY_GROUPS = (*GROUPS, "codes")


@dataclass(frozen=True)
class Entry:
    """One meaning difference: a fact added, removed or changed (``codes``: its outcome changed)."""

    change: str  # added | removed | changed
    group: str
    key: str
    old: tuple[str, ...] | None
    new: tuple[str, ...] | None
    old_code: str | None = None
    new_code: str | None = None
    old_clauses: tuple[str, ...] = ()
    new_clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"change": self.change, "group": self.group, "key": self.key,
                "old": _listed(self.old), "new": _listed(self.new), "old_code": self.old_code,
                "new_code": self.new_code, "old_clauses": list(self.old_clauses),
                "new_clauses": list(self.new_clauses)}


@dataclass(frozen=True)
class ClauseChange:
    """A difference by id: a clause added, removed, renamed (same content, other id) or changed."""

    change: str  # added | removed | renamed | changed
    id: str  # the old id (the new one for added)
    new_id: str | None = None  # renamed: the new id
    fields: tuple[str, ...] = ()  # changed: the fields that differ (quote, params, per_product, ...)

    def to_json(self) -> dict[str, Any]:
        return {"change": self.change, "id": self.id, "new_id": self.new_id, "fields": list(self.fields)}


@dataclass(frozen=True)
class OperatorDiff:
    api: str
    meaning: tuple[Entry, ...]
    clauses: tuple[ClauseChange, ...]
    # clauses compared by id only (expressions, review clauses) that differ by id, per side: (id, kind)
    not_compared: tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
    facts: int = 0  # the facts compared: keys on either side

    @property
    def same(self) -> bool:
        return not (self.meaning or self.clauses)

    def to_json(self) -> dict[str, Any]:
        return {"api": self.api, "facts": self.facts, "meaning": [e.to_json() for e in self.meaning],
                "clauses": [c.to_json() for c in self.clauses],
                "not_compared": {side: [{"id": i, "kind": k} for i, k in ids]
                                 for side, ids in zip(("old", "new"), self.not_compared, strict=True)}}


@dataclass(frozen=True)
class SetDiff:
    """Operators paired by api; those on one side only are listed."""

    operators: tuple[OperatorDiff, ...]
    only_old: tuple[str, ...]
    only_new: tuple[str, ...]


def compare_sets(old: Mapping[str, OperatorSpec], new: Mapping[str, OperatorSpec]) -> SetDiff:
    common = [api for api in old if api in new]
    return SetDiff(tuple(compare(old[api], new[api]) for api in common),
                   tuple(api for api in old if api not in new),
                   tuple(api for api in new if api not in old))


def compare(old: OperatorSpec, new: OperatorSpec) -> OperatorDiff:
    """The differences of two specs of one operator, by meaning and by clause id."""
    by_id = compare_ids(old, new)
    unchanged = ({c.id for c in (*old.constraints, *old.reviews)}
                 - {c.id for c in by_id if c.change != "added"}
                 | {x for c in by_id if c.change == "renamed" and not c.fields for x in (c.id, c.new_id)})
    before, after = facts(old), facts(new)
    return OperatorDiff(old.api, tuple(compare_facts(before, after)), tuple(by_id),
                        (_unjudged(old, unchanged), _unjudged(new, unchanged)), len({*before, *after}))


def compare_facts(old: dict[str, Fact], new: dict[str, Fact]) -> list[Entry]:
    entries: list[Entry] = []
    for key, o in old.items():
        n = new.get(key)
        if n is None:
            entries.append(Entry("removed", o.group, key, o.value, None, o.code, None, o.clauses))
            continue
        if o.value != n.value:
            entries.append(_changed(o.group, key, o, n))
        if o.code != n.code:
            entries.append(_changed("codes", f"code {key}", o, n, (o.code or "none",), (n.code or "none",)))
    entries += [Entry("added", n.group, key, None, n.value, None, n.code, (), n.clauses)
                for key, n in new.items() if key not in old]
    entries = _pair_relations(entries)
    order = {key: i for i, key in enumerate([*old, *(k for k in new if k not in old)])}
    return sorted(entries, key=lambda e: (ENTRY_GROUPS.index(e.group),
                                          order.get(e.key.removeprefix("code "), len(order))))


def compare_ids(old: OperatorSpec, new: OperatorSpec) -> list[ClauseChange]:
    """Clauses by id: changed fields of ids on both sides; an id only on one side is paired, where
    it can be, with one only on the other that says the same (renamed) or is of the same kind on
    some of the same parameters (renamed, with the fields that changed: of several, the one with
    the fewest); the rest are added or removed."""
    before, after = _contents(old), _contents(new)
    removed = [cid for cid in before if cid not in after]
    added = [cid for cid in after if cid not in before]
    renames: dict[str, str] = {}
    for same in (_same_content, _same_subject, _same_suffix):
        for cid in list(removed):
            twins = [a for a in added if same((cid, before[cid]), (a, after[a]))]
            if twins:  # the one differing in fewest fields
                twin = min(twins, key=lambda a: sum(before[cid].get(k) != v for k, v in after[a].items()))
                renames[cid] = twin
                removed.remove(cid)
                added.remove(twin)

    def fields(cid: str, now: str) -> tuple[str, ...]:  # requires name ids: read through the renames
        was = before[cid] | {"requires": [renames.get(r, r) for r in before[cid]["requires"]]}
        return tuple(k for k in sorted({*was, *after[now]}) if was.get(k) != after[now].get(k))

    changes = [ClauseChange("changed", cid, fields=fields(cid, cid)) for cid in before
               if cid in after and fields(cid, cid)]
    changes += [ClauseChange("renamed", cid, twin, fields(cid, twin)) for cid, twin in renames.items()]
    changes += [ClauseChange("removed", cid) for cid in removed]
    changes += [ClauseChange("added", cid) for cid in added]
    return changes


Clause = tuple[str, dict[str, Any]]  # an id and its content


def _same_content(a: Clause, b: Clause) -> bool:
    return {**a[1], "requires": None} == {**b[1], "requires": None}


def _same_subject(a: Clause, b: Clause) -> bool:
    """The same kind of clause on parameters in common, or a behaviour clause with the same checks."""
    (_, x), (_, y) = a, b
    if x["kind"] != y["kind"]:
        return False
    if x["params"]:
        return bool(set(x["params"]) & set(y["params"]))
    return x["kind"] == "behavior" and set(x["checks"]) == set(y["checks"])


def _same_suffix(a: Clause, b: Clause) -> bool:
    """The same kind and the same id but for the operator's prefix (MSE-DTYPE-SAME, MLB-DTYPE-SAME)."""
    return a[1]["kind"] == b[1]["kind"] and a[0].split("-", 1)[1] == b[0].split("-", 1)[1]


def content(c: Constraint | Review) -> dict[str, Any]:
    """What a clause (or review entry) says, its id aside: the by-id comparison's fields."""
    if isinstance(c, Review):
        return {"kind": "review", "params": [], "requires": [], "doc": c.source.doc, "quote": c.source.quote,
                "where": c.source.where, "closest": c.closest}
    out: dict[str, Any] = {
        "kind": c.kind, "params": list(c.params), "on_violation": c.on_violation,
        "requires": list(c.requires), "checks": list(c.checks), "all": [e.text for e in c.exprs],
        "when": c.when.text if c.when is not None else None, "doc": c.source.doc,
        "only_if": c.only_if.text if c.only_if is not None else None,
        "quote": c.source.quote, "where": c.source.where}
    # domains: the data section's; dtype_rules: the vocabulary's
    out.update({k: v for k, v in c.options.items() if k not in ("domains", "dtype_rules")})
    return out


def _contents(spec: OperatorSpec) -> dict[str, dict[str, Any]]:
    return {c.id: content(c) for c in (*spec.constraints, *spec.reviews)}


def _changed(group: str, key: str, o: Fact, n: Fact, old: tuple[str, ...] | None = None,
             new: tuple[str, ...] | None = None) -> Entry:
    return Entry("changed", group, key, old or o.value, new or n.value, o.code, n.code, o.clauses,
                 n.clauses)


def _pair_relations(entries: list[Entry]) -> list[Entry]:
    """A relation group that lost or gained members is one change, not a removal and an addition:
    each removed group is paired with the added group of its kind sharing the most members (two
    at least)."""
    added = [e for e in entries if e.group == "relations" and e.change == "added"]
    out: list[Entry] = []
    for e in entries:
        if e.group != "relations" or e.change == "changed":
            out.append(e)
        elif e.change == "removed":
            best = _partner(e, added)
            if best is None:
                out.append(e)
                continue
            added.remove(best)
            out.append(Entry("changed", "relations", e.key, e.old, best.new, e.old_code, best.new_code,
                             e.old_clauses, best.new_clauses))
            if e.old_code != best.new_code:
                out.append(Entry("changed", "codes", f"code {e.key}", (str(e.old_code),),
                                 (str(best.new_code),), e.old_code, best.new_code, e.old_clauses,
                                 best.new_clauses))
    return out + added


def _partner(removed: Entry, added: list[Entry]) -> Entry | None:
    kind = removed.key.split(" ", 1)[0]
    shared = [(len(set(removed.old or ()) & set(a.new or ())), i) for i, a in enumerate(added)
              if a.key.split(" ", 1)[0] == kind]
    count, best = max(shared, default=(0, -1))
    return added[best] if count >= 2 else None


def _unjudged(spec: OperatorSpec, unchanged: set[str]) -> tuple[tuple[str, str], ...]:
    """Clauses compared by id only (and review entries) that are not the same on both sides."""
    return tuple((c.id, c.kind) for c in unexpressed(spec) if c.id not in unchanged) + tuple(
        (r.id, "review") for r in spec.reviews if r.id not in unchanged)


def _listed(value: tuple[str, ...] | None) -> list[str] | None:
    return None if value is None else list(value)
