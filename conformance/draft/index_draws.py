"""The draws of index_ties' clauses: valid cases keeping each, a break breaking each alone.

- dim size and other dims: the source is drawn from the other tensor's shape ``base`` with
  dimension dim set to the index's element count (``base[:d] + [prod(index)] + base[d + 1:]``,
  ``d = dim % len(base)``). That needs base of rank 1 at least (its draw's least rank is raised,
  as numel_ties' half does: a 0-d source takes no index but one of one element, another row's
  business) and dim drawn over base's dimensions (a guessed dim is redrawn so). The breaks: the
  size at dim one more; another dimension one more (base drawn of rank 2 at least there).
- size bound: index (and the tensor bounding it at every dimension) drawn as the other's shape
  (equal sizes keep every bound). The breaks: index one more at dim, which the every-dimension
  bound alone forbids; index and that tensor one more at another dimension, which only the
  but-dim bound forbids (rank 1, resp. 2, at least there).
- gather shape: index drawn of its own (its ranks, as many as leave out's rank within its limit:
  ``len(x) + len(index) - 1``), out derived (``x[:d] + index + x[d + 1:]``); the break: out's
  last dimension of index one more.

A tie that cannot be drawn so (a tensor sharing the other's shape by a same_shape row, a shape
not drawn freely, dim not drawn over base's dimensions, ranks too low) is removed and its row
reviewed.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, reading
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh, guessed, own
from conformance.draft.shape_draws import Shapes, drop_unused

Tie = tuple[Any, ...]  # index_ties._tie: (form, tensor, tensor, dim[, index])
Done = tuple[set[str], list[dict[str, Any]]]  # (names drawn from the rows, each tie's break)


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The ties' draws (``draws`` and ``args`` gain them) and breaks; the names now drawn from the
    rows (no longer guesses). A group of ties that cannot be drawn is removed and reviewed."""
    tied: set[str] = set()
    for forms, draw in ((("dim_size", "other_dims"), _source_along), (("size_bound",), _bound),
                        (("gather_shape",), _gather_shape)):
        group = [c for c in clauses_ if c.get("_index_tie", ("",))[0] in forms]
        if not group:
            continue
        done = draw(s, draws, args, [c["_index_tie"] for c in group])
        if done is None:
            for c in group:
                clauses_.remove(c)
                review(Sentence(c["source"]["quote"], where(c["_index_tie"][1])), reading(c))
            continue
        names, breaks = done
        for c, step in zip(group, breaks):
            c["break"] = step
        tied |= names
    return tied


def _source_along(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Done | None:
    size = next((t for t in ties if t[0] == "dim_size"), None)
    other = next((t for t in ties if t[0] == "other_dims"), None)
    if len({t[3] for t in ties}) != 1 or len(ties) != (size is not None) + (other is not None):
        return None  # (two dims, or one form twice)
    dim = str(ties[0][3])
    target = size[1] if size else other[2]  # type: ignore[index] - one of them is there
    x = None if other is None else other[1] if other[2] == target else other[2]
    if other is not None and target not in other[1:3]:
        return None
    base, index = args.get(x or target), size[2] if size else None
    if not _shape(draws, base) or not own(s, args, target) or x is not None and target in s.members(x) \
            or not _dim(draws, args, dim, base) or draws[base]["shape"]["rank"][1] < (2 if other else 1):
        return None
    if index is not None and (index in s.members(target) or x is not None and index in s.members(x)
                              or not _shape(draws, args.get(index)) or args[index] == base):
        return None
    _redraw(draws, dim, base)
    low, high = draws[base]["shape"]["rank"]
    draws[base]["shape"]["rank"] = [max(low, 1), high]
    s.ranges[base] = (max(s.ranges[base][0], 1), s.ranges[base][1])
    d = f"{dim} % len({base})"
    n = f"prod({args[index]})" if index is not None else f"{base}[{d}]"
    name = fresh(draws, f"{target}_index_shape")
    draws[name] = {"expr": _set(base, d, n)}
    s.ranges[name] = s.ranges[base]
    for m in s.members(target):
        args[m] = name
    breaks = [{name: {"expr": _set(base, d, f"{n} + 1")}} if t[0] == "dim_size"
              else {**_ranked(draws, base, 2), name: {"expr": _other_bumped(base, d, n)}} for t in ties]
    return {*s.members(target), dim, *([index] if index else [])}, breaks


def _bound(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Done | None:
    a = ties[0][1]
    every = [t for t in ties if t[3] is None]
    but = [t for t in ties if t[3] is not None]
    if any(t[1] != a for t in ties) or len(every) > 1 or len(but) > 1:
        return None
    x, dim = (but[0][2], str(but[0][3])) if but else (every[0][2], None)
    src = every[0][2] if every and but else None  # (the tensor bounding index at every dimension)
    base = args.get(x)
    drawn = [a, *([src] if src else [])]
    if not _shape(draws, base) or src == x or draws[base]["shape"]["rank"][1] < (2 if but else 1) \
            or dim is not None and not _dim(draws, args, dim, base):
        return None
    if any(t in s.members(x) or not own(s, args, t) or args.get(t) != base for t in drawn) \
            or src is not None and a in s.members(src):
        return None  # (a tensor in the other's shape class, or drawn from another shape)
    if dim is not None:
        _redraw(draws, dim, base)
    names = {}
    for t in drawn:
        names[t] = fresh(draws, f"{t}_bound_shape")
        draws[names[t]] = {"expr": base}
        s.ranges[names[t]] = s.ranges[base]
        for m in s.members(t):
            args[m] = names[t]
    d = f"{dim} % len({base})" if dim is not None else f"len({base}) - 1"
    q = f"({d} + 1) % len({base})"
    breaks = [{**_ranked(draws, base, 1), names[a]: {"expr": _bumped(base, d)}} if t[3] is None
              else {**_ranked(draws, base, 2), **{names[n]: {"expr": _bumped(base, q)} for n in drawn}}
              for t in ties]
    return ({dim} if dim is not None else set()), breaks


def _gather_shape(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Done | None:
    if len(ties) != 1:
        return None
    _, out, x, dim, index = ties[0]
    base = args.get(x)
    low_i, high_i, _, unknown_i = s.ranks(s.members(index))
    low_o, high_o, _, unknown_o = s.ranks(s.members(out))
    if not _shape(draws, base) or not _dim(draws, args, dim, base) or unknown_i or unknown_o:
        return None
    low, high = draws[base]["shape"]["rank"]
    low = max(low, 1)
    if any(t in s.members(x) or not own(s, args, t) for t in (out, index)) or out in s.members(index) \
            or not 1 <= low_i <= min(high_i, high_o + 1 - high) or low + low_i - 1 < low_o:
        return None  # (out's rank limits cannot hold for every rank of x; an index with no dimension)
    _redraw(draws, dim, base)
    draws[base]["shape"]["rank"] = [low, high]
    s.ranges[base] = (low, s.ranges[base][1])
    old = args[index]
    idx, gathered = fresh(draws, f"{index}_gather_shape"), fresh(draws, f"{out}_gather_shape")
    draws[idx] = {"shape": {"rank": [low_i, f"min({high_i}, {high_o + 1} - len({base}))"], "dims": [1, 4],
                            "empty": s.empty(s.members(index)), "max_numel": 64}}
    d = f"{dim} % len({base})"
    draws[gathered] = {"expr": f"{base}[:{d}] + {idx} + {base}[{d} + 1:]"}
    s.ranges[idx], s.ranges[gathered] = (low_i, high_i), (low_o, high_o)
    for t, name in ((index, idx), (out, gathered)):
        for m in s.members(t):
            args[m] = name
    drop_unused(draws, args, [], old)
    wider = f"{base}[:{d}] + {idx}[:-1] + [{idx}[-1] + 1] + {base}[{d} + 1:]"
    return {*s.members(index), *s.members(out), dim}, [{gathered: {"expr": wider}}]


def _shape(draws: dict[str, Any], draw: Any) -> bool:
    """Whether ``draw`` is a shape drawn freely in a rank range of whole numbers."""
    rank = draws.get(draw, {}).get("shape", {}).get("rank") if isinstance(draw, str) else None
    return isinstance(rank, list) and all(isinstance(r, int) for r in rank)


def _dim(draws: dict[str, Any], args: dict[str, Any], dim: str, base: str) -> bool:
    """Whether the attribute dim is drawn over base's dimensions (or guessed: redrawn so)."""
    draw = draws.get(dim, {}) if args.get(dim) == dim else {}
    return guessed(draw) or f"len({base})" in str(draw.get("integers", ""))


def _redraw(draws: dict[str, Any], dim: str, base: str) -> None:
    if guessed(draws[dim]):  # (any dimension of base, counted from the front as every page allows)
        draws[dim] = {"integers": [0, f"max(len({base}), 1) - 1"]}


def _ranked(draws: dict[str, Any], base: str, least: int) -> dict[str, Any]:
    """A break step drawing base of rank ``least`` at least (none when it always is)."""
    shape = draws[base]["shape"]
    low, high = shape["rank"]
    return {} if low >= least else {base: {"shape": {**copy.deepcopy(shape), "rank": [least, high]}}}


def _bumped(base: str, at: str) -> str:
    """``base`` with its element ``at`` (an expression) one more."""
    return _set(base, at, f"{base}[{at}] + 1")


def _other_bumped(base: str, d: str, n: str) -> str:
    """``base`` with element ``d`` set to ``n`` and the one after it (the first, after the last) one
    more: a rank of 2 at least."""
    return (f"({base}[:{d}] + [{n}, {base}[{d} + 1] + 1] + {base}[{d} + 2:]) if {d} < len({base}) - 1 "
            f"else ([{base}[0] + 1] + {base}[1:{d}] + [{n}])")


def _set(base: str, at: str, value: str) -> str:
    """``base`` with its element ``at`` (an expression) replaced by ``value``."""
    return f"{base}[:{at}] + [{value}] + {base}[{at} + 1:]"
