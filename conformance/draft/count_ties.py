"""Error rows tying an int attribute that counts along one dimension of a tensor (Topk's and
Kthvalue's k, Multinomial's numsamples; the phrasings: count_phrasings.py) to that dimension and
to an output: ``expr`` clauses, and the draws that keep them in valid cases and break each alone.
Until read, the count was drawn as a guess (0 or 1) and the output apart from the input, so most
valid cases were ones a kernel refuses.

- bound: ``a <= size`` (``a >= 0 and`` where the row says so; ``flag or`` / ``not flag or``
  where it holds only while a bool attribute has the value it names), size the tensor's
  dimension (the one the dim attribute names, else the last; none for a 0-d tensor or a dim past
  the rank: the rank's or the dim's row judges those);
- last: ``y.rank == 0 or a < 0 or y.shape[-1] == a`` (a negative count is its sign row's);
- first: ``x.rank != r or y.rank == 0 or y.shape[0] == x.shape[0]``.

Valid cases draw the count within the bound, at most 64 (from the low end its own draw had: a
sign row's 1 stays) and each output of a last row as the tensor's shape with the last dimension the count.
Breaks: the count just past the size (both sides where the row says "小于0"), the flag at the
row's value; the output's last dimension one more; the tensor drawn at the row's rank and the
output's first dimension one more. A tie that cannot be drawn so is removed and its row reviewed.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.count_phrasings import note_bound
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_ties import fresh, own
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle

KIND = "count_tie"
_MOST = 64  # the largest count valid cases draw
Tie = tuple[Any, ...]


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per row whose names are of the kinds its form reads (the count required)."""
    out = []
    for e in evidence:
        tie = e.limits["count"]
        names = [n for n, _ in _places(tie)]
        if not all(_fits(ctx, n, kind) for n, kind in _places(tie)) or not expressible(*names):
            continue
        text = _text(tie)
        for t in dict.fromkeys(n for n in names if ctx.params[n]["kind"] == "tensor"):
            text = ctx.if_given(t, text)
        requires = [cid for cid, params in null_ids.items() if set(params) & set(names)]
        sentences = [e.sentence, *_notes(ctx, tie)]
        ctx.used.update(sentences)
        out.append({"id": ctx.new_id("COUNT"), "source": source(sentences), "kind": "expr",
                    "requires": requires, "all": [text], "on_violation": e.status,
                    "_evidence": [e], "_count": tie})
    return out


def _notes(ctx: Context, tie: Tie) -> list[Sentence]:
    """The count's usage notes saying a bound row's range ("取值范围[0, self.size(dim)]")."""
    row = ctx.rows.get(tie[1]) if tie[0] == "bound" else None
    return [s for s in (row.usage if row is not None else ()) if note_bound(s.text) == (tie[2], tie[3])]


def _places(tie: Tie) -> list[tuple[str, str]]:
    """(name, the kind of parameter its place needs) for each name the tie reads."""
    if tie[0] == "bound":
        places = zip(tie[1:5], ("int", "tensor", "int", "bool"))
    else:
        places = zip(tie[1:3], ("tensor", "int" if tie[0] == "last" else "tensor"))
    return [(n, kind) for n, kind in places if n is not None]


def _fits(ctx: Context, name: str, kind: str) -> bool:
    p = ctx.params.get(name)
    return p is not None and p["kind"] == kind and not (kind == "int" and p.get("optional"))


def _size(base: str, dim: str | None) -> str:
    """The base draw's dimension a bound reads, for the count's draw: 1 where there is none (a
    0-d base, a dim past the rank: the bound says nothing there, the rank's or dim's row judges)."""
    if dim is None:
        return f"({base}[-1] if len({base}) else 1)"
    return f"({base}[{dim}] if -len({base}) <= {dim} < len({base}) else 1)"


def _text(tie: Tie) -> str:
    form = tie[0]
    if form == "bound":
        a, t, dim, flag, value, signed = tie[1:]
        within = f"-{t}.rank <= {dim} < {t}.rank" if dim else f"{t}.rank > 0"
        held = f"{a} >= 0 and " * signed + f"(not ({within}) or {a} <= {t}.shape[{dim or -1}])"
        return held if flag is None else f"{'not ' * bool(value)}{flag} or ({held})"
    if form == "last":
        y, a = tie[1:]
        return f"{y}.rank == 0 or {a} < 0 or {y}.shape[-1] == {a}"
    y, x, rank = tie[1:]
    return f"{x}.rank != {rank} or {y}.rank == 0 or {y}.shape[0] == {x}.shape[0]"


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """The count's and the outputs' draws and each clause's break; the names now drawn from the
    rows (no longer guesses). Ties that cannot be drawn so are removed and their rows reviewed."""
    mine = [c for c in clauses_ if "_count" in c]
    before = set(args.values())
    drawn = _draw(s, draws, args, [c["_count"] for c in mine]) if mine else None
    settle(clauses_, mine, lambda c: drawn and _break(c["_count"], draws, *drawn), review,
           lambda c: where(c["_count"][1]))
    drop_guesses(draws, args, clauses_, before)
    return {drawn[1], *drawn[2]} if drawn else set()


Drawn = tuple[str, str, dict[str, str], Tie]


def _draw(s: Shapes, draws: dict[str, Any], args: dict[str, Any], ties: list[Tie]) -> Drawn | None:
    """(the tensor's draw, the count, {output: its draw}, the bound), or None: not one bound row,
    the tensor's shape not a draw of its own, the count not a draw of its own or read by another,
    a lower end the tensor's empty dimensions cannot hold, or an output of a shape class."""
    bounds = [t for t in ties if t[0] == "bound"]
    if len(bounds) != 1:
        return None
    bound = bounds[0]
    a, t, dim, flag = bound[1:5]
    base = args.get(t)
    if not isinstance(base, str) or "shape" not in draws.get(base, {}) or not own(s, args, t) \
            or args.get(a) != a or a not in draws or (dim is not None and args.get(dim) != dim) \
            or (flag is not None and args.get(flag) != flag):
        return None
    if any(re.search(rf"\b{re.escape(a)}\b", str(d)) for n, d in draws.items() if n != a):
        return None  # (another draw reads the count: moving its draw would break the order)
    low = draws[a].get("integers", [0])[0]
    low = max(low, 0) if isinstance(low, int) else 0
    if low > 0 and draws[base]["shape"].get("empty", "none") != "none":
        return None  # (an empty dimension holds no count of at least 1)
    del draws[a]
    # (at most 64: a break drawing the tensor past a size limit, 2^24, keeps the output small)
    draws[a] = {"integers": [low, f"min({_size(base, dim)}, {_MOST})"]}
    ys = [tie[1] for tie in ties if tie[0] == "last" and tie[2] == a]
    if any(y == t or s.members(y) != [y] for y in ys):
        return None
    if ys:
        rank = draws[base]["shape"]["rank"]
        if isinstance(rank, list) and isinstance(rank[0], int):
            draws[base]["shape"]["rank"] = [max(rank[0], 1), max(rank[1], 1)]
    own_draws = {}
    for y in dict.fromkeys(ys):
        own_draws[y] = fresh(draws, f"{y}_count_shape")
        draws[own_draws[y]] = {"expr": _counted(base, a)}
        s.ranges[own_draws[y]] = s.ranges.get(base, (1, 8))
        args[y] = own_draws[y]
    return base, a, own_draws, bound


def _counted(base: str, a: str, bump: str = "") -> str:
    """The base's shape with the last dimension the count (0-d as the base is: a 0-d base is its
    rank row's to judge, and one row then breaks for both)."""
    return f"({base}[:-1] + [max({a}, 0){bump}] if len({base}) else [])"


def _break(tie: Tie, draws: dict[str, Any], base: str, a: str, own_draws: dict[str, str],
           bound: Tie) -> dict[str, Any] | None:
    form = tie[0]
    if form == "bound":
        size, flag, value = _size(base, tie[3]), tie[4], tie[5]
        step: dict[str, Any] = {a: {"outside": [0, size]} if tie[6] else {"expr": f"{size} + 1"}}
        return step | ({flag: {"sampled": [value]}} if flag is not None else {})
    y = tie[1]
    if y not in own_draws:
        return None
    if form == "last":
        return {own_draws[y]: {"expr": _counted(base, a, " + 1")}}
    x, rank = tie[2], tie[3]
    shape = draws[base]["shape"]
    held = shape["rank"]
    if x != bound[2] or not (isinstance(held, list) and held[0] <= rank <= held[1]) or rank < 2:
        return None
    return {base: {"shape": {**copy.deepcopy(shape), "rank": [rank, rank]}},
            own_draws[y]: {"expr": f"[{base}[0] + 1] + {base}[1:-1] + [max({a}, 0)]"}}
