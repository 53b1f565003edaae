"""Error rows tying tensors to int attributes named for a layout's letters (the GroupNorm family's
N, C, HxW and group; the phrasings: letter_phrasings.py): ``expr`` clauses, and the draws that
keep them in valid cases and break each alone. Until read, the attributes were drawn as guesses
apart from the tensors, so nearly every valid case was one a kernel refuses.

- product ("self的元素数量不等于N*C*HxW"): ``t.numel == N * C * HxW``;
- letter ("self在C维度上的空间大小不等于C"): ``t.rank <= 1 or t.shape[1] == C`` (N the first);
- rest ("self第三维度及之后维度的size乘积不等于HxW"): ``prod(t.shape[2:]) == HxW``;
- pair ("meanOut与rstdOut的shape不为(N, group)"): ``t.shape == [N, group]`` for each;
- divides ("C不能被group整除，或者C/group＞8000"): ``group <= 0 or C % group == 0`` (and the
  quotient at most the limit).

One tensor, the base, holds the layout: the tensor of the letter rows, else of the product row of
most attributes. Valid cases draw the attributes from its shape (a product's factors its first
dimensions, the last the product of the rest), a divisor as 1 or the dividend, and every other
tensor a product or pair row names as the attributes' values. Breaks: an attribute one more (the
base's product row then requires the letter rows: with them holding it holds), a divisor the
dividend plus one, another tensor's last dimension one more. A tie that cannot be drawn so is
removed and its row reviewed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.letter_phrasings import note_factors
from conformance.draft.numel_ties import fresh, own
from conformance.draft.shape_draws import Shapes

KIND = "letter_tie"
Tie = tuple[Any, ...]


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose tensors are plain tensors and attributes int attributes."""
    notes = {(row.name, factors): s for row in ctx.facts.params for s in row.usage
             if (factors := note_factors(s.text))}
    out = []
    for e in evidence:
        tie = e.limits["letters"]
        if _fits(ctx, tie):
            said = [n for n in [notes.pop(tie[1:], None)] if n is not None] if tie[0] == "product" else []
            out.append(_clause(ctx, tie, [e.sentence, *said], e.status, [e], null_ids))
    counted = {c["_letters"][1] for c in out if c["_letters"][0] == "product"}
    for (name, factors), s in notes.items() if out else ():  # (only beside rows setting the layout)
        tie = ("product", name, factors)
        if name not in counted and _fits(ctx, tie):
            counted.add(name)
            out.append(_clause(ctx, tie, [s], "unspecified", [], null_ids))
    return out


def _fits(ctx: Context, tie: Tie) -> bool:
    """Whether the tie's tensors are tensors and its attributes required int attributes."""
    tensors, attrs = _sides(tie)
    return all(ctx.params.get(t, {}).get("kind") == "tensor" for t in tensors) and all(
        ctx.params.get(a, {}).get("kind") == "int" and not ctx.params[a].get("optional") for a in attrs
    ) and expressible(*tensors, *attrs)


def _clause(ctx: Context, tie: Tie, sentences: list[Sentence], status: str, evidence: list[Evidence],
            null_ids: dict[str, list[str]]) -> Clause:
    tensors, attrs = _sides(tie)
    requires = [cid for cid, params in null_ids.items() if set(params) & {*tensors, *attrs}]
    ctx.used.update(sentences)
    return {"id": ctx.new_id("LETTER"), "source": source(sentences), "kind": "expr", "requires": requires,
            "all": [ctx.if_given(t, _text(tie, t)) for t in tensors] or [_text(tie, "")],
            "on_violation": status, "_evidence": evidence, "_letters": tie}


def _sides(tie: Tie) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the tensors, the attributes) a tie names."""
    form = tie[0]
    if form == "product":
        return (tie[1],), tie[2]
    if form == "letter":
        return (tie[1],), (tie[3],)
    if form == "rest":
        return (tie[1],), (tie[2],)
    if form == "pair":
        return tie[1], tie[2]
    return (), (tie[1], tie[2])


def _text(tie: Tie, t: str) -> str:
    form = tie[0]
    if form == "product":
        return f"{t}.numel == {' * '.join(tie[2])}"
    if form == "letter":
        return f"{t}.rank <= {tie[2]} or {t}.shape[{tie[2]}] == {tie[3]}"
    if form == "rest":
        return f"prod({t}.shape[2:]) == {tie[2]}"
    if form == "pair":
        return f"{t}.shape == [{', '.join(tie[2])}]"
    a, b, most = tie[1:]
    return f"{b} <= 0 or {a} % {b} == 0" + (f" and {a} <= {b} * {most}" if most else "")


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The letters' draws and each clause's break and requirements; the names now drawn from the
    rows (no longer guesses). Ties that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_letters" in c]
    if not mine:
        return set()
    drawn = _draw(s, draws, args, [c["_letters"] for c in mine])
    for c in mine:
        step = drawn and _break(c["_letters"], *drawn)
        if not step:
            clauses_.remove(c)
            named = _sides(c["_letters"])
            review(Sentence(c["source"]["quote"], where((named[0] or named[1])[0])), reading(c))
            continue
        c["break"] = step
    base_ties = [c for c in mine if c in clauses_ and c["_letters"][0] in ("letter", "rest")]
    for c in mine:
        if c in clauses_ and c["_letters"][0] == "product" and drawn and c["_letters"][1] == drawn[2]:
            c["requires"] += [d["id"] for d in base_ties]
    return set(drawn[0]) | set(drawn[1]) if drawn else set()


Drawn = tuple[dict[str, str], dict[str, str], str]


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Drawn | None:
    """({attribute: its drawn value}, {tensor: its draw}, the base), or None: no base tensor, or
    its shape is not a draw of its own, or another draw reads an attribute."""
    layout = _layout(ties)
    if layout is None:
        return None
    x, values = layout
    base = args.get(x)
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or not own(s, args, x) \
            or any(args.get(a) != a or a not in draws for a in values):
        return None
    if any(re.search(rf"\b{re.escape(a)}\b", str(d)) for n, d in draws.items() if n not in values
           for a in values):
        return None  # (another draw reads an attribute: moving its draw would break the order)
    least = max(_least(v) for v in values.values())
    rank = draws[base]["shape"]["rank"]
    draws[base]["shape"]["rank"] = [max(rank[0], least), max(rank[1], least)]
    for a in values:
        del draws[a]
    attrs = {a: v.format(b=base) for a, v in values.items()}
    attrs.update(_divisors(ties, attrs, draws))
    draws.update({a: {"expr": v} for a, v in attrs.items() if a not in draws})
    tensors = {}
    for tie in ties:
        for t, value in _shaped(tie, x):
            members = s.members(t)
            if any(m in tensors or m == x for m in members) or not own(s, args, t) \
                    or any(v not in attrs for v in value):
                continue  # (drawn by another row of it already, or x's own shape)
            name = fresh(draws, f"{t}_letter_shape")
            draws[name] = {"expr": _dims(value)}
            s.ranges[name] = (len(value), len(value))
            old = {args.get(m) for m in members}
            for m in members:
                args[m], tensors[m] = name, name
            for gone in old - set(args.values()):  # (a guess no argument reads any more)
                if not any(re.search(rf"\b{gone}\b", str(d)) for d in draws.values()):
                    draws.pop(gone, None)
    return attrs, tensors, x


def _layout(ties: list[Tie]) -> tuple[str, dict[str, str]] | None:
    """(the base tensor, {attribute: its value as a format of the base's draw ``{b}``})."""
    letters = [t for t in ties if t[0] in ("letter", "rest")]
    products = sorted((t for t in ties if t[0] == "product" and len(t[2]) >= 2), key=lambda t: -len(t[2]))
    bases = {t[1] for t in letters} or {t[1] for t in products[:1]}
    if len(bases) != 1:
        return None
    x = bases.pop()
    values: dict[str, str] = {}
    for t in (t for t in products if t[1] == x):
        *lead, last = t[2]
        values.update({a: f"{{b}}[{i}]" for i, a in enumerate(lead)})
        values[last] = f"prod({{b}}[{len(lead)}:])"
    for t in letters:
        if t[1] == x:
            values[t[-1]] = f"{{b}}[{t[2]}]" if t[0] == "letter" else "prod({b}[2:])"
    return (x, values) if values else None


def _least(value: str) -> int:
    """The least rank of the base a value reads: ``{b}[i]`` needs i + 1, ``prod({b}[k:])`` k."""
    index = value.split("[")[1].split("]")[0]
    return int(index.rstrip(":")) if index.endswith(":") else int(index) + 1


def _divisors(ties: list[Tie], attrs: dict[str, str], draws: dict[str, Any]) -> dict[str, str]:
    """Each divisor of a drawn attribute: 1 or the dividend, by a draw of its own (never 0)."""
    out = {}
    for tie in ties:
        if tie[0] == "divides" and tie[1] in attrs and tie[2] not in attrs and tie[2] in draws:
            pick = fresh(draws, f"{tie[2]}_pick")
            draws[pick] = {"integers": [0, 1]}
            del draws[tie[2]]
            out[tie[2]] = f"max(1, [1, {tie[1]}][{pick}])"
    return out


def _shaped(tie: Tie, x: str) -> list[tuple[str, tuple[str, ...]]]:
    """(tensor, the attributes its dimensions are) for the tensors a tie shapes besides the base."""
    if tie[0] == "product" and tie[1] != x:
        return [(tie[1], tie[2])]
    if tie[0] == "pair":
        return [(t, tie[2]) for t in tie[1]]
    return []


def _break(tie: Tie, attrs: dict[str, str], tensors: dict[str, str], x: str) -> dict[str, Any] | None:
    """The draws that break the tie alone; None where its names were not drawn from it."""
    form = tie[0]
    if form == "divides":
        return {tie[2]: {"expr": f"{tie[1]} + 1"}} if {tie[1], tie[2]} <= set(attrs) else None
    if form in ("letter", "rest") or form == "product" and tie[1] == x:
        attr = tie[-1] if form != "product" else tie[2][0]
        return {attr: {"expr": f"{attrs[attr]} + 1"}} if attr in attrs else None
    target = tie[1] if form == "product" else tie[1][0]
    if target not in tensors:
        return None
    return {tensors[target]: {"expr": _dims(tie[2], bump=True)}}


def _dims(attrs: tuple[str, ...], bump: bool = False) -> str:
    """A shape of the attributes' values (none below 0: a break of an attribute's own range gives
    it -1), the last one more with ``bump``."""
    dims = [f"max({a}, 0)" for a in attrs]
    return "[" + ", ".join(dims[:-1] + [dims[-1] + (" + 1" if bump else "")]) + "]"
