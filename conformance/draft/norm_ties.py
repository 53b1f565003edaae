"""Error rows tying tensors to an int array that names the trailing dimensions of another tensor
(the LayerNorm family's normalizedShape; the phrasings: norm_phrasings.py, and "shapes differ"
rows naming a tensor and an int array): ``expr`` clauses, and the draws that keep them in valid
cases and break each alone.

- align: ``x.rank < len(a) or x.shape[x.rank - len(a):] == a`` (a longer array than x's rank is
  another row's: "input的维度小于normalizedShape的维度");
- leading: ``x.rank < len(a) or t.numel == prod(x.shape[:x.rank - len(a)])``;
- equal: ``t.shape == a`` (``not present(t) or …`` for an optional t).

Valid cases draw the array's length ``n`` (within its length rows) and the array as the last
``n`` dimensions of x's shape draw; an equal tensor's shape as the same slice, a leading tensor's
as x's leading dimensions then ``n`` ones (the pages' [A1,...,Ai,1,...,1]). Breaks: the array's (or
the equal tensor's) last element one more, the leading tensor one element more than x's leading
dimensions hold; x's greatest rank, x drawn anew past it (rank_redraws.py). Each clause requires
the array's length rows (a case breaking those gives the array another length: these say nothing
then), and an equal clause the align rows (its tensor follows x, not the array a break of those
changes). A tie that cannot be drawn so is reviewed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft import rank_redraws
from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.norm_phrasings import EQUAL_NOTE, LEADING_NOTE
from conformance.draft.shape_draws import Shapes


def split(ctx: Context, evidence: list[Evidence]) -> tuple[list[Evidence], list[Evidence]]:
    """("shapes differ" rows naming one tensor and one int array, the others)."""
    arrays = set(ctx.of_kind("int_array"))
    mine = [e for e in evidence if len(e.params) == 2 and len(set(e.params) & arrays) == 1]
    return mine, [e for e in evidence if e not in mine]


def clauses(ctx: Context, norm: list[Evidence], equal: list[Evidence],
            null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose tensors are plain tensors and whose array is required."""
    arrays = set(ctx.of_kind("int_array"))
    out = []
    for e in [*norm, *equal]:
        tie = _tie(e, arrays)
        target, x, array = tie[1:]
        names = {target, x}
        if not (all(ctx.params.get(t, {}).get("kind") == "tensor" for t in names)
                and array in arrays and not ctx.params[array].get("optional")
                and (tie[0] == "equal" or not ctx.params[x].get("optional")) and expressible(*names, array)):
            continue
        requires = [cid for cid, params in null_ids.items() if set(params) & {*names, array}]
        out.append({"id": ctx.new_id("NORM"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [_text(ctx, tie)], "on_violation": e.status,
                    "_evidence": [e], "_norm": tie})
    return out + _noted(ctx, out, null_ids)


_NOTES = (("leading", LEADING_NOTE), ("equal", EQUAL_NOTE))


def _noted(ctx: Context, made: list[Clause], null_ids: dict[str, list[str]]) -> list[Clause]:
    """Beside one array's align tie, a tensor no row ties whose usage notes give its shape as
    [A1,...,Ai,1,...,1] (LayerNorm's meanOut and rstdOut) or [R1,...,Rj] (LayerNormBackward's
    gradWeightOut): a leading or equal tie without a code, so it is drawn so and not guessed
    (drawn with x's shape, a kernel checking it would refuse every call)."""
    aligned = {c["_norm"][3]: c["_norm"][2] for c in made if c["_norm"][0] == "align"}
    if len(aligned) != 1:
        return []
    (array, x), = aligned.items()
    tied = {c["_norm"][1] for c in made}
    out = []
    for row in ctx.facts.params:
        said = [(s, role) for s in row.usage for role, note in _NOTES
                if note.search(s.text) and "构造" not in s.text]  # (not what an absent one stands for)
        if len(said) != 1 or row.name in tied or ctx.params.get(row.name, {}).get("kind") != "tensor" \
                or not expressible(row.name):
            continue
        (note, role), = said
        ctx.used.add(note)
        tie = (role, row.name, x if role == "leading" else row.name, array)
        requires = [cid for cid, params in null_ids.items() if set(params) & {row.name, x, array}]
        out.append({"id": ctx.new_id("NORM"), "source": source([note]), "kind": "expr", "requires": requires,
                    "all": [_text(ctx, tie)], "on_violation": "unspecified", "_evidence": [], "_norm": tie})
    return out


def _tie(e: Evidence, arrays: set[str]) -> tuple[str, str, str, str]:
    """(role, target, source, array); an equal row's source is its target (resolve finds x)."""
    if "align" in e.limits:
        x, array = e.limits["align"]
        return "align", x, x, array
    if "leading" in e.limits:
        return ("leading", *e.limits["leading"])
    tensor, array = sorted(e.params, key=lambda p: p in arrays)
    return "equal", tensor, tensor, array


def _text(ctx: Context, tie: tuple[str, str, str, str]) -> str:
    role, t, x, a = tie
    if role == "equal":
        return ctx.if_given(t, f"{t}.shape == {a}")
    kept = f"{x}.shape[:{x}.rank - len({a})]"
    body = f"{x}.shape[{x}.rank - len({a}):] == {a}" if role == "align" else f"{t}.numel == prod({kept})"
    return ctx.if_given(t, f"{x}.rank < len({a}) or {body}")


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each array's draws (``draws`` and ``args`` gain them) and its clauses' breaks and
    requirements; the names now drawn from the rows (no longer guesses). A tie that cannot be
    drawn is removed and its row reviewed."""
    tied: set[str] = set()
    for array in dict.fromkeys(c["_norm"][3] for c in clauses_ if "_norm" in c):
        ties = [c for c in clauses_ if c.get("_norm", ("",) * 4)[3] == array]
        names = _draw(s, draws, args, clauses_, ties, array)
        if names is None:
            for c in ties:
                clauses_.remove(c)
                review(Sentence(c["source"]["quote"], where(c["_norm"][1])), reading(c))
            continue
        tied |= {array, *names}
    return tied


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
          ties: list[Clause], array: str) -> list[str] | None:
    """The tensors drawn from the array's source, or None when the ties cannot be drawn."""
    sources = {c["_norm"][2] for c in ties if c["_norm"][0] != "equal"}
    base = args.get(next(iter(sources))) if len(sources) == 1 else None
    if not isinstance(base, str) or base not in draws or args.get(array) != array or not (
            "shape" in draws[base] or "_tied_shape" in base) or s.ranges.get(base, (0, 0))[0] < 1:
        return None
    word = re.compile(rf"\b{re.escape(array)}\b")
    if any(word.search(str(d)) for name, d in draws.items() if name != array):
        return None  # (another draw reads the array: moving its draw would break the order)
    targets = {c["_norm"][1]: c["_norm"][0] for c in ties if c["_norm"][0] != "align"}
    x = next(iter(sources))
    classes = [s.members(t) for t in targets]
    if any(x in m or len(set(m) & set(targets)) > 1 or any(args.get(o) != args.get(m[0]) for o in m)
           for m in classes):
        return None  # (a target sharing x's shape, or another target's: no break leaves it alone)
    lengths = [c["id"] for c in clauses_ if "_norm" not in c and (
        array in c.get("params", []) or f"len({array})" in " ".join(c.get("all", [])))]
    low, high = _lengths(clauses_, array)
    if low > min(s.ranges[base][0], high):
        return None
    n = next(f"{array}_len{i or ''}" for i in range(99) if f"{array}_len{i or ''}" not in draws)
    del draws[array]
    draws[n] = {"integers": [low, f"min(len({base}), {high})"]}
    trailing, leading = f"{base}[len({base}) - {n}:]", f"{base}[:len({base}) - {n}]"
    bumped = f"{base}[len({base}) - {n}:-1] + [{base}[-1] + 1]"
    draws[array] = {"expr": trailing}
    aligned = [c["id"] for c in ties if c["_norm"][0] == "align"]
    for c in ties:
        role, target = c["_norm"][:2]
        c["requires"] = list(dict.fromkeys([*c["requires"], *lengths,
                                            *(aligned if role == "equal" else [])]))
        if role == "align":
            c["break"] = {array: {"expr": bumped}}
            continue
        name = f"{target}_norm_shape"
        draws[name] = {"expr": trailing if role == "equal" else f"{leading} + [1] * {n}"}
        c["break"] = {name: {"expr": bumped if role == "equal" else
                             f"[prod({leading}) + 1] + [1] * (len({base}) - 1)"}}
        s.ranges[name] = s.ranges[base]
        for m in s.members(target):
            args[m] = name
    rank_redraws.redraw_breaks(draws, base, x, clauses_, least=None)  # (the trailing dims: kept)
    return [m for t in targets for m in s.members(t)]


_BOUND = re.compile(r"len\((\w+)\) (>=|<=) (\d+)")


def _lengths(clauses_: list[Clause], array: str) -> tuple[int, int]:
    """The least and greatest length of the array its rows allow (at least 1: a normalized shape
    names a dimension; at most 8, the rank limit of aclnn tensors)."""
    low, high = 1, 8
    for c in clauses_:
        if c.get("kind") == "length" and array in c.get("params", []):
            low = max(low, c.get("length", c.get("min", low)))
            high = min(high, c.get("length", c.get("max", high)))
        for text in c.get("all", []) if "_norm" not in c else ():
            if (m := _BOUND.fullmatch(text)) and m[1] == array:
                low, high = (max(low, int(m[3])), high) if m[2] == ">=" else (low, min(high, int(m[3])))
    return low, high
