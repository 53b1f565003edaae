"""An output whose shape an attribute decides, from two conditional error rows: "当reduction的值为0时，
self和target做broadcast后的shape与out的shape不一致" (the broadcast shape where the condition holds) and
"当reduction的值不为0时，out的维度大于0" (0-d where it holds). conditions.py reads each into
``not (COND) or out.shape == broadcast(...)`` / ``not (COND) or out.rank == 0``; here the output
is drawn by them: ``broadcast(self_shape, target_shape) if reduction == 0 else []`` (after the
attribute's draw), and each clause is broken by perturbing that draw where its condition holds
(a perturbed ``[]`` is ``[1]``). Drawn like the other tensors, out had self's shape whatever the
reduction, and a kernel refusing it on the page's word made a false finding. Where only one of
the rows is read, the other attribute values keep the draw out had, and that stays a guess to
review.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, expressible
from conformance.draft.facts import Review, Sentence
from conformance.draft.relations import covering_broadcasts
from conformance.draft.shape_draws import Shapes

KEY = "reduced"  # in a conditional clause's info: the output whose shape the body gives


def reads(kind: str, limits: dict[str, Any]) -> bool:
    """Whether a conditional body of this kind is one read here (the other kinds: conditions.py):
    a broadcast shape naming its result, or a rank of at most 0."""
    if kind == "expr":
        return "result" in limits
    if kind == "rank_in":
        return limits == {"max": 0}
    return True


def body(ctx: Context, kind: str, names: list[str], limits: dict[str, Any]
         ) -> tuple[list[str], dict[str, Any]] | None:
    """(the body's expression, its info) for a broadcast-shape or 0-d body on one output."""
    if kind == "expr":
        result = limits.get("result")
        others = [n for n in names if n != result and ctx.params[n]["kind"] == "tensor"]
        if result not in names or ctx.params[result]["role"] != "output" or not others \
                or any(ctx.params[n]["role"] == "output" for n in others) or not expressible(result, *others):
            return None
        shapes = ", ".join(f"{n}.shape" for n in others)
        return [f"{result}.shape == broadcast({shapes})"], {KEY: result, "operands": others}
    if kind == "rank_in" and len(names) == 1 \
            and ctx.params[names[0]]["role"] == "output" and expressible(names[0]):
        return [f"{names[0]}.rank == 0"], {KEY: names[0]}
    return None


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses: list[Clause],
            review: Review, draw_of: Callable[[str], str], where: Callable[[str], Any]) -> set[str]:
    """Each such output's draw and its clauses' breaks; the outputs drawn so (the guess, where the
    rows leave attribute values uncovered, is reviewed here)."""
    fixed: set[str] = set()
    by_output: dict[str, list[Clause]] = {}
    for c in clauses:
        info = c.get("_conditional") or {}
        if KEY in info and len(info["when"]) == 1 and not isinstance(next(iter(info["when"].values())), dict):
            by_output.setdefault(info[KEY], []).append(c)
    for out, group in by_output.items():
        drawn = _draw(s, draws, group, draw_of)
        if drawn is None:
            continue
        expr, whole = drawn
        own = f"{out}_reduced_shape"
        draws[own] = {"expr": expr}
        args[out] = own
        for c in group:
            c["_conditional"]["steps"] = {own: {"mode": "perturb"}}
            _require_broadcastable(c, clauses)
        fixed.add(out)
        if not whole:
            review(Sentence(f"Drafted guess: the page gives the shape of {out} for some values of "
                            f"{next(iter(group[0]['_conditional']['when']))} only; for the others the draft "
                            "draws it as before: check the generate section", where(out)), doc="contract")
    return fixed


def _require_broadcastable(c: Clause, clauses: list[Clause]) -> None:
    """A broadcast body is not evaluated where the operands do not broadcast (their own clause
    says that; ``broadcast()`` of them has no value)."""
    operands = c["_conditional"].get("operands", ())
    covering = covering_broadcasts(clauses, operands)
    if len(operands) > 1 and covering:
        c["requires"] = list(dict.fromkeys([*c.get("requires", []), covering[0]]))


def _draw(s: Shapes, draws: dict[str, Any], group: list[Clause], draw_of: Callable[[str], str]
          ) -> tuple[str, bool] | None:
    """(the output's draw expression, whether the conditions cover every drawn value of the
    attribute); None when the clauses read different attributes or one condition's values
    overlap another's."""
    attrs = {next(iter(c["_conditional"]["when"])) for c in group}
    if len(attrs) != 1:
        return None
    attr = attrs.pop()
    values = draws.get(draw_of(attr), {}).get("sampled")
    if not values:
        return None
    parts, covered = [], set()
    for c in sorted(group, key=lambda c: "operands" not in c["_conditional"]):  # shape first
        info = c["_conditional"]
        when = [v for v in values if v in info["when"][attr]]
        if not when or covered & set(when):
            return None
        covered |= set(when)
        shape = (f"broadcast({', '.join(s.of[n] for n in info['operands'])})" if "operands" in info else "[]")
        test = re.sub(rf"\b{re.escape(attr)}\b", draw_of(attr), info["test"])
        parts.append((shape, test))
    out = group[0]["_conditional"][KEY]
    rest = s.of.get(out)
    whole = covered >= set(values)
    if rest is None and not whole:
        return None
    expr = parts[-1][0] if whole else rest
    for shape, test in reversed(parts[:-1] if whole else parts):
        expr = f"{shape} if {test} else {expr}"
    return expr, whole
