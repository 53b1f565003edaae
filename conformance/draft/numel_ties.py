"""Error rows tying element counts or one dimension's size between tensors (the phrasings:
numel_phrasings.py): ``expr`` clauses, and the draws that keep them in valid cases and break each
alone.

- same count ("source和index的元素数量不等"): ``a.numel == b.numel``. Valid cases draw a with b's
  shape (a tensor the rows tie to nothing else: its shape was a guess); the break draws a with b's
  last dimension one more (``[2]`` for a 0-d b), so only the count differs from a valid case.
- half ("out在dim维的size不等于self在dim维size的1/2"): ``2 * t.shape[dim] == x.shape[dim]`` for
  each target t, where the int attribute ``dim`` names a dimension of x (``dim % x.rank``: negative
  dims count from the end), guarded by x's rank (a 0-d x has no dimension; a dim out of range is
  the dim-range row's) and, unless the row says the ranks agree, t's rank. Valid cases draw x's old
  shape as the targets' (``x_half_shape``) and x as that shape with dimension dim doubled (an even
  size: "1/2" needs one), which needs x's rank at least 1 (its draw's least rank is raised) and
  dim drawn over x's dimensions (a guessed draw of dim is redrawn so; values the page lists are
  kept). The break: the targets' dimension dim one more.
- even ("x在dim对应维度上不能被2整除"): ``x.shape[dim] % 2 == 0``, guarded as the half is. Valid cases
  draw x with dimension dim doubled (the half's draw, or its own when no half row ties x), the
  break doubled plus one. A half row on the same x and dim then says nothing of an odd x (its
  guard: the even row is that case's), so the odd x breaks the even row alone.

A tie that cannot be drawn so (a target sharing x's shape by a same_shape row, a shape not drawn
freely, dim drawn from another tensor) is removed and its row reviewed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, reading, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes

KIND = "numel_tie"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose tensors are required plain tensors (and dim an int)."""
    out = []
    evens = {e.limits["even"] for e in evidence if "even" in e.limits}
    for e in evidence:
        made = _half(ctx, e, evens) if "half" in e.limits else _even(ctx, e) if "even" in e.limits \
            else _same(ctx, e)
        if made is None:
            continue
        lines, names, tie = made
        requires = [cid for cid, params in null_ids.items() if set(params) & names]
        out.append({"id": ctx.new_id("NUMEL"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": lines, "on_violation": e.status,
                    "_evidence": [e], "_numel_tie": tie})
    return out


def _plain(ctx: Context, *names: str) -> bool:
    return all(ctx.params.get(n, {}).get("kind") == "tensor" and not ctx.params[n].get("optional")
               for n in names) and expressible(*names)


def _same(ctx: Context, e: Evidence) -> tuple[list[str], set[str], tuple[Any, ...]] | None:
    a, b = e.limits["numel"]
    if not _plain(ctx, a, b):
        return None
    return [f"{a}.numel == {b}.numel"], {a, b}, ("same", a, b)


def _guard(ctx: Context, x: str, dim: str) -> str | None:
    """What says nothing of x's dimension dim (a 0-d x, dim out of range), or None when x is not a
    required plain tensor or dim not an int attribute."""
    if not _plain(ctx, x) or ctx.params.get(dim, {}).get("kind") != "int" or not expressible(dim):
        return None
    return f"{x}.rank == 0 or {dim} < -{x}.rank or {dim} >= {x}.rank"


def _even(ctx: Context, e: Evidence) -> tuple[list[str], set[str], tuple[Any, ...]] | None:
    x, dim = e.limits["even"]
    if (guard := _guard(ctx, x, dim)) is None:
        return None
    return [ctx.if_given(dim, f"{guard} or {x}.shape[{dim} % {x}.rank] % 2 == 0")], {x}, ("even", x, dim)


def _half(ctx: Context, e: Evidence,
          evens: set[tuple[str, str]]) -> tuple[list[str], set[str], tuple[Any, ...]] | None:
    targets, x, dim = e.limits["half"]
    if (guard := _guard(ctx, x, dim)) is None or not _plain(ctx, *targets):
        return None
    d = f"{dim} % {x}.rank"
    if (x, dim) in evens:
        guard += f" or {x}.shape[{d}] % 2 != 0"
    lines = []
    for t in targets:
        size = f"2 * {t}.shape[{d}] == {x}.shape[{d}]"
        if e.limits["match"] == "dim":
            lines.append(f"{guard} or {t}.rank != {x}.rank or {size}")
        elif e.limits["match"] == "rank":
            lines.append(f"{guard} or {t}.rank == {x}.rank and {size}")
        else:
            lines.append(f"{guard} or {t}.rank == {x}.rank and {t}.shape[:{d}] == {x}.shape[:{d}] "
                         f"and {t}.shape[{d} + 1:] == {x}.shape[{d} + 1:] and {size}")
    return [ctx.if_given(dim, line) for line in lines], {x, *targets}, ("half", targets, x, dim)


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each tie's draws (``draws`` and ``args`` gain them) and break; the names now drawn from
    the rows (no longer guesses). A tie that cannot be drawn is removed and its row reviewed.
    Even rows come last: they take a half row's doubled draw of their tensor."""
    tied: set[str] = set()
    doubled: dict[tuple[str, str], tuple[str, str]] = {}  # (x, dim) → (x's old draw, the doubled)
    ties = [c for c in clauses_ if "_numel_tie" in c]
    for c in sorted(ties, key=lambda c: c["_numel_tie"][0] == "even"):
        kind, *tie = c["_numel_tie"]
        done = _draw_same(s, draws, args, *tie) if kind == "same" else \
            _draw_half(s, draws, args, doubled, *tie) if kind == "half" else \
            _draw_even(s, draws, args, doubled, *tie)
        if done is None:
            clauses_.remove(c)
            first = tie[0][0] if kind == "half" else tie[0]
            review(Sentence(c["source"]["quote"], where(first)), reading(c))
            continue
        names, c["break"] = done
        tied |= names
    return tied


def _free(s: Shapes, draws: dict[str, Any], draw: Any) -> bool:
    """Whether ``draw`` is a shape drawn freely (not derived from another, no empty dimension
    chosen for it: a 0 would leave any count at 0)."""
    shape = draws.get(draw, {}).get("shape") if isinstance(draw, str) else None
    return shape is not None and shape.get("empty") == "none"


def own(s: Shapes, args: dict[str, Any], t: str) -> bool:
    """Whether t's shape class is drawn as one draw (its members all read the same)."""
    return len({args.get(m) for m in s.members(t)}) == 1


def _draw_same(s: Shapes, draws: dict[str, Any], args: dict[str, Any], a: str,
               b: str) -> tuple[set[str], dict[str, Any]] | None:
    base = args.get(b)
    if not _free(s, draws, base) or b in s.members(a) or not own(s, args, a):
        return None
    low, high, _, unknown = s.ranks(s.members(a))
    lo_b, hi_b = s.ranges[base]
    if not unknown and not (low <= lo_b and hi_b <= high and (lo_b > 0 or low <= 1 <= high)):
        return None  # (a's own rank limits would not take b's shape, or the [2] a 0-d b breaks with)
    name = fresh(draws, f"{a}_numel_shape")
    draws[name] = {"expr": base}
    s.ranges[name] = s.ranges[base]
    for m in s.members(a):
        args[m] = name
    bumped = f"[2] if len({base}) == 0 else {base}[:-1] + [{base}[-1] + 1]"
    return set(s.members(a)), {name: {"expr": bumped}}


def _draw_half(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
               doubled: dict[tuple[str, str], tuple[str, str]], targets: tuple[str, ...], x: str,
               dim: str) -> tuple[set[str], dict[str, Any]] | None:
    classes = [s.members(t) for t in targets]
    if any(x in m or not own(s, args, m[0]) for m in classes) \
            or len({s.rep(t) for t in targets}) != len(targets):
        return None  # (a target sharing x's shape, or drawn apart from its class)
    if (drawn := _double(s, draws, args, x, dim)) is None:
        return None
    base, doubled[(x, dim)] = drawn[0], drawn
    d = f"{dim} % len({base})"
    half = fresh(draws, f"{x}_half_shape")
    draws[half] = {"expr": base}
    s.ranges[half] = s.ranges[base]
    for m in (m for members in classes for m in members):
        args[m] = half
    step = {half: {"expr": f"{base}[:{d}] + [{base}[{d}] + 1] + {base}[{d} + 1:]"}}
    return {m for members in classes for m in members} | {dim}, step


def _draw_even(s: Shapes, draws: dict[str, Any], args: dict[str, Any],
               doubled: dict[tuple[str, str], tuple[str, str]], x: str,
               dim: str) -> tuple[set[str], dict[str, Any]] | None:
    drawn = doubled.get((x, dim)) or _double(s, draws, args, x, dim)
    if drawn is None:
        return None
    base, name = drawn
    d = f"{dim} % len({base})"
    return {dim}, {name: {"expr": f"{base}[:{d}] + [2 * {base}[{d}] + 1] + {base}[{d} + 1:]"}}


def _double(s: Shapes, draws: dict[str, Any], args: dict[str, Any], x: str,
            dim: str) -> tuple[str, str] | None:
    """x's class drawn as its old draw with dimension dim doubled: (the old draw, the new one), or
    None when x's draw cannot be so (not a shape drawn alone, a rank sampled from a set or only
    0-d, read by another draw, dim drawn from elsewhere)."""
    base = args.get(x)
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or not own(s, args, x) \
            or args.get(dim) != dim or dim not in draws:
        return None
    rank = draws[base]["shape"]["rank"]
    if not isinstance(rank, list) or not all(isinstance(r, int) for r in rank) or rank[1] < 1:
        return None  # (a rank sampled from a set, or only 0-d: no dimension to halve)
    if any(isinstance(d, dict) and any(base in str(v) for v in d.values())
           for n, d in draws.items() if n not in (base, dim)):
        return None  # (another draw reads x's shape: it would read the doubled one)
    if guessed(draws[dim]):  # (any dimension of x, counted from the front as every page allows)
        draws[dim] = {"integers": [0, f"len({base}) - 1"]}
    draws[base]["shape"]["rank"] = [max(rank[0], 1), rank[1]]
    s.ranges[base] = (max(s.ranges[base][0], 1), s.ranges[base][1])
    d = f"{dim} % len({base})"
    name = fresh(draws, f"{x}_doubled_shape")
    draws[name] = {"expr": f"{base}[:{d}] + [2 * {base}[{d}]] + {base}[{d} + 1:]"}
    s.ranges[name] = s.ranges[base]
    for m in s.members(x):
        args[m] = name
    return base, name


def guessed(draw: dict[str, Any]) -> bool:
    """Whether an int's draw is the generate section's guess (whole-number bounds; the page's
    values are sampled, a dimension's bounds read the tensor's draw): only a guess is redrawn."""
    bounds = draw.get("integers")
    return isinstance(bounds, list) and all(isinstance(b, int) for b in bounds)


def fresh(draws: dict[str, Any], name: str) -> str:
    """``name``, or the first of ``name_2``, ``name_3``, … no draw has yet."""
    return next(n for n in (name, *(f"{name}_{i}" for i in range(2, 99))) if n not in draws)
