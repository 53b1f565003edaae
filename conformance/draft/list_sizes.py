"""Element-count notes on tensor lists ("shape size大于等于入参x的shape size", on the foreach
pages' out), the clause they give a vague shape row ("x与out的shape不满足约束") once shape_notes.py
finds every tensor of the row held, and the draw that lets a case break it.

What the note promises: each tensor of the output list has at least as many elements as the
input list's tensor at the same position. "shape size" is the element count (the pages' own
example code computes GetShapeSize as the product of the dims); a note relating lists is read
position by position, as same_shape reads "shape与入参x1一致" on lists. The clause says nothing
when the lists differ in length (that is another row's, or the list relation's). A row is often
encoded by this clause and a same_shape clause together ("x1、x2、out…": x2 tied to x1 by its
note, out by its size): ``link`` makes each of them count the row only while the others stand.
"""
from __future__ import annotations

import re

from conformance.draft.condition_phrasings import is_conditional
from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Sentence
from conformance.draft.sentence_limits import IDENT

KIND = "size_at_least"  # a made reading's kind: (the list bounded below, the list it is held to)
_SIZE = re.compile(rf"shape\s*size\s*(?:大于等于|不小于|>=)\s*(?:入参)?\s*({IDENT.pattern})"
                   r"\s*的\s*shape\s*size", re.IGNORECASE)


def stated(ctx: Context) -> list[tuple[str, tuple[str, ...]]]:
    """(KIND, (owner, other)) for each usage note bounding a tensor list's element counts below
    by another list's."""
    return [(KIND, group) for group in _notes(ctx)]


def _notes(ctx: Context) -> dict[tuple[str, str], Sentence]:
    out: dict[tuple[str, str], Sentence] = {}
    for row in ctx.facts.params:
        for s in row.usage:
            m = _SIZE.search(s.text)
            if m is None or is_conditional(s.text) or m[1] == row.name:
                continue
            if all(ctx.params.get(n, {}).get("kind") == "tensor_list" for n in (row.name, m[1])):
                out.setdefault((row.name, m[1]), s)
    return out


def clauses(ctx: Context, readings: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per (owner, other, code): each owner element's numel at least the other's
    at its position; its source is the rows and the note."""
    notes = _notes(ctx)
    groups: dict[tuple[str, str, str], list[Evidence]] = {}
    for e in readings:
        owner, other = e.params
        if (owner, other) in notes and expressible(owner, other):
            groups.setdefault((owner, other, e.status), []).append(e)
    out = []
    for (owner, other, status), found in groups.items():
        note = notes[(owner, other)]
        ctx.used.add(note)
        text = f"len({owner}) != len({other}) or all(o.numel >= i.numel for o, i in zip({owner}, {other}))"
        out.append({"id": ctx.new_id("SIZE"), "kind": "expr",
                    "source": source([*(e.sentence for e in found), note]),
                    "requires": [cid for cid, params in null_ids.items() if set(params) & {owner, other}],
                    "all": [text], "on_violation": status, "_evidence": found, "_at_least": (owner, other),
                    "_reads_lists": True})
    return out


def link(built: list[Clause], rows: list[Evidence]) -> None:
    """A row held by several clauses counts only while every one of them stands (a draft may
    leave one out, unbreakable): each names the others for it (clauses.py ``_encoding``)."""
    for row in rows:
        holding = [c for c in built if any(e is row for e in c.get("_evidence", []))]
        for c in holding if len(holding) > 1 else ():
            others = [d["id"] for d in holding if d is not c]
            c.setdefault("_with", {})[id(row)] = others


def draws(ctx: Context, s, clauses: list[Clause], review) -> None:  # noqa: ANN001 - Shapes, Review
    """The bounded list drawn as the other's shape (a valid case: equal counts) under its own
    draw name, which the clause's break redraws one element short (``[numel - 1]``, never
    negative). A list whose shape other clauses tie (same_shape, broadcast) cannot be redrawn
    alone: its clause is left for review."""
    for c in list(clauses):
        if "_at_least" not in c:
            continue
        owner, other = c["_at_least"]
        name, ref = f"{owner}_shape", s.of.get(other)
        low, high, _, unknown = s.ranks([owner])
        inside = unknown or low <= s.ranges.get(ref, (0, 0))[0] and s.ranges.get(ref, (0, 0))[1] <= high
        if ref is None or s.members(owner) != [owner] or owner not in s.guessed or not inside \
                or name in s.draws or name in ctx.params:
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], ctx.rows[owner].where), reading(c))
            continue
        s.draws[name] = {"expr": ref}
        s.of[owner], s.ranges[name] = name, s.ranges[ref]
        s.guessed.remove(owner)
        c["break"] = {name: {"expr": f"[max(prod({ref}) - 1, 0)]"}}
